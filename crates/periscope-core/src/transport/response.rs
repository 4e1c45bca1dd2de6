//! Reading the answer to a Streamable HTTP POST: a JSON body is one frame, an SSE stream one
//! frame per event, resumed with GET + `Last-Event-ID` when it ends before its answers (never
//! in the 2026-07-28 era, where the session decides whether to send again); what cannot be
//! answered is handed to the session as undeliverable, typed where a host can advise on it.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use reqwest::Method;
use reqwest::Response;
use reqwest::header::{ACCEPT, CONTENT_TYPE};

use super::event_stream::{EventStream, Next, StreamEnd, read_body};
use super::exchange::{HttpConnection, headers_of};
use super::{HttpProblem, Inbound, Unanswered};
use crate::record::Flag;
use crate::wire::{RequestId, Verdict};

/// How long to wait before reconnecting a broken stream when the server gave no `retry`.
pub(super) const DEFAULT_RETRY: Duration = Duration::from_secs(1);
/// The longest `retry` a server may ask for before a reconnection.
pub(super) const MAX_RETRY: Duration = Duration::from_secs(30);
/// Reconnections of one stream before giving up.
pub(super) const MAX_RESUMES: usize = 5;
/// How long opening the standalone GET stream (or resuming one) waits for response headers.
pub(super) const STREAM_OPEN_WAIT: Duration = Duration::from_secs(10);

/// The responses a frame carries (to know which requests a stream has answered).
pub(super) fn response_ids(verdict: &Verdict) -> Vec<RequestId> {
    match verdict {
        Verdict::Response { id: Some(id), .. } => vec![id.clone()],
        Verdict::Batch { items } => items.iter().flat_map(response_ids).collect(),
        _ => Vec::new(),
    }
}

impl HttpConnection {
    /// Reads an SSE body: each event's data is a frame. Keeps the last event id and retry, and
    /// says how the stream ended.
    pub(super) async fn read_sse(
        &self,
        response: Response,
        exchange: u64,
        idle: Option<Duration>,
        waiting: &mut HashSet<RequestId>,
        last_id: &mut Option<String>,
        retry: &mut Duration,
    ) -> StreamEnd {
        let mut events = EventStream::new(response, &self.limits, idle);
        loop {
            let (event, end) = match events.next().await {
                Next::Event(event) => (event, None),
                Next::End {
                    why,
                    partial: Some(event),
                } => {
                    let cut = why.cut();
                    (event, Some((why, cut)))
                }
                Next::End { why, partial: None } => return why,
            };
            if let Some(id) = &event.id {
                *last_id = Some(id.clone());
            }
            if let Some(ms) = event.retry {
                *retry = Duration::from_millis(ms).min(MAX_RETRY);
            }
            // A priming event carries an id and empty data: nothing to deliver.
            if !event.data.is_empty() {
                let (_, verdict) = self
                    .deliver(
                        event.data,
                        event.data_truncated_from,
                        end.as_ref().map(|(_, cut)| *cut),
                        exchange,
                    )
                    .await;
                for id in response_ids(&verdict) {
                    waiting.remove(&id);
                }
            }
            if let Some((why, _)) = end {
                return why;
            }
        }
    }

    /// Reads a POST's response body, resuming with GET + `Last-Event-ID` when an SSE stream
    /// ends before all the requests it carried were answered. `patience`: the request's
    /// timeout, which bounds a JSON body's arrival; `idle`: an SSE stream's longest silence.
    pub(super) async fn read_response(
        self: Arc<Self>,
        response: Response,
        exchange: u64,
        request_seq: u64,
        mut waiting: HashSet<RequestId>,
        patience: Duration,
        idle: Option<Duration>,
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
                let end = self
                    .read_sse(
                        response,
                        exchange,
                        idle,
                        &mut waiting,
                        &mut last_id,
                        &mut retry,
                    )
                    .await;
                if waiting.is_empty() {
                    return;
                }
                if self.modern.load(Ordering::SeqCst) {
                    // 2026-07-28 streams cannot be resumed; the session decides whether to send
                    // the request again. A stream cut by a limit is not worth a new request:
                    // the same server would do it again.
                    let why = match end {
                        StreamEnd::Idle(_) | StreamEnd::EventTooSlow(_) => Unanswered::Other(
                            format!("{end} (2026-07-28 streams are not resumed)"),
                        ),
                        StreamEnd::Closed => Unanswered::StreamBroke {
                            reason: "the server closed the response stream before answering (2026-07-28 streams are not resumed)".into(),
                            request_seq,
                        },
                        StreamEnd::Broke(_) => Unanswered::StreamBroke {
                            reason: format!("{end} (2026-07-28 streams are not resumed)"),
                            request_seq,
                        },
                    };
                    self.fail_with(&waiting, why).await;
                    return;
                }
                let resume_from = match (&end, last_id.clone()) {
                    // Cut by a limit: resuming would let the same server do it again.
                    (StreamEnd::Idle(_) | StreamEnd::EventTooSlow(_), _) => {
                        self.fail_waiting(&waiting, end.to_string()).await;
                        return;
                    }
                    (_, Some(id)) => id,
                    (StreamEnd::Closed, None) => {
                        self.fail_waiting(
                            &waiting,
                            "the server closed the event stream before answering, without an event id to resume from".into(),
                        )
                        .await;
                        return;
                    }
                    (_, None) => {
                        self.fail_waiting(&waiting, end.to_string()).await;
                        return;
                    }
                };
                tokio::time::sleep(retry).await;
                let mut extra = headers_of(&[(ACCEPT, "text/event-stream")]);
                if let Ok(v) = resume_from.parse() {
                    extra.insert("last-event-id", v);
                }
                let (seq, resumed) = self
                    .exchange(Method::GET, extra, None, None, None, STREAM_OPEN_WAIT)
                    .await;
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
            let body = read_body(response, self.limits.max_frame_bytes, patience).await;
            if body.bytes.is_empty() && body.truncated_from.is_none() {
                if !waiting.is_empty() {
                    let why = match body.cut {
                        Some((_, why)) => why,
                        None => "the server answered 200 with an empty body".into(),
                    };
                    self.fail_waiting(&waiting, why).await;
                }
                return;
            }
            let cut = body.cut.as_ref().map(|(cut, _)| *cut);
            let (seq, verdict) = self
                .deliver(body.bytes, body.truncated_from, cut, exchange)
                .await;
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
                let why = match (&body.cut, &verdict) {
                    (Some((_, why)), _) => why.clone(),
                    (None, v) if v.is_valid() => {
                        "the server's answer did not include the response".to_string()
                    }
                    (None, v) => format!(
                        "the server answered with {} that is {}",
                        if content_type.is_empty() {
                            "a body".to_string()
                        } else {
                            content_type.clone()
                        },
                        v.summary()
                    ),
                };
                if body.cut.is_none() && !content_type.starts_with("application/json") {
                    let problem = HttpProblem::ContentType {
                        content_type: content_type.clone(),
                    };
                    self.fail_with(
                        &waiting,
                        Unanswered::Problem {
                            reason: why,
                            problem,
                        },
                    )
                    .await;
                    return;
                }
                self.fail_waiting(&waiting, why).await;
            }
        }
    }

    /// Tells the session that requests carried by a broken exchange will get no answer. No
    /// error response is invented (raw first): the session fails those calls with `reason`.
    pub(super) async fn fail_waiting(&self, waiting: &HashSet<RequestId>, reason: String) {
        self.fail_with(waiting, Unanswered::Other(reason)).await;
    }

    pub(super) async fn fail_with(&self, waiting: &HashSet<RequestId>, why: Unanswered) {
        let _ = self
            .inbound
            .send(Inbound::Undeliverable {
                ids: waiting.iter().cloned().collect(),
                why,
            })
            .await;
    }
}
