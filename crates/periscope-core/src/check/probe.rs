//! How a check asks its questions: requests built by hand and sent raw (with the modern
//! metadata stamped on when the session speaks 2026-07-28), so the check controls the id, the
//! params and even the bytes, and every answer comes back with the frames that carried it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::session::Session;

/// One question and its answer.
#[derive(Debug, Clone)]
pub(crate) struct Asked {
    pub request_seq: u64,
    pub response_seq: Option<u64>,
    /// The whole response message, as it came.
    pub response: Option<Value>,
    /// Why nothing came back (the send failed, or no answer in time).
    pub lost: Option<String>,
    /// Over HTTP: the status of the POST that carried the request (a 4xx is a refusal).
    pub http_status: Option<u16>,
}

impl Asked {
    /// The frames of the exchange.
    pub fn frames(&self) -> Vec<u64> {
        std::iter::once(self.request_seq)
            .chain(self.response_seq)
            .collect()
    }

    pub fn result(&self) -> Option<&Value> {
        self.response.as_ref()?.get("result")
    }

    pub fn error(&self) -> Option<&Value> {
        self.response.as_ref()?.get("error")
    }

    /// The error's code, when the answer is an error with an integer code.
    pub fn error_code(&self) -> Option<i64> {
        self.error()?.get("code")?.as_i64()
    }

    /// Over HTTP, the POST was refused with a 4xx status.
    pub fn refused_over_http(&self) -> bool {
        self.http_status.is_some_and(|s| (400..500).contains(&s))
    }

    /// The answer, in a few words: for messages.
    pub fn describe(&self) -> String {
        if let Some(status) = self.http_status.filter(|s| !(200..300).contains(s)) {
            return format!("HTTP {status}");
        }
        if let Some(why) = &self.lost {
            return why.clone();
        }
        match (self.result(), self.error()) {
            (_, Some(error)) => {
                let code = error.get("code").map(Value::to_string).unwrap_or_default();
                let message = error.get("message").and_then(Value::as_str).unwrap_or("");
                format!("error {code} \"{}\"", short(message))
            }
            (Some(result), None) => format!("a result {}", short(&result.to_string())),
            (None, None) => "a response with neither result nor error".into(),
        }
    }
}

/// A request's bytes: `params` stamped with the modern metadata in that era.
fn message(id: Value, method: &str, params: Option<Value>, session: &Session) -> Vec<u8> {
    let mut params = params;
    session.stamp_meta(&mut params);
    let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
    if let Some(params) = params {
        message["params"] = params;
    }
    serde_json::to_vec(&message).expect("JSON values serialize")
}

/// Shortens a server's text for a one-line message.
pub(crate) fn short(text: &str) -> String {
    const MAX: usize = 120;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(MAX).collect();
    cut.push('…');
    cut
}

/// Asks one session's server.
pub(crate) struct Probe<'a> {
    pub session: &'a Session,
    next: AtomicU64,
    /// How long to wait for each answer.
    pub wait: Duration,
}

impl<'a> Probe<'a> {
    pub fn new(session: &'a Session, wait: Duration) -> Probe<'a> {
        Probe {
            session,
            next: AtomicU64::new(1),
            wait,
        }
    }

    /// A fresh string id of the check's own (the session's numbered ids never collide with it).
    pub fn fresh_id(&self) -> String {
        format!("check-{}", self.next.fetch_add(1, Ordering::Relaxed))
    }

    /// Sends `method` with `params` (stamped in the modern era) under a fresh id.
    pub async fn ask(&self, method: &str, params: Option<Value>) -> Asked {
        self.ask_within(self.wait, method, params).await
    }

    /// Like [`Probe::ask`], waiting `wait` for the answer (a tool call gets the user's
    /// patience, not the check's).
    pub async fn ask_within(&self, wait: Duration, method: &str, params: Option<Value>) -> Asked {
        let id = json!(self.fresh_id());
        self.send_within(wait, message(id, method, params, self.session))
            .await
    }

    /// Like [`Probe::ask`], under the id given (a number, a string).
    pub async fn ask_with_id(&self, id: Value, method: &str, params: Option<Value>) -> Asked {
        self.send(message(id, method, params, self.session)).await
    }

    /// Like [`Probe::ask_with_id`], waiting `wait` for the answer.
    pub async fn ask_with_id_within(
        &self,
        wait: Duration,
        id: Value,
        method: &str,
        params: Option<Value>,
    ) -> Asked {
        self.send_within(wait, message(id, method, params, self.session))
            .await
    }

    /// Sends bytes as they are; the first response to a request among them, if any.
    pub async fn send(&self, bytes: Vec<u8>) -> Asked {
        self.send_within(self.wait, bytes).await
    }

    async fn send_within(&self, wait: Duration, bytes: Vec<u8>) -> Asked {
        let traffic = self.session.traffic().clone();
        let before = traffic.last_seq();
        let mut asked = match self.session.send_raw(bytes.clone(), wait).await {
            Ok(exchange) => Asked {
                request_seq: exchange.sent.seq,
                response_seq: exchange.response_seqs.first().copied(),
                response: exchange.responses.into_iter().next(),
                lost: (!exchange.unanswered.is_empty())
                    .then(|| format!("no answer within {:.0} s", self.wait.as_secs_f64())),
                http_status: None,
            },
            Err(e) => Asked {
                // The frame is in the record even when its delivery failed (an HTTP 4xx).
                request_seq: sent_frame(&traffic, before, &bytes).unwrap_or(0),
                response_seq: None,
                response: None,
                lost: Some(format!("could not send: {e}")),
                http_status: None,
            },
        };
        asked.http_status = http_status(&traffic, asked.request_seq).await;
        asked
    }

    /// Sends a batch and waits for what becomes of it: its requests answered, the batch
    /// refused as a whole (an error no request names, or a 4xx), or nothing. Right after the
    /// batch goes out, `then` is asked: once it is answered (and a moment more), a batch with no
    /// answer yet was ignored. Returns the batch, the refusal, and `then`'s answer if asked.
    pub async fn send_batch(
        &self,
        bytes: Vec<u8>,
        then: &str,
    ) -> (Asked, Option<(u64, Value)>, Option<Asked>) {
        let traffic = self.session.traffic().clone();
        let after = traffic.last_seq();
        let sent_bytes = bytes.clone();
        let send = self.send(bytes);
        tokio::pin!(send);
        let sync = async {
            while sent_frame(&traffic, after, &sent_bytes).is_none() {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            let answer = self.ask(then, None).await;
            tokio::time::sleep(Duration::from_millis(200)).await;
            answer
        };
        tokio::pin!(sync);
        let unanswered = |traffic: &crate::traffic::Traffic| Asked {
            request_seq: sent_frame(traffic, after, &sent_bytes).unwrap_or(after + 1),
            response_seq: None,
            response: None,
            lost: None,
            http_status: None,
        };
        loop {
            tokio::select! {
                asked = &mut send => {
                    if asked.response.is_some() || asked.refused_over_http() {
                        return (asked, None, None);
                    }
                    // No answer in time: whether the server still serves decides.
                    let synced = (&mut sync).await;
                    return (asked, None, Some(synced));
                }
                synced = &mut sync => return (unanswered(&traffic), None, Some(synced)),
                () = tokio::time::sleep(Duration::from_millis(20)) => {
                    if let Some(refusal) = unnamed_error_after(&traffic, after) {
                        return (unanswered(&traffic), Some(refusal), None);
                    }
                }
            }
        }
    }
}

/// The first inbound error response after `after` whose id is absent or null.
fn unnamed_error_after(traffic: &crate::traffic::Traffic, after: u64) -> Option<(u64, Value)> {
    (after + 1..=traffic.last_seq()).find_map(|seq| {
        let frame = traffic.frame(seq)?;
        if frame.direction != crate::wire::Direction::In {
            return None;
        }
        let message: Value = serde_json::from_slice(&frame.bytes).ok()?;
        (message.get("error").is_some() && message.get("id").is_none_or(Value::is_null))
            .then_some((seq, message))
    })
}

/// The outgoing frame after `after` that carried `bytes`.
fn sent_frame(traffic: &crate::traffic::Traffic, after: u64, bytes: &[u8]) -> Option<u64> {
    (after + 1..=traffic.last_seq()).find(|seq| {
        traffic
            .frame(*seq)
            .is_some_and(|f| f.direction == crate::wire::Direction::Out && f.bytes[..] == bytes[..])
    })
}

/// Over HTTP, the status of the POST that carried frame `seq`: the transport records the
/// exchange as its response comes, which may be just after the send returned.
async fn http_status(traffic: &crate::traffic::Traffic, seq: u64) -> Option<u16> {
    if seq == 0 || traffic.exchanges().is_empty() {
        return None; // stdio
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    loop {
        if let Some(exchange) = traffic
            .exchanges()
            .iter()
            .find(|x| x.sent_frame == Some(seq))
        {
            return exchange.status;
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
