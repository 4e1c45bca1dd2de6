//! The one way a model request goes out: a POST of a JSON body whose answer is an event
//! stream (or, from a server that ignored `stream`, one JSON document).
//!
//! Every wait has a deadline (to the answer's first byte, and between two pieces of the
//! stream), every buffer a bound (the engine's [`SseParser`] holds at most 8 MiB an event, an
//! error body is read up to 64 KiB, the raw response kept up to [`RAW_RESPONSE_KEPT`]), and no
//! error message carries the key: a provider that echoes it back in an error body, or a URL
//! with a secret parameter, is redacted before the text leaves this file.

use std::time::{Duration, Instant};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::ModelError;
use crate::redact::{REDACTED, urls_in_text};
use crate::transport::sse::{SseEvent, SseParser};

/// How long a provider may take to start answering (a local model loading its weights takes
/// a while; a large one thinking before its first token too).
pub const FIRST_BYTE: Duration = Duration::from_secs(120);
/// The longest silence between two pieces of a streamed answer.
pub const IDLE: Duration = Duration::from_secs(120);
/// The longest a whole answer may take, however steadily it trickles (a provider sending a
/// keep-alive every minute forever).
pub const TOTAL: Duration = Duration::from_secs(30 * 60);
/// The most a streamed answer may send: far beyond any real answer (the text and the tool
/// calls put together from it are smaller still), and a bound on what an endless one costs.
pub const MAX_STREAM_BYTES: u64 = 64 * 1024 * 1024;
/// The most of an error body read and shown.
pub const ERROR_BODY_MAX: usize = 64 * 1024;
/// The largest event a stream may send (a whole tool call's arguments fit).
pub const MAX_EVENT_BYTES: usize = 8 * 1024 * 1024;
/// The most of a response body kept as its raw bytes (for the inspector's view of the
/// exchange); the size is counted beyond.
pub const RAW_RESPONSE_KEPT: usize = 8 * 1024 * 1024;
/// The largest JSON (non-streamed) answer read.
pub const JSON_BODY_MAX: usize = 16 * 1024 * 1024;

/// How long a request waits, by stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadlines {
    pub first_byte: Duration,
    pub idle: Duration,
    pub total: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            first_byte: FIRST_BYTE,
            idle: IDLE,
            total: TOTAL,
        }
    }
}

/// Text with URL secrets and the key replaced.
pub(crate) fn scrub(text: &str, secret: Option<&str>) -> String {
    let text = urls_in_text(text);
    match secret {
        Some(secret) if !secret.is_empty() => text.replace(secret, REDACTED),
        _ => text,
    }
}

/// A provider's message may quote the key back: scrubbed like every other error text.
pub(crate) fn scrub_error(error: ModelError, secret: Option<&str>) -> ModelError {
    match error {
        ModelError::Provider { detail } => ModelError::Provider {
            detail: scrub(&detail, secret),
        },
        ModelError::Protocol { detail } => ModelError::Protocol {
            detail: scrub(&detail, secret),
        },
        other => other,
    }
}

/// The error for a non-success answer: its status and the start of its body, the provider's
/// own message when the body is the usual `{"error": {"message": …}}`.
pub(crate) fn status_error(status: u16, body: &[u8], secret: Option<&str>) -> ModelError {
    let cut = body.len() > ERROR_BODY_MAX;
    let kept = &body[..body.len().min(ERROR_BODY_MAX)];
    let text = String::from_utf8_lossy(kept);
    let message = serde_json::from_slice::<Value>(kept).ok().and_then(|v| {
        let e = v.get("error")?;
        e.get("message")
            .and_then(Value::as_str)
            .or_else(|| e.as_str())
            .map(str::to_string)
    });
    ModelError::Status {
        status,
        message: message.map(|m| scrub(&m, secret)),
        body: scrub(&text, secret),
        truncated: cut,
    }
}

/// An answer that has started.
pub(crate) enum Opened {
    /// An event stream, read event by event.
    Stream(Box<SseBody>),
    /// One JSON document (the server did not stream).
    Json {
        value: Value,
        raw: Vec<u8>,
        first_byte_us: u64,
    },
}

/// A streamed answer's body.
pub(crate) struct SseBody {
    response: reqwest::Response,
    parser: SseParser,
    raw: Vec<u8>,
    raw_len: u64,
    idle: Duration,
    /// When the whole answer must have come, and the patience that gives.
    deadline: Instant,
    total: Duration,
    secret: Option<String>,
    ended: bool,
}

impl SseBody {
    /// The events the next piece of the body completed; `None` once the body has ended (an
    /// event left unfinished by the end is delivered first).
    pub(crate) async fn next(
        &mut self,
        cancel: &CancellationToken,
    ) -> Result<Option<Vec<SseEvent>>, ModelError> {
        if self.ended {
            return Ok(None);
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        let (wait, stage, after) = if left < self.idle {
            (left, Stage::Total, self.total)
        } else {
            (self.idle, Stage::Idle, self.idle)
        };
        let chunk = tokio::select! {
            _ = cancel.cancelled() => return Err(ModelError::Cancelled),
            read = tokio::time::timeout(wait, self.response.chunk()) => match read {
                Err(_) => return Err(ModelError::Timeout { stage, after_ms: millis(after) }),
                Ok(Err(e)) => return Err(ModelError::Transport { detail: scrub(&error_chain(&e), self.secret.as_deref()) }),
                Ok(Ok(chunk)) => chunk,
            },
        };
        match chunk {
            Some(bytes) => {
                self.keep(&bytes);
                if self.raw_len > MAX_STREAM_BYTES {
                    return Err(ModelError::protocol(format!(
                        "the answer goes on past {} MiB",
                        MAX_STREAM_BYTES / (1024 * 1024)
                    )));
                }
                Ok(Some(self.parser.push(&bytes)))
            }
            None => {
                self.ended = true;
                Ok(Some(self.parser.finish().into_iter().collect()))
            }
        }
    }

    fn keep(&mut self, bytes: &[u8]) {
        self.raw_len += bytes.len() as u64;
        let room = RAW_RESPONSE_KEPT.saturating_sub(self.raw.len());
        self.raw.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The raw bytes kept and the body's full size so far.
    pub(crate) fn into_raw(self) -> (Vec<u8>, u64) {
        (self.raw, self.raw_len)
    }
}

pub use crate::vocabulary::model_error::Stage;

/// reqwest's error with its causes (the useful part, "connection refused", is in a source).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let s_text = s.to_string();
        if !text.contains(&s_text) {
            text.push_str(": ");
            text.push_str(&s_text);
        }
        source = s.source();
    }
    text
}

/// Reads a body up to `max` bytes (the rest is left unread), each piece within `idle`.
async fn read_capped(
    response: &mut reqwest::Response,
    max: usize,
    idle: Duration,
    cancel: &CancellationToken,
) -> Result<(Vec<u8>, bool), ModelError> {
    let mut body = Vec::new();
    loop {
        let chunk = tokio::select! {
            _ = cancel.cancelled() => return Err(ModelError::Cancelled),
            read = tokio::time::timeout(idle, response.chunk()) => match read {
                Err(_) => return Err(ModelError::Timeout { stage: Stage::Idle, after_ms: millis(idle) }),
                // A broken error body still leaves the status to report.
                Ok(Err(_)) => return Ok((body, false)),
                Ok(Ok(chunk)) => chunk,
            },
        };
        match chunk {
            None => return Ok((body, false)),
            Some(bytes) => {
                let room = max + 1 - body.len();
                body.extend_from_slice(&bytes[..bytes.len().min(room)]);
                if body.len() > max {
                    return Ok((body, true));
                }
            }
        }
    }
}

/// POSTs `body` (JSON) to `url` with `headers` and waits for the answer to start. `secret`:
/// the key among the headers, scrubbed from every error.
pub(crate) async fn post(
    client: &reqwest::Client,
    url: &str,
    headers: &[(&'static str, String)],
    body: Vec<u8>,
    secret: Option<&str>,
    deadlines: Deadlines,
    cancel: &CancellationToken,
) -> Result<Opened, ModelError> {
    let started = Instant::now();
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "text/event-stream, application/json")
        .body(body);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let mut response = tokio::select! {
        _ = cancel.cancelled() => return Err(ModelError::Cancelled),
        sent = tokio::time::timeout(deadlines.first_byte, request.send()) => match sent {
            Err(_) => return Err(ModelError::Timeout { stage: Stage::FirstByte, after_ms: millis(deadlines.first_byte) }),
            Ok(Err(e)) => return Err(ModelError::Transport { detail: scrub(&error_chain(&e), secret) }),
            Ok(Ok(response)) => response,
        },
    };
    let first_byte_us = started.elapsed().as_micros() as u64;
    let status = response.status();
    if !status.is_success() {
        let (body, _) = read_capped(&mut response, ERROR_BODY_MAX, deadlines.idle, cancel).await?;
        return Err(status_error(status.as_u16(), &body, secret));
    }
    let is_json = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("application/json"));
    if is_json {
        let (raw, cut) = read_capped(&mut response, JSON_BODY_MAX, deadlines.idle, cancel).await?;
        if cut {
            return Err(ModelError::protocol(format!(
                "the JSON answer is larger than {} MiB",
                JSON_BODY_MAX / (1024 * 1024)
            )));
        }
        let value = serde_json::from_slice(&raw).map_err(|e| ModelError::Protocol {
            detail: format!("the answer is not valid JSON ({e})"),
        })?;
        return Ok(Opened::Json {
            value,
            raw,
            first_byte_us,
        });
    }
    Ok(Opened::Stream(Box::new(SseBody {
        response,
        parser: SseParser::new(MAX_EVENT_BYTES),
        raw: Vec::new(),
        raw_len: 0,
        idle: deadlines.idle,
        deadline: started + deadlines.total,
        total: deadlines.total,
        secret: secret.map(str::to_string),
        ended: false,
    })))
}

/// A wait, in milliseconds, as errors carry it.
fn millis(wait: std::time::Duration) -> u64 {
    u64::try_from(wait.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_body_is_cut_at_64_kib_and_never_shows_the_key() {
        let key = "sk-test-0123456789abcdef";
        let mut body = format!(
            r#"{{"error": {{"message": "Incorrect API key provided: {key}. See https://x.example/k?api_key={key}", "pad": ""#
        )
        .into_bytes();
        body.extend(std::iter::repeat_n(b'x', 100 * 1024));
        body.extend_from_slice(format!("{key}\"}}}}").as_bytes());
        let error = status_error(401, &body, Some(key));
        let ModelError::Status {
            status,
            body: shown,
            truncated,
            ..
        } = &error
        else {
            panic!("{error:?}");
        };
        assert_eq!(*status, 401);
        assert!(*truncated);
        assert!(shown.len() <= ERROR_BODY_MAX + 64, "{}", shown.len());
        let text = error.to_string();
        assert!(!text.contains(key), "{text}");
        assert!(!format!("{error:?}").contains(key));
        assert!(text.contains("401"), "{text}");
        assert!(text.contains(REDACTED), "{text}");
        // A short body with the provider's message: the message is what is shown.
        let error = status_error(429, br#"{"error": {"message": "slow down"}}"#, Some(key));
        assert_eq!(
            error.to_string(),
            "the provider answered HTTP 429: slow down"
        );
    }

    #[test]
    fn the_key_is_scrubbed_from_any_text() {
        assert_eq!(
            scrub(
                "bad key k3y-v4lue at https://h/x?token=t",
                Some("k3y-v4lue")
            ),
            "bad key [redacted] at https://h/x?token=[redacted]"
        );
        assert_eq!(scrub("nothing", None), "nothing");
    }
}
