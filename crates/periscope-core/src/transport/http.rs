//! Streamable HTTP (2025-03-26 … 2025-11-25): every message a POST; the answer is JSON, an SSE
//! stream, or 202; an optional standalone GET stream; `Mcp-Session-Id`; resumption with
//! `Last-Event-ID`; DELETE on close.
//!
//! Every exchange is recorded (headers redacted) before its body is read, and every frame
//! that comes back names the exchange that carried it.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::event_stream::{StreamEnd, read_body};
use super::exchange::{ExchangeError, HttpConnection, headers_of, lock};
use super::legacy_sse::LegacySse;
use super::response::{DEFAULT_RETRY, MAX_RESUMES, STREAM_OPEN_WAIT, response_ids};
use super::{
    CloseCause, CloseReport, Delivery, HttpProblem, Inbound, MirrorHeaders, SendError, SessionEnd,
    Stall, Transport, TransportKind,
};
use crate::config::HttpTarget;
use crate::limits::Limits;
use crate::traffic::Traffic;
use crate::vocabulary::start::UrlFault;
use crate::wire::{Frame, RequestId, Verdict};

/// How long closing waits for the server to answer DELETE.
const DELETE_WAIT: Duration = Duration::from_secs(3);
/// How long reading an error answer's body may take.
const ERROR_BODY_WAIT: Duration = Duration::from_secs(5);
/// Bytes of an error body quoted in a message.
const ERROR_BODY_QUOTE: usize = 300;

pub use crate::config::HttpMode;

/// The Streamable HTTP transport (and the legacy one it may fall back to). Its state is shared
/// with the sends and stream readers in flight, which outlive any one call.
pub struct StreamableHttp {
    inner: Arc<Inner>,
}

struct Inner {
    connection: Arc<HttpConnection>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    mode: HttpMode,
    /// Set once the legacy transport is in use (forced, or detected).
    legacy: tokio::sync::Mutex<Option<LegacySse>>,
    /// Whether the legacy transport is in use (readable without waiting on `legacy`).
    is_legacy: AtomicBool,
    /// Whether a POST ever succeeded: only the first one may trigger the fallback.
    spoke_streamable: AtomicBool,
    /// The task reading each request's response (JSON or SSE), so abandoning the request
    /// closes its stream.
    readers: Mutex<std::collections::HashMap<RequestId, tokio::task::AbortHandle>>,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot use {url:?}: {reason}")]
pub struct HttpTargetError {
    /// Redacted.
    pub url: String,
    pub reason: UrlFault,
}

impl StreamableHttp {
    pub fn open(
        target: &HttpTarget,
        traffic: Arc<Traffic>,
        inbound: mpsc::Sender<Inbound>,
        limits: Limits,
        mode: HttpMode,
    ) -> Result<StreamableHttp, HttpTargetError> {
        let error = |reason: UrlFault| HttpTargetError {
            url: crate::redact::url(&target.url),
            reason,
        };
        let url = reqwest::Url::parse(&target.url).map_err(|e| {
            error(UrlFault::NotAUrl {
                detail: e.to_string(),
            })
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(error(UrlFault::NotHttp));
        }
        for (name, value) in &target.headers {
            reqwest::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| error(UrlFault::BadHeaderName { name: name.clone() }))?;
            reqwest::header::HeaderValue::from_str(value)
                .map_err(|_| error(UrlFault::BadHeaderValue { name: name.clone() }))?;
        }
        let client = reqwest::Client::builder()
            // Redirects are followed by hand so each hop is recorded.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .pool_idle_timeout(crate::limits::HTTP_POOL_IDLE)
            .build()
            .map_err(|e| {
                error(UrlFault::ClientFailed {
                    detail: e.to_string(),
                })
            })?;
        Ok(StreamableHttp {
            inner: Arc::new(Inner {
                connection: Arc::new(HttpConnection::new(
                    client,
                    target.clone(),
                    traffic,
                    inbound,
                    limits,
                )),
                tasks: Mutex::new(Vec::new()),
                mode,
                legacy: tokio::sync::Mutex::new(None),
                is_legacy: AtomicBool::new(false),
                spoke_streamable: AtomicBool::new(false),
                readers: Mutex::new(Default::default()),
            }),
        })
    }
}

impl Inner {
    async fn send_legacy(&self, frame: &Frame, patience: Duration) -> Result<(), SendError> {
        let mut legacy = self.legacy.lock().await;
        if legacy.is_none() {
            *legacy = Some(LegacySse::open(self.connection.clone(), patience).await?);
            self.is_legacy.store(true, Ordering::SeqCst);
        }
        let legacy = legacy.as_ref().expect("opened above");
        legacy.send(&self.connection, frame, patience).await
    }

    fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) -> tokio::task::AbortHandle {
        let mut tasks = lock(&self.tasks);
        tasks.retain(|t| !t.is_finished());
        let handle = tokio::spawn(task);
        let abort = handle.abort_handle();
        tasks.push(handle);
        abort
    }

    /// One frame as one POST, until the response's headers are in (the body is read by a task
    /// of its own).
    async fn send(
        &self,
        frame: Arc<Frame>,
        mirrored: MirrorHeaders,
        patience: Duration,
    ) -> Result<(), SendError> {
        if self.mode == HttpMode::LegacySse || self.is_legacy.load(Ordering::SeqCst) {
            return self.send_legacy(&frame, patience).await;
        }
        let modern = self.connection.modern.load(Ordering::SeqCst);
        let mut extra = headers_of(&[
            (ACCEPT, "application/json, text/event-stream"),
            (CONTENT_TYPE, "application/json"),
        ]);
        for (name, value) in mirrored {
            // The session built these from the body with the spec's encoding, so they are
            // valid; a name or value that is not would be a bug, and is left out rather than
            // sent broken.
            if let (Ok(name), Ok(value)) = (
                reqwest::header::HeaderName::from_bytes(name.as_bytes()),
                reqwest::header::HeaderValue::from_str(&value),
            ) {
                extra.insert(name, value);
            }
        }
        let connection = &self.connection;
        let had_session = lock(&connection.session_id).is_some();
        let (seq, result) = connection
            .exchange(
                Method::POST,
                extra,
                Some(frame.bytes.to_vec()),
                Some(frame.seq),
                None,
                patience,
            )
            .await;
        let response = result.map_err(|e| match e {
            ExchangeError::NoHeaders(waited) => SendError::Stalled(Stall::NoResponseHeaders {
                method: "POST".into(),
                url: crate::redact::url(&connection.target.url),
                waited,
            }),
            failed @ ExchangeError::Failed { .. } => {
                super::legacy_sse::stalled_or_failed("POST", &connection.target.url, failed)
            }
        })?;
        let status = response.status();
        if !modern
            && let Some(id) = response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
        {
            *lock(&connection.session_id) = Some(id.to_string());
        }
        let first = !self.spoke_streamable.load(Ordering::SeqCst);
        if !modern
            && self.mode == HttpMode::Auto
            && first
            && matches!(status.as_u16(), 400 | 404 | 405)
        {
            // A 2024-11-05 server: the same frame goes again, over the legacy transport.
            return match self.send_legacy(&frame, patience).await {
                // Neither transport is there: what the user's URL answered to the POST is the
                // cause to name (the path is wrong), with both answers in words.
                Err(SendError::HttpProblem {
                    text,
                    problem: HttpProblem::Status { method, .. },
                }) if method == "GET" => Err(SendError::HttpProblem {
                    text: format!("the server answered the POST with HTTP {status}, and {text}"),
                    problem: HttpProblem::Status {
                        method: "POST".into(),
                        url: crate::redact::url(&connection.target.url),
                        status: status.as_u16(),
                        content_type: super::failure::content_type_of(response.headers()),
                    },
                }),
                other => other,
            };
        }
        if status.is_success() {
            self.spoke_streamable.store(true, Ordering::SeqCst);
        }
        if status == reqwest::StatusCode::NOT_FOUND && had_session {
            return Err(SendError::SessionExpired { exchange: seq });
        }
        if matches!(status.as_u16(), 401 | 403) {
            let header = response
                .headers()
                .get(reqwest::header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok());
            if status == reqwest::StatusCode::UNAUTHORIZED || header.is_some() {
                return Err(SendError::Unauthorized {
                    challenge: crate::auth::Challenge::parse(status.as_u16(), header)
                        .with_dpop_nonce(
                            response
                                .headers()
                                .get("dpop-nonce")
                                .and_then(|v| v.to_str().ok()),
                        ),
                    exchange: seq,
                });
            }
        }
        if !status.is_success() {
            let content_type = super::failure::content_type_of(response.headers());
            let body = read_body(
                response,
                connection.limits.max_error_body_bytes,
                ERROR_BODY_WAIT.min(patience),
            )
            .await;
            // A modern server answers a request it refuses (unsupported version, header
            // mismatch, unknown method) with 400/404 and the JSON-RPC error: that is the
            // request's response, and the session reads it like any other.
            if modern && body.truncated_from.is_none() {
                let waiting = request_ids(&frame.verdict);
                let verdict = crate::wire::classify(&body.bytes);
                if !waiting.is_empty()
                    && response_ids(&verdict).iter().any(|id| waiting.contains(id))
                {
                    let (_, verdict) = connection.deliver(body.bytes, None, None, seq).await;
                    let unanswered: HashSet<RequestId> = waiting
                        .into_iter()
                        .filter(|id| !response_ids(&verdict).contains(id))
                        .collect();
                    if !unanswered.is_empty() {
                        connection
                            .fail_waiting(&unanswered, format!("the server answered HTTP {status}"))
                            .await;
                    }
                    return Ok(());
                }
            }
            let quote: String =
                String::from_utf8_lossy(&body.bytes[..body.bytes.len().min(ERROR_BODY_QUOTE)])
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
            return Err(SendError::HttpProblem {
                text: format!(
                    "the server answered HTTP {status}{}",
                    if quote.trim().is_empty() {
                        String::new()
                    } else {
                        format!(": {}", quote.trim())
                    }
                ),
                problem: HttpProblem::Status {
                    method: "POST".into(),
                    url: crate::redact::url(&connection.target.url),
                    status: status.as_u16(),
                    content_type,
                },
            });
        }
        let waiting = request_ids(&frame.verdict);
        if status == reqwest::StatusCode::ACCEPTED || status == reqwest::StatusCode::NO_CONTENT {
            if !waiting.is_empty() {
                connection
                    .fail_waiting(
                        &waiting,
                        format!("the server answered a request with HTTP {status} and no body"),
                    )
                    .await;
            }
            return Ok(());
        }
        let shared = connection.clone();
        let ids: Vec<RequestId> = waiting.iter().cloned().collect();
        // A 2026-07-28 listen stream may rightly be silent for hours (as the legacy GET stream
        // may): no idle limit, but each event must still arrive within its time.
        let idle = (!is_listen(&frame.verdict)).then_some(patience);
        let reader =
            self.spawn(shared.read_response(response, seq, frame.seq, waiting, patience, idle));
        let mut readers = lock(&self.readers);
        readers.retain(|_, r| !r.is_finished());
        for id in ids {
            readers.insert(id, reader.clone());
        }
        Ok(())
    }
}

/// Request ids a frame carries (to know when a stream has delivered all its answers).
fn request_ids(verdict: &Verdict) -> HashSet<RequestId> {
    match verdict {
        Verdict::Request { id, .. } => HashSet::from([id.clone()]),
        Verdict::Batch { items } => items.iter().flat_map(request_ids).collect(),
        _ => HashSet::new(),
    }
}

/// Whether the frame opens a 2026-07-28 listen stream (`subscriptions/listen`).
fn is_listen(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Request { method, .. } if method == crate::subscription::LISTEN_METHOD)
}

#[async_trait]
impl Transport for StreamableHttp {
    fn set_bearer(&self, token: Option<String>) {
        *lock(&self.inner.connection.bearer) = token;
    }

    fn set_presenter(&self, presenter: Arc<dyn crate::auth::Authorizer>) {
        *lock(&self.inner.connection.presenter) = Some(presenter);
    }

    fn send(&self, frame: Arc<Frame>, patience: Duration) -> Delivery {
        self.send_with(frame, Vec::new(), patience)
    }

    fn send_with(&self, frame: Arc<Frame>, headers: MirrorHeaders, patience: Duration) -> Delivery {
        let inner = self.inner.clone();
        Box::pin(async move {
            // The POST itself waits at most `patience` for headers; opening the legacy stream
            // and its POST share the same budget.
            match tokio::time::timeout(patience, inner.send(frame, headers, patience)).await {
                Ok(result) => result,
                Err(_) => Err(SendError::Stalled(Stall::NoResponseHeaders {
                    method: "POST".into(),
                    url: crate::redact::url(&inner.connection.target.url),
                    waited: patience,
                })),
            }
        })
    }

    fn abandon(&self, id: &RequestId) {
        // Only a stream that carries nothing else: a batch's stream may still answer others.
        let mut readers = lock(&self.inner.readers);
        if let Some(reader) = readers.remove(id)
            && !readers.values().any(|r| r.id() == reader.id())
        {
            reader.abort();
        }
    }

    fn speak_modern(&self, version: Option<&str>) {
        let connection = &self.inner.connection;
        connection.modern.store(version.is_some(), Ordering::SeqCst);
        *lock(&connection.protocol_version) = version.map(str::to_string);
        if version.is_some() {
            *lock(&connection.session_id) = None;
        }
    }

    async fn reset_session(&self) {
        let inner = &self.inner;
        *lock(&inner.connection.session_id) = None;
        *lock(&inner.connection.protocol_version) = None;
        for task in lock(&inner.tasks).drain(..) {
            task.abort(); // the old session's standalone stream
        }
    }

    async fn name(&self) -> TransportKind {
        if self.inner.is_legacy.load(Ordering::SeqCst) {
            TransportKind::LegacySse
        } else {
            TransportKind::StreamableHttp
        }
    }

    async fn negotiated(&self, protocol_version: &str) {
        let inner = &self.inner;
        if inner.is_legacy.load(Ordering::SeqCst) {
            return; // the legacy transport has one stream already, and no version header
        }
        *lock(&inner.connection.protocol_version) = Some(protocol_version.to_string());
        // The standalone stream for server-initiated messages; 405 means the server offers none.
        // Wait until the server has answered the first GET, so that a request sent right after
        // the handshake can already be followed by the server's own requests on this stream.
        let shared = inner.connection.clone();
        let (opened_tx, opened_rx) = tokio::sync::oneshot::channel::<()>();
        inner.spawn(async move {
            let mut opened = Some(opened_tx);
            let mut last_id: Option<String> = None;
            let mut retry = DEFAULT_RETRY;
            for attempt in 0..=MAX_RESUMES {
                if attempt > 0 {
                    tokio::time::sleep(retry).await;
                }
                let mut extra = headers_of(&[(ACCEPT, "text/event-stream")]);
                if let Some(id) = last_id.as_deref().and_then(|i| i.parse().ok()) {
                    extra.insert("last-event-id", id);
                }
                let (seq, result) = shared
                    .exchange(Method::GET, extra, None, None, None, STREAM_OPEN_WAIT)
                    .await;
                if let Some(tx) = opened.take() {
                    let _ = tx.send(());
                }
                let Ok(response) = result else { return };
                if !response.status().is_success() {
                    return; // 405: no standalone stream; anything else is in the record
                }
                let mut none = HashSet::new();
                // This stream may rightly be silent for hours: no idle limit, but an event
                // must still arrive within its time.
                let end = shared
                    .read_sse(response, seq, None, &mut none, &mut last_id, &mut retry)
                    .await;
                if matches!(end, StreamEnd::EventTooSlow(_)) {
                    return; // a slowloris stream is not reopened
                }
            }
        });
        let _ = tokio::time::timeout(Duration::from_secs(5), opened_rx).await;
    }

    async fn shutdown(&self) -> CloseReport {
        let inner = &self.inner;
        for task in lock(&inner.tasks).drain(..) {
            task.abort();
        }
        if inner.is_legacy.load(Ordering::SeqCst) {
            // A send may hold the lock while it waits on the server; it gives up within its
            // patience, and closing waits no longer than that.
            if let Ok(legacy) = tokio::time::timeout(DELETE_WAIT, inner.legacy.lock()).await
                && let Some(legacy) = legacy.as_ref()
            {
                return legacy.shutdown();
            }
            return CloseReport::new(CloseCause::LegacyStreamClosed, Vec::new());
        }
        let mut session = None;
        let connection = &inner.connection;
        if lock(&connection.session_id).is_some() {
            let (_, result) = connection
                .exchange(
                    Method::DELETE,
                    HeaderMap::new(),
                    None,
                    None,
                    None,
                    DELETE_WAIT,
                )
                .await;
            session = Some(match result {
                Err(ExchangeError::NoHeaders(waited)) => SessionEnd::DeleteUnanswered {
                    waited_s: waited.as_secs(),
                },
                Ok(r) if r.status().is_success() => SessionEnd::Deleted,
                Ok(r) if r.status() == reqwest::StatusCode::METHOD_NOT_ALLOWED => {
                    SessionEnd::DeleteNotAllowed
                }
                Ok(r) => SessionEnd::DeleteStatus {
                    status: r.status().as_u16(),
                },
                Err(ExchangeError::Failed { text, .. }) => {
                    SessionEnd::DeleteFailed { detail: text }
                }
            });
        }
        CloseReport::new(CloseCause::Disconnected { session }, Vec::new())
    }
}

impl Drop for StreamableHttp {
    fn drop(&mut self) {
        for task in lock(&self.inner.tasks).drain(..) {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::classify;

    #[test]
    fn request_ids_are_collected_from_batches() {
        let v =
            classify(br#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"}]"#);
        assert_eq!(request_ids(&v), HashSet::from([RequestId::Number(1)]));
    }
}
