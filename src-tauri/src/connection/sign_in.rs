//! Signing in to remote servers: the dialog before the browser opens, a pre-registered
//! client's secret in the secret store, the OAuth report and signing out.

use periscope_core::vocabulary::Problem;
use std::sync::{Arc, OnceLock};

use periscope_core::answering::{Answer, Ask};
use periscope_core::auth::AuthReport;
use periscope_core::auth::store::StoredCredentials;
use periscope_core::config::ServerTarget;
use periscope_core::record::{Decision, DecisionKind};
use periscope_core::traffic::{Traffic, wall_now_us};
use periscope_core::view::AppEvent;

use super::{AppState, lock};
use crate::asks::Asks;
use crate::events::EventHub;

/// Where a pre-registered client's secret is kept in the secret store (no issuer is known
/// before the first sign-in).
const PRE_REGISTERED: &str = "(pre-registered client)";

impl AppState {
    pub(super) fn client_secret(&self, server_url: &str) -> Option<String> {
        let store = self.secrets.get()?;
        store
            .load(server_url, PRE_REGISTERED)
            .ok()
            .flatten()
            .and_then(|c| c.client_secret)
    }

    /// Keeps (or with None, forgets) a pre-registered client's secret for a remote server.
    pub fn set_client_secret(
        &self,
        server_id: &str,
        secret: Option<String>,
    ) -> Result<(), Problem> {
        let url = self.http_url(server_id)?;
        let store = self.secrets.get().ok_or(Problem::Unavailable {
            what: periscope_core::vocabulary::problem::Facility::SecretStore,
            detail: None,
        })?;
        match secret.filter(|s| !s.is_empty()) {
            Some(secret) => store
                .save(&StoredCredentials {
                    issuer: PRE_REGISTERED.into(),
                    server_url: url,
                    client_secret: Some(secret),
                    ..StoredCredentials::default()
                })
                .map_err(|e| {
                    Problem::not_saved(
                        periscope_core::vocabulary::problem::Stored::Secrets,
                        Problem::internal(e),
                    )
                }),
            None => store.delete(&url, PRE_REGISTERED).map_err(|e| {
                Problem::not_saved(
                    periscope_core::vocabulary::problem::Stored::Secrets,
                    Problem::internal(e),
                )
            }),
        }
    }

    pub fn has_client_secret(&self, server_id: &str) -> bool {
        self.http_url(server_id)
            .ok()
            .and_then(|url| self.client_secret(&url))
            .is_some()
    }

    fn http_url(&self, server_id: &str) -> Result<String, Problem> {
        match self
            .catalog()
            .into_iter()
            .find(|e| e.id == server_id)
            .map(|e| e.target)
        {
            Some(ServerTarget::Http { target, .. }) => Ok(target.url),
            Some(_) => Err(Problem::SignIn {
                server: server_id.into(),
                what: periscope_core::vocabulary::problem::SignIn::NotRemote,
            }),
            None => Err(Problem::ServerNotFound {
                id: server_id.into(),
            }),
        }
    }

    /// The OAuth view: the last sign-in's steps and its token (masked), and where tokens live.
    pub async fn oauth_report(&self, server_id: &str) -> Result<Option<AuthReport>, Problem> {
        let conn = lock(&self.conns).get(server_id).cloned();
        let Some(oauth) = conn.and_then(|c| c.oauth.clone()) else {
            return Ok(None);
        };
        Ok(Some(oauth.report().await))
    }

    /// Deletes the server's tokens (the registration is kept) and disconnects it.
    pub async fn sign_out(&self, server_id: &str) -> Result<(), Problem> {
        let conn = lock(&self.conns).get(server_id).cloned();
        let Some(oauth) = conn.and_then(|c| c.oauth.clone()) else {
            return Err(Problem::SignIn {
                server: server_id.into(),
                what: periscope_core::vocabulary::problem::SignIn::NoneToEnd,
            });
        };
        oauth.sign_out().await.map_err(|e| {
            Problem::not_saved(
                periscope_core::vocabulary::problem::Stored::SignIns,
                Problem::internal(e),
            )
        })?;
        self.disconnect(server_id).await
    }
}

/// The sign-in opener of a connection: asks the user (a dialog naming the authorization
/// server's host and the scopes) and opens the system browser only on "Sign in".
pub(super) fn sign_in_opener(
    asks: Arc<Asks>,
    hub: EventHub,
    server_id: String,
    server_name: String,
    traffic: Arc<OnceLock<Arc<Traffic>>>,
) -> periscope_core::auth::browser::Opener {
    Arc::new(
        move |prompt: periscope_core::auth::browser::AuthorizationPrompt| {
            let (asks, hub, server_id, server_name, traffic) = (
                asks.clone(),
                hub.clone(),
                server_id.clone(),
                server_name.clone(),
                traffic.clone(),
            );
            Box::pin(async move {
                let url = prompt.url.clone();
                let host = prompt.auth_server_host.clone();
                let answer = asks
                    .ask(&hub, &server_id, &server_name, None, Ask::SignIn { prompt })
                    .await;
                let proceed = matches!(answer, Some(Answer::SignIn { proceed: true }));
                let decision = Decision {
                    wall_us: wall_now_us(),
                    request_id: None,
                    method: "oauth/authorize".into(),
                    decision: if proceed {
                        DecisionKind::SignIn
                    } else {
                        DecisionKind::CancelSignIn
                    },
                    // The host only: the URL holds single-use values.
                    detail: Some(host),
                    elicitation_id: None,
                };
                if let Some(traffic) = traffic.get() {
                    traffic.decide(decision.clone());
                }
                hub.send(AppEvent::Decision {
                    server_id: server_id.clone(),
                    decision,
                });
                if !proceed {
                    return Err("sign-in cancelled".to_string());
                }
                asks.open(&url).map_err(|e| e.to_string())
            })
        },
    )
}
