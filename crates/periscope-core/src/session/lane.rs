//! The lane: many requests of a few shapes pipelined on one session, for a load run. Each
//! shape is serialized once, stamped as the session stamps any request (its era's `_meta`),
//! and each request is that template with its id spliced in. Requests leave in batches,
//! recorded together and written in one go; their answers come back by id, recorded and
//! classified like every frame, without the JSON tree, task, timer and channel the general
//! request path spends on each call. What the lane's user does not get from it (timeouts,
//! cancellation, what a failure was) it does itself, a batch at a time.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Notify;

use super::{RequestError, Session, Shared};
use crate::record::{Flag, GaveUp};
use crate::transport::SendError;
use crate::vocabulary::method::names;
use crate::wire::{self, Direction, Frame, RequestId, Verdict};

/// The first id a lane gives: far above the session's own (which count from 1), so an answer
/// tells by its id alone whose it is.
pub const LANE_FIRST_ID: i64 = 1 << 40;
/// Answers waiting for the lane at most: a lane has at most its in-flight requests' worth; a
/// server repeating answers past this is recorded (every frame is) and the lane does not hear
/// of the excess.
const MAX_WAITING_ANSWERS: usize = 1 << 16;
/// Ids given up on that are remembered, to flag a late answer as late rather than duplicate.
const MAX_GAVE_UP: usize = 1 << 16;
/// A placeholder id, found and cut out of a template's serialization.
const PLACEHOLDER_ID: i64 = 9_007_199_254_740_991;

/// One request's bytes without its id: `head` + id + `tail`.
#[derive(Debug, Clone)]
pub struct LaneTemplate {
    head: Vec<u8>,
    tail: Vec<u8>,
    method: String,
}

impl LaneTemplate {
    pub fn method(&self) -> &str {
        &self.method
    }
}

/// Where the session's dispatcher leaves answers for the lane (shared with it).
#[derive(Default)]
pub(super) struct LaneRoute {
    state: Mutex<RouteState>,
    ready: Notify,
    /// The next id the lane will give: ids below it were sent.
    next: AtomicI64,
}

#[derive(Default)]
struct RouteState {
    answers: Vec<Arc<Frame>>,
    gave_up: BTreeMap<i64, GaveUp>,
    /// A lane is reading.
    open: bool,
    /// The session closed: nothing more will come.
    closed: bool,
}

impl LaneRoute {
    fn lock(&self) -> MutexGuard<'_, RouteState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The dispatcher's part: a response whose id is `id` (a lane's, by its range) goes to
    /// the lane while one reads; otherwise it is flagged as what it is.
    pub(super) fn take(&self, id: i64, frame: &Arc<Frame>, traffic: &crate::traffic::Traffic) {
        let sent = id < self.next.load(Ordering::Acquire);
        let mut state = self.lock();
        if sent && state.open {
            if state.answers.len() < MAX_WAITING_ANSWERS {
                state.answers.push(frame.clone());
                drop(state);
                self.ready.notify_one();
            }
            return;
        }
        let flag = unexpected(&state, id, sent);
        drop(state);
        traffic.flag(frame.seq, flag);
    }

    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_one();
    }
}

/// The flag of an answer nobody waits for: late (given up on), duplicate (answered before) or
/// unknown (never sent).
fn unexpected(state: &RouteState, id: i64, sent: bool) -> Flag {
    let id_of = RequestId::Number(id);
    match state.gave_up.get(&id) {
        Some(g) => Flag::LateResponse {
            id: id_of,
            gave_up: *g,
        },
        None if sent => Flag::DuplicateResponse { id: id_of },
        None => Flag::UnknownResponseId { id: Some(id_of) },
    }
}

/// An open lane on a session (one at a time).
pub struct Lane {
    shared: Arc<Shared>,
    route: Arc<LaneRoute>,
    next: i64,
}

/// Why a session has no lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoLane {
    /// The transport sends each frame on its own (HTTP).
    TransportSendsOneByOne,
    /// A lane is open on the session already.
    Busy,
}

impl Session {
    /// Opens the session's lane: `None`, with why, when it has none to give.
    pub fn lane(&self) -> Result<Lane, NoLane> {
        let s = &self.shared;
        if !s.transport.sends_batches() {
            return Err(NoLane::TransportSendsOneByOne);
        }
        let route = s.lane.clone();
        {
            let mut state = route.lock();
            if state.open {
                return Err(NoLane::Busy);
            }
            state.open = true;
            state.answers.clear();
        }
        let next = route.next.load(Ordering::Acquire).max(LANE_FIRST_ID);
        Ok(Lane {
            shared: s.clone(),
            route,
            next,
        })
    }

    /// `method` with `params`, serialized once for a lane: refused as the general path would
    /// refuse it (the era's rules), stamped as every request is.
    pub async fn lane_template(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<LaneTemplate, RequestError> {
        let s = &self.shared;
        s.refuse(method, params.as_ref()).await?;
        let mut params = params;
        s.stamp(&mut params);
        let message = wire::request(&RequestId::Number(PLACEHOLDER_ID), method, params);
        let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
        // The id comes before the params (wire::request's order), so the first match is it.
        let marker = format!("\"id\":{PLACEHOLDER_ID}");
        let at = bytes
            .windows(marker.len())
            .position(|w| w == marker.as_bytes())
            .expect("a request holds its id")
            + marker.len()
            - PLACEHOLDER_ID.to_string().len();
        Ok(LaneTemplate {
            head: bytes[..at].to_vec(),
            tail: bytes[at + PLACEHOLDER_ID.to_string().len()..].to_vec(),
            method: method.into(),
        })
    }
}

impl Lane {
    /// The next request of `template`: its id and its bytes.
    pub fn request(&mut self, template: &LaneTemplate) -> (i64, Vec<u8>) {
        let id = self.next;
        self.next += 1;
        let mut bytes = Vec::with_capacity(template.head.len() + 20 + template.tail.len());
        bytes.extend_from_slice(&template.head);
        // Writing to a Vec cannot fail.
        let _ = write!(bytes, "{id}");
        bytes.extend_from_slice(&template.tail);
        (id, bytes)
    }

    /// Records `lines` (requests from [`Lane::request`], or notifications) in this order and
    /// writes them in one go, within `patience`.
    pub async fn send(&self, lines: Vec<Vec<u8>>, patience: Duration) -> Result<(), SendError> {
        if lines.is_empty() {
            return Ok(());
        }
        let s = &self.shared;
        // Published before anything leaves: an answer cannot beat it.
        self.route.next.store(self.next, Ordering::Release);
        let delivery = {
            let _order = s.send_lock.lock().await;
            if s.closed.borrow().is_some() {
                return Err(SendError::Closed);
            }
            let lines = lines.into_iter().map(|l| (Arc::from(l), None)).collect();
            let frames = s.traffic.append_frames(Direction::Out, lines);
            let frames = frames.into_iter().map(|a| a.frame).collect();
            s.transport
                .send_batch(frames, patience)
                .ok_or(SendError::Closed)?
        };
        delivery.await
    }

    /// Waits for answers and moves them into `into`; false once the session has closed and
    /// none is left. Cancel-safe: nothing is lost when the wait is dropped.
    pub async fn answers(&self, into: &mut Vec<Arc<Frame>>) -> bool {
        loop {
            {
                let mut state = self.route.lock();
                if !state.answers.is_empty() {
                    into.append(&mut state.answers);
                    return true;
                }
                if state.closed {
                    return false;
                }
            }
            self.route.ready.notified().await;
        }
    }

    /// An answer the lane was not waiting for (its request was answered or given up on
    /// already): flagged as late or duplicate in the record.
    pub fn unexpected(&self, frame: &Frame) {
        let Some(id) = lane_id(frame) else { return };
        let flag = unexpected(&self.route.lock(), id, true);
        self.shared.traffic.flag(frame.seq, flag);
    }

    /// The lane stopped waiting for `ids` (`how`: timed out or cancelled): an answer to one
    /// later is flagged late. Tells the server with `notifications/cancelled`, as the general
    /// path does on stdio.
    pub async fn give_up(&self, ids: &[i64], how: GaveUp, patience: Duration) {
        if ids.is_empty() {
            return;
        }
        {
            let mut state = self.route.lock();
            for id in ids {
                state.gave_up.insert(*id, how);
            }
            while state.gave_up.len() > MAX_GAVE_UP {
                state.gave_up.pop_first();
            }
        }
        let reason = match how {
            GaveUp::TimedOut => format!("timed out after {} ms", patience.as_millis()),
            GaveUp::Cancelled => "cancelled by the user".to_string(),
        };
        let lines = ids
            .iter()
            .map(|id| {
                let message = wire::notification(
                    names::CANCELLED,
                    Some(json!({"requestId": id, "reason": reason})),
                );
                serde_json::to_vec(&message).expect("JSON values serialize")
            })
            .collect();
        let _ = self.send(lines, patience).await;
    }

    /// The session's close report, once it closed.
    pub fn close_report(&self) -> Option<crate::transport::CloseReport> {
        self.shared.close_report()
    }
}

impl Drop for Lane {
    fn drop(&mut self) {
        let mut state = self.route.lock();
        state.open = false;
        // Answers nobody read (to requests given up on when a run stopped, or repeated): the
        // dispatcher would have flagged them had no lane been open.
        let unread = std::mem::take(&mut state.answers);
        let flags: Vec<(u64, Flag)> = unread
            .iter()
            .filter_map(|frame| Some((frame.seq, unexpected(&state, lane_id(frame)?, true))))
            .collect();
        drop(state);
        for (seq, flag) in flags {
            self.shared.traffic.flag(seq, flag);
        }
    }
}

/// A lane answer's id.
pub fn lane_id(frame: &Frame) -> Option<i64> {
    match &frame.verdict {
        Verdict::Response {
            id: Some(RequestId::Number(n)),
            ..
        } => Some(*n),
        _ => None,
    }
}

/// What a lane answer says, read without a JSON tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneOutcome {
    /// A result (`is_error`: a tool's `isError: true`; `needs_input`: the modern era's
    /// `input_required`, which the general path answers).
    Result { is_error: bool, needs_input: bool },
    /// A JSON-RPC error with its code.
    Error { code: i64 },
    /// Neither a result nor an error with a code.
    Malformed,
}

#[derive(Deserialize)]
struct Reply {
    #[serde(default)]
    result: Option<ResultLite>,
    #[serde(default)]
    error: Option<ErrorLite>,
}

#[derive(Deserialize)]
struct ResultLite {
    #[serde(rename = "isError", default)]
    is_error: Option<Value>,
    #[serde(rename = "resultType", default)]
    result_type: Option<String>,
}

#[derive(Deserialize)]
struct ErrorLite {
    code: i64,
}

/// Reads a lane answer's outcome from its bytes (its fields other than these are skipped,
/// not built).
pub fn lane_outcome(bytes: &[u8]) -> LaneOutcome {
    match serde_json::from_slice::<Reply>(bytes) {
        Ok(Reply {
            error: Some(e),
            result: None,
        }) => LaneOutcome::Error { code: e.code },
        Ok(Reply {
            result: Some(r),
            error: None,
        }) => LaneOutcome::Result {
            is_error: r.is_error == Some(Value::Bool(true)),
            needs_input: r.result_type.as_deref() == Some("input_required"),
        },
        _ => LaneOutcome::Malformed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_read_for_what_a_load_run_counts() {
        let read = |text: &str| lane_outcome(text.as_bytes());
        let result = |is_error, needs_input| LaneOutcome::Result {
            is_error,
            needs_input,
        };
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}"#),
            result(false, false)
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}"#),
            result(true, false)
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":1,"result":{"isError":"yes"}}"#),
            result(false, false),
            "isError counts only as true"
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#),
            result(false, true)
        );
        assert_eq!(
            read(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"busy"}}"#),
            LaneOutcome::Error { code: -32603 }
        );
        for malformed in [
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"message":"no code"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"both"}}"#,
        ] {
            assert_eq!(read(malformed), LaneOutcome::Malformed, "{malformed}");
        }
    }
}
