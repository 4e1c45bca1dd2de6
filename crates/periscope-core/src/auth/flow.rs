//! The sign-in orchestrated: [`OAuthClient`] holds what a server's sign-in knows and, as its
//! [`Authorizer`], answers the transport from the stored token, a refresh, or a new sign-in.
//! Each stage lives in its own file: `discovery`, `scopes`, `identity` and `registration`,
//! the `grants`, and `oauth_http` under them all. Lenient with odd servers (a warning step),
//! strict where security is at stake (resource mismatch, no S256, wrong `state`, wrong `iss`,
//! non-loopback `http:`).

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use async_trait::async_trait;

use super::browser::Browser;
use super::discovery::AsMeta;
use super::grants::JWT_BEARER;
use super::oauth_http::http_client;
use super::store::{SecretStore, StoreBackend, StoredCredentials};
use super::{
    AuthReport, AuthStep, Authorizer, Challenge, OAuthConfig, StepOutcome, TokenSummary, mask,
};
use crate::traffic::wall_now_us;

/// What the sign-in knows between calls: the client identity and tokens, the authorization
/// server, and how the client authenticates at its token endpoint.
#[derive(Default)]
pub(super) struct State {
    pub(super) creds: Option<StoredCredentials>,
    pub(super) meta: Option<AsMeta>,
    pub(super) client_source: String,
    pub(super) redirect_uris: Vec<String>,
    pub(super) token_auth: Option<String>,
    loaded: bool,
}

/// Runs the MCP authorization flow for one server; an [`Authorizer`] for its HTTP transport.
pub struct OAuthClient {
    pub(super) config: OAuthConfig,
    pub(super) browser: Arc<dyn Browser>,
    pub(super) store: Option<Arc<SecretStore>>,
    pub(super) http: reqwest::Client,
    state: tokio::sync::Mutex<State>,
    steps: Mutex<Vec<AuthStep>>,
}

pub(super) fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

impl OAuthClient {
    pub fn new(
        config: OAuthConfig,
        browser: Arc<dyn Browser>,
        store: Option<Arc<SecretStore>>,
    ) -> OAuthClient {
        OAuthClient {
            config,
            browser,
            store,
            http: http_client(),
            state: tokio::sync::Mutex::new(State::default()),
            steps: Mutex::new(Vec::new()),
        }
    }

    pub(super) fn step(
        &self,
        outcome: StepOutcome,
        title: &str,
        detail: impl Into<String>,
        http: Option<String>,
    ) {
        let step = AuthStep {
            wall_us: wall_now_us(),
            title: title.into(),
            detail: detail.into(),
            http,
            outcome,
        };
        tracing::debug!(title = %step.title, detail = %step.detail, "oauth step");
        self.steps
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(step);
    }

    pub(super) fn fail(&self, title: &str, why: String) -> String {
        self.step(StepOutcome::Failed, title, why.clone(), None);
        why
    }

    /// The steps of the last sign-in and the token it produced.
    pub async fn report(&self) -> AuthReport {
        let state = self.state.lock().await;
        let token = state.creds.as_ref().and_then(|c| {
            Some(TokenSummary {
                issuer: c.issuer.clone(),
                scope: c.scope.clone(),
                expires_at: c.expires_at,
                has_refresh_token: c.refresh_token.is_some(),
                access_token_masked: mask(c.access_token.as_deref()?),
                client_id: c.client_id.clone().unwrap_or_default(),
                client_source: state.client_source.clone(),
            })
        });
        AuthReport {
            steps: self.steps.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            token,
            store: self
                .store
                .as_ref()
                .map_or(StoreBackend::File, |s| s.backend()),
            store_note: self
                .store
                .as_ref()
                .map_or(Some("tokens are kept in memory only".into()), |s| {
                    s.fallback_reason().map(str::to_string)
                }),
        }
    }

    /// Forgets the tokens (and the stored ones). The client registration is kept.
    pub async fn sign_out(&self) -> Result<(), String> {
        let mut state = self.state.lock().await;
        self.load(&mut state).await;
        if let Some(creds) = state.creds.as_mut() {
            creds.access_token = None;
            creds.refresh_token = None;
            creds.expires_at = None;
            creds.scope = None;
            if let Some(store) = &self.store {
                store.save(creds).map_err(|e| e.to_string())?;
            }
        }
        self.step(
            StepOutcome::Ok,
            "Signed out",
            "the tokens were deleted",
            None,
        );
        Ok(())
    }

    async fn load(&self, state: &mut State) {
        if state.loaded {
            return;
        }
        state.loaded = true;
        let Some(store) = &self.store else { return };
        let issuers = store.issuers(&self.config.server_url).unwrap_or_default();
        for issuer in issuers {
            if let Ok(Some(creds)) = store.load(&self.config.server_url, &issuer) {
                // A pre-registered client the user entered wins over a stored one.
                if self.config.client_id.is_none() || creds.client_id == self.config.client_id {
                    state.client_source = "stored registration".into();
                    state.creds = Some(creds);
                    break;
                }
            }
        }
    }

    /// A new sign-in for `challenge`: discovery and scopes, then the grant the server and the
    /// configuration call for.
    async fn sign_in(&self, state: &mut State, challenge: &Challenge) -> Result<String, String> {
        self.steps.lock().unwrap_or_else(|p| p.into_inner()).clear();
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
        let (meta, prm_scopes) = self.discover(challenge).await?;
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
        if meta.client_credentials_only()
            && self.config.client_id.is_some()
            && (self.config.client_secret.is_some() || self.config.private_key_pem.is_some())
        {
            return self.client_credentials(state, &meta, scope).await;
        }
        self.authorization_code(state, meta, scope).await
    }
}

#[async_trait]
impl Authorizer for OAuthClient {
    async fn current(&self) -> Option<String> {
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

    async fn authorize(&self, challenge: &Challenge) -> Result<String, String> {
        let mut state = self.state.lock().await;
        self.load(&mut state).await;
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
        self.sign_in(&mut state, challenge).await
    }
}
