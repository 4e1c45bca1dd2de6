//! The rows of a traffic list: a frame's kind, its compact row, and the builder that pairs each
//! response with its request (method, latency) in record order. Below `view` (which re-exports
//! these) so that the record and its store can build rows without importing what a UI shows.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::record::CallRound;
use crate::wire::{Direction, Frame, RequestId, Verdict};

/// The kind of a frame, as a list shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum FrameKind {
    Request,
    Notification,
    Response,
    ErrorResponse,
    Batch,
    /// Not UTF-8, not JSON, or not JSON-RPC.
    Malformed,
}

/// One line of the traffic list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FrameRow {
    pub seq: u64,
    pub direction: Direction,
    pub wall_us: u64,
    pub mono_us: u64,
    pub size: u64,
    pub kind: FrameKind,
    /// The request's or notification's method; for a response, the method it answers.
    pub method: Option<String>,
    /// The JSON-RPC id as shown (`7`, `"abc"`), if any.
    pub id: Option<String>,
    /// On a response: time since the request it answers.
    pub latency_us: Option<u64>,
    /// Why the frame is malformed, if it is.
    pub problem: Option<String>,
    /// The start of the frame's text, on one line.
    pub preview: String,
    /// Modern era: on a request sent again after `input_required`, and on its response, the
    /// call it is a round of. The call's first request and the responses that asked for input
    /// are named by the later rounds (`first_seq`, `asked_by`): when they were recorded,
    /// nobody knew yet.
    pub call: Option<CallRound>,
    /// App frames: the MCP App view the frame went to or came from (None: the server's).
    pub app_view: Option<u32>,
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
    open: HashMap<(Direction, Option<u32>, RequestId), (String, u64, Option<CallRound>)>,
}

impl RowBuilder {
    pub fn row(&mut self, frame: &Frame) -> FrameRow {
        self.row_in_call(frame, None)
    }

    /// Like [`RowBuilder::row`], for a request the record links to a call
    /// ([`Traffic::round_of`](crate::traffic::Traffic::round_of)); its response row gets the
    /// same link.
    pub fn row_in_call(&mut self, frame: &Frame, call: Option<CallRound>) -> FrameRow {
        let mut row = self.paired(frame, call);
        row.preview = preview(&frame.bytes);
        row
    }

    /// The row without its preview: for the store's writer, which keeps the bytes and makes
    /// previews only for the rows a list asks for.
    pub(crate) fn paired(&mut self, frame: &Frame, call: Option<CallRound>) -> FrameRow {
        let mut row = FrameRow {
            seq: frame.seq,
            direction: frame.direction,
            wall_us: frame.wall_us,
            mono_us: frame.mono_us,
            size: frame.size(),
            kind: FrameKind::Malformed,
            method: None,
            id: None,
            latency_us: None,
            problem: None,
            preview: String::new(),
            call: None,
            app_view: frame.app_view,
        };
        match &frame.verdict {
            Verdict::Request { id, method } => {
                row.kind = FrameKind::Request;
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
                row.kind = FrameKind::Notification;
                row.method = Some(clip(method));
            }
            Verdict::Response { id, is_error } => {
                row.kind = if *is_error {
                    FrameKind::ErrorResponse
                } else {
                    FrameKind::Response
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
                row.kind = FrameKind::Batch;
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
