//! The app's state: the catalog and one engine session per connected server, each with a
//! task that turns its record into rows and events for the UI.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use periscope_core::auth::store::{SecretStore, StoredCredentials};
use periscope_core::auth::{AuthReport, LoopbackBrowser, OAuthClient, OAuthConfig};

use periscope_core::config::{ServerEntry, ServerTarget};
use periscope_core::event::{Event, SessionState};
use periscope_core::host::UrlDecision;
use periscope_core::record::{Decision, DecisionKind, HttpExchange, StderrLine};
use periscope_core::session::{ServerIdentity, Session, SessionOptions};
use periscope_core::traffic::wall_now_us;
use periscope_core::view::{
    AppEvent, ConnectionInfo, ConnectionStatus, FrameDetail, FrameRow, RowBuilder,
};
use tokio::sync::broadcast;

use crate::events::EventHub;
use crate::host::{AppHost, Asks, sign_in_opener};

/// How many stderr lines a failed status quotes.
const STDERR_TAIL: usize = 10;

#[derive(Default)]
pub struct AppState {
    catalog: Mutex<Vec<ServerEntry>>,
    conns: Mutex<HashMap<String, Arc<Conn>>>,
    /// One connect at a time per server: a second click (or the first-launch connect racing a
    /// user's) waits for the attempt in flight instead of spawning a second server.
    connecting: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    pub hub: EventHub,
    /// Server requests waiting for the user, and what the app answers by itself.
    pub asks: Arc<Asks>,
    /// OAuth tokens and client secrets: the OS keychain, else an owner-only file.
    pub secrets: OnceLock<Arc<SecretStore>>,
}

/// Where a pre-registered client's secret is kept in the secret store (no issuer is known
/// before the first sign-in).
const PRE_REGISTERED: &str = "(pre-registered client)";

struct Conn {
    /// `None` when the server could not even be started.
    session: Option<Arc<Session>>,
    status: Mutex<ConnectionStatus>,
    identity: Mutex<Option<ServerIdentity>>,
    rows: Mutex<Vec<FrameRow>>,
    /// Set when the user disconnects, so the ending is not reported as a failure.
    user_closed: AtomicBool,
    /// The sign-in of a remote server (its steps and token for the OAuth view).
    oauth: Option<Arc<OAuthClient>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl AppState {
    pub fn set_catalog(&self, entries: Vec<ServerEntry>) {
        *lock(&self.catalog) = entries;
    }

    pub fn catalog(&self) -> Vec<ServerEntry> {
        lock(&self.catalog).clone()
    }

    /// Adds the entry, or replaces the one with its id. Returns the new catalog.
    pub fn save_entry(&self, entry: ServerEntry) -> Result<Vec<ServerEntry>, String> {
        if entry.name.trim().is_empty() {
            return Err("a server needs a name".into());
        }
        match &entry.target {
            ServerTarget::Stdio(t) if t.command.trim().is_empty() => {
                return Err("a server needs a command to run".into());
            }
            ServerTarget::Http { target, .. } if target.url.trim().is_empty() => {
                return Err("a remote server needs a URL".into());
            }
            _ => {}
        }
        let mut catalog = lock(&self.catalog);
        match catalog.iter_mut().find(|e| e.id == entry.id) {
            Some(existing) => *existing = entry,
            None => catalog.push(entry),
        }
        Ok(catalog.clone())
    }

    pub fn remove_entry(&self, id: &str) -> Vec<ServerEntry> {
        let mut catalog = lock(&self.catalog);
        catalog.retain(|e| e.id != id);
        catalog.clone()
    }

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
    pub async fn connect(&self, server_id: &str) -> Result<ServerIdentity, String> {
        let gate = self.connect_lock(server_id);
        let in_flight = gate.try_lock().is_err();
        let _turn = gate.lock().await;
        if in_flight && let Some(identity) = self.ready_identity(server_id) {
            return Ok(identity);
        }
        self.connect_now(server_id).await
    }

    /// Connects unless the server already has a connection in any state (the first-launch
    /// connect must not undo what the user did meanwhile).
    pub async fn connect_if_idle(&self, server_id: &str) -> Result<(), String> {
        let gate = self.connect_lock(server_id);
        let _turn = gate.lock().await;
        if lock(&self.conns).contains_key(server_id) {
            return Ok(());
        }
        self.connect_now(server_id).await.map(|_| ())
    }

    async fn connect_now(&self, server_id: &str) -> Result<ServerIdentity, String> {
        let entry = self
            .catalog()
            .into_iter()
            .find(|e| e.id == server_id)
            .ok_or_else(|| format!("no server with id {server_id:?} in the catalog"))?;
        self.disconnect(server_id).await?;

        let host = Arc::new(AppHost {
            asks: self.asks.clone(),
            hub: self.hub.clone(),
            server_id: server_id.into(),
            server_name: entry.name.clone(),
            server_host: match &entry.target {
                ServerTarget::Http { target, .. } => tauri::Url::parse(&target.url)
                    .ok()
                    .and_then(|u| u.host_str().map(str::to_string)),
                ServerTarget::Stdio(_) => None,
            },
            traffic: Default::default(),
        });
        let traffic_slot: Arc<OnceLock<Arc<periscope_core::traffic::Traffic>>> = Arc::default();
        let oauth = match &entry.target {
            ServerTarget::Http { target, .. } => Some(Arc::new(OAuthClient::new(
                OAuthConfig {
                    server_url: target.url.clone(),
                    client_id: target.oauth.client_id.clone(),
                    client_secret: target
                        .oauth
                        .client_id
                        .as_ref()
                        .and_then(|_| self.client_secret(&target.url)),
                    client_metadata_url: target.oauth.client_metadata_url.clone(),
                    client_name: "Periscope".into(),
                    ..OAuthConfig::default()
                },
                Arc::new(LoopbackBrowser::new(
                    sign_in_opener(
                        self.asks.clone(),
                        self.hub.clone(),
                        server_id.into(),
                        entry.name.clone(),
                        traffic_slot.clone(),
                    ),
                    Duration::from_secs(600),
                )),
                self.secrets.get().cloned(),
            ))),
            ServerTarget::Stdio(_) => None,
        };
        let options = SessionOptions {
            handler: host.clone(),
            authorizer: oauth
                .clone()
                .map(|o| o as Arc<dyn periscope_core::auth::Authorizer>),
            ..SessionOptions::default()
        };
        let spawned = match &entry.target {
            ServerTarget::Stdio(t) => Session::spawn_stdio(t, options),
            ServerTarget::Http { target, mode } => {
                Session::connect_http(target, *mode, options, None)
            }
        }
        .map(Arc::new);
        if let Ok(session) = &spawned {
            let _ = host.traffic.set(session.traffic().clone());
            let _ = traffic_slot.set(session.traffic().clone());
        }
        let conn = Arc::new(Conn {
            session: spawned.as_ref().ok().cloned(),
            status: Mutex::new(ConnectionStatus::Connecting),
            identity: Mutex::new(None),
            rows: Mutex::new(Vec::new()),
            user_closed: AtomicBool::new(false),
            oauth,
        });
        lock(&self.conns).insert(server_id.into(), conn.clone());
        self.set_status(server_id, &conn, ConnectionStatus::Connecting);
        let session = match spawned {
            Ok(session) => session,
            Err(e) => {
                let error = e.to_string();
                self.set_status(
                    server_id,
                    &conn,
                    ConnectionStatus::Failed {
                        error: error.clone(),
                        stderr_tail: Vec::new(),
                    },
                );
                return Err(error);
            }
        };
        tauri::async_runtime::spawn(forward(
            server_id.to_string(),
            conn.clone(),
            session.subscribe(),
            session.clone(),
            self.hub.clone(),
        ));
        match session.initialize().await {
            Ok(identity) => {
                *lock(&conn.identity) = Some(identity.clone());
                self.set_status(
                    server_id,
                    &conn,
                    ConnectionStatus::Ready {
                        protocol_version: identity.protocol_version.clone(),
                    },
                );
                Ok(identity)
            }
            Err(e) => {
                let error = e.to_string();
                conn.user_closed.store(true, Ordering::SeqCst);
                session.close().await;
                self.set_status(
                    server_id,
                    &conn,
                    ConnectionStatus::Failed {
                        error: error.clone(),
                        stderr_tail: session.traffic().stderr_tail(STDERR_TAIL),
                    },
                );
                Err(error)
            }
        }
    }

    /// Shuts the server down politely. Disconnecting what is not connected is fine.
    pub async fn disconnect(&self, server_id: &str) -> Result<(), String> {
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

    pub async fn disconnect_all(&self) {
        let ids: Vec<String> = lock(&self.conns).keys().cloned().collect();
        for id in ids {
            let _ = self.disconnect(&id).await;
        }
    }

    /// The session of a ready connection.
    pub fn session(&self, server_id: &str) -> Result<Arc<Session>, String> {
        let conn = lock(&self.conns).get(server_id).cloned();
        let conn = conn.ok_or_else(|| "not connected: connect to the server first".to_string())?;
        match (&*lock(&conn.status), &conn.session) {
            (ConnectionStatus::Ready { .. }, Some(session)) => Ok(session.clone()),
            (ConnectionStatus::Connecting, _) => {
                Err("still connecting; try again in a moment".into())
            }
            (ConnectionStatus::Failed { error, .. }, _) => {
                Err(format!("the connection failed: {error}"))
            }
            _ => Err("not connected: connect to the server first".into()),
        }
    }

    /// The record of a connection, whatever its state (a failed one keeps its traffic).
    fn recorded(&self, server_id: &str) -> Result<Arc<Conn>, String> {
        lock(&self.conns)
            .get(server_id)
            .cloned()
            .ok_or_else(|| "this server has not been connected yet".to_string())
    }

    pub fn connections(&self) -> Vec<ConnectionInfo> {
        lock(&self.conns)
            .iter()
            .map(|(id, c)| ConnectionInfo {
                server_id: id.clone(),
                status: lock(&c.status).clone(),
                identity: lock(&c.identity).clone(),
            })
            .collect()
    }

    pub fn rows(
        &self,
        server_id: &str,
        from: usize,
        count: usize,
    ) -> Result<Vec<FrameRow>, String> {
        let conn = self.recorded(server_id)?;
        let rows = lock(&conn.rows);
        let end = from.saturating_add(count).min(rows.len());
        Ok(rows.get(from..end).map(<[_]>::to_vec).unwrap_or_default())
    }

    pub fn frame_detail(&self, server_id: &str, seq: u64) -> Result<FrameDetail, String> {
        let conn = self.recorded(server_id)?;
        let session = conn.session.as_ref().ok_or("no traffic was recorded")?;
        let traffic = session.traffic();
        let frame = traffic
            .frame(seq)
            .ok_or_else(|| format!("no frame {seq} in the record"))?;
        Ok(FrameDetail::of(&frame, traffic.flags_of(seq)))
    }

    pub fn http_exchanges(&self, server_id: &str) -> Result<Vec<HttpExchange>, String> {
        let conn = self.recorded(server_id)?;
        Ok(conn
            .session
            .as_ref()
            .map(|s| {
                s.traffic()
                    .exchanges()
                    .iter()
                    .map(|e| (**e).clone())
                    .collect()
            })
            .unwrap_or_default())
    }

    pub fn decisions(&self, server_id: &str) -> Result<Vec<Decision>, String> {
        let conn = self.recorded(server_id)?;
        Ok(conn
            .session
            .as_ref()
            .map(|s| s.traffic().decisions())
            .unwrap_or_default())
    }

    /// Records a consent decision about a URL the server named outside an elicitation request
    /// (a -32042 error) and opens it when the user chose Open.
    pub fn consent_url(
        &self,
        server_id: &str,
        url: &str,
        elicitation_id: &str,
        decision: UrlDecision,
    ) -> Result<(), String> {
        let word = match decision {
            UrlDecision::Open => DecisionKind::Open,
            UrlDecision::AcceptWithoutOpening => DecisionKind::AcceptWithoutOpening,
            UrlDecision::Decline => DecisionKind::Decline,
            UrlDecision::Cancel => DecisionKind::Cancel,
        };
        let opened = match decision {
            UrlDecision::Open => self.asks.open(url),
            _ => Ok(()),
        };
        let decision = Decision {
            wall_us: wall_now_us(),
            request_id: None,
            method: "URLElicitationRequiredError".into(),
            decision: if opened.is_ok() {
                word
            } else {
                DecisionKind::OpenFailed
            },
            detail: Some(url.into()),
            elicitation_id: Some(elicitation_id.into()),
        };
        if let Ok(conn) = self.recorded(server_id)
            && let Some(session) = &conn.session
        {
            session.traffic().decide(decision.clone());
        }
        self.hub.send(AppEvent::Decision {
            server_id: server_id.into(),
            decision,
        });
        opened
    }

    fn client_secret(&self, server_url: &str) -> Option<String> {
        let store = self.secrets.get()?;
        store
            .load(server_url, PRE_REGISTERED)
            .ok()
            .flatten()
            .and_then(|c| c.client_secret)
    }

    /// Keeps (or with None, forgets) a pre-registered client's secret for a remote server.
    pub fn set_client_secret(&self, server_id: &str, secret: Option<String>) -> Result<(), String> {
        let url = self.http_url(server_id)?;
        let store = self.secrets.get().ok_or("the secret store is not open")?;
        match secret.filter(|s| !s.is_empty()) {
            Some(secret) => store
                .save(&StoredCredentials {
                    issuer: PRE_REGISTERED.into(),
                    server_url: url,
                    client_secret: Some(secret),
                    ..StoredCredentials::default()
                })
                .map_err(|e| e.to_string()),
            None => store
                .delete(&url, PRE_REGISTERED)
                .map_err(|e| e.to_string()),
        }
    }

    pub fn has_client_secret(&self, server_id: &str) -> bool {
        self.http_url(server_id)
            .ok()
            .and_then(|url| self.client_secret(&url))
            .is_some()
    }

    fn http_url(&self, server_id: &str) -> Result<String, String> {
        match self
            .catalog()
            .into_iter()
            .find(|e| e.id == server_id)
            .map(|e| e.target)
        {
            Some(ServerTarget::Http { target, .. }) => Ok(target.url),
            Some(_) => Err("only remote servers sign in".into()),
            None => Err(format!("no server with id {server_id:?} in the catalog")),
        }
    }

    /// The OAuth view: the last sign-in's steps and its token (masked), and where tokens live.
    pub async fn oauth_report(&self, server_id: &str) -> Result<Option<AuthReport>, String> {
        let conn = lock(&self.conns).get(server_id).cloned();
        let Some(oauth) = conn.and_then(|c| c.oauth.clone()) else {
            return Ok(None);
        };
        Ok(Some(oauth.report().await))
    }

    /// Deletes the server's tokens (the registration is kept) and disconnects it.
    pub async fn sign_out(&self, server_id: &str) -> Result<(), String> {
        let conn = lock(&self.conns).get(server_id).cloned();
        let Some(oauth) = conn.and_then(|c| c.oauth.clone()) else {
            return Err("this server has no sign-in to end".into());
        };
        oauth.sign_out().await?;
        self.disconnect(server_id).await
    }

    /// Tells a connected server its roots changed (`notifications/roots/list_changed`).
    pub async fn roots_changed(&self, server_id: &str) -> Result<(), String> {
        let Ok(session) = self.session(server_id) else {
            return Ok(()); // not connected: it will ask when it connects
        };
        session
            .notify("notifications/roots/list_changed", None)
            .await
            .map_err(|e| format!("could not tell the server its roots changed: {e}"))
    }

    pub fn stderr_lines(&self, server_id: &str) -> Result<Vec<StderrLine>, String> {
        let conn = self.recorded(server_id)?;
        Ok(conn
            .session
            .as_ref()
            .map(|s| s.traffic().stderr().iter().map(|l| (**l).clone()).collect())
            .unwrap_or_default())
    }
}

/// Turns one session's record into rows and UI events. Events only wake it up: it reads the
/// record by position, so a lagging feed loses nothing.
async fn forward(
    server_id: String,
    conn: Arc<Conn>,
    mut events: broadcast::Receiver<Event>,
    session: Arc<Session>,
    hub: EventHub,
) {
    let mut builder = RowBuilder::default();
    let (mut frames_seen, mut stderr_seen, mut flags_seen, mut http_seen) = (0, 0, 0, 0);
    loop {
        let event = events.recv().await;
        let traffic = session.traffic();
        let frames = traffic.frames_from(frames_seen);
        if !frames.is_empty() {
            frames_seen += frames.len();
            let rows: Vec<FrameRow> = frames.iter().map(|f| builder.row(f)).collect();
            lock(&conn.rows).extend(rows.iter().cloned());
            hub.send(AppEvent::Frames {
                server_id: server_id.clone(),
                rows,
            });
        }
        let lines = traffic.stderr_from(stderr_seen);
        if !lines.is_empty() {
            stderr_seen += lines.len();
            hub.send(AppEvent::Stderr {
                server_id: server_id.clone(),
                lines: lines.iter().map(|l| (**l).clone()).collect(),
            });
        }
        for exchange in traffic.exchanges_from(http_seen) {
            http_seen += 1;
            hub.send(AppEvent::Http {
                server_id: server_id.clone(),
                exchange: (*exchange).clone(),
            });
        }
        for record in traffic.flags_from(flags_seen) {
            flags_seen += 1;
            hub.send(AppEvent::FrameFlagged {
                server_id: server_id.clone(),
                seq: record.seq,
                flag: record.flag,
            });
        }
        match event {
            Ok(Event::Notification(notification)) => hub.send(AppEvent::Notification {
                server_id: server_id.clone(),
                notification,
            }),
            Ok(Event::Warning(message)) => hub.send(AppEvent::Warning {
                server_id: server_id.clone(),
                message,
            }),
            Ok(Event::StateChanged(SessionState::Closed { reason })) => {
                if !conn.user_closed.load(Ordering::SeqCst) {
                    let status = ConnectionStatus::Failed {
                        error: format!("the connection ended: {reason}"),
                        stderr_tail: traffic.stderr_tail(STDERR_TAIL),
                    };
                    *lock(&conn.status) = status.clone();
                    hub.send(AppEvent::Status {
                        server_id: server_id.clone(),
                        status,
                    });
                }
                // The record is complete and synced; nothing more will come.
                return;
            }
            Err(broadcast::error::RecvError::Closed) => return,
            _ => {}
        }
    }
}
