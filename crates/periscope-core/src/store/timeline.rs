//! What the timeline reads from the store (docs/timeline.md): the frames of a time window,
//! newest first and bounded, with the bodies it must parse (a request's progress token, a
//! progress or cancel notification's fields); and every paired response's latency.

use rusqlite::params;

use super::filter::direction_of;
use super::pages::PageCursor;
use super::{Store, StoreError};
use crate::record::CallRound;
use crate::rows::EntryKind;
use crate::wire::Direction;

/// One frame as the timeline reads it. `body` is there only for the frames whose fields the
/// timeline needs (requests, `notifications/progress`, `notifications/cancelled`).
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineRow {
    pub seq: u64,
    pub kind: EntryKind,
    pub direction: Direction,
    pub wall_us: u64,
    pub mono_us: u64,
    /// The request's or notification's method; for a response, the method it answers.
    pub method: Option<String>,
    /// The JSON-RPC id as a row shows it.
    pub id: Option<String>,
    /// On a response: time since the request it answers.
    pub latency_us: Option<u64>,
    pub call: Option<CallRound>,
    pub body: Option<Vec<u8>>,
}

/// One paired response, for the latency statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyRow {
    pub method: String,
    /// Which way the request travelled.
    pub direction: Direction,
    pub latency_us: u64,
    pub error: bool,
}

impl Store {
    /// The frames (not stderr lines or HTTP exchanges) recorded in `from..=to` (wall clock,
    /// µs), newest first, at most `limit` of them.
    pub fn timeline_rows(
        &self,
        from: u64,
        to: u64,
        limit: u64,
    ) -> Result<Vec<TimelineRow>, StoreError> {
        let conn = self.reader();
        // Only frames whose fields the timeline parses bring their body: a window of
        // responses and plain notifications reads a few dozen bytes a row.
        let mut stmt = conn.prepare_cached(
            "SELECT seq, kind, direction, wall_us, mono_us, method, rpc_id, latency_us,
                call_first, call_round, call_asked_by,
                CASE WHEN kind = 0 OR method IN ('notifications/progress', 'notifications/cancelled')
                    THEN 1 ELSE 0 END
             FROM entries
             WHERE kind <= 5 AND direction < 2 AND wall_us >= ?1 AND wall_us <= ?2
             ORDER BY seq DESC LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![clamp(from), clamp(to), clamp(limit)], |r| {
            let call = match (
                r.get::<_, Option<i64>>(8)?,
                r.get::<_, Option<i64>>(9)?,
                r.get::<_, Option<i64>>(10)?,
            ) {
                (Some(first), Some(round), Some(asked_by)) => Some(CallRound {
                    first_seq: first as u64,
                    round: round as u32,
                    asked_by: asked_by as u64,
                }),
                _ => None,
            };
            Ok(TimelineRow {
                seq: r.get::<_, i64>(0)? as u64,
                kind: EntryKind::from_code(r.get(1)?),
                direction: direction_of(r.get(2)?),
                wall_us: r.get::<_, i64>(3)? as u64,
                mono_us: r.get::<_, i64>(4)? as u64,
                method: r.get(5)?,
                id: r.get(6)?,
                latency_us: r.get::<_, Option<i64>>(7)?.map(|l| l as u64),
                call,
                // Read from the pages below, for the rows that want it.
                body: r.get::<_, bool>(11)?.then(Vec::new),
            })
        })?;
        let mut rows: Vec<TimelineRow> = rows.collect::<Result<_, _>>()?;
        let mut cursor = PageCursor::default();
        for row in &mut rows {
            if let Some(body) = &mut row.body {
                cursor
                    .body(&conn, row.seq)?
                    .unwrap_or_default()
                    .clone_into(body);
            }
        }
        Ok(rows)
    }

    /// How many requests were recorded in `from..=to` before frame `before`: what a bounded
    /// [`Store::timeline_rows`] left out.
    pub fn requests_before(&self, from: u64, to: u64, before: u64) -> Result<u64, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT count(*) FROM entries
             WHERE kind = ?1 AND direction < 2 AND seq < ?2 AND wall_us >= ?3 AND wall_us <= ?4",
        )?;
        let n: i64 = stmt.query_row(
            params![
                EntryKind::Request.code(),
                clamp(before),
                clamp(from),
                clamp(to)
            ],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// Calls `each` with every response after entry `after` paired with its request, in seq
    /// order; returns the last seq the store has committed, where the next call can start (a
    /// tracker reads each answer once).
    pub fn latencies_after(
        &self,
        after: u64,
        mut each: impl FnMut(LatencyRow),
    ) -> Result<u64, StoreError> {
        // Read before the scan: rows committed during it are read again next time, never lost.
        let committed = self.committed_to();
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT method, direction, latency_us, kind FROM entries
             WHERE seq > ?3 AND seq <= ?4 AND kind IN (?1, ?2) AND direction < 2
                AND latency_us IS NOT NULL AND method IS NOT NULL
             ORDER BY seq",
        )?;
        let mut rows = stmt.query(params![
            EntryKind::Response.code(),
            EntryKind::ErrorResponse.code(),
            clamp(after),
            clamp(committed)
        ])?;
        while let Some(r) = rows.next()? {
            // A response travels the other way from the request it answers.
            let direction = direction_of(r.get(1)?).reverse();
            each(LatencyRow {
                method: r.get(0)?,
                direction,
                latency_us: r.get::<_, i64>(2)?.max(0) as u64,
                error: r.get::<_, i64>(3)? == EntryKind::ErrorResponse.code(),
            });
        }
        Ok(committed.max(after))
    }
}

/// SQLite integers are signed: a `u64::MAX` "no bound" becomes `i64::MAX`.
fn clamp(value: u64) -> i64 {
    value.min(i64::MAX as u64) as i64
}
