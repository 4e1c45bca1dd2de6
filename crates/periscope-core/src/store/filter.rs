//! What a traffic list can ask for: a typed filter, and the SQL it becomes.

use rusqlite::types::Value as SqlValue;
use serde::{Deserialize, Serialize};

use super::text_match::TextQuery;
use crate::record::Flag;
use crate::rows::EntryKind;
use crate::wire::Direction;

/// The store's numbering of the kinds (`kind` column), apart from the kind itself (`rows`).
impl EntryKind {
    /// The number the `kind` column holds (stable: store files keep it).
    pub(crate) fn code(self) -> i64 {
        match self {
            EntryKind::Request => 0,
            EntryKind::Notification => 1,
            EntryKind::Response => 2,
            EntryKind::ErrorResponse => 3,
            EntryKind::Batch => 4,
            EntryKind::Malformed => 5,
            EntryKind::HttpExchange => 6,
            EntryKind::Stderr => 7,
        }
    }

    pub(crate) fn from_code(code: i64) -> EntryKind {
        EntryKind::ALL
            .into_iter()
            .find(|k| k.code() == code)
            .unwrap_or(EntryKind::Malformed)
    }
}

/// A status a list can filter on; each is one bit of the `status` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum EntryStatus {
    /// A JSON-RPC error response.
    Error,
    /// Not UTF-8, not JSON, not JSON-RPC, or a batch holding such items.
    Malformed,
    /// A response to a request Periscope had given up on.
    Late,
    /// A response whose id names no request Periscope sent.
    UnknownId,
    /// Any flag at all (flags are listed on the frame's detail).
    Flagged,
    /// Off its revision's schema (the protocol checks' finding).
    SchemaViolation,
}

impl EntryStatus {
    pub(crate) fn bit(self) -> i64 {
        match self {
            EntryStatus::Error => 1,
            EntryStatus::Malformed => 2,
            EntryStatus::Late => 4,
            EntryStatus::UnknownId => 8,
            EntryStatus::Flagged => 16,
            EntryStatus::SchemaViolation => 32,
        }
    }
}

/// What a traffic list shows: every field narrows, an empty or absent one does not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(default)]
pub struct TrafficFilter {
    pub direction: Option<Direction>,
    /// Only the server's frames, or only the app frames (host ↔ MCP App views).
    pub channel: Option<TrafficChannel>,
    /// Any of these kinds.
    pub kinds: Vec<EntryKind>,
    /// Exactly this method (a response counts under the method of the request it answers).
    pub method: Option<String>,
    /// Any of these statuses.
    pub statuses: Vec<EntryStatus>,
    /// Wall clock range, microseconds since the Unix epoch, both ends included.
    pub from_wall_us: Option<u64>,
    pub to_wall_us: Option<u64>,
    /// Terms the body must all contain: words split on whitespace, a `"quoted phrase"` one
    /// term, substrings in any ASCII case (`store/text_match.rs`).
    pub text: Option<String>,
}

/// Which talk a traffic list shows: Periscope with the server, or Periscope with the MCP App
/// views of that server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TrafficChannel {
    Server,
    App,
}

impl TrafficChannel {
    fn keeps(self, direction: Direction) -> bool {
        direction.is_app() == (self == TrafficChannel::App)
    }
}

/// A `WHERE` clause (without the keyword) and its parameters.
pub(crate) struct Sql {
    pub clause: String,
    pub params: Vec<SqlValue>,
}

impl TrafficFilter {
    /// Every frame and nothing else narrows (the list's default).
    pub(crate) fn is_every_frame(&self) -> bool {
        let frames = EntryKind::frame_kinds().len();
        let mut kinds = self.kinds.clone();
        kinds.sort_by_key(|k| k.code());
        kinds.dedup();
        kinds.len() == frames
            && kinds.iter().all(|k| k.is_frame())
            && *self
                == TrafficFilter {
                    kinds: self.kinds.clone(),
                    ..TrafficFilter::default()
                }
    }

    /// Every field but `text` as SQL: the text is matched by scanning the pages
    /// (`Store::text_kept`), then combined with what this keeps.
    pub(crate) fn sql(&self) -> Sql {
        let mut parts: Vec<String> = Vec::new();
        let mut params: Vec<SqlValue> = Vec::new();
        if let Some(direction) = self.direction {
            parts.push("direction = ?".into());
            params.push(SqlValue::Integer(direction_code(direction)));
        }
        match self.channel {
            // App frames are directions 2 and 3 (`direction_code`).
            Some(TrafficChannel::Server) => parts.push("direction < 2".into()),
            Some(TrafficChannel::App) => parts.push("direction >= 2".into()),
            None => {}
        }
        if !self.kinds.is_empty() && self.kinds.len() < EntryKind::ALL.len() {
            let mut codes: Vec<i64> = self.kinds.iter().map(|k| k.code()).collect();
            codes.sort_unstable();
            codes.dedup();
            let (lo, hi) = (codes[0], codes[codes.len() - 1]);
            if hi - lo + 1 == codes.len() as i64 {
                // A run of codes (every frame is 0..=5) as a range: SQLite tests it per row at
                // half the cost of an IN list (a method filter over a million frames counts in
                // ~60% of the time).
                parts.push(format!("kind BETWEEN {lo} AND {hi}"));
            } else {
                let list: Vec<String> = codes.iter().map(|c| c.to_string()).collect();
                parts.push(format!("kind IN ({})", list.join(",")));
            }
        }
        if let Some(method) = &self.method {
            parts.push("method = ?".into());
            params.push(SqlValue::Text(method.clone()));
        }
        if !self.statuses.is_empty() {
            let bits = self.statuses.iter().fold(0, |b, s| b | s.bit());
            // `status != 0` lets SQLite use the partial index on the rare flagged rows.
            parts.push("status != 0 AND (status & ?) != 0".into());
            params.push(SqlValue::Integer(bits));
        }
        if let Some(from) = self.from_wall_us {
            parts.push("wall_us >= ?".into());
            params.push(SqlValue::Integer(from as i64));
        }
        if let Some(to) = self.to_wall_us {
            parts.push("wall_us <= ?".into());
            params.push(SqlValue::Integer(to as i64));
        }
        Sql {
            clause: if parts.is_empty() {
                "1".into()
            } else {
                parts.join(" AND ")
            },
            params,
        }
    }
}

impl TrafficFilter {
    /// The same filter over a row held in memory (no store, or it failed): what [`sql`] and
    /// the page scan keep, this keeps (the same text matcher). `status` is the row's status bits, `body` the entry's body as the
    /// store indexes it.
    ///
    /// [`sql`]: TrafficFilter::sql
    pub(crate) fn keeps(
        &self,
        kind: EntryKind,
        direction: Direction,
        method: Option<&str>,
        status: i64,
        wall_us: u64,
        body: &[u8],
    ) -> bool {
        if self.direction.is_some_and(|d| d != direction)
            || self.channel.is_some_and(|c| !c.keeps(direction))
        {
            return false;
        }
        if !self.kinds.is_empty() && !self.kinds.contains(&kind) {
            return false;
        }
        if let Some(want) = &self.method
            && method != Some(want.as_str())
        {
            return false;
        }
        if !self.statuses.is_empty() && self.statuses.iter().all(|s| status & s.bit() == 0) {
            return false;
        }
        if self.from_wall_us.is_some_and(|from| wall_us < from)
            || self.to_wall_us.is_some_and(|to| wall_us > to)
        {
            return false;
        }
        match self.text.as_deref().and_then(TextQuery::parse) {
            Some(query) => query.matches(body),
            None => true,
        }
    }
}

/// The status bits a flag sets on its entry.
pub(crate) fn flag_bits(flag: &Flag) -> i64 {
    let extra = match flag {
        Flag::LateResponse { .. } => EntryStatus::Late.bit(),
        Flag::UnknownResponseId { .. } => EntryStatus::UnknownId.bit(),
        Flag::SchemaViolation { .. } => EntryStatus::SchemaViolation.bit(),
        _ => 0,
    };
    EntryStatus::Flagged.bit() | extra
}

pub(crate) fn direction_code(direction: Direction) -> i64 {
    match direction {
        Direction::Out => 0,
        Direction::In => 1,
        Direction::FromApp => 2,
        Direction::ToApp => 3,
    }
}

pub(crate) fn direction_of(code: i64) -> Direction {
    match code {
        0 => Direction::Out,
        2 => Direction::FromApp,
        3 => Direction::ToApp,
        _ => Direction::In,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_kinds_is_a_range_and_others_a_list() {
        let frames: Vec<EntryKind> = EntryKind::ALL
            .into_iter()
            .filter(|k| k.is_frame())
            .collect();
        let every_frame = TrafficFilter {
            kinds: frames,
            method: Some("notifications/message".into()),
            ..TrafficFilter::default()
        };
        assert_eq!(
            every_frame.sql().clause,
            "kind BETWEEN 0 AND 5 AND method = ?"
        );
        let apart = TrafficFilter {
            kinds: vec![EntryKind::Stderr, EntryKind::Request, EntryKind::Request],
            ..TrafficFilter::default()
        };
        assert_eq!(apart.sql().clause, "kind IN (0,7)");
    }

    #[test]
    fn an_empty_filter_matches_everything_and_kind_codes_round_trip() {
        assert_eq!(TrafficFilter::default().sql().clause, "1");
        for kind in EntryKind::ALL {
            assert_eq!(EntryKind::from_code(kind.code()), kind);
        }
    }
}
