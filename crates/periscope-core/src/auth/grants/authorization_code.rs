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
            .add_extra_param("resource", self.resource(state));
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
                self.resource(state)
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
        let code = read_redirect(
            &query,
            csrf.secret(),
            &meta.issuer,
            meta.iss_parameter_supported,
        )
        .map_err(|refusal| self.fail("Authorization", refusal.to_string()))?;
        self.step(
            StepOutcome::Ok,
            "Authorization",
            "the redirect came back: state matches, iss is the recorded issuer (or absent and not promised), code received",
            None,
        );
        let http = self.oauth_http();
        let token = client
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(verifier)
            .add_extra_param("resource", self.resource(state))
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
            .await?;
        Ok(token.access_token().secret().clone())
    }
}

/// Why the code of a redirect is not redeemed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RedirectRefusal {
    /// Not the `state` this sign-in sent: a forged or mixed-up redirect.
    StateMismatch,
    /// RFC 9207 §2.4: `iss` is not the recorded issuer, by simple string comparison.
    IssMismatch {
        iss: String,
        expected: String,
    },
    /// The metadata promised `iss` (`authorization_response_iss_parameter_supported`), the
    /// redirect has none.
    IssMissing,
    /// The authorization server refused, and the redirect is provably its own.
    Refused {
        error: String,
        description: String,
    },
    NoCode,
}

impl std::fmt::Display for RedirectRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RedirectRefusal::StateMismatch => f.write_str("the redirect's state does not match the one sent: refusing the code (a forged or mixed-up redirect)"),
            RedirectRefusal::IssMismatch { iss, expected } => write!(f, "the redirect's iss {iss:?} is not the recorded issuer {expected:?} (compared as plain strings, RFC 9207 §2.4): refusing the redirect before redeeming any code (mix-up attack)"),
            RedirectRefusal::IssMissing => f.write_str("the authorization server promises an iss parameter but the redirect has none: refusing the code"),
            RedirectRefusal::Refused { error, description } => write!(f, "the authorization server said {error}: {description}"),
            RedirectRefusal::NoCode => f.write_str("the redirect has no code"),
        }
    }
}

/// Checks a redirect's query before anything in it is acted on, as the 2026-07-28
/// authorization spec orders it: the `state`, then `iss` against the recorded issuer (exact
/// string equality: no case folding, port elision, trailing slash or percent-decoding
/// beyond the form decoding), and only then an `error` (never shown from an unproven sender)
/// or the code.
fn read_redirect(
    query: &[(String, String)],
    state: &str,
    issuer: &str,
    iss_promised: bool,
) -> Result<String, RedirectRefusal> {
    let get = |k: &str| {
        query
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    if get("state").as_deref() != Some(state) {
        return Err(RedirectRefusal::StateMismatch);
    }
    match get("iss") {
        Some(iss) if iss != issuer => {
            return Err(RedirectRefusal::IssMismatch {
                iss,
                expected: issuer.to_string(),
            });
        }
        None if iss_promised => return Err(RedirectRefusal::IssMissing),
        _ => {}
    }
    if let Some(error) = get("error") {
        return Err(RedirectRefusal::Refused {
            error,
            description: get("error_description").unwrap_or_default(),
        });
    }
    get("code").ok_or(RedirectRefusal::NoCode)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    const ISSUER: &str = "http://localhost:4000";

    #[test]
    fn an_iss_is_compared_as_a_plain_string_advertised_or_not() {
        let with = |iss: &str| query(&[("state", "s"), ("code", "c"), ("iss", iss)]);
        for promised in [true, false] {
            assert_eq!(
                read_redirect(&with(ISSUER), "s", ISSUER, promised),
                Ok("c".into())
            );
            for variant in [
                "http://localhost:4000/",
                "HTTP://localhost:4000",
                "http://LOCALHOST:4000",
                "http://localhost:4000:80",
                "https://evil.example.com",
            ] {
                assert!(
                    matches!(
                        read_redirect(&with(variant), "s", ISSUER, promised),
                        Err(RedirectRefusal::IssMismatch { .. })
                    ),
                    "{variant} (promised: {promised})"
                );
            }
        }
    }

    #[test]
    fn a_missing_iss_is_refused_only_when_promised() {
        let without = query(&[("state", "s"), ("code", "c")]);
        assert_eq!(
            read_redirect(&without, "s", ISSUER, true),
            Err(RedirectRefusal::IssMissing)
        );
        assert_eq!(read_redirect(&without, "s", ISSUER, false), Ok("c".into()));
    }

    #[test]
    fn an_error_is_believed_only_from_the_recorded_issuer_with_the_state() {
        let forged = query(&[
            ("state", "s"),
            ("error", "access_denied"),
            ("error_description", "click here: https://evil.example"),
            ("iss", "https://evil.example.com"),
        ]);
        let refusal = read_redirect(&forged, "s", ISSUER, false).unwrap_err();
        assert!(matches!(refusal, RedirectRefusal::IssMismatch { .. }));
        assert!(!refusal.to_string().contains("click here"));
        let wrong_state = query(&[("state", "x"), ("error", "access_denied")]);
        assert_eq!(
            read_redirect(&wrong_state, "s", ISSUER, false),
            Err(RedirectRefusal::StateMismatch)
        );
        let real = query(&[("state", "s"), ("error", "access_denied"), ("iss", ISSUER)]);
        assert!(matches!(
            read_redirect(&real, "s", ISSUER, true),
            Err(RedirectRefusal::Refused { .. })
        ));
    }
}
