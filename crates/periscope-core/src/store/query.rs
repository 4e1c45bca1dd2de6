//! Window queries for a list that never holds every row: how many rows a filter keeps, rows N..M
//! of them, where a frame sits among them, full-text search (a scan of the pages); and lookups
//! by seq.

use std::sync::Arc;

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use serde::{Deserialize, Serialize};

use super::filter::{EntryStatus, TrafficFilter, direction_of};
use super::pages::{self, PageCursor};
use super::text_match::TextQuery;
use super::{Store, StoreError, truncated_verdict};
use crate::record::{CallRound, Flag, HttpExchange};
use crate::rows::{EntryKind, RowStatus, TrafficRow};
use crate::wire::{Direction, Frame, classify};

/// Bytes of a body a row reads for its preview (the preview keeps 160 characters).
const PREVIEW_BYTES: usize = 640;
/// The `flagged` status bit, for the rows query's SQL.
const FLAGGED: i64 = 16;

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

/// How many rows a filter keeps and its newest rows, as of one moment ([`Store::tail`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TrafficTail {
    /// Rows the filter keeps.
    pub count: u64,
    /// Where `rows` start among them (a multiple of the page asked for).
    pub from: u64,
    /// Rows `from..count`, in seq order.
    pub rows: Vec<TrafficRow>,
}

impl Store {
    /// How many entries `filter` keeps.
    pub fn count(&self, filter: &TrafficFilter) -> Result<u64, StoreError> {
        if let Some(kept) = self.text_kept(filter)? {
            return Ok(kept.len() as u64);
        }
        count_on(&self.reader(), filter)
    }

    /// How many rows `filter` keeps and its newest rows, from the row at `from` (`tail` rows
    /// back from the end, down to a multiple of `page`) to the end, read from one snapshot of
    /// the store: the rows sit at the places the count gives them, however fast the record
    /// grows meanwhile. What a list following the newest frame shows, in one query.
    pub fn tail(
        &self,
        filter: &TrafficFilter,
        tail: u64,
        page: u64,
    ) -> Result<TrafficTail, StoreError> {
        let from = |count: u64| tail_from(count, tail, page);
        if let Some(kept) = self.text_kept(filter)? {
            // The kept seqs are one snapshot already.
            let count = kept.len() as u64;
            let from = from(count);
            let rows = self.rows_in_order(filter, Order::Ascending, from, count - from)?;
            return Ok(TrafficTail { count, from, rows });
        }
        let conn = self.reader();
        // One read transaction: the writer's commits in between are not seen by either query.
        let snapshot = conn.unchecked_transaction()?;
        let count = count_on(&snapshot, filter)?;
        let from = from(count);
        let mut sql = filter.sql();
        sql.params
            .push(SqlValue::Integer((count - from).min(i64::MAX as u64) as i64));
        let mut rows = select_rows_on(
            &snapshot,
            &format!("{} ORDER BY seq DESC LIMIT ?", sql.clause),
            sql.params,
            true,
        )?;
        rows.reverse();
        Ok(TrafficTail { count, from, rows })
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
        // A text filter's rows are a list of seqs already: any window costs the same.
        if offset <= count / 2 || offset >= count || filter.text.is_some() {
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
        if let Some(kept) = self.text_kept(filter)? {
            let len = kept.len() as u64;
            let (from, to) = match order {
                Order::Ascending => (offset.min(len), offset.saturating_add(limit).min(len)),
                Order::Descending => (
                    len.saturating_sub(offset.saturating_add(limit)),
                    len.saturating_sub(offset),
                ),
            };
            let seqs = &kept[from as usize..to as usize];
            if seqs.is_empty() {
                return Ok(Vec::new());
            }
            let list: Vec<String> = seqs.iter().map(u64::to_string).collect();
            let mut rows = self.select_rows(
                &format!("seq IN ({}) ORDER BY seq", list.join(",")),
                Vec::new(),
                false,
            )?;
            if let Order::Descending = order {
                rows.reverse();
            }
            return Ok(rows);
        }
        let mut sql = filter.sql();
        sql.params
            .push(SqlValue::Integer(limit.min(i64::MAX as u64) as i64));
        sql.params
            .push(SqlValue::Integer(offset.min(i64::MAX as u64) as i64));
        let direction = match order {
            Order::Ascending => "ASC",
            Order::Descending => "DESC",
        };
        self.select_rows(
            &format!("{} ORDER BY seq {direction} LIMIT ? OFFSET ?", sql.clause),
            sql.params,
            true,
        )
    }

    /// The rows `tail` (a WHERE clause, its ORDER BY and LIMIT) selects, each with its preview
    /// (read from the pages) and flags. `cached`: the statement is worth keeping prepared.
    fn select_rows(
        &self,
        tail: &str,
        params: Vec<SqlValue>,
        cached: bool,
    ) -> Result<Vec<TrafficRow>, StoreError> {
        select_rows_on(&self.reader(), tail, params, cached)
    }
    /// Where entry `seq` sits among what `filter` keeps (0-based), or `None` when the filter
    /// hides it: how a list scrolls to a frame it was asked to show.
    pub fn position(&self, seq: u64, filter: &TrafficFilter) -> Result<Option<u64>, StoreError> {
        if let Some(kept) = self.text_kept(filter)? {
            return Ok(kept.binary_search(&seq).ok().map(|i| i as u64));
        }
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

    /// Full-text search over bodies (terms split on whitespace, `"quoted phrases"`, substrings
    /// in any ASCII case: `store/text_match.rs`): matches after `after_seq`, in seq order, at
    /// most `limit`, each with a snippet around its first hit. The scan stops once `limit`
    /// hits are certain.
    pub fn search(
        &self,
        query: &str,
        after_seq: u64,
        limit: u64,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let Some(text) = TextQuery::parse(query) else {
            return Ok(Vec::new());
        };
        let limit = limit.min(usize::MAX as u64) as usize;
        if limit == 0 {
            return Ok(Vec::new());
        }
        let conn = self.reader();
        let mut hits: Vec<SearchHit> = Vec::new();
        pages::scan(
            &conn,
            after_seq,
            true,
            |first_seq, seqs, ends, data, lower| {
                // Pages come by first seq, and may overlap (an entry written out of order): the
                // first `limit` hits are certain once a page starts after the last of them.
                if hits.len() >= limit && first_seq > hits[limit - 1].seq {
                    return false;
                }
                text.matching_bodies(lower, ends, |i| {
                    let seq = first_seq + seqs.get(i) as u64;
                    if seq > after_seq {
                        let body = &data[pages::body_range_in(ends, i)];
                        hits.push(SearchHit {
                            seq,
                            snippet: text.snippet(body).unwrap_or_default(),
                        });
                    }
                });
                if hits.len() >= limit {
                    hits.sort_by_key(|h| h.seq);
                    hits.truncate(limit);
                }
                true
            },
        )?;
        hits.sort_by_key(|h| h.seq);
        hits.truncate(limit);
        Ok(hits)
    }

    /// How many bodies match a search query (every page scanned).
    pub fn search_count(&self, query: &str) -> Result<u64, StoreError> {
        match TextQuery::parse(query) {
            Some(_) => Ok(self.text_hits(query)?.len() as u64),
            None => Ok(0),
        }
    }

    /// The seqs of every entry whose body matches `query`, in order: every page scanned once,
    /// the answer kept until the next text or the next batch committed.
    fn text_hits(&self, query: &str) -> Result<Arc<Vec<u64>>, StoreError> {
        let batches = self.stats().batches;
        let mut cache = self.text_hits.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(hits) = cache.as_ref()
            && hits.query == query
            && hits.batches == batches
        {
            return Ok(hits.seqs.clone());
        }
        let Some(text) = TextQuery::parse(query) else {
            return Ok(Arc::new(Vec::new()));
        };
        let mut seqs: Vec<u64> = Vec::new();
        {
            let conn = self.reader();
            pages::scan(&conn, 0, false, |first_seq, page_seqs, ends, _, lower| {
                text.matching_bodies(lower, ends, |i| {
                    seqs.push(first_seq + page_seqs.get(i) as u64)
                });
                true
            })?;
        }
        // Pages written out of seq order (rare) leave their hits out of order.
        if !seqs.is_sorted() {
            seqs.sort_unstable();
        }
        let seqs = Arc::new(seqs);
        *cache = Some(TextHits {
            query: query.to_string(),
            batches,
            seqs: seqs.clone(),
        });
        Ok(seqs)
    }

    /// What a filter with a text keeps, as seqs in order (`None`: no text, the SQL answers
    /// alone). The pages give the entries whose body matches; the rest of the filter narrows
    /// them: nothing more to do when the rest keeps everything, the few stderr lines and HTTP
    /// exchanges taken out when it keeps every frame, else the smaller side looked up in the
    /// other.
    fn text_kept(&self, filter: &TrafficFilter) -> Result<Option<Arc<Vec<u64>>>, StoreError> {
        let Some(text) = filter.text.as_deref() else {
            return Ok(None);
        };
        if TextQuery::parse(text).is_none() {
            return Ok(None);
        }
        let hits = self.text_hits(text)?;
        let rest = TrafficFilter {
            text: None,
            ..filter.clone()
        };
        if rest == TrafficFilter::default() {
            return Ok(Some(hits));
        }
        let conn = self.reader();
        let select = |sql: &str, params: Vec<SqlValue>| -> rusqlite::Result<Vec<u64>> {
            let mut stmt = conn.prepare(sql)?;
            stmt.query_map(params_from_iter(params), |r| {
                r.get::<_, i64>(0).map(|s| s as u64)
            })?
            .collect()
        };
        if rest.is_every_frame() {
            // No ORDER BY: sorting the few found beats a scan in seq order, which SQLite may
            // pick over the partial index to spare the sort.
            let mut others = select("SELECT seq FROM entries WHERE kind >= 6", Vec::new())?;
            others.sort_unstable();
            return Ok(Some(Arc::new(sieve(&hits, &others, false))));
        }
        let sql = rest.sql();
        if hits.len() <= lookup_hits() {
            let mut kept = Vec::new();
            for chunk in hits.chunks(LOOKUP_CHUNK) {
                let list: Vec<String> = chunk.iter().map(u64::to_string).collect();
                kept.extend(select(
                    &format!(
                        "SELECT seq FROM entries WHERE seq IN ({}) AND {} ORDER BY seq",
                        list.join(","),
                        sql.clause
                    ),
                    sql.params.clone(),
                )?);
            }
            return Ok(Some(Arc::new(kept)));
        }
        let rows = select(
            &format!("SELECT seq FROM entries WHERE {} ORDER BY seq", sql.clause),
            sql.params,
        )?;
        Ok(Some(Arc::new(sieve(&hits, &rows, true))))
    }

    /// The frame `seq`, exactly as recorded (its verdict classified again from its bytes, which
    /// gives the verdict it was recorded with).
    pub fn frame(&self, seq: u64) -> Result<Option<Arc<Frame>>, StoreError> {
        Ok(self.frames_from(seq, 1)?.into_iter().find(|f| f.seq == seq))
    }

    /// Up to `limit` frames from seq `from` on, in seq order, their bodies read through one
    /// page cursor (consecutive frames share pages).
    pub(crate) fn frames_from(&self, from: u64, limit: i64) -> Result<Vec<Arc<Frame>>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT seq, kind, direction, wall_us, mono_us, truncated_from, exchange, app_view
             FROM entries WHERE seq >= ?1 AND kind < 6 ORDER BY seq LIMIT ?2",
        )?;
        let heads = stmt
            .query_map(params![from.min(i64::MAX as u64) as i64, limit], |r| {
                Ok((
                    r.get::<_, i64>(0)? as u64,
                    direction_of(r.get(2)?),
                    r.get::<_, i64>(3)? as u64,
                    r.get::<_, i64>(4)? as u64,
                    r.get::<_, Option<i64>>(5)?.map(|t| t as u64),
                    r.get::<_, Option<i64>>(6)?.map(|e| e as u64),
                    r.get::<_, Option<i64>>(7)?.map(|v| v as u32),
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut cursor = PageCursor::default();
        let mut frames = Vec::with_capacity(heads.len());
        for (seq, direction, wall_us, mono_us, truncated_from, exchange, app_view) in heads {
            let Some(bytes) = cursor.body(&conn, seq)? else {
                continue;
            };
            let verdict = match truncated_from {
                Some(total) => truncated_verdict(total, bytes.len()),
                None => classify(bytes),
            };
            frames.push(Arc::new(Frame {
                seq,
                direction,
                wall_us,
                mono_us,
                bytes: Arc::from(bytes),
                truncated_from,
                exchange,
                app_view,
                verdict,
            }));
        }
        Ok(frames)
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

/// The last text query's matches.
pub(crate) struct TextHits {
    query: String,
    /// Batches the writer had written when they were found: a later batch may add more.
    batches: u64,
    seqs: Arc<Vec<u64>>,
}

/// Text hits at most this many are looked up by seq under the rest of a filter; more, and the
/// rest's rows are read and merged with them.
const LOOKUP_HITS: usize = 50_000;
/// Seqs one lookup statement lists.
const LOOKUP_CHUNK: usize = 2_000;

/// Where a tail of `tail` rows or more of `count` starts: down to a multiple of `page`.
pub(crate) fn tail_from(count: u64, tail: u64, page: u64) -> u64 {
    let start = count.saturating_sub(tail);
    start - start % page.max(1)
}

/// How many entries `filter` (without text) keeps, on `conn`.
fn count_on(conn: &Connection, filter: &TrafficFilter) -> Result<u64, StoreError> {
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

/// [`Store::select_rows`] on `conn`.
fn select_rows_on(
    conn: &Connection,
    tail: &str,
    params: Vec<SqlValue>,
    cached: bool,
) -> Result<Vec<TrafficRow>, StoreError> {
    let sql = format!(
        "SELECT seq, kind, direction, wall_us, mono_us, size, method, rpc_id, latency_us,
            status, problem, call_first, call_round, call_asked_by,
            CASE WHEN status & {FLAGGED} != 0 THEN
                (SELECT json_group_array(json(flag)) FROM flags f WHERE f.seq = entries.seq)
            END,
            app_view
         FROM entries WHERE {tail}"
    );
    let mut once;
    let mut kept;
    let stmt: &mut rusqlite::Statement<'_> = if cached {
        kept = conn.prepare_cached(&sql)?;
        &mut kept
    } else {
        once = conn.prepare(&sql)?;
        &mut once
    };
    let rows = stmt.query_map(params_from_iter(params), |r| {
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
        let flags: Option<String> = r.get(14)?;
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
            preview: String::new(),
            flags: flags
                .and_then(|f| serde_json::from_str(&f).ok())
                .unwrap_or_default(),
            round: None,
            app_view: r.get::<_, Option<i64>>(15)?.map(|v| v as u32),
        })
    })?;
    let mut rows: Vec<TrafficRow> = rows.collect::<Result<_, _>>()?;
    // The previews from the pages: the rows of a window share a few of them.
    let mut cursor = PageCursor::default();
    for row in &mut rows {
        if let Some(body) = cursor.body(conn, row.seq)? {
            row.preview = crate::rows::preview(&body[..body.len().min(PREVIEW_BYTES)]);
        }
    }
    Ok(rows)
}

#[cfg(test)]
thread_local! {
    /// Tests take the merge path with few hits (a test's session is small).
    pub(crate) static ALWAYS_MERGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn lookup_hits() -> usize {
    #[cfg(test)]
    if ALWAYS_MERGE.with(|m| m.get()) {
        return 0;
    }
    LOOKUP_HITS
}

/// The seqs of `a` that are in `b` (`in_b`) or not in `b` (both in order): one merge pass.
fn sieve(a: &[u64], b: &[u64], in_b: bool) -> Vec<u64> {
    let mut j = 0;
    a.iter()
        .copied()
        .filter(|&s| {
            while j < b.len() && b[j] < s {
                j += 1;
            }
            (j < b.len() && b[j] == s) == in_b
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::sieve;

    #[test]
    fn a_sieve_keeps_the_seqs_in_or_out_of_the_other_list() {
        let a = [1, 3, 5, 7, 9];
        let b = [2, 3, 4, 9, 10];
        assert_eq!(sieve(&a, &b, true), [3, 9]);
        assert_eq!(sieve(&a, &b, false), [1, 5, 7]);
        assert_eq!(sieve(&a, &[], false), a);
        assert!(sieve(&[], &b, true).is_empty());
    }
}
