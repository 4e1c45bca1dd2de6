//! A client session with one server: lifecycle, ids, pairing, timeouts, cancellation, progress,
//! and dispatch of what the server sends.

mod dispatch;
pub mod error;
pub mod handler;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::sync::{Notify, broadcast, mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;

pub use error::{RequestError, RpcError};
pub use handler::{DeclineAll, HostHandler, ServerRequest, ServerRequestKind};

use crate::config::HttpTarget;
use crate::config::StdioTarget;
use crate::event::{Event, Progress, RequestOutcome, SessionState};
use crate::record::{Flag, GaveUp};
use crate::revision as protocol;
use crate::traffic::Traffic;
use crate::transport::http::{HttpMode, HttpTargetError, StreamableHttp};
use crate::transport::stdio::{SpawnError, StdioOptions, StdioTransport};
use crate::transport::{CloseReport, Inbound, SendError, Transport};
use crate::wire::{Direction, Frame, RequestId, Verdict};

/// How a session presents itself and how patient it is.
#[derive(Clone)]
pub struct SessionOptions {
    /// `clientInfo` sent in `initialize`.
    pub client_info: Value,
    /// `capabilities` sent in `initialize`.
    pub capabilities: Value,
    /// The version offered in `initialize`.
    pub protocol_version: String,
    /// Default per-request timeout; progress notifications restart it.
    pub request_timeout: Duration,
    /// However much progress arrives, no request waits longer than this.
    pub max_request_time: Duration,
    pub stdio: StdioOptions,
    pub handler: Arc<dyn HostHandler>,
    /// Signs in when an HTTP server answers 401/403 (None: such an answer is an error).
    pub authorizer: Option<Arc<dyn crate::auth::Authorizer>>,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            client_info: json!({
                "name": "periscope",
                "title": "Periscope",
                "version": env!("CARGO_PKG_VERSION"),
            }),
            capabilities: json!({
                "roots": {"listChanged": true},
                "sampling": {"tools": {}},
                "elicitation": {"form": {}, "url": {}},
            }),
            protocol_version: protocol::LATEST_STATEFUL.to_string(),
            request_timeout: Duration::from_secs(60),
            max_request_time: Duration::from_secs(600),
            stdio: StdioOptions::default(),
            handler: Arc::new(DeclineAll),
            authorizer: None,
        }
    }
}

/// Per-call options.
#[derive(Default, Clone)]
pub struct CallOptions {
    /// Overrides [`SessionOptions::request_timeout`].
    pub timeout: Option<Duration>,
    /// Asks the server for progress (adds `_meta.progressToken`) and delivers it here.
    pub progress: Option<mpsc::UnboundedSender<Progress>>,
    /// Cancelling it sends `notifications/cancelled` and ends the call.
    pub cancel: Option<CancellationToken>,
}

/// What the server said about itself in the handshake.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerIdentity {
    pub protocol_version: String,
    pub capabilities: Value,
    pub server_info: Value,
    pub instructions: Option<String>,
    /// Things the user should know, e.g. an unsupported protocol version.
    pub warnings: Vec<String>,
    /// From sending `initialize` to its response.
    pub latency_us: u64,
    /// The transport the handshake went over (on HTTP, what auto-detection found).
    pub transport: String,
}

/// A connection to one server. Dropping it kills the server; [`Session::close`] shuts it down
/// politely.
pub struct Session {
    shared: Arc<Shared>,
}

struct Shared {
    transport: Box<dyn Transport>,
    traffic: Arc<Traffic>,
    events: broadcast::Sender<Event>,
    options: SessionOptions,
    /// Held while a frame is recorded and written, so the record's order is the wire's.
    send_lock: tokio::sync::Mutex<()>,
    next_id: AtomicI64,
    calls: Mutex<Calls>,
    state: watch::Sender<SessionState>,
    closed: watch::Sender<Option<CloseReport>>,
    identity: Mutex<Option<ServerIdentity>>,
    /// Whether the authorizer's stored token was asked for yet.
    bearer_set: std::sync::atomic::AtomicBool,
}

#[derive(Default)]
struct Calls {
    pending: HashMap<RequestId, Pending>,
    /// Requests that are over, to tell a duplicate or late response from an unknown one.
    finished: HashMap<RequestId, Finished>,
    /// Progress token (as JSON text) → the request that asked for it.
    progress_routes: HashMap<String, RequestId>,
    /// Server→client requests being answered, so a server's cancellation can stop them.
    serving: HashMap<RequestId, tokio::task::AbortHandle>,
}

struct Pending {
    method: String,
    sent_at: Instant,
    reply: oneshot::Sender<Reply>,
    progress: Option<mpsc::UnboundedSender<Progress>>,
    progress_seen: Arc<Notify>,
    progress_token: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Finished {
    Answered,
    GaveUp(GaveUp),
}

/// What a waiting request receives.
#[derive(Debug)]
enum Reply {
    /// The whole response message and the seq of its frame.
    Response {
        message: Value,
        seq: u64,
    },
    Closed(CloseReport),
    /// The transport will not deliver an answer; the text says why.
    Undeliverable(String),
}

/// What every transport starts with: the event bus, the record, and the frame channel.
type Plumbing = (
    broadcast::Sender<Event>,
    Arc<Traffic>,
    mpsc::Sender<Inbound>,
    mpsc::Receiver<Inbound>,
);

/// A raw send's outcome: the frame as recorded and the responses to any requests it held.
#[derive(Debug)]
pub struct RawExchange {
    pub sent: Arc<Frame>,
    pub responses: Vec<Value>,
    /// Request ids in the raw frame that got no response in time, or were already in use.
    pub unanswered: Vec<RequestId>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    #[error(transparent)]
    Http(#[from] HttpTargetError),
}

impl Session {
    /// Starts a stdio server and opens a session with it (no handshake yet: see
    /// [`Session::initialize`]).
    pub fn spawn_stdio(
        target: &StdioTarget,
        options: SessionOptions,
    ) -> Result<Session, ConnectError> {
        Self::spawn_stdio_recorded(target, options, None)
    }

    /// Like [`Session::spawn_stdio`], writing the record to `record` (JSON Lines) from the
    /// first byte on.
    pub fn spawn_stdio_recorded(
        target: &StdioTarget,
        options: SessionOptions,
        record: Option<&std::path::Path>,
    ) -> Result<Session, ConnectError> {
        let (events, traffic, inbound_tx, inbound_rx) = Self::record(record, target.redacted())?;
        let transport =
            StdioTransport::spawn(target, options.stdio.clone(), traffic.clone(), inbound_tx)?;
        Ok(Self::start(
            Box::new(transport),
            traffic,
            events,
            options,
            inbound_rx,
        ))
    }

    /// Opens a session with a remote server over HTTP (no request is sent yet). With
    /// [`HttpMode::Auto`], a 400/404/405 to the first POST switches to legacy HTTP+SSE.
    pub fn connect_http(
        target: &HttpTarget,
        mode: HttpMode,
        options: SessionOptions,
        record: Option<&std::path::Path>,
    ) -> Result<Session, ConnectError> {
        let (events, traffic, inbound_tx, inbound_rx) = Self::record(record, target.redacted())?;
        let transport = StreamableHttp::open(
            target,
            traffic.clone(),
            inbound_tx,
            options.stdio.max_frame_bytes,
            mode,
        )?;
        Ok(Self::start(
            Box::new(transport),
            traffic,
            events,
            options,
            inbound_rx,
        ))
    }

    /// The event bus, the record (written to `record` from the first byte on, if given) and
    /// the channel a transport hands frames to: what every transport starts with.
    fn record(record: Option<&std::path::Path>, target: Value) -> Result<Plumbing, ConnectError> {
        let (events, _) = broadcast::channel(8192);
        let traffic = Arc::new(Traffic::new(events.clone()));
        if let Some(path) = record {
            traffic
                .record_to(path, target)
                .map_err(|source| SpawnError {
                    command: format!("(record file {})", path.display()),
                    source,
                })?;
        }
        let (inbound_tx, inbound_rx) = mpsc::channel(1024);
        Ok((events, traffic, inbound_tx, inbound_rx))
    }

    fn start(
        transport: Box<dyn Transport>,
        traffic: Arc<Traffic>,
        events: broadcast::Sender<Event>,
        options: SessionOptions,
        inbound: mpsc::Receiver<Inbound>,
    ) -> Session {
        let shared = Arc::new(Shared {
            transport,
            traffic,
            events,
            options,
            send_lock: tokio::sync::Mutex::new(()),
            next_id: AtomicI64::new(1),
            calls: Mutex::new(Calls::default()),
            state: watch::Sender::new(SessionState::Connected),
            closed: watch::Sender::new(None),
            identity: Mutex::new(None),
            bearer_set: Default::default(),
        });
        tokio::spawn(dispatch::run(Arc::downgrade(&shared), inbound));
        Session { shared }
    }

    pub fn traffic(&self) -> &Arc<Traffic> {
        &self.shared.traffic
    }

    /// A live feed of everything that happens from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.shared.events.subscribe()
    }

    pub fn state(&self) -> SessionState {
        self.shared.state.borrow().clone()
    }

    /// What the server said in the handshake, once it is done.
    pub fn identity(&self) -> Option<ServerIdentity> {
        self.shared.lock_identity().clone()
    }

    /// Performs the handshake: `initialize`, then `notifications/initialized`.
    ///
    /// A protocol version Periscope does not speak is a warning (in the result, as an event and
    /// as a flag on the response frame), not an error: an inspector shows mismatches.
    pub async fn initialize(&self) -> Result<ServerIdentity, RequestError> {
        let s = &self.shared;
        s.set_state(SessionState::Initializing);
        let params = json!({
            "protocolVersion": s.options.protocol_version,
            "capabilities": s.options.capabilities,
            "clientInfo": s.options.client_info,
        });
        let started = Instant::now();
        let (result, seq) = self
            .request_with_seq("initialize", Some(params), CallOptions::default())
            .await?;
        let latency_us = started.elapsed().as_micros() as u64;
        let method = "initialize";
        let protocol_error = |detail: &str| RequestError::Protocol {
            method: method.into(),
            detail: detail.into(),
        };
        let version = result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| protocol_error("result has no string \"protocolVersion\""))?
            .to_string();
        let mut warnings = Vec::new();
        if !protocol::STATEFUL_VERSIONS.contains(&version.as_str()) {
            let warning = format!(
                "the server answered with protocol version {version:?}, which Periscope does not speak (it speaks {}); continuing anyway",
                protocol::STATEFUL_VERSIONS.join(", ")
            );
            s.traffic.flag(
                seq,
                Flag::UnsupportedProtocolVersion {
                    version: version.clone(),
                },
            );
            let _ = s.events.send(Event::Warning(warning.clone()));
            warnings.push(warning);
        }
        let identity = ServerIdentity {
            protocol_version: version.clone(),
            capabilities: result.get("capabilities").cloned().unwrap_or(json!({})),
            server_info: result.get("serverInfo").cloned().unwrap_or(Value::Null),
            instructions: result
                .get("instructions")
                .and_then(Value::as_str)
                .map(str::to_string),
            warnings,
            latency_us,
            transport: s.transport.name().await.to_string(),
        };
        *s.lock_identity() = Some(identity.clone());
        self.notify("notifications/initialized", None)
            .await
            .map_err(|source| RequestError::Send {
                method: "notifications/initialized".into(),
                source,
            })?;
        // Only now may an HTTP transport open its standalone stream.
        s.transport.negotiated(&version).await;
        s.set_state(SessionState::Ready {
            protocol_version: version,
        });
        Ok(identity)
    }

    /// Sends a request and waits for its result.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> Result<Value, RequestError> {
        let first = self
            .request_with_seq(method, params.clone(), options.clone())
            .await;
        let Err(RequestError::SessionExpired { exchange, .. }) = first else {
            return first.map(|(v, _)| v);
        };
        // The server forgot our HTTP session: start a new one, as the spec says, and send the
        // request again, once. The record shows the 404, the flag, and the new handshake.
        let s = &self.shared;
        s.traffic.flag(exchange, Flag::SessionExpired);
        let _ = s.events.send(Event::Warning(
            "the server no longer knew the session (HTTP 404); Periscope started a new one".into(),
        ));
        s.transport.reset_session().await;
        Box::pin(self.initialize()).await?;
        self.request_with_seq(method, params, options)
            .await
            .map(|(v, _)| v)
    }

    async fn request_with_seq(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> Result<(Value, u64), RequestError> {
        let s = &self.shared;
        let id = s.fresh_id();
        let progress_seen = Arc::new(Notify::new());
        let mut params = params;
        let mut progress_token = None;
        if options.progress.is_some() {
            let token = Value::from(format!("periscope-{id}"));
            let p = params.get_or_insert_with(|| json!({}));
            if let Value::Object(map) = p {
                let meta = map
                    .entry("_meta")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(meta) = meta {
                    meta.insert("progressToken".into(), token.clone());
                }
            }
            progress_token = Some(token.to_string());
        }
        let (tx, mut rx) = oneshot::channel();
        {
            let mut calls = s.lock_calls();
            if let Some(token) = &progress_token {
                calls.progress_routes.insert(token.clone(), id.clone());
            }
            calls.pending.insert(
                id.clone(),
                Pending {
                    method: method.to_string(),
                    sent_at: Instant::now(),
                    reply: tx,
                    progress: options.progress,
                    progress_seen: progress_seen.clone(),
                    progress_token,
                },
            );
        }
        let mut message = Map::new();
        message.insert("jsonrpc".into(), "2.0".into());
        message.insert("id".into(), id.to_value());
        message.insert("method".into(), method.into());
        if let Some(params) = params {
            message.insert("params".into(), params);
        }
        let bytes = serde_json::to_vec(&Value::Object(message)).expect("JSON values serialize");
        if let Err(source) = s.send_authorized(bytes).await {
            s.forget(&id, None);
            return Err(match source {
                // The pipe broke because the server is going away: wait briefly for the
                // report, which says how it ended and what it last wrote.
                SendError::Closed => match s.await_close_report(Duration::from_secs(5)).await {
                    Some(report) => RequestError::Closed {
                        method: method.into(),
                        report,
                    },
                    None => RequestError::Send {
                        method: method.into(),
                        source,
                    },
                },
                SendError::Http(reason) => RequestError::Transport {
                    method: method.into(),
                    reason,
                },
                SendError::SessionExpired { exchange } => RequestError::SessionExpired {
                    method: method.into(),
                    exchange,
                },
                SendError::Unauthorized { challenge, .. } => RequestError::Transport {
                    method: method.into(),
                    reason: format!(
                        "the server requires authorization (HTTP {}{}){}",
                        challenge.status,
                        challenge
                            .error
                            .as_deref()
                            .map(|e| format!(", {e}"))
                            .unwrap_or_default(),
                        if s.options.authorizer.is_some() {
                            ""
                        } else {
                            "; sign in to this server (OAuth) to use it"
                        }
                    ),
                },
                source => RequestError::Send {
                    method: method.into(),
                    source,
                },
            });
        }

        let timeout = options.timeout.unwrap_or(s.options.request_timeout);
        let hard_deadline = tokio::time::Instant::now() + s.options.max_request_time;
        let mut deadline = (tokio::time::Instant::now() + timeout).min(hard_deadline);
        let cancel = options.cancel.unwrap_or_default();
        let gave_up = loop {
            tokio::select! {
                reply = &mut rx => {
                    return match reply {
                        Ok(Reply::Response { message, seq }) => response_result(method, message).map(|v| (v, seq)),
                        Ok(Reply::Closed(report)) => Err(RequestError::Closed { method: method.into(), report }),
                        Ok(Reply::Undeliverable(reason)) => Err(RequestError::Transport { method: method.into(), reason }),
                        Err(_) => Err(RequestError::Closed { method: method.into(), report: s.close_report().unwrap_or_default() }),
                    };
                }
                () = tokio::time::sleep_until(deadline) => break GaveUp::TimedOut,
                () = cancel.cancelled() => break GaveUp::Cancelled,
                () = progress_seen.notified() => {
                    deadline = (tokio::time::Instant::now() + timeout).min(hard_deadline);
                }
            }
        };
        // The response may have landed while we were deciding to give up.
        if let Ok(Reply::Response { message, seq }) = rx.try_recv() {
            return response_result(method, message).map(|v| (v, seq));
        }
        let waited = s.forget(&id, Some(gave_up));
        let reason = match gave_up {
            GaveUp::TimedOut => format!("timed out after {} ms", timeout.as_millis()),
            GaveUp::Cancelled => "cancelled by the user".to_string(),
        };
        if method != "initialize" {
            // The spec forbids cancelling initialize; for it, giving up is all we do.
            let _ = self
                .notify(
                    "notifications/cancelled",
                    Some(json!({"requestId": id.to_value(), "reason": reason})),
                )
                .await;
        }
        let outcome = match gave_up {
            GaveUp::TimedOut => RequestOutcome::TimedOut,
            GaveUp::Cancelled => RequestOutcome::Cancelled,
        };
        let _ = s.events.send(Event::RequestFinished {
            id,
            method: method.into(),
            outcome,
            latency_us: waited.as_micros() as u64,
        });
        Err(match gave_up {
            GaveUp::TimedOut => RequestError::TimedOut {
                method: method.into(),
                after: waited,
            },
            GaveUp::Cancelled => RequestError::Cancelled {
                method: method.into(),
            },
        })
    }

    /// Sends a notification.
    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), SendError> {
        let mut message = Map::new();
        message.insert("jsonrpc".into(), "2.0".into());
        message.insert("method".into(), method.into());
        if let Some(params) = params {
            message.insert("params".into(), params);
        }
        let bytes = serde_json::to_vec(&Value::Object(message)).expect("JSON values serialize");
        self.shared.send_frame(bytes, false).await.map(|_| ())
    }

    /// Sends bytes exactly as given. If they are not valid JSON-RPC they go out anyway, flagged.
    /// If they hold requests, waits up to `wait` for their responses.
    pub async fn send_raw(&self, bytes: Vec<u8>, wait: Duration) -> Result<RawExchange, SendError> {
        let s = &self.shared;
        let (verdict, _) = crate::wire::classify(&bytes);
        let ids: Vec<RequestId> = match &verdict {
            Verdict::Request { id, .. } => vec![id.clone()],
            Verdict::Batch { items } => items
                .iter()
                .filter_map(|v| match v {
                    Verdict::Request { id, .. } => Some(id.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut waiting = Vec::new();
        let mut unanswered = Vec::new();
        {
            let mut calls = s.lock_calls();
            for id in ids {
                if calls.pending.contains_key(&id) {
                    unanswered.push(id);
                    continue;
                }
                calls.finished.remove(&id);
                let (tx, rx) = oneshot::channel();
                calls.pending.insert(
                    id.clone(),
                    Pending {
                        method: "(raw)".into(),
                        sent_at: Instant::now(),
                        reply: tx,
                        progress: None,
                        progress_seen: Arc::new(Notify::new()),
                        progress_token: None,
                    },
                );
                waiting.push((id, rx));
            }
        }
        let sent = match s.send_frame(bytes, true).await {
            Ok(frame) => frame,
            Err(e) => {
                for (id, _) in &waiting {
                    s.forget(id, None);
                }
                return Err(e);
            }
        };
        let deadline = tokio::time::Instant::now() + wait;
        let mut responses = Vec::new();
        for (id, rx) in waiting {
            match tokio::time::timeout_at(deadline, rx).await {
                Ok(Ok(Reply::Response { message, .. })) => responses.push(message),
                _ => {
                    s.forget(&id, Some(GaveUp::TimedOut));
                    unanswered.push(id);
                }
            }
        }
        Ok(RawExchange {
            sent,
            responses,
            unanswered,
        })
    }

    /// Shuts the server down (close stdin, wait, SIGTERM, wait, SIGKILL) and reports how it
    /// ended. Requests still waiting fail with the report.
    pub async fn close(&self) -> CloseReport {
        let report = self.shared.transport.shutdown().await;
        if self.shared.transport.reports_close() {
            // What the server wrote before it ended is still being handled (a duplicate
            // response gets its flag): wait until the feed's end is reached, briefly.
            let mut closed = self.shared.closed.subscribe();
            let _ = tokio::time::timeout(Duration::from_secs(3), closed.wait_for(Option::is_some))
                .await;
        }
        self.shared.on_closed(report.clone());
        let _ = self.shared.traffic.flush();
        report
    }

    /// Waits until the connection is gone, however that happens.
    pub async fn closed(&self) -> CloseReport {
        let mut rx = self.shared.closed.subscribe();
        let r = rx.wait_for(Option::is_some).await;
        r.ok().and_then(|r| r.clone()).unwrap_or_default()
    }
}

/// Turns a response message into the call's result.
fn response_result(method: &str, message: Value) -> Result<Value, RequestError> {
    if let Some(result) = message.get("result") {
        return Ok(result.clone());
    }
    match message.get("error").and_then(RpcError::from_value) {
        Some(error) => Err(RequestError::Rpc {
            method: method.into(),
            error,
        }),
        None => Err(RequestError::Protocol {
            method: method.into(),
            detail: "the response has neither a result nor a well-formed error".into(),
        }),
    }
}

impl Shared {
    fn lock_calls(&self) -> MutexGuard<'_, Calls> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock_identity(&self) -> MutexGuard<'_, Option<ServerIdentity>> {
        self.identity.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_state(&self, state: SessionState) {
        if matches!(*self.state.borrow(), SessionState::Closed { .. }) {
            return;
        }
        self.state.send_replace(state.clone());
        let _ = self.events.send(Event::StateChanged(state));
    }

    fn close_report(&self) -> Option<CloseReport> {
        self.closed.borrow().clone()
    }

    async fn await_close_report(&self, within: Duration) -> Option<CloseReport> {
        let mut rx = self.closed.subscribe();
        let waited = tokio::time::timeout(within, rx.wait_for(Option::is_some)).await;
        waited.ok().and_then(|r| r.ok().and_then(|r| r.clone()))
    }

    /// An id not in use and not used recently (raw sends may pick any id).
    fn fresh_id(&self) -> RequestId {
        let calls = self.lock_calls();
        loop {
            let id = RequestId::Number(self.next_id.fetch_add(1, Ordering::Relaxed));
            if !calls.pending.contains_key(&id) && !calls.finished.contains_key(&id) {
                return id;
            }
        }
    }

    /// Stops waiting for `id`; returns how long it was waited for.
    fn forget(&self, id: &RequestId, gave_up: Option<GaveUp>) -> Duration {
        let mut calls = self.lock_calls();
        let Some(p) = calls.pending.remove(id) else {
            return Duration::ZERO;
        };
        if let Some(token) = &p.progress_token {
            calls.progress_routes.remove(token);
        }
        if let Some(g) = gave_up {
            calls.finished.insert(id.clone(), Finished::GaveUp(g));
        }
        p.sent_at.elapsed()
    }

    /// Records, then writes, one outgoing frame.
    /// Sends a request frame; when the server refuses it with 401/403 and an authorizer is
    /// set, signs in (or steps up) and sends it again: at most three sign-ins per request. The
    /// record keeps every attempt.
    async fn send_authorized(&self, bytes: Vec<u8>) -> Result<Arc<Frame>, SendError> {
        if let Some(auth) = &self.options.authorizer
            && !self
                .bearer_set
                .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            // The first request: a stored (or refreshed) token, if there is one.
            self.transport.set_bearer(auth.current().await);
        }
        let mut attempts = 0;
        loop {
            match self.send_frame(bytes.clone(), false).await {
                Err(SendError::Unauthorized {
                    challenge,
                    exchange,
                }) => {
                    let Some(auth) = &self.options.authorizer else {
                        return Err(SendError::Unauthorized {
                            challenge,
                            exchange,
                        });
                    };
                    if attempts == 3 {
                        let _ = self.events.send(Event::Warning(format!(
                            "gave up after {attempts} sign-ins: the server still refuses (HTTP {})",
                            challenge.status
                        )));
                        return Err(SendError::Unauthorized {
                            challenge,
                            exchange,
                        });
                    }
                    attempts += 1;
                    match auth.authorize(&challenge).await {
                        Ok(token) => self.transport.set_bearer(Some(token)),
                        Err(why) => {
                            return Err(SendError::Http(format!("sign-in failed: {why}")));
                        }
                    }
                }
                other => return other,
            }
        }
    }

    async fn send_frame(
        &self,
        bytes: Vec<u8>,
        typed_by_user: bool,
    ) -> Result<Arc<Frame>, SendError> {
        let _order = self.send_lock.lock().await;
        if self.closed.borrow().is_some() {
            return Err(SendError::Closed);
        }
        let (frame, _) = self.traffic.append_frame(Direction::Out, bytes, None);
        if typed_by_user && !frame.verdict.is_valid() {
            self.traffic.flag(frame.seq, Flag::InvalidUserFrame);
        }
        self.transport.send(&frame).await?;
        Ok(frame)
    }

    fn on_closed(&self, report: CloseReport) {
        if self.closed.borrow().is_some() {
            return;
        }
        self.closed.send_replace(Some(report.clone()));
        let pending: Vec<(RequestId, Pending)> = self.lock_calls().pending.drain().collect();
        for (id, p) in pending {
            let _ = self.events.send(Event::RequestFinished {
                id,
                method: p.method,
                outcome: RequestOutcome::ConnectionClosed,
                latency_us: p.sent_at.elapsed().as_micros() as u64,
            });
            let _ = p.reply.send(Reply::Closed(report.clone()));
        }
        let reason = format!("{report}");
        self.set_state(SessionState::Closed { reason });
    }
}
