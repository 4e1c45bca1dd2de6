//! The authorization code grant with PKCE: the browser round trip and the code exchange.
//! Strict where security is at stake: a redirect with the wrong `state` or `iss` (or none when
//! the server promised one) is refused before the code is redeemed.

use oauth2::{AuthorizationCode, CsrfToken, PkceCodeChallenge, Scope, TokenResponse};

use super::describe_token_error;
use crate::auth::StepOutcome;
use crate::auth::browser::{AuthorizationPrompt, EndsSignIn};
use crate::auth::client::{OAuthClient, State};
use crate::auth::metadata::AsMeta;

impl OAuthClient {
    /// Identifies the client for the browser's redirect, sends the user to the authorization
    /// endpoint, checks the redirect and redeems its code.
    pub(in crate::auth) async fn authorization_code(
        &self,
        state: &mut State,
        meta: AsMeta,
        scope: Option<String>,
    ) -> Result<String, String> {
        let redirect_uri = self
            .browser
            .redirect_uri()
            .await
            .map_err(|e| self.fail("Redirect", e))?;
        // However this sign-in ends from here on, the redirect listener closes with it.
        let _listening = EndsSignIn(self.browser.as_ref());
        self.identify(state, &meta, &redirect_uri).await?;
        state.meta = Some(meta.clone());
        let client = self.oauth_client(state, &meta, Some(&redirect_uri))?;
        let (challenge_pkce, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(CsrfToken::new_random)
            .set_pkce_challenge(challenge_pkce)
            .add_extra_param("resource", self.config.server_url.clone());
        if let Some(s) = &scope {
            request = request.add_scopes(s.split_whitespace().map(|x| Scope::new(x.to_string())));
        }
        let (url, csrf) = request.url();
        let host = url.host_str().unwrap_or("").to_string();
        self.step(
            StepOutcome::Ok,
            "Authorization request",
            format!(
                "PKCE S256, state, resource {}; opening {host}",
                self.config.server_url
            ),
            Some(format!("GET {}", redact_url(url.as_str()))),
        );
        let query = self
            .browser
            .visit(&AuthorizationPrompt {
                auth_server_host: host,
                scopes: scope.clone(),
                url: url.to_string(),
            })
            .await
            .map_err(|e| self.fail("Authorization", e))?;
        let get = |k: &str| {
            query
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        if let Some(error) = get("error") {
            let description = get("error_description").unwrap_or_default();
            return Err(self.fail(
                "Authorization",
                format!("the authorization server said {error}: {description}"),
            ));
        }
        if get("state").as_deref() != Some(csrf.secret().as_str()) {
            return Err(self.fail("Authorization", "the redirect's state does not match the one sent: refusing the code (a forged or mixed-up redirect)".into()));
        }
        match get("iss") {
            Some(iss) if iss.trim_end_matches('/') != meta.issuer.trim_end_matches('/') => {
                return Err(self.fail("Authorization", format!("the redirect's iss {iss:?} is not the authorization server {:?}: refusing the code before redeeming it (mix-up attack)", meta.issuer)));
            }
            None if meta.iss_parameter_supported => {
                return Err(self.fail("Authorization", "the authorization server promises an iss parameter but the redirect has none: refusing the code".into()));
            }
            _ => {}
        }
        let code = get("code")
            .ok_or_else(|| self.fail("Authorization", "the redirect has no code".into()))?;
        self.step(
            StepOutcome::Ok,
            "Authorization",
            "the redirect came back: state matches, code received",
            None,
        );
        let http = self.oauth_http();
        let token = client
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(verifier)
            .add_extra_param("resource", self.config.server_url.clone())
            .request_async(&http)
            .await
            .map_err(|e| {
                self.fail(
                    "Token",
                    format!("the code exchange failed: {}", describe_token_error(&e)),
                )
            })?;
        self.step(
            StepOutcome::Ok,
            "Token",
            format!(
                "access token received{}{}",
                token
                    .expires_in()
                    .map(|d| format!(", expires in {} s", d.as_secs()))
                    .unwrap_or_default(),
                if token.refresh_token().is_some() {
                    ", with a refresh token"
                } else {
                    ""
                }
            ),
            Some(format!("POST {} → 200", meta.token_endpoint)),
        );
        self.store_tokens(state, &meta, &token, scope.as_deref())
            .await;
        Ok(token.access_token().secret().clone())
    }
}

/// The authorization URL without what could be replayed (nothing there is a secret, but the
/// state and challenge are single-use; shown shortened).
fn redact_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            let pairs: Vec<(String, String)> = u
                .query_pairs()
                .map(|(k, v)| {
                    let v = if k == "state" || k == "code_challenge" {
                        "…".to_string()
                    } else {
                        v.into_owned()
                    };
                    (k.into_owned(), v)
                })
                .collect();
            u.query_pairs_mut().clear().extend_pairs(pairs);
            u.to_string()
        }
        Err(_) => "(not a URL)".into(),
    }
}
