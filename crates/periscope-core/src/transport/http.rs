//! Streamable HTTP (2025-03-26 … 2025-11-25): every message a POST; the answer is JSON, an SSE
//! stream, or 202; an optional standalone GET stream; `Mcp-Session-Id`; resumption with
//! `Last-Event-ID`; DELETE on close.
//!
//! Every exchange is recorded (headers redacted) before its body is read, and every frame
//! that comes back names the exchange that carried it.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};
use reqwest::{Method, Response};
use sse_stream::SseStream;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::exchange::{HttpConnection, describe, headers_of, lock};
use super::legacy_sse::LegacySse;
use super::{CloseCause, CloseReport, Inbound, SendError, SessionEnd, Transport, TransportKind};
use crate::config::HttpTarget;
use crate::record::Flag;
use crate::traffic::Traffic;
use crate::wire::{Frame, RequestId, Verdict};

/// How long to wait before reconnecting a broken stream when the server gave no `retry`.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);
/// Reconnections of one stream before giving up.
const MAX_RESUMES: usize = 5;
/// How long closing waits for the server to answer DELETE.
const DELETE_WAIT: Duration = Duration::from_secs(3);
/// Bytes of an error body quoted in a message.
const ERROR_BODY_QUOTE: usize = 300;

pub use crate::config::HttpMode;

pub struct StreamableHttp {
    connection: Arc<HttpConnection>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    mode: HttpMode,
    /// Set once the legacy transport is in use (forced, or detected).
    legacy: tokio::sync::Mutex<Option<LegacySse>>,
    /// Whether a POST ever succeeded: only the first one may trigger the fallback.
    spoke_streamable: std::sync::atomic::AtomicBool,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot use {url:?}: {reason}")]
pub struct HttpTargetError {
    pub url: String,
    pub reason: String,
}

impl StreamableHttp {
    pub fn open(
        target: &HttpTarget,
        traffic: Arc<Traffic>,
        inbound: mpsc::Sender<Inbound>,
        max_frame_bytes: usize,
        mode: HttpMode,
    ) -> Result<StreamableHttp, HttpTargetError> {
        let error = |reason: String| HttpTargetError {
            url: crate::redact::url(&target.url),
            reason,
        };
        let url = reqwest::Url::parse(&target.url).map_err(|e| error(e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(error("only http and https URLs are supported".into()));
        }
        for (name, value) in &target.headers {
            reqwest::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| error(format!("{name:?} is not a valid header name")))?;
            reqwest::header::HeaderValue::from_str(value)
                .map_err(|_| error(format!("the value of header {name:?} is not valid")))?;
        }
        let client = reqwest::Client::builder()
            // Redirects are followed by hand so each hop is recorded.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| error(e.to_string()))?;
        Ok(StreamableHttp {
            connection: Arc::new(HttpConnection::new(
                client,
                target.clone(),
                traffic,
                inbound,
                max_frame_bytes,
            )),
            tasks: Mutex::new(Vec::new()),
            mode,
            legacy: tokio::sync::Mutex::new(None),
            spoke_streamable: std::sync::atomic::AtomicBool::new(false),
        })
    }

    async fn send_legacy(&self, frame: &Frame) -> Result<(), SendError> {
        let mut legacy = self.legacy.lock().await;
        if legacy.is_none() {
            *legacy = Some(LegacySse::open(self.connection.clone()).await?);
        }
        let legacy = legacy.as_ref().expect("opened above");
        legacy.send(&self.connection, frame).await
    }

    fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        let mut tasks = lock(&self.tasks);
        tasks.retain(|t| !t.is_finished());
        tasks.push(tokio::spawn(task));
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

fn response_ids(verdict: &Verdict) -> Vec<RequestId> {
    match verdict {
        Verdict::Response { id: Some(id), .. } => vec![id.clone()],
        Verdict::Batch { items } => items.iter().flat_map(response_ids).collect(),
        _ => Vec::new(),
    }
}

impl HttpConnection {
    /// Reads an SSE body: each event's data is a frame. Returns the last event id and retry.
    async fn read_sse(
        &self,
        response: Response,
        exchange: u64,
        waiting: &mut HashSet<RequestId>,
        last_id: &mut Option<String>,
        retry: &mut Duration,
    ) -> Result<(), String> {
        let mut events = SseStream::from_bytes_stream(response.bytes_stream());
        while let Some(event) = events.next().await {
            let event = event.map_err(|e| format!("the event stream broke: {e}"))?;
            if let Some(id) = event.id {
                *last_id = Some(id);
            }
            if let Some(ms) = event.retry {
                *retry = Duration::from_millis(ms);
            }
            // A priming event carries an id and empty data: nothing to deliver.
            match event.data {
                Some(data) if !data.is_empty() => {
                    let (_, verdict) = self.deliver(data.into_bytes(), exchange).await;
                    for id in response_ids(&verdict) {
                        waiting.remove(&id);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Reads a POST's response body, resuming with GET + `Last-Event-ID` when an SSE stream
    /// ends before all the requests it carried were answered.
    async fn read_response(
        self: Arc<Self>,
        response: Response,
        exchange: u64,
        mut waiting: HashSet<RequestId>,
    ) {
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        if content_type.starts_with("text/event-stream") {
            let mut last_id = None;
            let mut retry = DEFAULT_RETRY;
            let mut response = response;
            let mut exchange = exchange;
            for _ in 0..=MAX_RESUMES {
                let result = self
                    .read_sse(response, exchange, &mut waiting, &mut last_id, &mut retry)
                    .await;
                if waiting.is_empty() {
                    return;
                }
                let Some(resume_from) = last_id.clone() else {
                    self.fail_waiting(&waiting, result.err().unwrap_or_else(|| {
                        "the server closed the event stream before answering, without an event id to resume from".into()
                    }))
                    .await;
                    return;
                };
                tokio::time::sleep(retry).await;
                let mut extra = headers_of(&[(ACCEPT, "text/event-stream")]);
                if let Ok(v) = resume_from.parse() {
                    extra.insert("last-event-id", v);
                }
                let (seq, resumed) = self.exchange(Method::GET, extra, None, None, None).await;
                match resumed {
                    Ok(r) if r.status().is_success() => {
                        response = r;
                        exchange = seq;
                    }
                    Ok(r) => {
                        let why = format!("resuming the event stream got HTTP {}", r.status());
                        self.fail_waiting(&waiting, why).await;
                        return;
                    }
                    Err(e) => {
                        self.fail_waiting(
                            &waiting,
                            format!("resuming the event stream failed: {e}"),
                        )
                        .await;
                        return;
                    }
                }
            }
            self.fail_waiting(
                &waiting,
                format!("the event stream broke {MAX_RESUMES} times"),
            )
            .await;
        } else {
            // JSON (or anything else: recorded as it is, and the verdict says what it is).
            match response.bytes().await {
                Ok(body) if !body.is_empty() => {
                    let (seq, verdict) = self.deliver(body.to_vec(), exchange).await;
                    if !content_type.starts_with("application/json") {
                        self.traffic.flag(
                            seq,
                            Flag::UnexpectedContentType {
                                content_type: content_type.clone(),
                            },
                        );
                    }
                    for id in response_ids(&verdict) {
                        waiting.remove(&id);
                    }
                    if !waiting.is_empty() {
                        let why = match &verdict {
                            v if v.is_valid() => {
                                "the server's answer did not include the response".to_string()
                            }
                            v => format!(
                                "the server answered with {} that is {}",
                                if content_type.is_empty() {
                                    "a body".to_string()
                                } else {
                                    content_type.clone()
                                },
                                v.summary()
                            ),
                        };
                        self.fail_waiting(&waiting, why).await;
                    }
                }
                Ok(_) => {
                    if !waiting.is_empty() {
                        self.fail_waiting(
                            &waiting,
                            "the server answered 200 with an empty body".into(),
                        )
                        .await;
                    }
                }
                Err(e) => {
                    self.fail_waiting(
                        &waiting,
                        format!("reading the response failed: {}", describe(&e)),
                    )
                    .await
                }
            }
        }
    }

    /// Tells the session that requests carried by a broken exchange will get no answer. No
    /// error response is invented (raw first): the session fails those calls with `reason`.
    async fn fail_waiting(&self, waiting: &HashSet<RequestId>, reason: String) {
        let _ = self
            .inbound
            .send(Inbound::Undeliverable {
                ids: waiting.iter().cloned().collect(),
                reason,
            })
            .await;
    }
}

#[async_trait]
impl Transport for StreamableHttp {
    fn set_bearer(&self, token: Option<String>) {
        *lock(&self.connection.bearer) = token;
    }

    async fn send(&self, frame: &Frame) -> Result<(), SendError> {
        if self.mode == HttpMode::LegacySse || self.legacy.lock().await.is_some() {
            return self.send_legacy(frame).await;
        }
        let extra = headers_of(&[
            (ACCEPT, "application/json, text/event-stream"),
            (CONTENT_TYPE, "application/json"),
        ]);
        let had_session = lock(&self.connection.session_id).is_some();
        let (seq, result) = self
            .connection
            .exchange(
                Method::POST,
                extra,
                Some(frame.bytes.to_vec()),
                Some(frame.seq),
                None,
            )
            .await;
        let response = result.map_err(|e| {
            SendError::Http(format!(
                "POST {} failed: {e}",
                crate::redact::url(&self.connection.target.url)
            ))
        })?;
        let status = response.status();
        if let Some(id) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            *lock(&self.connection.session_id) = Some(id.to_string());
        }
        let first = !self
            .spoke_streamable
            .load(std::sync::atomic::Ordering::SeqCst);
        if self.mode == HttpMode::Auto && first && matches!(status.as_u16(), 400 | 404 | 405) {
            // A 2024-11-05 server: the same frame goes again, over the legacy transport.
            return self.send_legacy(frame).await;
        }
        if status.is_success() {
            self.spoke_streamable
                .store(true, std::sync::atomic::Ordering::SeqCst);
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
                    challenge: crate::auth::Challenge::parse(status.as_u16(), header),
                    exchange: seq,
                });
            }
        }
        if !status.is_success() {
            let body = response.bytes().await.unwrap_or_default();
            let quote: String = String::from_utf8_lossy(&body[..body.len().min(ERROR_BODY_QUOTE)])
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            return Err(SendError::Http(format!(
                "the server answered HTTP {status}{}",
                if quote.trim().is_empty() {
                    String::new()
                } else {
                    format!(": {}", quote.trim())
                }
            )));
        }
        let waiting = request_ids(&frame.verdict);
        if status == reqwest::StatusCode::ACCEPTED || status == reqwest::StatusCode::NO_CONTENT {
            if !waiting.is_empty() {
                self.connection
                    .fail_waiting(
                        &waiting,
                        format!("the server answered a request with HTTP {status} and no body"),
                    )
                    .await;
            }
            return Ok(());
        }
        let shared = self.connection.clone();
        self.spawn(shared.read_response(response, seq, waiting));
        Ok(())
    }

    async fn reset_session(&self) {
        *lock(&self.connection.session_id) = None;
        *lock(&self.connection.protocol_version) = None;
        for task in lock(&self.tasks).drain(..) {
            task.abort(); // the old session's standalone stream
        }
    }

    async fn name(&self) -> TransportKind {
        if self.legacy.lock().await.is_some() {
            TransportKind::LegacySse
        } else {
            TransportKind::StreamableHttp
        }
    }

    async fn negotiated(&self, protocol_version: &str) {
        if self.legacy.lock().await.is_some() {
            return; // the legacy transport has one stream already, and no version header
        }
        *lock(&self.connection.protocol_version) = Some(protocol_version.to_string());
        // The standalone stream for server-initiated messages; 405 means the server offers none.
        // Wait until the server has answered the first GET, so that a request sent right after
        // the handshake can already be followed by the server's own requests on this stream.
        let shared = self.connection.clone();
        let (opened_tx, opened_rx) = tokio::sync::oneshot::channel::<()>();
        self.spawn(async move {
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
                let (seq, result) = shared.exchange(Method::GET, extra, None, None, None).await;
                if let Some(tx) = opened.take() {
                    let _ = tx.send(());
                }
                let Ok(response) = result else { return };
                if !response.status().is_success() {
                    return; // 405: no standalone stream; anything else is in the record
                }
                let mut none = HashSet::new();
                let _ = shared
                    .read_sse(response, seq, &mut none, &mut last_id, &mut retry)
                    .await;
            }
        });
        let _ = tokio::time::timeout(Duration::from_secs(5), opened_rx).await;
    }

    async fn shutdown(&self) -> CloseReport {
        for task in lock(&self.tasks).drain(..) {
            task.abort();
        }
        if let Some(legacy) = self.legacy.lock().await.as_ref() {
            return legacy.shutdown();
        }
        let mut session = None;
        if lock(&self.connection.session_id).is_some() {
            let delete =
                self.connection
                    .exchange(Method::DELETE, HeaderMap::new(), None, None, None);
            session = Some(match tokio::time::timeout(DELETE_WAIT, delete).await {
                Err(_) => SessionEnd::DeleteUnanswered {
                    waited: DELETE_WAIT,
                },
                Ok((_, Ok(r))) if r.status().is_success() => SessionEnd::Deleted,
                Ok((_, Ok(r))) if r.status() == reqwest::StatusCode::METHOD_NOT_ALLOWED => {
                    SessionEnd::DeleteNotAllowed
                }
                Ok((_, Ok(r))) => SessionEnd::DeleteStatus { status: r.status() },
                Ok((_, Err(error))) => SessionEnd::DeleteFailed { error },
            });
        }
        CloseReport::new(CloseCause::Disconnected { session }, Vec::new())
    }
}

impl Drop for StreamableHttp {
    fn drop(&mut self) {
        for task in lock(&self.tasks).drain(..) {
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
            classify(br#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"}]"#)
                .0;
        assert_eq!(request_ids(&v), HashSet::from([RequestId::Number(1)]));
    }
}
