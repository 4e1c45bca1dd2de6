//! [`OAuthClient`]: what one server's sign-in holds (its configuration, client identity and
//! tokens, the authorization server found), its step log and report, and signing out. The
//! stages of a sign-in add their methods in their own files; `flow` runs them in order.

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use super::browser::Browser;
use super::dpop::{Dpop, DpopKey, is_dpop_token_type};
use super::metadata::AsMeta;
use super::store::{SecretStore, StoreBackend, StoredCredentials};
use super::{AuthReport, AuthStep, OAuthConfig, StepOutcome, TokenSummary, mask};
use crate::limits::{OAUTH_CONNECT_DEADLINE, OAUTH_REQUEST_DEADLINE};
use crate::net_guard::{NetGuard, RefusedUrl, UrlRole};
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
    /// The protected resource's identifier as its metadata publishes it (the `resource` sent);
    /// None: the server's URL.
    pub(super) resource: Option<String>,
    /// The hash of a workload identity token the authorization server refused: not sent again.
    pub(super) refused_assertion: Option<String>,
    loaded: bool,
}

/// Runs the MCP authorization flow for one server; an [`Authorizer`](super::Authorizer) for
/// its HTTP transport.
pub struct OAuthClient {
    pub(super) config: OAuthConfig,
    pub(super) browser: Arc<dyn Browser>,
    pub(super) store: Option<Arc<SecretStore>>,
    /// Every request of the sign-in: no redirects followed, a deadline, and the guard's
    /// resolver (what it connects to is checked, not only the URL).
    pub(super) http: reqwest::Client,
    /// Where this server's sign-in may fetch from (net_guard).
    pub(super) guard: Arc<NetGuard>,
    pub(super) state: tokio::sync::Mutex<State>,
    /// The DPoP key, the token bound to it and the servers' nonces; read by the transport too
    /// (through [`Authorizer::present`](super::Authorizer::present)), so not behind `state`.
    pub(super) dpop: Dpop,
    steps: Mutex<Vec<AuthStep>>,
    /// The URL refused during the current sign-in, if one was: the session flags it.
    refused: Mutex<Option<RefusedUrl>>,
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
        let configured: Vec<&str> = config
            .identity_assertion
            .iter()
            .map(|a| a.idp_token_endpoint.as_str())
            .collect();
        let guard = NetGuard::new(&config.server_url, &configured);
        OAuthClient {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .connect_timeout(OAUTH_CONNECT_DEADLINE)
                .timeout(OAUTH_REQUEST_DEADLINE)
                .pool_idle_timeout(crate::limits::HTTP_POOL_IDLE)
                .dns_resolver(guard.resolver())
                .build()
                .expect("an HTTP client builds"),
            config,
            browser,
            store,
            guard,
            state: tokio::sync::Mutex::new(State::default()),
            dpop: Dpop::default(),
            steps: Mutex::new(Vec::new()),
            refused: Mutex::new(None),
        }
    }

    /// The `resource` parameter (RFC 8707) of this sign-in's requests: the identifier the
    /// resource metadata published, else the server's URL.
    pub(super) fn resource(&self, state: &State) -> String {
        state
            .resource
            .clone()
            .unwrap_or_else(|| self.config.server_url.clone())
    }

    /// Checks a URL a server named before anything is fetched from it; a refusal is a failed
    /// `title` step, remembered for the session's flag.
    pub(super) async fn checked(
        &self,
        title: &str,
        role: UrlRole,
        url: &str,
    ) -> Result<url::Url, String> {
        self.guard
            .check(role, url)
            .await
            .map_err(|refused| self.refuse(title, refused))
    }

    /// Logs a refusal as a failed step and keeps it for the session's flag; returns its words.
    pub(super) fn refuse(&self, title: &str, refused: RefusedUrl) -> String {
        let why = refused.to_string();
        self.keep_refused(refused);
        self.fail(title, why)
    }

    /// Keeps a refusal for the session's flag (the caller logs the step).
    pub(super) fn keep_refused(&self, refused: RefusedUrl) {
        *self.refused.lock().unwrap_or_else(|p| p.into_inner()) = Some(refused);
    }

    /// After a failed request to `url`: the guard's resolver refused its address, if that is
    /// why (then a failed step, as [`OAuthClient::refuse`]).
    pub(super) fn refused_by_dns(&self, title: &str, role: UrlRole, url: &str) -> Option<String> {
        let refused = self.guard.take_dns_refusal(role, url)?;
        Some(self.refuse(title, refused))
    }

    /// The refusal of the sign-in that just ended, if one stopped it.
    pub(super) fn take_refused(&self) -> Option<RefusedUrl> {
        self.refused
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    /// Logs a step of the sign-in for the OAuth view.
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

    /// The steps of the current (or last) sign-in.
    pub fn steps_so_far(&self) -> Vec<AuthStep> {
        self.steps.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// A new sign-in starts a new step log.
    pub(super) fn clear_steps(&self) {
        self.steps.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// Logs a failed step; returns `why` for the caller's `Err`.
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
            creds.token_type = None;
            self.dpop.hold(None, false);
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

    /// A stored DPoP-bound token comes with its key: both are taken up again, so the token
    /// is presented as DPoP (a key that no longer reads leaves the token presented as a bearer
    /// one, which the server refuses, and a new sign-in follows).
    pub(super) fn restore_dpop(&self, creds: &StoredCredentials) {
        let bound = creds.token_type.as_deref().is_some_and(is_dpop_token_type);
        let key = creds.dpop_key.as_deref().map(DpopKey::from_stored);
        match key {
            Some(Ok(key)) => {
                self.dpop.restore(key);
                self.dpop.hold(creds.access_token.as_deref(), bound);
            }
            Some(Err(e)) => {
                tracing::warn!("stored DPoP key not usable: {e}");
                self.dpop.hold(None, false);
            }
            None => self.dpop.hold(None, false),
        }
    }

    /// Loads the stored credentials for this server, once.
    pub(super) async fn load(&self, state: &mut State) {
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
                    self.restore_dpop(&creds);
                    state.creds = Some(creds);
                    break;
                }
            }
        }
    }
}
