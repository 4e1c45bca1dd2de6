//! A client session with one server: lifecycle, ids, pairing, timeouts, cancellation, progress,
//! and dispatch of what the server sends.

mod cache;
mod dispatch;
pub mod error;
pub mod handler;
mod lane;
mod listen;
mod modern;
mod open;
mod probe_wait;
mod problem;
pub use problem::send_problem;
mod raw;
mod request;
mod sign_in;
#[cfg(test)]
pub(crate) mod test_support;
mod tracked;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{Notify, broadcast, mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;

pub use cache::CacheHit;
pub use error::{NotReissued, RequestError, RpcError};
pub use handler::{DeclineAll, HostHandler, ServerRequest, ServerRequestKind};
pub use lane::{LANE_FIRST_ID, Lane, LaneOutcome, LaneTemplate, NoLane, lane_id, lane_outcome};
pub use open::ConnectError;
pub use raw::RawExchange;
pub use request::{Timing, timed};
pub use tracked::{DuplicateCallId, TrackedCall};

use crate::era::{Era, EraChoice, EraReason};
use crate::event::{Event, Progress, RequestOutcome, SessionState};
use crate::limits::Limits;
use crate::record::{Flag, GaveUp};
use crate::request_headers::{HeaderAnnotationError, HeaderBinding};
use crate::revision as protocol;
use crate::traffic::Traffic;
use crate::transport::stdio::StdioOptions;
use crate::transport::{CloseReport, Delivery, SendError, Transport, TransportKind};
use crate::wire::{Direction, Frame, RequestId};

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
    /// What a server can make the session hold or wait for.
    pub limits: Limits,
    pub handler: Arc<dyn HostHandler>,
    /// Signs in when an HTTP server answers 401/403 (None: such an answer is an error).
    pub authorizer: Option<Arc<dyn crate::auth::Authorizer>>,
    /// Which era [`Session::handshake`] speaks (auto: probe with `server/discover`).
    pub era: EraChoice,
    /// How long the auto probe waits for `server/discover` before deciding the server is
    /// legacy (a legacy server may ignore an unknown request before `initialize`).
    pub discover_timeout: Duration,
    /// Whether the event bus carries the server's notifications ([`Event::Notification`]). A
    /// host that shows none turns this off (the CLI with `-q`): under a flood of log messages
    /// each one was built, sent to every subscriber and dropped unread. A notification still
    /// does what it does (progress, a cancellation, a changed list) and stays in the record.
    pub notification_events: bool,
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
                // Modern era: Periscope follows task handles (crate::tasks), so it declares
                // the 2026-07-28 tasks extension; legacy servers ignore the key. MCP Apps
                // (crate::apps): the same key in both eras.
                "extensions": {
                    crate::era::TASKS_EXTENSION: {},
                    crate::apps::UI_EXTENSION: crate::apps::client_capability(),
                    // Skills (crate::skills): listed, read and verified on request, never
                    // fetched ahead of need.
                    crate::vocabulary::skill_check::SKILLS_EXTENSION: {},
                },
            }),
            protocol_version: protocol::LATEST_STATEFUL.to_string(),
            request_timeout: Duration::from_secs(60),
            max_request_time: Duration::from_secs(600),
            stdio: StdioOptions::default(),
            limits: Limits::default(),
            handler: Arc::new(DeclineAll),
            authorizer: None,
            era: EraChoice::Auto,
            discover_timeout: Duration::from_secs(10),
            notification_events: true,
        }
    }
}

/// Per-call options.
#[derive(Default, Clone)]
pub struct CallOptions {
    /// Overrides [`SessionOptions::request_timeout`].
    pub timeout: Option<Duration>,
    /// Asks the server for progress (adds `_meta.progressToken`) and delivers it here. The
    /// channel's bound is the caller's: when it is full, progress is dropped for this caller
    /// (every notification stays in the record), so a flooding server cannot fill memory.
    pub progress: Option<mpsc::Sender<Progress>>,
    /// Cancelling it sends `notifications/cancelled` and ends the call.
    pub cancel: Option<CancellationToken>,
    /// Ask the server even when a result it said was cacheable is still fresh (modern era).
    pub fresh: bool,
}

/// What the server said about itself in the handshake (`initialize`) or in `server/discover`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerIdentity {
    /// Modern (no handshake, `_meta` on every request) or legacy (`initialize`).
    pub era: Era,
    /// Pinned by the user, found by `server/discover`, or fallen back to after the probe.
    pub era_reason: EraReason,
    /// The versions the server says it supports (`server/discover`; empty for legacy).
    pub supported_versions: Vec<String>,
    pub protocol_version: String,
    /// `capabilities` as sent; read in [`ServerIdentity::offers`].
    pub capabilities: Value,
    /// `serverInfo` as sent (`Null` when absent); read in [`ServerIdentity::info`].
    pub server_info: Value,
    /// `serverInfo`, read.
    #[serde(default)]
    pub info: crate::vocabulary::views::server::ServerInfoView,
    /// `capabilities`, read.
    #[serde(default)]
    pub offers: crate::vocabulary::views::server::CapabilitiesView,
    pub instructions: Option<String>,
    /// Things the user should know, e.g. an unsupported protocol version.
    pub warnings: Vec<crate::vocabulary::Problem>,
    /// From sending `initialize` to its response.
    pub latency_us: u64,
    /// The transport the handshake went over (on HTTP, what auto-detection found).
    pub transport: TransportKind,
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
    /// The feed from the session's first event on, for the first host to ask.
    first_events: Mutex<Option<broadcast::Receiver<Event>>>,
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
    /// Calls a host started under its own call id, so it can cancel them by that id.
    tracked: tracked::Tracked,
    /// The modern version every request declares, once the session speaks the modern era.
    modern: Mutex<Option<String>>,
    /// Modern era: the log level every request asks for (`_meta`), if the user set one.
    log_level: Mutex<Option<String>>,
    /// Modern era over HTTP: each listed tool's `x-mcp-header` bindings, or why it may not be
    /// called.
    tool_headers: Mutex<HashMap<String, ToolHeaders>>,
    /// Modern era: results the server said stay fresh (`ttlMs`, `cacheScope`).
    cache: Mutex<cache::ResultCache>,
    /// Counts sign-ins: a private cached result is reused only under the one it came with.
    sign_ins: std::sync::atomic::AtomicU64,
    /// Modern era: the listen stream (`subscriptions/listen`), see listen.rs.
    listen: listen::Listen,
    /// Where the dispatcher leaves a lane's answers (lane.rs).
    lane: Arc<lane::LaneRoute>,
}

/// A tool's mirrored arguments, or why it is refused.
type ToolHeaders = Result<Vec<HeaderBinding>, HeaderAnnotationError>;

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
    progress: Option<mpsc::Sender<Progress>>,
    progress_seen: Arc<Notify>,
    progress_token: Option<String>,
}

impl Pending {
    /// Ends a request that will get no response (the connection closed, or its frame could
    /// not be delivered): hosts hear `RequestFinished`, the waiting caller gets `reply`.
    fn end_unanswered(self, id: RequestId, events: &broadcast::Sender<Event>, reply: Reply) {
        let _ = events.send(Event::RequestFinished {
            id,
            method: self.method,
            outcome: RequestOutcome::ConnectionClosed,
            latency_us: self.sent_at.elapsed().as_micros() as u64,
        });
        let _ = self.reply.send(reply);
    }
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
    /// The transport will not deliver an answer; it says why.
    Undeliverable(crate::transport::Unanswered),
}

impl Session {
    pub fn traffic(&self) -> &Arc<Traffic> {
        &self.shared.traffic
    }

    /// A live feed of everything that happens from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.shared.events.subscribe()
    }

    /// The feed from the session's very first event (frames the server wrote before anyone
    /// subscribed included), for the first caller; later callers get [`Session::subscribe`].
    pub fn subscribe_from_start(&self) -> broadcast::Receiver<Event> {
        let first = self
            .shared
            .first_events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        first.unwrap_or_else(|| self.subscribe())
    }

    pub fn state(&self) -> SessionState {
        self.shared.state.borrow().clone()
    }

    /// The server's process for a stdio session (it leads its own process group), else None.
    pub fn server_process(&self) -> Option<u32> {
        self.shared.transport.process_id()
    }

    /// What the server said in the handshake, once it is done.
    pub fn identity(&self) -> Option<ServerIdentity> {
        self.shared.lock_identity().clone()
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
        self.forget_if_waiting(id, gave_up).unwrap_or_default()
    }

    /// Like [`Shared::forget`]; `None` when the request was no longer waiting: something took
    /// it for an answer (its response, or the transport saying none will come) just now.
    fn forget_if_waiting(&self, id: &RequestId, gave_up: Option<GaveUp>) -> Option<Duration> {
        let mut calls = self.lock_calls();
        let p = calls.pending.remove(id)?;
        if let Some(token) = &p.progress_token {
            calls.progress_routes.remove(token);
        }
        if let Some(g) = gave_up {
            calls.finished.insert(id.clone(), Finished::GaveUp(g));
        }
        Some(p.sent_at.elapsed())
    }

    /// Records, then writes, one outgoing frame, waiting at most `patience` for the server to
    /// take it.
    async fn send_frame(
        &self,
        bytes: Vec<u8>,
        typed_by_user: bool,
        patience: Duration,
    ) -> Result<Arc<Frame>, SendError> {
        let (frame, delivery) = self.start_frame(bytes, typed_by_user, patience).await?;
        self.delivered(&frame, delivery.await)?;
        Ok(frame)
    }

    /// Like [`Shared::send_frame`], without waiting: for a frame nobody waits on (a
    /// cancellation sent while giving up), which must not hold its caller up.
    async fn send_frame_detached(self: &Arc<Self>, bytes: Vec<u8>) {
        let patience = self.options.request_timeout;
        if let Ok((frame, delivery)) = self.start_frame(bytes, false, patience).await {
            let shared = self.clone();
            tokio::spawn(async move {
                let _ = shared.delivered(&frame, delivery.await);
            });
        }
    }

    /// Records one outgoing frame and starts its send. Only this part holds the send lock, so
    /// the record's order is the wire's and a stalled send never holds up another.
    async fn start_frame(
        &self,
        bytes: Vec<u8>,
        typed_by_user: bool,
        patience: Duration,
    ) -> Result<(Arc<Frame>, Delivery), SendError> {
        let _order = self.send_lock.lock().await;
        if self.closed.borrow().is_some() {
            return Err(SendError::Closed);
        }
        let frame = self.traffic.append_frame(Direction::Out, bytes, None);
        if typed_by_user && !frame.verdict.is_valid() {
            self.traffic.flag(frame.seq, Flag::InvalidUserFrame);
        }
        let headers = self.mirror_headers(&frame);
        let delivery = self.transport.send_with(frame.clone(), headers, patience);
        Ok((frame, delivery))
    }

    /// Flags a frame a stdio server did not take in time (the record shows it as sent, since
    /// it was, or was meant to be). An HTTP request that got no headers is in the record as
    /// its exchange, with the error.
    fn delivered(&self, frame: &Frame, result: Result<(), SendError>) -> Result<(), SendError> {
        use crate::transport::Stall;
        if let Err(SendError::Stalled(stall)) = &result {
            let total = frame.bytes.len() as u64 + 1;
            let unsent_bytes = match stall {
                Stall::InputNotRead { unsent, .. } => *unsent,
                Stall::QueuedBehind { .. } | Stall::QueueFull { .. } => total,
                Stall::NoResponseHeaders { .. } => return result,
            };
            self.traffic.flag(
                frame.seq,
                Flag::SendStalled {
                    unsent_bytes,
                    total_bytes: total,
                },
            );
        }
        result
    }

    fn on_closed(&self, report: CloseReport) {
        if self.closed.borrow().is_some() {
            return;
        }
        self.closed.send_replace(Some(report.clone()));
        self.lane.close();
        let pending: Vec<(RequestId, Pending)> = self.lock_calls().pending.drain().collect();
        for (id, p) in pending {
            p.end_unanswered(id, &self.events, Reply::Closed(report.clone()));
        }
        self.set_state(SessionState::Closed {
            cause: report.cause,
        });
    }
}
