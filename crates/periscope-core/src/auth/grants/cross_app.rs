//! SEP-990 cross-app access (enterprise-managed sign-in): an RFC 8693 token exchange at the
//! user's identity provider, then an RFC 7523 JWT bearer grant at the authorization server.

use oauth2::TokenResponse;
use serde_json::Value;

use super::JWT_BEARER;
use crate::auth::IdentityAssertion;
use crate::auth::client::{OAuthClient, State};
use crate::auth::metadata::AsMeta;
use crate::auth::store::StoredCredentials;
use crate::net_guard::UrlRole;

impl OAuthClient {
    /// SEP-990 cross-app access: the IdP's ID token → an identity assertion JWT grant (RFC
    /// 8693 token exchange at the IdP) → an access token (RFC 7523 JWT bearer grant at the
    /// authorization server). No browser.
    pub(in crate::auth) async fn cross_app(
        &self,
        state: &mut State,
        meta: &AsMeta,
        scope: Option<String>,
        assertion: &IdentityAssertion,
    ) -> Result<String, String> {
        let client_id = self
            .config
            .client_id
            .clone()
            .ok_or_else(|| self.fail("Client", "cross-app access needs a client ID".into()))?;
        let resource = self.resource(state);
        let mut form = vec![
            (
                "grant_type",
                "urn:ietf:params:oauth:grant-type:token-exchange",
            ),
            ("subject_token", assertion.id_token.as_str()),
            (
                "subject_token_type",
                "urn:ietf:params:oauth:token-type:id_token",
            ),
            (
                "requested_token_type",
                "urn:ietf:params:oauth:token-type:id-jag",
            ),
            ("audience", meta.issuer.as_str()),
            ("resource", resource.as_str()),
        ];
        if let Some(id) = &assertion.idp_client_id {
            form.push(("client_id", id.as_str()));
        }
        if let Some(s) = &scope {
            form.push(("scope", s.as_str()));
        }
        let exchanged = self
            .post_form(
                "Identity assertion (token exchange at the IdP)",
                UrlRole::IdpTokenEndpoint,
                &assertion.idp_token_endpoint,
                &form,
                None,
            )
            .await?;
        let jag = exchanged
            .get("access_token")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                self.fail(
                    "Identity assertion",
                    "the IdP's answer has no access_token".into(),
                )
            })?
            .to_string();
        let mut form = vec![
            ("grant_type", JWT_BEARER),
            ("assertion", jag.as_str()),
            ("resource", resource.as_str()),
        ];
        if let Some(s) = &scope {
            form.push(("scope", s.as_str()));
        }
        let secret = self.config.client_secret.clone().unwrap_or_default();
        let doc = self
            .post_form(
                "Token (JWT bearer grant)",
                UrlRole::TokenEndpoint,
                &meta.token_endpoint,
                &form,
                Some((&client_id, &secret)),
            )
            .await?;
        let token: oauth2::basic::BasicTokenResponse = serde_json::from_value(doc)
            .map_err(|e| self.fail("Token", format!("the answer is not a token response: {e}")))?;
        state.client_source = "pre-registered".into();
        let creds = state.creds.get_or_insert_with(StoredCredentials::default);
        creds.client_id = Some(client_id);
        creds.client_secret = self.config.client_secret.clone();
        state.meta = Some(meta.clone());
        self.store_tokens(state, meta, &token, scope.as_deref())
            .await?;
        Ok(token.access_token().secret().clone())
    }
}
