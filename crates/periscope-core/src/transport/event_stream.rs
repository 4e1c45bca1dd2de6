//! An SSE body read under limits: events parsed by the bounded [`SseParser`], each read of the
//! body waiting at most until the stream's idle limit (when it has one) or the end of the
//! event's time limit, whichever comes first. Both HTTP transports read their streams here.

use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

use reqwest::Response;
use tokio::time::Instant;

use super::exchange::describe;
use super::sse::{SseEvent, SseParser};
use crate::limits::{Limits, human_bytes, human_duration};
use crate::record::Cut;

/// Why a stream ended.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum StreamEnd {
    /// The server closed it.
    Closed,
    /// Reading it failed (a reset connection, a broken chunk).
    Broke(String),
    /// Nothing came for this long, on a stream that has an idle limit.
    Idle(Duration),
    /// An event took longer than this from its first byte (slowloris).
    EventTooSlow(Duration),
}

impl StreamEnd {
    /// How the event in progress, if any, was cut.
    pub(super) fn cut(&self) -> Cut {
        match self {
            StreamEnd::EventTooSlow(_) => Cut::TooSlow,
            _ => Cut::StreamEnded,
        }
    }
}

impl fmt::Display for StreamEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamEnd::Closed => f.write_str("the server closed the event stream"),
            StreamEnd::Broke(why) => write!(f, "the event stream broke: {why}"),
            StreamEnd::Idle(after) => write!(
                f,
                "the event stream was closed after {} without a byte",
                human_duration(*after)
            ),
            StreamEnd::EventTooSlow(limit) => write!(
                f,
                "the event stream was cut: an event took longer than {} to arrive",
                human_duration(*limit)
            ),
        }
    }
}

/// What reading a stream gives, in order.
#[derive(Debug)]
pub(super) enum Next {
    Event(SseEvent),
    /// The stream is over; `partial` is an event it ended in the middle of (kept, flagged).
    End {
        why: StreamEnd,
        partial: Option<SseEvent>,
    },
}

pub(super) struct EventStream {
    response: Response,
    parser: SseParser,
    ready: VecDeque<SseEvent>,
    idle: Option<Duration>,
    event_time: Duration,
    /// When the event in progress began.
    event_started: Option<Instant>,
    ended: bool,
}

impl EventStream {
    /// Reads `response` as an event stream. `idle`: how long it may stay silent (`None` for a
    /// stream that may rightly be quiet for hours, like the standalone GET stream).
    pub(super) fn new(response: Response, limits: &Limits, idle: Option<Duration>) -> Self {
        EventStream {
            response,
            parser: SseParser::new(limits.max_frame_bytes),
            ready: VecDeque::new(),
            idle,
            event_time: limits.sse_event_time,
            event_started: None,
            ended: false,
        }
    }

    pub(super) async fn next(&mut self) -> Next {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Next::Event(event);
            }
            if self.ended {
                return Next::End {
                    why: StreamEnd::Closed,
                    partial: None,
                };
            }
            let now = Instant::now();
            let idle_deadline = self.idle.map(|d| (now + d, StreamEnd::Idle(d)));
            let event_deadline = self.event_started.map(|t| {
                (
                    t + self.event_time,
                    StreamEnd::EventTooSlow(self.event_time),
                )
            });
            let deadline = match (idle_deadline, event_deadline) {
                (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
                (a, b) => a.or(b),
            };
            let read = match &deadline {
                Some((at, _)) => tokio::time::timeout_at(*at, self.response.chunk()).await,
                None => Ok(self.response.chunk().await),
            };
            let why = match read {
                Ok(Ok(Some(chunk))) => {
                    let events = self.parser.push(&chunk);
                    self.ready.extend(events);
                    self.event_started = match (self.parser.in_event(), self.event_started) {
                        (false, _) => None,
                        // A new event began in this chunk (or one is still running).
                        (true, started) if self.ready.is_empty() => started.or(Some(now)),
                        (true, _) => Some(now),
                    };
                    continue;
                }
                Ok(Ok(None)) => StreamEnd::Closed,
                Ok(Err(e)) => StreamEnd::Broke(describe(&e)),
                Err(_) => deadline.expect("only a deadline times out").1,
            };
            self.ended = true;
            let partial = self.parser.finish();
            if let Some(event) = self.ready.pop_front() {
                // Deliver what is complete first; the end follows on the next call.
                self.ready.extend(partial);
                return Next::Event(event);
            }
            return Next::End { why, partial };
        }
    }
}

/// A whole (non-stream) HTTP body, read with a cap on what is kept and a deadline.
#[derive(Debug)]
pub(super) struct Body {
    /// At most the cap.
    pub bytes: Vec<u8>,
    /// The body's full size when it was longer than the cap (what arrived of it).
    pub truncated_from: Option<u64>,
    /// Why the body is incomplete, when it is.
    pub cut: Option<(Cut, String)>,
}

/// Reads a body, keeping at most `cap` bytes and counting the rest, until it ends or
/// `patience` has passed (a slow drip is cut, and says so).
pub(super) async fn read_body(mut response: Response, cap: usize, patience: Duration) -> Body {
    let mut bytes = Vec::new();
    let mut total: u64 = 0;
    let deadline = Instant::now() + patience;
    let cut = loop {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                let room = cap.saturating_sub(bytes.len());
                bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
                total += chunk.len() as u64;
            }
            Ok(Ok(None)) => break None,
            Ok(Err(e)) => {
                break Some((
                    Cut::StreamEnded,
                    format!("reading the response failed: {}", describe(&e)),
                ));
            }
            Err(_) => {
                break Some((
                    Cut::TooSlow,
                    format!(
                        "the response body did not arrive within {} and was cut ({} came)",
                        human_duration(patience),
                        human_bytes(total)
                    ),
                ));
            }
        }
    };
    let truncated_from = (total > bytes.len() as u64).then_some(total);
    Body {
        bytes,
        truncated_from,
        cut,
    }
}
