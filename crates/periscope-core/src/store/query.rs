//! Window queries for a list that never holds every row: how many rows a filter keeps, rows N..M
//! of them, where a frame sits among them, full-text search; and lookups by seq.

use std::sync::Arc;

use rusqlite::types::Value as SqlValue;
use rusqlite::{OptionalExtension, params_from_iter};
use serde::{Deserialize, Serialize};

use super::filter::{EntryKind, EntryStatus, TrafficFilter, direction_of};
use super::{Store, StoreError, truncated_verdict};
use crate::record::{CallRound, Flag, HttpExchange};
use crate::wire::{Direction, Frame, classify};

/// Bytes of a body a row reads for its preview (the preview keeps 160 characters).
const PREVIEW_BYTES: i64 = 640;
/// The `flagged` status bit, for the rows query's SQL.
const FLAGGED: i64 = 16;

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

impl RowStatus {
    pub(crate) fn of(bits: i64) -> RowStatus {
        let has = |s: EntryStatus| bits & s.bit() != 0;
        RowStatus {
            error: has(EntryStatus::Error),
            malformed: has(EntryStatus::Malformed),
            late: has(EntryStatus::Late),
            unknown_id: has(EntryStatus::UnknownId),
            flagged: has(EntryStatus::Flagged),
            schema_violation: has(EntryStatus::SchemaViolation),
        }
    }
}

/// Which way a window query reads.
#[derive(Clone, Copy)]
enum Order {
    Ascending,
    Descending,
}

/// One full-text match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SearchHit {
    pub seq: u64,
    /// The words around the match, the match between `«` and `»`.
    pub snippet: String,
}

impl Store {
    /// How many entries `filter` keeps.
    pub fn count(&self, filter: &TrafficFilter) -> Result<u64, StoreError> {
        let conn = self.reader();
        if filter.is_every_frame() {
            // Every row less the few that are not frames (both counted from indexes, where
            // `kind IN (…)` would read every row).
            let n: i64 = conn
                .prepare_cached(
                    "SELECT (SELECT count(*) FROM entries)
                          - (SELECT count(*) FROM entries WHERE kind >= 6)",
                )?
                .query_row([], |r| r.get(0))?;
            return Ok(n as u64);
        }
        let sql = filter.sql();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT count(*) FROM entries WHERE {}",
            sql.clause
        ))?;
        let n: i64 = stmt.query_row(params_from_iter(sql.params), |r| r.get(0))?;
        Ok(n as u64)
    }

    /// Rows `offset..offset + limit` of what `filter` keeps, in seq order.
    pub fn rows(
        &self,
        filter: &TrafficFilter,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<TrafficRow>, StoreError> {
        self.rows_in_order(filter, Order::Ascending, offset, limit)
    }

    /// Like [`Store::rows`], for a caller that knows the filter keeps `count` rows: a window in
    /// the second half is read from the end (an SQL OFFSET steps over every row before it, so
    /// the end of a million-row list costs what its start does). A `count` that is behind (the
    /// record grew since) shifts that window toward the newest rows by as many.
    pub fn rows_counted(
        &self,
        filter: &TrafficFilter,
        offset: u64,
        limit: u64,
        count: u64,
    ) -> Result<Vec<TrafficRow>, StoreError> {
        if offset <= count / 2 || offset >= count {
            return self.rows(filter, offset, limit);
        }
        let end = offset.saturating_add(limit).min(count);
        let mut rows = self.rows_in_order(filter, Order::Descending, count - end, end - offset)?;
        rows.reverse();
        Ok(rows)
    }

    fn rows_in_order(
        &self,
        filter: &TrafficFilter,
        order: Order,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<TrafficRow>, StoreError> {
        let mut sql = filter.sql();
        sql.params
            .push(SqlValue::Integer(limit.min(i64::MAX as u64) as i64));
        sql.params
            .push(SqlValue::Integer(offset.min(i64::MAX as u64) as i64));
        let direction = match order {
            Order::Ascending => "ASC",
            Order::Descending => "DESC",
        };
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT seq, kind, direction, wall_us, mono_us, size, method, rpc_id, latency_us,
                status, problem, call_first, call_round, call_asked_by,
                (SELECT substr(body, 1, {PREVIEW_BYTES}) FROM bodies b WHERE b.seq = entries.seq),
                CASE WHEN status & {FLAGGED} != 0 THEN
                    (SELECT json_group_array(json(flag)) FROM flags f WHERE f.seq = entries.seq)
                END,
                app_view
             FROM entries WHERE {} ORDER BY seq {direction} LIMIT ? OFFSET ?",
            sql.clause
        ))?;
        let rows = stmt.query_map(params_from_iter(sql.params), |r| {
            let call = match (
                r.get::<_, Option<i64>>(11)?,
                r.get::<_, Option<i64>>(12)?,
                r.get::<_, Option<i64>>(13)?,
            ) {
                (Some(first), Some(round), Some(asked_by)) => Some(CallRound {
                    first_seq: first as u64,
                    round: round as u32,
                    asked_by: asked_by as u64,
                }),
                _ => None,
            };
            let head: Option<Vec<u8>> = r.get(14)?;
            let flags: Option<String> = r.get(15)?;
            Ok(TrafficRow {
                seq: r.get::<_, i64>(0)? as u64,
                kind: EntryKind::from_code(r.get(1)?),
                direction: direction_of(r.get(2)?),
                wall_us: r.get::<_, i64>(3)? as u64,
                mono_us: r.get::<_, i64>(4)? as u64,
                size: r.get::<_, i64>(5)? as u64,
                method: r.get(6)?,
                id: r.get(7)?,
                latency_us: r.get::<_, Option<i64>>(8)?.map(|l| l as u64),
                status: RowStatus::of(r.get(9)?),
                problem: r.get(10)?,
                call,
                preview: crate::rows::preview(head.as_deref().unwrap_or_default()),
                flags: flags
                    .and_then(|f| serde_json::from_str(&f).ok())
                    .unwrap_or_default(),
                round: None,
                app_view: r.get::<_, Option<i64>>(16)?.map(|v| v as u32),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Where entry `seq` sits among what `filter` keeps (0-based), or `None` when the filter
    /// hides it: how a list scrolls to a frame it was asked to show.
    pub fn position(&self, seq: u64, filter: &TrafficFilter) -> Result<Option<u64>, StoreError> {
        let sql = filter.sql();
        let conn = self.reader();
        let mut params = sql.params.clone();
        params.push(SqlValue::Integer(seq as i64));
        let kept: Option<i64> = conn
            .prepare_cached(&format!(
                "SELECT seq FROM entries WHERE {} AND seq = ?",
                sql.clause
            ))?
            .query_row(params_from_iter(params), |r| r.get(0))
            .optional()?;
        if kept.is_none() {
            return Ok(None);
        }
        let mut params = sql.params;
        params.push(SqlValue::Integer(seq as i64));
        let before: i64 = conn
            .prepare_cached(&format!(
                "SELECT count(*) FROM entries WHERE {} AND seq < ?",
                sql.clause
            ))?
            .query_row(params_from_iter(params), |r| r.get(0))?;
        Ok(Some(before as u64))
    }

    /// Full-text search over bodies with FTS5 syntax (`"tools/call" AND error`, `progr*`):
    /// matches after `after_seq`, in seq order, at most `limit`.
    pub fn search(
        &self,
        query: &str,
        after_seq: u64,
        limit: u64,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT rowid, snippet(body_fts, 0, '«', '»', '…', 12) FROM body_fts
             WHERE body_fts MATCH ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3",
        )?;
        let hits = stmt
            .query_map(
                rusqlite::params![query, after_seq as i64, limit.min(i64::MAX as u64) as i64],
                |r| {
                    Ok(SearchHit {
                        seq: r.get::<_, i64>(0)? as u64,
                        snippet: r.get(1)?,
                    })
                },
            )
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>());
        hits.map_err(query_error)
    }

    /// How many bodies match an FTS5 query.
    pub fn search_count(&self, query: &str) -> Result<u64, StoreError> {
        let conn = self.reader();
        let n: Result<i64, _> = conn
            .prepare_cached("SELECT count(*) FROM body_fts WHERE body_fts MATCH ?1")?
            .query_row([query], |r| r.get(0));
        n.map(|n| n as u64).map_err(query_error)
    }

    /// The frame `seq`, exactly as recorded (its verdict classified again from its bytes, which
    /// gives the verdict it was recorded with).
    pub fn frame(&self, seq: u64) -> Result<Option<Arc<Frame>>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT e.kind, e.direction, e.wall_us, e.mono_us, e.truncated_from, e.exchange, b.body,
                e.app_view
             FROM entries e JOIN bodies b ON b.seq = e.seq WHERE e.seq = ?1",
        )?;
        let found = stmt
            .query_row([seq as i64], |r| {
                Ok((
                    EntryKind::from_code(r.get(0)?),
                    direction_of(r.get(1)?),
                    r.get::<_, i64>(2)? as u64,
                    r.get::<_, i64>(3)? as u64,
                    r.get::<_, Option<i64>>(4)?.map(|t| t as u64),
                    r.get::<_, Option<i64>>(5)?.map(|e| e as u64),
                    r.get::<_, Vec<u8>>(6)?,
                    r.get::<_, Option<i64>>(7)?.map(|v| v as u32),
                ))
            })
            .optional()?;
        let Some((kind, direction, wall_us, mono_us, truncated_from, exchange, bytes, app_view)) =
            found
        else {
            return Ok(None);
        };
        if !kind.is_frame() {
            return Ok(None);
        }
        let verdict = match truncated_from {
            Some(total) => truncated_verdict(total, bytes.len()),
            None => classify(&bytes).0,
        };
        Ok(Some(Arc::new(Frame {
            seq,
            direction,
            wall_us,
            mono_us,
            bytes: Arc::from(bytes),
            truncated_from,
            exchange,
            app_view,
            verdict,
        })))
    }

    /// The flags raised on entry `seq`, in the order they were raised.
    pub fn flags_of(&self, seq: u64) -> Result<Vec<Flag>, StoreError> {
        let conn = self.reader();
        let mut stmt =
            conn.prepare_cached("SELECT flag FROM flags WHERE seq = ?1 ORDER BY rowid")?;
        let flags = stmt
            .query_map([seq as i64], |r| r.get::<_, String>(0))?
            .filter_map(|f| f.ok().and_then(|f| serde_json::from_str(&f).ok()))
            .collect();
        Ok(flags)
    }

    /// The HTTP exchange `seq`.
    pub fn exchange(&self, seq: u64) -> Result<Option<HttpExchange>, StoreError> {
        let conn = self.reader();
        let json: Option<String> = conn
            .prepare_cached("SELECT exchange FROM http WHERE seq = ?1")?
            .query_row([seq as i64], |r| r.get(0))
            .optional()?;
        Ok(json.and_then(|j| serde_json::from_str(&j).ok()))
    }

    /// The seq of the first response after `after_seq` that travelled `direction` with JSON-RPC
    /// id `id`: how a request finds its response once both left memory.
    pub fn response_after(
        &self,
        after_seq: u64,
        direction: Direction,
        id: &str,
    ) -> Result<Option<u64>, StoreError> {
        let conn = self.reader();
        let seq: Option<i64> = conn
            .prepare_cached(
                "SELECT seq FROM entries WHERE kind IN (?1, ?2) AND direction = ?3 AND rpc_id = ?4
                 AND seq > ?5 ORDER BY seq LIMIT 1",
            )?
            .query_row(
                rusqlite::params![
                    EntryKind::Response.code(),
                    EntryKind::ErrorResponse.code(),
                    super::filter::direction_code(direction),
                    id,
                    after_seq as i64
                ],
                |r| r.get(0),
            )
            .optional()?;
        Ok(seq.map(|s| s as u64))
    }

    /// The seq of the last request frame before `before_seq` that travelled `direction` with
    /// JSON-RPC id `id` (as a row shows it): how a response finds its request once the request
    /// left memory.
    pub fn request_before(
        &self,
        before_seq: u64,
        direction: Direction,
        id: &str,
    ) -> Result<Option<u64>, StoreError> {
        let conn = self.reader();
        let seq: Option<i64> = conn
            .prepare_cached(
                "SELECT seq FROM entries WHERE kind = ?1 AND direction = ?2 AND rpc_id = ?3
                 AND seq < ?4 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(
                rusqlite::params![
                    EntryKind::Request.code(),
                    super::filter::direction_code(direction),
                    id,
                    before_seq as i64
                ],
                |r| r.get(0),
            )
            .optional()?;
        Ok(seq.map(|s| s as u64))
    }
}

/// The statement is prepared already, so a plain SQLite error while it runs is FTS5 refusing the
/// query's syntax (`unterminated string`, `no such column`): the user's to fix, not a failure.
fn query_error(e: rusqlite::Error) -> StoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, Some(msg)) if f.code == rusqlite::ErrorCode::Unknown => {
            StoreError::BadQuery(msg)
        }
        other => StoreError::Sqlite(other),
    }
}
