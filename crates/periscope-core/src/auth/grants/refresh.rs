//! The refresh grant: a new access token from the refresh token, quietly, before a challenge
//! or on a 401.

use oauth2::{RefreshToken, TokenResponse};

use super::describe_token_error;
use crate::auth::StepOutcome;
use crate::auth::client::{OAuthClient, State};
use crate::auth::discovery::IssuerSource;
use crate::auth::dpop::{decide, is_dpop_token_type};
use crate::auth::identity::pick_secret_method;

impl OAuthClient {
    pub(in crate::auth) async fn refresh(&self, state: &mut State) -> Result<String, String> {
        let meta = match state.meta.clone() {
            Some(m) => m,
            None => {
                let issuer = state
                    .creds
                    .as_ref()
                    .map(|c| c.issuer.clone())
                    .unwrap_or_default();
                let (doc, doc_url) = self
                    .as_metadata(&issuer)
                    .await?
                    .ok_or("no metadata for the stored issuer")?;
                let m = self
                    .read_meta(&issuer, IssuerSource::Named, &doc_url, &doc)
                    .await?;
                state.meta = Some(m.clone());
                m
            }
        };
        let refresh = state
            .creds
            .as_ref()
            .and_then(|c| c.refresh_token.clone())
            .ok_or("no refresh token")?;
        if state.token_auth.is_none() {
            state.token_auth = Some(
                if state
                    .creds
                    .as_ref()
                    .is_some_and(|c| c.client_secret.is_some())
                {
                    pick_secret_method(&meta)
                } else {
                    "none".into()
                },
            );
        }
        // A refresh token bound to the DPoP key is only honoured with a proof of it (RFC 9449
        // §5); otherwise proofs go when the server offers DPoP, as at sign-in.
        let bound = state
            .creds
            .as_ref()
            .and_then(|c| c.token_type.as_deref())
            .is_some_and(is_dpop_token_type);
        self.dpop.set_active(
            bound || decide(self.config.dpop, meta.dpop_algs.as_deref()).unwrap_or(false),
        );
        let client = self.oauth_client(state, &meta, None)?;
        let http = self.oauth_http();
        let token = client
            .exchange_refresh_token(&RefreshToken::new(refresh))
            .add_extra_param("resource", self.resource(state))
            .request_async(&http)
            .await
            .map_err(|e| {
                self.fail(
                    "Refresh",
                    format!(
                        "the token endpoint refused the refresh: {}",
                        describe_token_error(&e)
                    ),
                )
            })?;
        self.step(
            StepOutcome::Ok,
            "Refresh",
            "a new access token from the refresh token",
            Some(format!("POST {} → 200", meta.token_endpoint)),
        );
        self.store_tokens(state, &meta, &token, None).await?;
        Ok(token.access_token().secret().clone())
    }
}
