//! The client credentials grant: machine to machine, no browser; the client authenticates
//! with its secret or a signed `private_key_jwt` assertion.

use oauth2::{Scope, TokenResponse};

use super::describe_token_error;
use crate::auth::StepOutcome;
use crate::auth::client::{OAuthClient, State};
use crate::auth::metadata::AsMeta;

impl OAuthClient {
    /// The client credentials grant (OAuth 2.1 §4.2, SEP-1046): a pre-registered confidential
    /// client and an authorization server that offers nothing else; no browser involved.
    pub(in crate::auth) async fn client_credentials(
        &self,
        state: &mut State,
        meta: &AsMeta,
        scope: Option<String>,
    ) -> Result<String, String> {
        self.identify(state, meta, "http://127.0.0.1/unused")
            .await?;
        state.meta = Some(meta.clone());
        let jwt = match &self.config.private_key_pem {
            Some(pem) => {
                state.token_auth = Some("none".into());
                Some(self.client_assertion(meta, pem)?)
            }
            None => None,
        };
        let client = self.oauth_client(state, meta, None)?;
        let mut request = client
            .exchange_client_credentials()
            .add_extra_param("resource", self.resource(state));
        if let Some(jwt) = jwt {
            request = request
                .add_extra_param(
                    "client_assertion_type",
                    "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                )
                .add_extra_param("client_assertion", jwt);
        }
        if let Some(s) = &scope {
            request = request.add_scopes(s.split_whitespace().map(|x| Scope::new(x.to_string())));
        }
        let http = self.oauth_http();
        let token = request.request_async(&http).await.map_err(|e| {
            self.fail(
                "Token",
                format!(
                    "the client credentials grant failed: {}",
                    describe_token_error(&e)
                ),
            )
        })?;
        self.step(
            StepOutcome::Ok,
            "Token",
            "client credentials grant: the server offers only machine-to-machine sign-in, and a client ID and secret were entered",
            Some(format!("POST {} → 200", meta.token_endpoint)),
        );
        self.store_tokens(state, meta, &token, scope.as_deref())
            .await?;
        Ok(token.access_token().secret().clone())
    }
}
