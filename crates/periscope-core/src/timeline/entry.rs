//! One frame as the timeline builder reads it, whichever source it came from (the store's rows
//! or the frames in memory), with the few fields of its body a timeline needs.

use serde_json::Value;

use crate::record::CallRound;
use crate::rows::{EntryKind, TrafficRow, row_id};
use crate::store::timeline::TimelineRow;
use crate::vocabulary::method::names;
use crate::wire::{Direction, RequestId};

/// Longest progress message a mark copies (a server picks it).
const MESSAGE_CHARS: usize = 200;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub seq: u64,
    pub wall_us: u64,
    pub mono_us: u64,
    pub direction: Direction,
    pub kind: EntryKind,
    /// The request's or notification's method; for a response, the method it answers.
    pub method: Option<String>,
    pub id: Option<String>,
    /// On a response paired with its request.
    pub latency_us: Option<u64>,
    pub call: Option<CallRound>,
    pub extra: Extra,
}

/// What a frame's body adds for the timeline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Extra {
    None,
    /// A request that asked for progress (`params._meta.progressToken`, as JSON text).
    ProgressToken(String),
    /// A `notifications/progress`.
    Progress {
        token: String,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// A `notifications/cancelled`: the id (as a row shows it) of the request given up.
    Cancels(String),
}

impl Entry {
    pub fn from_store(row: TimelineRow) -> Entry {
        let extra = match &row.body {
            Some(body) => extra(row.kind, row.method.as_deref(), body),
            None => Extra::None,
        };
        Entry {
            seq: row.seq,
            wall_us: row.wall_us,
            mono_us: row.mono_us,
            direction: row.direction,
            kind: row.kind,
            method: row.method,
            id: row.id,
            latency_us: row.latency_us,
            call: row.call,
            extra,
        }
    }

    /// From a row the [`RowBuilder`](crate::rows::RowBuilder) paired, and its frame's bytes.
    pub fn from_row(row: TrafficRow, bytes: &[u8]) -> Entry {
        let kind = row.kind;
        let extra = extra(kind, row.method.as_deref(), bytes);
        Entry {
            seq: row.seq,
            wall_us: row.wall_us,
            mono_us: row.mono_us,
            direction: row.direction,
            kind,
            method: row.method,
            id: row.id,
            latency_us: row.latency_us,
            call: row.call,
            extra,
        }
    }
}

/// The fields of `body` the timeline uses; parsed only for the frames that have any.
pub(crate) fn extra(kind: EntryKind, method: Option<&str>, body: &[u8]) -> Extra {
    let wanted = matches!(
        (kind, method),
        (EntryKind::Request, _)
            | (
                EntryKind::Notification,
                Some(names::PROGRESS | names::CANCELLED)
            )
    );
    if !wanted {
        return Extra::None;
    }
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Extra::None;
    };
    let params = &value["params"];
    match (kind, method) {
        (EntryKind::Request, _) => match params["_meta"].get("progressToken") {
            Some(token) if token.is_string() || token.is_number() => {
                Extra::ProgressToken(token.to_string())
            }
            _ => Extra::None,
        },
        (_, Some(names::PROGRESS)) => {
            let (Some(token), Some(progress)) =
                (params.get("progressToken"), params["progress"].as_f64())
            else {
                return Extra::None;
            };
            Extra::Progress {
                token: token.to_string(),
                progress,
                total: params["total"].as_f64(),
                message: params["message"]
                    .as_str()
                    .map(|m| m.chars().take(MESSAGE_CHARS).collect()),
            }
        }
        _ => match RequestId::from_value(&params["requestId"]) {
            Some(id) => Extra::Cancels(row_id(&id)),
            None => Extra::None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_gives_its_progress_token_and_notifications_their_fields() {
        let request = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"t1"}}}"#;
        assert_eq!(
            extra(EntryKind::Request, Some("tools/call"), request),
            Extra::ProgressToken("\"t1\"".into())
        );
        let plain = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(extra(EntryKind::Request, Some("ping"), plain), Extra::None);
        let progress = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t1","progress":2,"total":5,"message":"two"}}"#;
        assert_eq!(
            extra(
                EntryKind::Notification,
                Some("notifications/progress"),
                progress
            ),
            Extra::Progress {
                token: "\"t1\"".into(),
                progress: 2.0,
                total: Some(5.0),
                message: Some("two".into())
            }
        );
        let cancelled =
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#;
        assert_eq!(
            extra(
                EntryKind::Notification,
                Some("notifications/cancelled"),
                cancelled
            ),
            Extra::Cancels("7".into())
        );
        // Off-spec bodies give nothing rather than a guess.
        assert_eq!(
            extra(
                EntryKind::Notification,
                Some("notifications/progress"),
                br#"{"params":{"progress":"lots"}}"#
            ),
            Extra::None
        );
        assert_eq!(
            extra(EntryKind::Request, Some("x"), b"\xffnot json"),
            Extra::None
        );
    }
}
