//! The request path: sending a request with a fresh id, waiting for its response under a
//! timeout that progress restarts, giving up on timeout or cancel (with
//! `notifications/cancelled`), and turning the response or the failure into the call's result.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::sync::{Notify, oneshot};

use super::{CallOptions, Pending, Reply, RequestError, RpcError, Session, Shared};
use crate::cache_hint::CacheReuse;
use crate::event::{Event, RequestOutcome};
use crate::record::{Flag, GaveUp};
use crate::traffic::wall_now_us;
use crate::transport::{HttpProblem, SendError, Unanswered};
use crate::vocabulary::Problem;
use crate::vocabulary::method::names;
use crate::wire::{self, RequestId};

/// When a request started and how long it took to its outcome (result, error, timeout, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Timing {
    /// Wall clock when the request was sent, microseconds since the Unix epoch.
    pub started_wall_us: u64,
    pub duration_us: u64,
    /// The response frame the result came in, for a host to link the call to Traffic (`None`:
    /// no response, or a result from the cache, or timed by a host around its own work).
    #[serde(default)]
    pub response_seq: Option<u64>,
}

/// A request's result, where it came from: the cache (`reused`) or the response frame `seq`.
pub(crate) struct Answered {
    pub result: Value,
    pub reused: Option<CacheReuse>,
    pub seq: Option<u64>,
}

/// Runs `work` (a request, or a typed feature call such as `read_resource`) and says when it
/// started and how long it took: the one clock every host's history uses.
pub async fn timed<T>(work: impl std::future::Future<Output = T>) -> (T, Timing) {
    let started_wall_us = wall_now_us();
    let started = Instant::now();
    let value = work.await;
    let timing = Timing {
        started_wall_us,
        duration_us: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        response_seq: None,
    };
    (value, timing)
}

impl Session {
    /// Sends a request and waits for its result. In the modern era, a server that needs
    /// input first (`input_required`) gets it from the host and the request goes again, with a
    /// new id, until it completes; a server that refuses the protocol version gets the request
    /// again in one it names.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> Result<Value, RequestError> {
        self.request_cached(method, params, options)
            .await
            .map(|(result, _)| result)
    }

    /// Like [`Session::request`], and says when the result came from the cache rather than
    /// the server (a host shows it, with the result's own hints: [`CacheHint::of`]).
    ///
    /// [`CacheHint::of`]: crate::cache_hint::CacheHint::of
    pub async fn request_cached(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> Result<(Value, Option<CacheReuse>), RequestError> {
        self.request_answered(method, params, options)
            .await
            .map(|answered| (answered.result, answered.reused))
    }

    /// Like [`Session::request_cached`], and names the response frame the result came in
    /// (none when it came from the cache): what a host flags when the result fails a check of
    /// its own (a skill file that does not match its digest, `crate::skills`).
    pub(crate) async fn request_answered(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> Result<Answered, RequestError> {
        let s = &self.shared;
        s.refuse(method, params.as_ref()).await?;
        if s.modern_version().is_some() && !options.fresh {
            let generation = s.sign_ins.load(std::sync::atomic::Ordering::SeqCst);
            let hit = s.lock_cache().get(method, params.as_ref(), generation);
            if let Some(hit) = hit {
                let reuse = CacheReuse {
                    age_ms: hit.age.as_millis() as u64,
                    left_ms: hit.left.as_millis() as u64,
                };
                let _ = s.events.send(Event::FromCache {
                    method: method.into(),
                    age_ms: reuse.age_ms,
                    left_ms: reuse.left_ms,
                    private: hit.private,
                });
                return Ok(Answered {
                    result: hit.result,
                    reused: Some(reuse),
                    seq: None,
                });
            }
        }
        let mut sent = params.clone();
        let mut round = 0;
        // The response frame whose inputs the next sending answers: it makes that request a
        // round of this call in the record.
        let mut asked_by = None;
        let mut version_retried = false;
        let mut reissued = false;
        let mut next_id = None;
        loop {
            let answer = self
                .request_once(
                    method,
                    sent.clone(),
                    options.clone(),
                    next_id.take(),
                    asked_by,
                )
                .await;
            let (result, seq) = match answer {
                Err(RequestError::StreamBroke {
                    reason,
                    seq: broken,
                    ..
                }) => {
                    // 2026-07-28 streams are not resumed: a request that only reads goes again,
                    // once, as a new request; the record flags the broken one with its successor.
                    if !reissued && crate::era::safe_to_reissue(method) {
                        let id = s.fresh_id();
                        s.traffic.flag(
                            broken,
                            Flag::StreamBroke {
                                reissued_as: Some(id.clone()),
                            },
                        );
                        let _ = s.events.send(Event::Warning(Problem::Reissued {
                            method: method.into(),
                            detail: reason.clone(),
                            id: id.to_string(),
                        }));
                        reissued = true;
                        next_id = Some(id);
                        continue;
                    }
                    s.traffic
                        .flag(broken, Flag::StreamBroke { reissued_as: None });
                    return Err(RequestError::StreamBroke {
                        method: method.into(),
                        reason,
                        seq: broken,
                        not_reissued: Some(if reissued {
                            super::NotReissued::AlreadyReissued
                        } else {
                            super::NotReissued::MayRepeatEffect
                        }),
                    });
                }
                Err(RequestError::Rpc { error, .. })
                    if !version_retried
                        && error.code == crate::wire::error_code::UNSUPPORTED_PROTOCOL_VERSION
                        && s.modern_version().is_some() =>
                {
                    let supported = error.data.as_ref().and_then(|d| d.get("supported"));
                    let Some(version) = supported.and_then(crate::era::pick_modern_version) else {
                        return Err(RequestError::Rpc {
                            method: method.into(),
                            error,
                        });
                    };
                    let _ = s.events.send(Event::Warning(Problem::VersionRetried {
                        method: method.into(),
                        refused: s.modern_version().unwrap_or_default(),
                        version: version.clone(),
                    }));
                    s.speak(Some(&version));
                    version_retried = true;
                    continue;
                }
                other => other?,
            };
            if s.modern_version().is_some() && method == names::TOOLS_LIST {
                s.learn_tools(&result).await;
            }
            if s.modern_version().is_none() || !super::modern::needs_input(method, &result) {
                if s.modern_version().is_some() && round == 0 {
                    let generation = s.sign_ins.load(std::sync::atomic::Ordering::SeqCst);
                    s.lock_cache()
                        .put(method, params.as_ref(), &result, generation);
                }
                return Ok(Answered {
                    result,
                    reused: None,
                    seq: Some(seq),
                });
            }
            round += 1;
            if round > super::modern::MAX_INPUT_ROUNDS {
                return Err(RequestError::Refused {
                    method: method.into(),
                    refusal: crate::era::ModernRefusal::TooManyRounds {
                        rounds: (round - 1) as u64,
                    },
                });
            }
            let asked = result
                .get("inputRequests")
                .and_then(Value::as_object)
                .map(|requests| {
                    requests
                        .iter()
                        .map(|(key, r)| {
                            let method = r.get("method").and_then(Value::as_str).unwrap_or("?");
                            (key.clone(), method.to_string())
                        })
                        .collect()
                })
                .unwrap_or_default();
            let _ = s.events.send(Event::InputRound {
                method: method.into(),
                round,
                asked,
                seq,
            });
            sent = self.answer_inputs(params.as_ref(), &result, seq).await;
            asked_by = Some(seq);
        }
    }

    /// One request (one id: `id`, or a fresh one): with the legacy era's single retry after the
    /// server forgot our HTTP session. `asked_by`: the `input_required` response it answers, if
    /// any.
    async fn request_once(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
        id: Option<RequestId>,
        asked_by: Option<u64>,
    ) -> Result<(Value, u64), RequestError> {
        let id = id.unwrap_or_else(|| self.shared.fresh_id());
        let first = self
            .request_as(id, method, params.clone(), options.clone(), asked_by)
            .await;
        let Err(RequestError::SessionExpired { exchange, .. }) = first else {
            return first;
        };
        // The server forgot our HTTP session: start a new one, as the spec says, and send the
        // request again, once. The record shows the 404, the flag, and the new handshake.
        let s = &self.shared;
        s.traffic.flag(exchange, Flag::SessionExpired);
        let _ = s.events.send(Event::Warning(Problem::SessionRenewed {
            method: method.into(),
        }));
        s.transport.reset_session().await;
        Box::pin(self.initialize()).await?;
        self.request_with_seq(method, params, options).await
    }

    /// One request; the result comes with the seq of the response frame.
    pub(super) async fn request_with_seq(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> Result<(Value, u64), RequestError> {
        let id = self.shared.fresh_id();
        self.request_as(id, method, params, options, None).await
    }

    /// One request with id `id` (fresh from `Shared::fresh_id`): sends it and waits for its
    /// response, its timeout or its cancellation. With `asked_by`, the request answers the
    /// inputs that response frame asked for, and the record links it to that call as its next
    /// round.
    async fn request_as(
        &self,
        id: RequestId,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
        asked_by: Option<u64>,
    ) -> Result<(Value, u64), RequestError> {
        let s = &self.shared;
        if let Some(asked_by) = asked_by {
            s.traffic.expect_round(&id, asked_by);
        }
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
        s.stamp(&mut params);
        let message = wire::request(&id, method, params);
        let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
        // The clock starts before the send: a server that does not take the request in time
        // fails it within the timeout, like one that does not answer.
        let timeout = options.timeout.unwrap_or(s.options.request_timeout);
        let mut started = tokio::time::Instant::now();
        match s.send_authorized(bytes, timeout).await {
            Ok(sent) if sent.after_sign_in => {
                // Time spent signing in (in a browser) is the user's, not the server's.
                started = tokio::time::Instant::now();
            }
            Ok(_) => {}
            Err(source) => {
                s.forget(&id, None);
                return Err(s.send_failed(method, source).await);
            }
        }

        let hard_deadline = started + s.options.max_request_time;
        let mut deadline = (started + timeout).min(hard_deadline);
        let cancel = options.cancel.unwrap_or_default();
        let gave_up = loop {
            tokio::select! {
                reply = &mut rx => return outcome(s, method, reply),
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
        let Some(waited) = s.forget_if_waiting(&id, Some(gave_up)) else {
            // Taken for an answer as the wait ended (the response, or the transport saying
            // none will come, e.g. a body cut at the same limit): that is the outcome, and it
            // is already on its way (whoever took the request sends it or drops the sender).
            return outcome(s, method, rx.await);
        };
        // HTTP: the request's own stream is closed (the modern era's cancellation; in the
        // legacy era the notification below says it too).
        s.transport.abandon(&id);
        let reason = match gave_up {
            GaveUp::TimedOut => format!("timed out after {} ms", timeout.as_millis()),
            GaveUp::Cancelled => "cancelled by the user".to_string(),
        };
        if tells_the_server_on_giving_up(method, s).await {
            // The spec forbids cancelling initialize; for it, giving up is all we do. Nobody
            // waits for the cancellation to reach a server that may not be reading.
            let message = wire::notification(
                names::CANCELLED,
                Some(json!({"requestId": id.to_value(), "reason": reason})),
            );
            let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
            s.send_frame_detached(bytes).await;
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
        let patience = self.shared.options.request_timeout;
        self.shared
            .send_frame(bytes, false, patience)
            .await
            .map(|_| ())
    }

    /// Like [`Session::request`], and says when the request started (wall clock) and how long
    /// it took to its outcome, as the engine measured it: what a host keeps in its history.
    pub async fn request_timed(
        &self,
        method: &str,
        params: Option<Value>,
        options: CallOptions,
    ) -> (Result<Value, RequestError>, Timing) {
        let (answered, mut timing) = timed(self.request_answered(method, params, options)).await;
        match answered {
            Ok(answered) => {
                timing.response_seq = answered.seq;
                (Ok(answered.result), timing)
            }
            Err(e) => (Err(e), timing),
        }
    }
}

/// What a request's reply (or its sender gone: the session closed) makes of it.
fn outcome(
    s: &Shared,
    method: &str,
    reply: Result<Reply, oneshot::error::RecvError>,
) -> Result<(Value, u64), RequestError> {
    let method = method.to_string();
    match reply {
        Ok(Reply::Response { message, seq }) => response_result(&method, message).map(|v| (v, seq)),
        Ok(Reply::Closed(report)) => Err(RequestError::Closed { method, report }),
        Ok(Reply::Undeliverable(Unanswered::StreamBroke {
            reason,
            request_seq,
        })) => Err(RequestError::StreamBroke {
            method,
            reason,
            seq: request_seq,
            not_reissued: None,
        }),
        Ok(Reply::Undeliverable(Unanswered::Other(reason))) => Err(RequestError::Transport {
            method,
            reason,
            problem: None,
        }),
        Ok(Reply::Undeliverable(Unanswered::Problem { reason, problem })) => {
            Err(RequestError::Transport {
                method,
                reason,
                problem: Some(problem),
            })
        }
        Err(_) => Err(RequestError::Closed {
            method,
            report: s.close_report().unwrap_or_default(),
        }),
    }
}

/// Whether giving up on a request sends `notifications/cancelled`: never for `initialize` (the
/// spec forbids it) nor for the `server/discover` probe (a legacy server may not know what
/// came before `initialize`), and not over HTTP in the modern era, where the request's own
/// stream is the only channel and closing it is the cancellation.
async fn tells_the_server_on_giving_up(method: &str, s: &Shared) -> bool {
    if matches!(method, names::INITIALIZE | names::SERVER_DISCOVER) {
        return false;
    }
    s.modern_version().is_none()
        || s.transport.name().await == crate::transport::TransportKind::Stdio
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
            breach: crate::vocabulary::breach::Breach::NeitherResultNorError,
        }),
    }
}
impl Shared {
    /// The error a request gets when its frame could not be sent.
    // pub(super): the listen stream (listen.rs) words its send failures the same way.
    pub(super) async fn send_failed(&self, method: &str, source: SendError) -> RequestError {
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
                problem: None,
            },
            SendError::HttpProblem { text, problem } => RequestError::Transport {
                method: method.into(),
                reason: text,
                problem: Some(problem),
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
                problem: Some(HttpProblem::Unauthorized { challenge }),
            },
            source => RequestError::Send {
                method: method.into(),
                source,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;
    use tokio_util::sync::CancellationToken;

    use super::super::test_support::{sent, sh_session};
    use super::*;
    use crate::wire::error_code;

    /// Answers the first line it reads with `reply`, then reads on without answering.
    fn answers_once(reply: &str) -> String {
        format!("read line; printf '%s\\n' '{reply}'; cat >/dev/null")
    }

    #[tokio::test]
    async fn an_error_response_becomes_an_rpc_error_with_its_code_message_and_data() {
        let session = sh_session(&answers_once(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad name","data":{"field":"name"}}}"#,
        ));
        let err = session
            .request(
                "tools/call",
                Some(json!({"name": "x"})),
                CallOptions::default(),
            )
            .await
            .unwrap_err();
        let RequestError::Rpc { method, error } = err else {
            panic!("not an RPC error: {err}")
        };
        assert_eq!(method, "tools/call");
        assert_eq!(error.code, error_code::INVALID_PARAMS);
        assert_eq!(error.message, "bad name");
        assert_eq!(error.data, Some(json!({"field": "name"})));
        session.close().await;
    }

    #[test]
    fn a_response_whose_error_is_not_an_error_object_breaks_the_protocol() {
        let message = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": "x"}});
        let err = response_result("ping", message).unwrap_err();
        assert!(
            matches!(&err, RequestError::Protocol { method, breach: crate::vocabulary::breach::Breach::NeitherResultNorError } if method == "ping"),
            "{err}"
        );
        let ok = json!({"jsonrpc": "2.0", "id": 1, "result": null});
        assert_eq!(response_result("ping", ok).unwrap(), Value::Null);
    }

    #[tokio::test]
    async fn a_result_is_returned_and_the_request_goes_out_as_built() {
        let session = sh_session(&answers_once(
            r#"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#,
        ));
        let result = session
            .request("x/y", Some(json!({"a": 1})), CallOptions::default())
            .await
            .unwrap();
        assert_eq!(result, json!({"ok": true}));
        assert_eq!(
            sent(&session),
            [json!({"jsonrpc": "2.0", "id": 1, "method": "x/y", "params": {"a": 1}})]
        );
        session.close().await;
    }

    #[tokio::test]
    async fn a_timed_request_names_the_response_frame_its_result_came_in() {
        let session = sh_session(&answers_once(
            r#"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#,
        ));
        let (result, timing) = session
            .request_timed("x/y", None, CallOptions::default())
            .await;
        assert_eq!(result.unwrap(), json!({"ok": true}));
        let seq = timing.response_seq.expect("answered by a frame");
        let frame = session.traffic().frame(seq).expect("the frame is recorded");
        assert_eq!(frame.direction, crate::wire::Direction::In);
        assert!(String::from_utf8_lossy(&frame.bytes).contains(r#""ok":true"#));
        session.close().await;
    }

    #[tokio::test]
    async fn a_timeout_gives_up_and_sends_notifications_cancelled() {
        let session = sh_session("cat >/dev/null");
        let options = CallOptions {
            timeout: Some(Duration::from_millis(50)),
            ..CallOptions::default()
        };
        let err = session.request("slow", None, options).await.unwrap_err();
        assert!(
            matches!(&err, RequestError::TimedOut { method, after } if method == "slow" && *after >= Duration::from_millis(50)),
            "{err}"
        );
        let frames = sent(&session);
        assert_eq!(frames.len(), 2, "{frames:?}");
        assert_eq!(
            frames[1],
            json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": 1, "reason": "timed out after 50 ms"}
            })
        );
        session.close().await;
    }

    #[tokio::test]
    async fn cancelling_ends_the_call_and_tells_the_server() {
        let session = sh_session("cat >/dev/null");
        let cancel = CancellationToken::new();
        let options = CallOptions {
            cancel: Some(cancel.clone()),
            ..CallOptions::default()
        };
        let cancelling = async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            cancel.cancel();
        };
        let (result, ()) = tokio::join!(session.request("slow", None, options), cancelling);
        assert!(
            matches!(result, Err(RequestError::Cancelled { ref method }) if method == "slow"),
            "{result:?}"
        );
        assert_eq!(
            sent(&session)[1]["params"],
            json!({"requestId": 1, "reason": "cancelled by the user"})
        );
        session.close().await;
    }

    #[tokio::test]
    async fn initialize_is_never_cancelled_only_given_up() {
        let options = crate::session::SessionOptions {
            request_timeout: Duration::from_millis(50),
            ..Default::default()
        };
        let session = super::super::test_support::sh_session_with("cat >/dev/null", options);
        let err = session.initialize().await.unwrap_err();
        assert!(matches!(err, RequestError::TimedOut { .. }), "{err}");
        let methods: Vec<Value> = sent(&session).iter().map(|m| m["method"].clone()).collect();
        assert_eq!(methods, [json!("initialize")]);
        session.close().await;
    }

    #[tokio::test]
    async fn a_timed_request_reports_when_it_started_and_how_long_it_took() {
        let session = sh_session("cat >/dev/null");
        let before = wall_now_us();
        let options = CallOptions {
            timeout: Some(Duration::from_millis(40)),
            ..CallOptions::default()
        };
        let (result, timing) = session.request_timed("slow", None, options).await;
        assert!(matches!(result, Err(RequestError::TimedOut { .. })));
        assert!(timing.started_wall_us >= before);
        assert!(timing.started_wall_us <= wall_now_us());
        assert!(timing.duration_us >= 40_000, "{timing:?}");
        session.close().await;
    }

    #[tokio::test]
    async fn a_server_that_stops_reading_fails_the_request_in_time_and_holds_up_nothing_else() {
        use crate::record::Flag;
        use crate::transport::Stall;
        // `sleep` never reads its stdin: the pipe fills and the write stalls.
        let session = sh_session("sleep 30");
        let options = CallOptions {
            timeout: Some(Duration::from_millis(300)),
            ..CallOptions::default()
        };
        let big = "x".repeat(3_000_000);
        let err = session
            .request("tools/call", Some(json!({"a": big})), options.clone())
            .await
            .unwrap_err();
        let RequestError::Send {
            source: SendError::Stalled(Stall::InputNotRead { unsent, total, .. }),
            ..
        } = &err
        else {
            panic!("not a stalled send: {err}")
        };
        assert!(*unsent > 0 && unsent < total, "{err}");
        assert!(
            err.to_string()
                .contains("the server stopped reading its input:"),
            "{err}"
        );
        assert!(err.to_string().ends_with("unsent after 300 ms"), "{err}");
        // A ping on the same session is not blocked: it fails on its own time, saying why.
        let err = session.request("ping", None, options).await.unwrap_err();
        assert!(
            matches!(
                &err,
                RequestError::Send {
                    source: SendError::Stalled(Stall::QueuedBehind { .. }),
                    ..
                }
            ),
            "{err}"
        );
        let flags: Vec<Flag> = session
            .traffic()
            .flags()
            .into_iter()
            .map(|f| f.flag)
            .collect();
        assert!(
            flags
                .iter()
                .any(|f| matches!(f, Flag::SendStalled { unsent_bytes, total_bytes } if unsent_bytes < total_bytes)),
            "{flags:?}"
        );
        // Closing does not wait on the stalled write.
        tokio::time::timeout(Duration::from_secs(10), session.close())
            .await
            .expect("closing is bounded");
    }

    #[tokio::test]
    async fn a_request_to_a_server_that_exited_says_how_it_ended() {
        let session = sh_session("echo goodbye >&2; exit 3");
        // Let the server end first.
        let report = session.closed().await;
        assert_eq!(report.exit_code, Some(3));
        let err = session
            .request("ping", None, CallOptions::default())
            .await
            .unwrap_err();
        assert!(
            matches!(&err, RequestError::Closed { method, report } if method == "ping" && report.exit_code == Some(3)),
            "{err}"
        );
    }
}
