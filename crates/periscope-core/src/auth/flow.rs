//! The sign-in orchestrated: as its [`Authorizer`], an [`OAuthClient`] answers the transport
//! from the stored token, a refresh, or a new sign-in, which runs the stages in order:
//! `discovery`, the issuer binding, DPoP's choice, `scopes`, then the grant the server and the
//! configuration call for (`grants`, identifying the client through `identity`). Lenient with
//! odd servers (a warning step), strict where security is at stake (resource mismatch, another
//! issuer's metadata, no S256, wrong `state`, wrong `iss`, non-loopback `http:`, URLs the net
//! guard refuses, a bearer token over plain http). It also presents tokens to the transport:
//! as bearer tokens, or DPoP-bound with a proof per request.

use async_trait::async_trait;

use super::client::{OAuthClient, State, now_s};
use super::discovery::Discovered;
use super::dpop::decide;
use super::grants::JWT_BEARER;
use super::{Authorizer, Challenge, SignInError, StepOutcome};
use crate::net_guard::check_bearer_target;

impl OAuthClient {
    /// A new sign-in for `challenge`: discovery and scopes, then the grant the server and the
    /// configuration call for.
    async fn sign_in(&self, state: &mut State, challenge: &Challenge) -> Result<String, String> {
        self.clear_steps();
        self.step(
            StepOutcome::Ok,
            "Challenge",
            format!(
                "HTTP {}{}{}",
                challenge.status,
                challenge
                    .error
                    .as_deref()
                    .map(|e| format!(", error {e}"))
                    .unwrap_or_default(),
                challenge
                    .scope
                    .as_deref()
                    .map(|s| format!(", scope {s:?}"))
                    .unwrap_or_default()
            ),
            None,
        );
        let Discovered {
            meta,
            prm_scopes,
            resource,
        } = self.discover(challenge).await?;
        self.bind_issuer(state, &meta.issuer)?;
        state.resource = resource;
        let use_dpop = decide(self.config.dpop, meta.dpop_algs.as_deref())
            .map_err(|e| self.fail("DPoP", e))?;
        self.dpop.set_active(use_dpop);
        if use_dpop {
            self.step(
                StepOutcome::Ok,
                "DPoP",
                "the authorization server binds tokens to a key (dpop_signing_alg_values_supported lists ES256): token requests carry a DPoP proof",
                None,
            );
        }
        let mut scope = self.choose_scopes(challenge, prm_scopes.as_deref(), &meta);
        if challenge.is_insufficient_scope() {
            scope = self.step_up(state, scope);
        }
        if let Some(assertion) = self.config.identity_assertion.clone()
            && meta
                .grant_types
                .as_ref()
                .is_some_and(|g| g.iter().any(|x| x == JWT_BEARER))
        {
            return self.cross_app(state, &meta, scope, &assertion).await;
        }
        if let Some(workload) = self.config.workload_identity.clone() {
            return self.workload_identity(state, &meta, scope, &workload).await;
        }
        if meta.client_credentials_only()
            && self.config.client_id.is_some()
            && (self.config.client_secret.is_some() || self.config.private_key_pem.is_some())
        {
            return self.client_credentials(state, &meta, scope).await;
        }
        self.authorization_code(state, meta, scope).await
    }
}

impl OAuthClient {
    /// A 401 `use_dpop_nonce` for the DPoP-bound token held (RFC 9449 §9): nothing to sign in
    /// for; the nonce is kept and the same token goes again, with a proof that carries it.
    fn answer_nonce_demand(&self, state: &State, challenge: &Challenge) -> Option<String> {
        let nonce = challenge.dpop_nonce.as_deref()?;
        let token = state.creds.as_ref()?.access_token.clone()?;
        if !challenge.wants_dpop_nonce() || !self.dpop.is_bound(&token) {
            return None;
        }
        self.dpop.remember_nonce(&self.config.server_url, nonce);
        self.step(
            StepOutcome::Ok,
            "DPoP",
            "the server asks for a nonce of its own (use_dpop_nonce): the request goes again with a proof that carries it",
            None,
        );
        Some(token)
    }
}

#[async_trait]
impl Authorizer for OAuthClient {
    fn present(&self, token: &str, method: &str, url: &str) -> Vec<(String, String)> {
        self.dpop
            .present(token, method, url)
            .unwrap_or_else(|| vec![super::bearer(token)])
    }

    fn remember_dpop_nonce(&self, url: &str, nonce: &str) {
        self.dpop.remember_nonce(url, nonce);
    }

    fn steps(&self) -> Vec<super::AuthStep> {
        self.steps_so_far()
    }

    async fn current(&self) -> Option<String> {
        // No token for a server it would reach in clear; `authorize` says why.
        check_bearer_target(&self.config.server_url).ok()?;
        let mut state = self.state.lock().await;
        self.load(&mut state).await;
        let creds = state.creds.clone()?;
        let token = creds.access_token.clone()?;
        match creds.expires_at {
            Some(at) if at <= now_s() + 60 => {
                if creds.refresh_token.is_some() {
                    self.refresh(&mut state).await.ok()
                } else {
                    None
                }
            }
            _ => Some(token),
        }
    }

    async fn authorize(&self, challenge: &Challenge) -> Result<String, SignInError> {
        let mut state = self.state.lock().await;
        self.take_refused();
        if let Err(refused) = check_bearer_target(&self.config.server_url) {
            self.clear_steps();
            let message = self.refuse("Sign-in", refused);
            return Err(SignInError {
                message,
                refused: self.take_refused(),
            });
        }
        self.load(&mut state).await;
        if let Some(token) = self.answer_nonce_demand(&state, challenge) {
            return Ok(token);
        }
        // A 401 with a refresh token in hand: try that first, quietly.
        if !challenge.is_insufficient_scope()
            && state
                .creds
                .as_ref()
                .is_some_and(|c| c.refresh_token.is_some())
            && let Ok(token) = self.refresh(&mut state).await
        {
            return Ok(token);
        }
        self.take_refused(); // a quiet refresh's refusal is not this sign-in's
        self.sign_in(&mut state, challenge)
            .await
            .map_err(|message| SignInError {
                message,
                refused: self.take_refused(),
            })
    }
}
