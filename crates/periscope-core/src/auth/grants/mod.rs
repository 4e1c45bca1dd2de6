//! The grants that turn a client identity into tokens, one file each: the authorization code
//! with PKCE (the browser round trip), refresh, client credentials (machine to machine),
//! SEP-990 cross-app access (token exchange, then a JWT bearer grant), and SEP-1933 workload
//! identity (the workload's own JWT in a JWT bearer grant). What they share: the
//! `oauth2` client they are built on, how a token is stored, how a refusal is described.

mod authorization_code;
mod client_credentials;
mod cross_app;
mod refresh;
mod workload_identity;

use oauth2::basic::BasicClient;
use oauth2::{AuthType, AuthUrl, ClientId, ClientSecret, RedirectUrl, TokenResponse, TokenUrl};

use crate::auth::StepOutcome;
use crate::auth::client::{OAuthClient, State, now_s};
use crate::auth::dpop::is_dpop_token_type;
use crate::auth::metadata::AsMeta;
use crate::auth::store::StoredCredentials;
use crate::config::DpopMode;

pub(in crate::auth) const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

type OauthClient = oauth2::Client<
    oauth2::basic::BasicErrorResponse,
    oauth2::basic::BasicTokenResponse,
    oauth2::basic::BasicTokenIntrospectionResponse,
    oauth2::StandardRevocableToken,
    oauth2::basic::BasicRevocationErrorResponse,
    oauth2::EndpointSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointSet,
>;

impl OAuthClient {
    /// The `oauth2` client for this identity and server; `redirect_uri` only matters to the
    /// authorization code grant.
    fn oauth_client(
        &self,
        state: &State,
        meta: &AsMeta,
        redirect_uri: Option<&str>,
    ) -> Result<OauthClient, String> {
        let creds = state.creds.as_ref().ok_or("no client identity")?;
        let mut client =
            BasicClient::new(ClientId::new(creds.client_id.clone().unwrap_or_default()))
                .set_auth_uri(
                    AuthUrl::new(meta.authorization_endpoint.clone()).map_err(|e| e.to_string())?,
                )
                .set_token_uri(
                    TokenUrl::new(meta.token_endpoint.clone()).map_err(|e| e.to_string())?,
                )
                .set_auth_type(match state.token_auth.as_deref() {
                    Some("client_secret_post") => AuthType::RequestBody,
                    _ => AuthType::BasicAuth,
                });
        if state.token_auth.as_deref() != Some("none")
            && let Some(secret) = &creds.client_secret
        {
            client = client.set_client_secret(ClientSecret::new(secret.clone()));
        }
        let redirect = redirect_uri.unwrap_or("http://127.0.0.1/callback");
        Ok(client
            .set_redirect_uri(RedirectUrl::new(redirect.to_string()).map_err(|e| e.to_string())?))
    }

    /// Keeps the tokens of a grant (in the store too, when there is one). With DPoP, the token
    /// is bound when the server says so (`token_type` DPoP) and kept with the key; a bearer
    /// token in answer to a proof is a warning, or the end of the sign-in when DPoP is required.
    async fn store_tokens(
        &self,
        state: &mut State,
        meta: &AsMeta,
        token: &oauth2::basic::BasicTokenResponse,
        asked: Option<&str>,
    ) -> Result<(), String> {
        let token_type = token.token_type().as_ref().to_string();
        let bound = self.dpop.active() && is_dpop_token_type(&token_type);
        if self.dpop.active() && !bound {
            let why = format!(
                "the token endpoint was sent a DPoP proof but answered with a {token_type:?} token, not a DPoP-bound one"
            );
            if self.config.dpop == DpopMode::Required {
                return Err(self.fail("DPoP", format!("{why}: DPoP is required for this server")));
            }
            self.step(
                StepOutcome::Warning,
                "DPoP",
                format!("{why}; it goes as a bearer token"),
                None,
            );
        }
        let dpop_key = match bound {
            true => Some(self.dpop.key().map_err(|e| self.fail("DPoP", e))?),
            false => None,
        };
        if let Some(key) = &dpop_key {
            self.step(
                StepOutcome::Ok,
                "DPoP",
                format!(
                    "the access token is bound to Periscope's key (thumbprint {}): each request presents it as DPoP with a fresh proof",
                    key.thumbprint()
                ),
                None,
            );
        }
        self.dpop.hold(Some(token.access_token().secret()), bound);
        let creds = state.creds.get_or_insert_with(StoredCredentials::default);
        creds.token_type = bound.then(|| "DPoP".to_string());
        creds.dpop_key = dpop_key.map(|k| k.to_stored());
        creds.issuer = meta.issuer.clone();
        creds.server_url = self.config.server_url.clone();
        creds.access_token = Some(token.access_token().secret().clone());
        if let Some(refresh) = token.refresh_token() {
            creds.refresh_token = Some(refresh.secret().clone());
        }
        creds.expires_at = token.expires_in().map(|d| now_s() + d.as_secs());
        creds.scope = token
            .scopes()
            .map(|s| {
                s.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .or_else(|| asked.map(str::to_string));
        if let Some(store) = &self.store
            && let Err(e) = store.save(creds)
        {
            self.step(
                StepOutcome::Warning,
                "Token storage",
                format!("could not store the tokens: {e}; they are kept in memory"),
                None,
            );
        }
        Ok(())
    }
}

/// A token endpoint's refusal in a sentence: the OAuth error and its description, or what failed.
fn describe_token_error<RE: std::error::Error + 'static>(
    e: &oauth2::RequestTokenError<RE, oauth2::basic::BasicErrorResponse>,
) -> String {
    match e {
        oauth2::RequestTokenError::ServerResponse(r) => format!(
            "{}{}",
            r.error(),
            r.error_description()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        ),
        oauth2::RequestTokenError::Request(e) => format!("the request failed: {e}"),
        oauth2::RequestTokenError::Parse(e, _) => {
            format!("the answer is not a token response: {e}")
        }
        oauth2::RequestTokenError::Other(s) => s.clone(),
    }
}
