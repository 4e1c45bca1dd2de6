//! Connecting (one attempt at a time per server) and disconnecting, with the status the UI
//! shows at each step.

use periscope_core::vocabulary::Problem;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use periscope_core::auth::{LoopbackBrowser, OAuthClient, OAuthConfig};
use periscope_core::config::ServerTarget;
use periscope_core::doctor::{self, Scene};
use periscope_core::era::EraReason;
use periscope_core::session::{ServerIdentity, Session, SessionOptions};
use periscope_core::view::{AppEvent, ConnectionStatus};
use periscope_core::vocabulary::start::StartCause;

use super::forward::forward;
use super::sign_in::sign_in_opener;
use super::store_files;
use super::{AppState, Conn, STDERR_TAIL, lock};
use crate::asks::AppAnswerer;

impl AppState {
    fn set_status(&self, server_id: &str, conn: &Conn, status: ConnectionStatus) {
        *lock(&conn.status) = status.clone();
        self.hub.send(AppEvent::Status {
            server_id: server_id.into(),
            status,
        });
    }

    fn connect_lock(&self, server_id: &str) -> Arc<tokio::sync::Mutex<()>> {
        lock(&self.connecting)
            .entry(server_id.into())
            .or_default()
            .clone()
    }

    /// The identity of a ready connection, if there is one.
    fn ready_identity(&self, server_id: &str) -> Option<ServerIdentity> {
        let conn = lock(&self.conns).get(server_id).cloned()?;
        let ready = matches!(*lock(&conn.status), ConnectionStatus::Ready { .. });
        if ready {
            lock(&conn.identity).clone()
        } else {
            None
        }
    }

    /// Starts the server and performs the handshake. A connection already open is closed first
    /// (reconnect). If another connect to this server is in flight, waits for it and returns
    /// its result when it succeeded, rather than starting the server twice.
    pub async fn connect(&self, server_id: &str) -> Result<ServerIdentity, Problem> {
        let gate = self.connect_lock(server_id);
        let in_flight = gate.try_lock().is_err();
        let _turn = gate.lock().await;
        if in_flight && let Some(identity) = self.ready_identity(server_id) {
            return Ok(identity);
        }
        self.connect_now(server_id).await
    }

    /// Forgets the era a server was found to speak: its next connection probes again.
    pub fn forget_era(&self, server_id: &str) {
        self.found_eras.forget(server_id);
    }

    /// Reconnects in the legacy era (the doctor said a tool works there, or the user would not
    /// wait out the probe): remembered for the server as if its probe had failed, so Overview
    /// says so and **Probe again** undoes it.
    pub async fn reconnect_legacy(&self, server_id: &str) -> Result<ServerIdentity, Problem> {
        let entry = self.entry(server_id)?;
        self.found_eras.remember_legacy(&entry);
        // A connection still probing `server/discover` is given up on, not waited for.
        self.disconnect(server_id).await?;
        self.connect(server_id).await
    }

    /// What a failure of this server's happened with, for the doctor: its target and what it
    /// said of itself.
    pub fn scene(&self, server_id: &str) -> Option<Scene> {
        let entry = self.catalog().into_iter().find(|e| e.id == server_id)?;
        let identity = lock(&self.conns)
            .get(server_id)
            .and_then(|c| lock(&c.identity).clone());
        Some(scene_of(&entry.target, identity))
    }

    /// Connects unless the server already has a connection in any state (the first-launch
    /// connect must not undo what the user did meanwhile).
    pub async fn connect_if_idle(&self, server_id: &str) -> Result<(), Problem> {
        let gate = self.connect_lock(server_id);
        let _turn = gate.lock().await;
        if lock(&self.conns).contains_key(server_id) {
            return Ok(());
        }
        self.connect_now(server_id).await.map(|_| ())
    }

    async fn connect_now(&self, server_id: &str) -> Result<ServerIdentity, Problem> {
        let result = self.connect_once(server_id).await;
        match result {
            // The era remembered for the server failed (it now speaks the modern era, or
            // answers differently): forget it and probe, once.
            Err(Attempt::RememberedEraFailed) => {
                self.found_eras.forget(server_id);
                self.connect_once(server_id)
                    .await
                    .map_err(Attempt::into_problem)
            }
            other => other.map_err(Attempt::into_problem),
        }
    }

    /// The sign-in of a remote server (none for a local one): its stored token, else a sign-in
    /// that asks the user first. `traffic` is where the sign-in's own exchanges are recorded.
    pub(crate) fn oauth_client(
        &self,
        entry: &periscope_core::config::ServerEntry,
        target: &ServerTarget,
        traffic: Arc<OnceLock<Arc<periscope_core::traffic::Traffic>>>,
    ) -> Option<Arc<OAuthClient>> {
        match target {
            ServerTarget::Http { target, .. } => Some(Arc::new(OAuthClient::new(
                OAuthConfig {
                    server_url: target.url.clone(),
                    client_id: target.oauth.client_id.clone(),
                    client_secret: target
                        .oauth
                        .client_id
                        .as_ref()
                        .and_then(|_| self.client_secret(&target.url)),
                    client_name: "Periscope".into(),
                    ..OAuthConfig::from_settings(&target.url, &target.oauth)
                },
                Arc::new(LoopbackBrowser::new(
                    sign_in_opener(
                        self.asks.clone(),
                        self.hub.clone(),
                        entry.id.clone(),
                        entry.name.clone(),
                        traffic,
                    ),
                    Duration::from_secs(600),
                )),
                self.secrets.get().cloned(),
            ))),
            ServerTarget::Stdio(_) => None,
        }
    }

    async fn connect_once(&self, server_id: &str) -> Result<ServerIdentity, Attempt> {
        let entry = self.entry(server_id)?;
        // Secret values come from the secret store now, as the client secret below does.
        let target = self.resolved_target(&entry)?;
        self.disconnect(server_id).await?;

        let answerer = Arc::new(AppAnswerer {
            asks: self.asks.clone(),
            hub: self.hub.clone(),
            server_id: server_id.into(),
            server_name: entry.name.clone(),
            server_host: self.server_host(server_id),
            traffic: Default::default(),
        });
        let traffic_slot: Arc<OnceLock<Arc<periscope_core::traffic::Traffic>>> = Arc::default();
        let oauth = self.oauth_client(&entry, &target, traffic_slot.clone());
        let (era, remembered) = self.found_eras.choice(&entry);
        let options = SessionOptions {
            handler: answerer.clone(),
            authorizer: oauth
                .clone()
                .map(|o| o as Arc<dyn periscope_core::auth::Authorizer>),
            era,
            request_timeout: self.settings.get().request_timeout(),
            ..SessionOptions::default()
        };
        let spawned = match &target {
            ServerTarget::Stdio(t) => Session::spawn_stdio(t, options),
            ServerTarget::Http { target, mode } => {
                Session::connect_http(target, *mode, options, None)
            }
        }
        .map(Arc::new);
        if let Ok(session) = &spawned {
            // Before anything else reads the record: the store gets what memory holds so far.
            if let Some(dir) = self.traffic_dir.get() {
                store_files::attach(dir, server_id, session.traffic(), &self.store_files());
            }
            let _ = answerer.traffic.set(session.traffic().clone());
            let _ = traffic_slot.set(session.traffic().clone());
        }
        let conn = Arc::new(Conn {
            session: spawned.as_ref().ok().cloned(),
            status: Mutex::new(ConnectionStatus::Connecting),
            identity: Mutex::new(None),
            user_closed: AtomicBool::new(false),
            oauth,
        });
        lock(&self.conns).insert(server_id.into(), conn.clone());
        self.set_status(server_id, &conn, ConnectionStatus::Connecting);
        let session = match spawned {
            Ok(session) => session,
            Err(e) => {
                let error = Problem::StartFailed {
                    server: server_id.into(),
                    cause: StartCause::from(&e),
                };
                let diagnoses = match &target {
                    ServerTarget::Stdio(t) => doctor::after_start(&e, t),
                    ServerTarget::Http { .. } => Vec::new(),
                };
                self.set_status(
                    server_id,
                    &conn,
                    ConnectionStatus::Failed {
                        error: error.clone(),
                        stderr_tail: Vec::new(),
                        diagnoses,
                    },
                );
                return Err(Attempt::Failed(error));
            }
        };
        tauri::async_runtime::spawn(forward(
            server_id.to_string(),
            conn.clone(),
            session.subscribe_from_start(),
            session.clone(),
            self.hub.clone(),
        ));
        match session.handshake().await {
            Ok(mut identity) => {
                if remembered {
                    identity.era_reason = EraReason::Remembered;
                } else {
                    self.found_eras.note(&entry, &identity);
                }
                *lock(&conn.identity) = Some(identity.clone());
                if identity.era == periscope_core::era::Era::Modern {
                    // Modern servers send list changes only on a listen stream: open one so
                    // the lists refresh as in the legacy era. Not awaited: connecting does not
                    // wait for the acknowledgement; the Overview line shows how it goes.
                    let listening = session.clone();
                    tauri::async_runtime::spawn(async move {
                        let filter = periscope_core::subscription::ListenFilter::list_changes();
                        let _ = listening.listen(filter).await;
                    });
                }
                self.set_status(
                    server_id,
                    &conn,
                    ConnectionStatus::Ready {
                        protocol_version: identity.protocol_version.clone(),
                    },
                );
                Ok(identity)
            }
            // Disconnected while the handshake ran (the user chose another era, or closed it):
            // nothing failed, and the status already says what happened.
            Err(e) if conn.user_closed.load(Ordering::SeqCst) => {
                session.close().await;
                Err(Attempt::Failed(Problem::Cancelled {
                    method: e.method().to_string(),
                }))
            }
            Err(_) if remembered => {
                conn.user_closed.store(true, Ordering::SeqCst);
                session.close().await;
                Err(Attempt::RememberedEraFailed)
            }
            Err(e) => {
                conn.user_closed.store(true, Ordering::SeqCst);
                session.close().await;
                let mut diagnoses = doctor::after_failure(&e, &scene_of(&target, None));
                doctor::probe_paths(&mut diagnoses).await;
                let error = Problem::from(e);
                self.set_status(
                    server_id,
                    &conn,
                    ConnectionStatus::Failed {
                        error: error.clone(),
                        stderr_tail: session.traffic().stderr_tail(STDERR_TAIL),
                        diagnoses,
                    },
                );
                Err(Attempt::Failed(error))
            }
        }
    }

    /// Shuts the server down politely. Disconnecting what is not connected is fine.
    pub async fn disconnect(&self, server_id: &str) -> Result<(), Problem> {
        let conn = lock(&self.conns).get(server_id).cloned();
        let Some(conn) = conn else { return Ok(()) };
        conn.user_closed.store(true, Ordering::SeqCst);
        self.asks.forget_server(server_id);
        if let Some(session) = &conn.session {
            session.close().await;
        }
        self.set_status(server_id, &conn, ConnectionStatus::Disconnected);
        Ok(())
    }

    /// Closes every server at once: each close is bounded (stdin, SIGTERM, SIGKILL; DELETE
    /// within its wait), so quitting takes as long as the slowest server, not their sum.
    pub async fn disconnect_all(&self) {
        let ids: Vec<String> = lock(&self.conns).keys().cloned().collect();
        futures_util::future::join_all(ids.iter().map(|id| self.disconnect(id))).await;
    }
}

/// Why one connection attempt failed: a problem for the user, or the remembered era failing
/// (the caller probes again before saying anything).
enum Attempt {
    Failed(Problem),
    RememberedEraFailed,
}

impl Attempt {
    fn into_problem(self) -> Problem {
        match self {
            Attempt::Failed(problem) => problem,
            Attempt::RememberedEraFailed => Problem::RememberedEraFailed,
        }
    }
}

impl From<Problem> for Attempt {
    fn from(problem: Problem) -> Self {
        Attempt::Failed(problem)
    }
}

/// The doctor's view of a target.
fn scene_of(target: &ServerTarget, identity: Option<ServerIdentity>) -> Scene {
    match target {
        ServerTarget::Stdio(t) => Scene::Stdio {
            target: t.clone(),
            identity,
        },
        ServerTarget::Http { target, .. } => Scene::Http {
            url: target.url.clone(),
            identity,
        },
    }
}
