//! The store's writer thread: drains the bounded queue, one transaction per batch, prepared
//! statements, and pairs responses with requests (method, latency) off the hot path. The
//! full-text index follows behind: it is filled when the queue is empty (or before a sync is
//! answered), so a flood is listed at the speed of plain inserts and becomes searchable as soon
//! as the writer has a moment.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use rusqlite::{Connection, params};

use super::Shared;
use super::filter::{EntryKind, EntryStatus, direction_code};
use crate::record::{CallRound, Decision, FlagRecord, HttpExchange, StderrLine};
use crate::rows::{FrameKind, RowBuilder};
use crate::wire::{Direction, Frame, Verdict};

/// Most entries one transaction writes: big enough that a commit's cost vanishes per entry,
/// small enough that a reader sees a flood arrive in steps of well under a second.
const BATCH: usize = 8192;
/// Bodies indexed per transaction when the index catches up: each transaction leaves FTS5 one
/// more segment to merge later, so bigger chunks cost less in all (in the ingest benchmark,
/// chunks of 4096 cost about a quarter more CPU per body than chunks of 32 768), yet small
/// enough that an entry arriving meanwhile waits well under a second.
const FTS_CHUNK: i64 = 16_384;

/// What the record sends the writer, in record order.
pub(crate) enum Entry {
    Frame(Arc<Frame>, Option<CallRound>),
    Stderr(Arc<StderrLine>),
    Http(Arc<HttpExchange>),
    Flag(FlagRecord),
    Decision(Decision),
    /// Answered once everything before it is committed (queries see it).
    Sync(Sender<()>),
}

impl Entry {
    /// The seq of an entry that is a row of the list.
    fn seq(&self) -> Option<u64> {
        match self {
            Entry::Frame(frame, _) => Some(frame.seq),
            Entry::Stderr(line) => Some(line.seq),
            Entry::Http(exchange) => Some(exchange.seq),
            Entry::Flag(_) | Entry::Decision(_) | Entry::Sync(_) => None,
        }
    }
}

pub(crate) fn run(mut conn: Connection, queue: Receiver<Entry>, shared: Arc<Shared>) {
    let mut rows = RowBuilder::default();
    let mut batch: Vec<Entry> = Vec::with_capacity(BATCH);
    let mut syncs: Vec<Sender<()>> = Vec::new();
    let mut index = FtsIndex::open(&conn);
    loop {
        let first = if index.behind {
            match queue.try_recv() {
                Ok(entry) => entry,
                Err(TryRecvError::Empty) => {
                    index.step(&mut conn, &shared);
                    continue;
                }
                Err(TryRecvError::Disconnected) => break,
            }
        } else {
            match queue.recv() {
                Ok(entry) => entry,
                Err(_) => break,
            }
        };
        // Syncs are taken out as they come (answered after the batch is committed, or after
        // its failure is recorded: a batch that fails must not drop them before that).
        let mut next = Some(first);
        while let Some(entry) = next.take() {
            match entry {
                Entry::Sync(reply) => syncs.push(reply),
                entry => batch.push(entry),
            }
            if batch.len() < BATCH {
                next = queue.try_recv().ok();
            }
        }
        let last = batch.iter().rev().find_map(Entry::seq);
        match write_batch(&mut conn, &mut rows, &mut batch, &mut syncs) {
            Ok(()) => {
                index.behind = true;
                if let Some(last) = last {
                    shared.committed_to.fetch_max(last, Ordering::Release);
                }
            }
            Err(e) => shared.fail(format!("the traffic store could not write: {e}")),
        }
        shared.written_batches.fetch_add(1, Ordering::Relaxed);
        if !syncs.is_empty() {
            // A sync promises that queries see everything, full-text search included.
            index.catch_up(&mut conn, &shared);
            for s in syncs.drain(..) {
                let _ = s.send(());
            }
        }
    }
    // Closing: the index catches up, so a closed store is searchable in full.
    index.catch_up(&mut conn, &shared);
}

/// How far the full-text index has got: bodies up to `indexed_to` are in it (kept in `meta`,
/// so a reopened store goes on where it stopped).
struct FtsIndex {
    indexed_to: i64,
    behind: bool,
}

impl FtsIndex {
    fn open(conn: &Connection) -> FtsIndex {
        let indexed_to = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'fts_indexed_to'",
                [],
                |r| r.get::<_, String>(0),
            )
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        FtsIndex {
            indexed_to,
            behind: true,
        }
    }

    fn catch_up(&mut self, conn: &mut Connection, shared: &Shared) {
        while self.behind && !shared.failed.load(Ordering::Acquire) {
            self.step(conn, shared);
        }
    }

    /// Indexes the next chunk of bodies; clears `behind` when there were none left.
    fn step(&mut self, conn: &mut Connection, shared: &Shared) {
        match self.index_chunk(conn) {
            Ok(0) => self.behind = false,
            Ok(_) => shared
                .indexed_to
                .store(self.indexed_to as u64, Ordering::Release),
            Err(e) => {
                shared.fail(format!("the traffic store could not index: {e}"));
                self.behind = false;
            }
        }
    }

    fn index_chunk(&mut self, conn: &mut Connection) -> rusqlite::Result<usize> {
        let tx = conn.transaction()?;
        let mut n = 0;
        {
            let mut read = tx.prepare_cached(
                "SELECT seq, body FROM bodies WHERE seq > ?1 ORDER BY seq LIMIT ?2",
            )?;
            let mut insert =
                tx.prepare_cached("INSERT INTO body_fts(rowid, body) VALUES (?1, ?2)")?;
            let mut rows = read.query(params![self.indexed_to, FTS_CHUNK])?;
            while let Some(row) = rows.next()? {
                let seq: i64 = row.get(0)?;
                let body = row.get_ref(1)?.as_bytes()?;
                // The index reads text; bytes that are not UTF-8 are indexed as far as they
                // decode (the body keeps them exactly).
                insert.execute(params![seq, String::from_utf8_lossy(body)])?;
                self.indexed_to = seq;
                n += 1;
            }
            if n > 0 {
                tx.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('fts_indexed_to', ?1)",
                    [self.indexed_to.to_string()],
                )?;
            }
        }
        tx.commit()?;
        Ok(n)
    }
}

fn write_batch(
    conn: &mut Connection,
    rows: &mut RowBuilder,
    batch: &mut Vec<Entry>,
    syncs: &mut Vec<Sender<()>>,
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut entry_stmt = tx.prepare_cached(
            "INSERT INTO entries(seq, kind, direction, wall_us, mono_us, size, method, rpc_id,
                latency_us, status, problem, call_first, call_round, call_asked_by,
                truncated_from, exchange, app_view)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        )?;
        let mut body_stmt = tx.prepare_cached("INSERT INTO bodies(seq, body) VALUES (?1, ?2)")?;
        let mut flag_stmt = tx.prepare_cached("INSERT INTO flags(seq, flag) VALUES (?1, ?2)")?;
        let mut status_stmt =
            tx.prepare_cached("UPDATE entries SET status = status | ?2 WHERE seq = ?1")?;
        let mut http_stmt = tx.prepare_cached("INSERT INTO http(seq, exchange) VALUES (?1, ?2)")?;
        let mut decision_stmt = tx.prepare_cached("INSERT INTO decisions(decision) VALUES (?1)")?;
        for entry in batch.drain(..) {
            match entry {
                Entry::Frame(frame, call) => {
                    // No preview: the store keeps the bytes, and a list asks for few rows.
                    let row = rows.paired(&frame, call);
                    let kind = entry_kind(row.kind);
                    let mut status = 0;
                    if kind == EntryKind::ErrorResponse {
                        status |= EntryStatus::Error.bit();
                    }
                    if !frame.verdict.is_valid() {
                        status |= EntryStatus::Malformed.bit();
                    }
                    let call = row.call;
                    entry_stmt.execute(params![
                        frame.seq as i64,
                        kind.code(),
                        direction_code(frame.direction),
                        frame.wall_us as i64,
                        frame.mono_us as i64,
                        frame.size() as i64,
                        row.method,
                        row.id,
                        row.latency_us.map(|l| l as i64),
                        status,
                        row.problem,
                        call.map(|c| c.first_seq as i64),
                        call.map(|c| c.round as i64),
                        call.map(|c| c.asked_by as i64),
                        frame.truncated_from.map(|t| t as i64),
                        frame.exchange.map(|e| e as i64),
                        frame.app_view.map(i64::from),
                    ])?;
                    body_stmt.execute(params![frame.seq as i64, &frame.bytes[..]])?;
                }
                Entry::Stderr(line) => {
                    insert_other(
                        &mut entry_stmt,
                        line.seq,
                        EntryKind::Stderr,
                        Direction::In,
                        (line.wall_us, line.mono_us),
                        line.text.len() as u64,
                        None,
                        0,
                    )?;
                    body_stmt.execute(params![line.seq as i64, line.text.as_bytes()])?;
                }
                Entry::Http(exchange) => {
                    let failed = exchange_failed(&exchange);
                    insert_other(
                        &mut entry_stmt,
                        exchange.seq,
                        EntryKind::HttpExchange,
                        Direction::Out,
                        (exchange.wall_us, exchange.mono_us),
                        0,
                        exchange.error.clone(),
                        if failed { EntryStatus::Error.bit() } else { 0 },
                    )?;
                    let text = exchange_body(&exchange);
                    body_stmt.execute(params![exchange.seq as i64, text.as_bytes()])?;
                    http_stmt.execute(params![
                        exchange.seq as i64,
                        serde_json::to_string(&*exchange).unwrap_or_default()
                    ])?;
                }
                Entry::Flag(record) => {
                    let bits = super::filter::flag_bits(&record.flag);
                    flag_stmt.execute(params![
                        record.seq as i64,
                        serde_json::to_string(&record.flag).unwrap_or_default()
                    ])?;
                    status_stmt.execute(params![record.seq as i64, bits])?;
                }
                Entry::Decision(decision) => {
                    decision_stmt
                        .execute([serde_json::to_string(&decision).unwrap_or_default()])?;
                }
                Entry::Sync(reply) => syncs.push(reply),
            }
        }
    }
    tx.commit()
}

#[allow(clippy::too_many_arguments)]
fn insert_other(
    stmt: &mut rusqlite::CachedStatement<'_>,
    seq: u64,
    kind: EntryKind,
    direction: Direction,
    (wall_us, mono_us): (u64, u64),
    size: u64,
    problem: Option<String>,
    status: i64,
) -> rusqlite::Result<usize> {
    stmt.execute(params![
        seq as i64,
        kind.code(),
        direction_code(direction),
        wall_us as i64,
        mono_us as i64,
        size as i64,
        None::<String>,
        None::<String>,
        None::<i64>,
        status,
        problem,
        None::<i64>,
        None::<i64>,
        None::<i64>,
        None::<i64>,
        None::<i64>,
        None::<i64>,
    ])
}

pub(crate) fn entry_kind(kind: FrameKind) -> EntryKind {
    match kind {
        FrameKind::Request => EntryKind::Request,
        FrameKind::Notification => EntryKind::Notification,
        FrameKind::Response => EntryKind::Response,
        FrameKind::ErrorResponse => EntryKind::ErrorResponse,
        FrameKind::Batch => EntryKind::Batch,
        FrameKind::Malformed => EntryKind::Malformed,
    }
}

/// What the store keeps as an HTTP exchange's body (listed, searched): `METHOD url status`.
pub(crate) fn exchange_body(exchange: &HttpExchange) -> String {
    match exchange.status {
        Some(s) => format!("{} {} {s}", exchange.method, exchange.url),
        None => format!("{} {}", exchange.method, exchange.url),
    }
}

/// An exchange that failed or was answered with an HTTP error has the `error` status.
pub(crate) fn exchange_failed(exchange: &HttpExchange) -> bool {
    exchange.error.is_some() || exchange.status.is_none_or(|s| s >= 400)
}

/// The verdict of a frame cut at the size limit (its bytes cannot parse, so none is claimed).
pub(crate) fn truncated_verdict(total: u64, kept: usize) -> Verdict {
    Verdict::NotJson {
        error: format!(
            "frame of {total} bytes exceeds the {kept} byte limit; only the first part was kept"
        ),
    }
}
