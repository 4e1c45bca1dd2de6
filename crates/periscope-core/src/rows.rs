//! The rows of a traffic list: what an entry is (`EntryKind`), the one row type every list
//! gets (`TrafficRow`, from the store or from memory), and the builder that pairs each response
//! with its request (method, latency) in record order. Below `view` and `store` (which
//! re-export these) so that the record, its store and the timeline can build rows without
//! importing what a UI shows or how the store keeps them.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::record::{CallRound, Flag};
use crate::wire::{Direction, Frame, RequestId, Verdict};

/// What an entry of the record is, as a list filters and shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    Request,
    Notification,
    Response,
    ErrorResponse,
    Batch,
    /// Not UTF-8, not JSON, or not JSON-RPC.
    Malformed,
    HttpExchange,
    Stderr,
}

impl EntryKind {
    /// The kinds that are frames: the list's default filter.
    pub fn frame_kinds() -> Vec<EntryKind> {
        EntryKind::ALL
            .into_iter()
            .filter(|k| k.is_frame())
            .collect()
    }

    pub(crate) const ALL: [EntryKind; 8] = [
        EntryKind::Request,
        EntryKind::Notification,
        EntryKind::Response,
        EntryKind::ErrorResponse,
        EntryKind::Batch,
        EntryKind::Malformed,
        EntryKind::HttpExchange,
        EntryKind::Stderr,
    ];

    /// Frames are kinds 0..=5.
    pub fn is_frame(self) -> bool {
        !matches!(self, EntryKind::HttpExchange | EntryKind::Stderr)
    }
}

/// One line of the traffic list: a frame, a stderr line or an HTTP exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TrafficRow {
    pub seq: u64,
    pub kind: EntryKind,
    pub direction: Direction,
    pub wall_us: u64,
    pub mono_us: u64,
    pub size: u64,
    /// The request's or notification's method; for a response, the method it answers.
    pub method: Option<String>,
    /// The JSON-RPC id as shown (`7`, `"abc"`), if any.
    pub id: Option<String>,
    /// On a response: time since the request it answers.
    pub latency_us: Option<u64>,
    /// Why the frame is malformed, or why the HTTP exchange failed.
    pub problem: Option<String>,
    /// The start of the body, on one line.
    pub preview: String,
    /// Modern era: on a request sent again after `input_required`, and on its response, the
    /// call it is a round of. The call's first request and the responses that asked for input
    /// are named by the later rounds (`first_seq`, `asked_by`): when they were recorded,
    /// nobody knew yet.
    pub call: Option<CallRound>,
    pub status: RowStatus,
    /// The flags raised on the entry (empty on most).
    pub flags: Vec<Flag>,
    /// Which round of a multi round-trip call the frame is, when it belongs to one (the
    /// call's first request and the responses that asked for input included).
    pub round: Option<RoundChip>,
    /// App frames: the MCP App view the frame went to or came from (None: the server's).
    pub app_view: Option<u32>,
}

/// Where a frame stands in a multi round-trip call: round 1 is the call's first request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RoundChip {
    pub first_seq: u64,
    pub round: u32,
    /// Rounds of the call so far.
    pub rounds: u32,
}

/// The statuses a row has (the ones a filter can ask for).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RowStatus {
    pub error: bool,
    pub malformed: bool,
    pub late: bool,
    pub unknown_id: bool,
    pub flagged: bool,
    pub schema_violation: bool,
}

const PREVIEW_CHARS: usize = 160;
/// Longest method, id or problem text a row copies: a server picks these strings, and a row
/// must not hold megabytes of one (the frame keeps it whole).
pub(crate) const ROW_TEXT_CHARS: usize = 200;
/// Requests waiting for their response that the row builder remembers; past this (a server
/// flooding requests nobody answers), it forgets them and later responses show no latency.
const MAX_OPEN_REQUESTS: usize = 100_000;

/// `text` cut to [`ROW_TEXT_CHARS`] characters, with an ellipsis when cut.
fn clip(text: &str) -> String {
    match text.char_indices().nth(ROW_TEXT_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// A JSON-RPC id as a row shows it (and the store keeps it, so lookups by id use this too).
pub(crate) fn row_id(id: &RequestId) -> String {
    clip(&id.to_string())
}

/// Builds rows in record order, pairing each response with its request to give latency and
/// the method it answers.
#[derive(Default)]
pub struct RowBuilder {
    /// (direction the request travelled, app view, id) → (method, mono_us sent, round of a
    /// call). App frames pair only within their own view: each view has its own ids.
    open: HashMap<OpenKey, (String, u64, Option<CallRound>)>,
}

/// A request waiting for its response: the way it travelled, its app view (app frames), id.
type OpenKey = (Direction, Option<u32>, RequestId);

impl RowBuilder {
    pub fn row(&mut self, frame: &Frame) -> TrafficRow {
        self.row_in_call(frame, None)
    }

    /// Like [`RowBuilder::row`], for a request the record links to a call
    /// ([`Traffic::round_of`](crate::traffic::Traffic::round_of)); its response row gets the
    /// same link.
    pub fn row_in_call(&mut self, frame: &Frame, call: Option<CallRound>) -> TrafficRow {
        let mut row = self.paired(frame, call);
        row.preview = preview(&frame.bytes);
        row
    }

    /// The row without its preview: for the store's writer, which keeps the bytes and makes
    /// previews only for the rows a list asks for.
    pub(crate) fn paired(&mut self, frame: &Frame, call: Option<CallRound>) -> TrafficRow {
        let mut row = TrafficRow {
            seq: frame.seq,
            kind: EntryKind::Malformed,
            direction: frame.direction,
            wall_us: frame.wall_us,
            mono_us: frame.mono_us,
            size: frame.size(),
            method: None,
            id: None,
            latency_us: None,
            problem: None,
            preview: String::new(),
            call: None,
            status: RowStatus::default(),
            flags: Vec::new(),
            round: None,
            app_view: frame.app_view,
        };
        match &frame.verdict {
            Verdict::Request { id, method } => {
                row.kind = EntryKind::Request;
                row.method = Some(clip(method));
                row.id = Some(row_id(id));
                row.call = call;
                if self.open.len() >= MAX_OPEN_REQUESTS {
                    self.open.clear();
                }
                self.open.insert(
                    (frame.direction, frame.app_view, id.clone()),
                    (clip(method), frame.mono_us, call),
                );
            }
            Verdict::Notification { method } => {
                row.kind = EntryKind::Notification;
                row.method = Some(clip(method));
            }
            Verdict::Response { id, is_error } => {
                row.kind = if *is_error {
                    EntryKind::ErrorResponse
                } else {
                    EntryKind::Response
                };
                row.id = Some(id.as_ref().map_or("null".to_string(), row_id));
                let asked = frame.direction.reverse();
                if let Some((method, sent, call)) = id
                    .as_ref()
                    .and_then(|i| self.open.remove(&(asked, frame.app_view, i.clone())))
                {
                    row.method = Some(method);
                    row.latency_us = Some(frame.mono_us.saturating_sub(sent));
                    row.call = call;
                }
            }
            Verdict::Batch { items } => {
                row.kind = EntryKind::Batch;
                row.method = Some(format!("batch of {}", items.len()));
                if !frame.verdict.is_valid() {
                    row.problem = Some("the batch holds malformed items".into());
                }
            }
            other => row.problem = Some(clip(&other.summary())),
        }
        row
    }
}

pub(crate) fn preview(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(PREVIEW_CHARS * 4)];
    String::from_utf8_lossy(head)
        .chars()
        .take(PREVIEW_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
