//! The request path: sending a request with a fresh id, waiting for its response under a
//! timeout that progress restarts, giving up on timeout or cancel (with
//! `notifications/cancelled`), and turning the response or the failure into the call's result.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::sync::{Notify, oneshot};

use super::{CallOptions, Pending, Reply, RequestError, RpcError, Session, Shared};
use crate::event::{Event, RequestOutcome};
use crate::record::{Flag, GaveUp};
use crate::traffic::wall_now_us;
use crate::transport::SendError;
use crate::wire;

/// When a request started and how long it took to its outcome (result, error, timeout, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Timing {
    /// Wall clock when the request was sent, microseconds since the Unix epoch.
    pub started_wall_us: u64,
    pub duration_us: u64,
}

impl Session {
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

    pub(super) async fn request_with_seq(
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
        let message = wire::request(&id, method, params);
        let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
        if let Err(source) = s.send_authorized(bytes).await {
            s.forget(&id, None);
            return Err(s.send_failed(method, source).await);
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
        let message = wire::notification(method, params);
        let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
        self.shared.send_frame(bytes, false).await.map(|_| ())
    }

    /// Like [`Session::request`], and says when the request started (wall clock) and how long
    /// it took to its outcome, as the engine measured it: what a host keeps in its history.
    pub async fn request_timed(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> (Result<Value, RequestError>, Timing) {
        let started_wall_us = wall_now_us();
        let started = Instant::now();
        let result = self.request(method, params, options).await;
        let timing = Timing {
            started_wall_us,
            duration_us: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        };
        (result, timing)
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
    /// The error a request gets when its frame could not be sent.
    async fn send_failed(&self, method: &str, source: SendError) -> RequestError {
        let s = self;
        match source {
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
        }
    }
}
