//! The store's writer thread: drains the bounded queue, one transaction per batch, and pairs
//! responses with requests (method, latency) off the hot path. Entries go in 64 rows a
//! statement, bodies in pages (store/pages.rs): everything a batch writes is listed and
//! searchable once it commits.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use rusqlite::{CachedStatement, Connection, params};

use super::Shared;
use super::filter::{EntryStatus, direction_code};
use super::pages::{INSERT_PAGE, PageBuilder};
use crate::record::{CallRound, Decision, FlagRecord, HttpExchange, StderrLine};
use crate::rows::{EntryKind, RowBuilder};
use crate::wire::{Direction, Frame, Verdict};

/// Most entries one transaction writes: big enough that a commit's cost vanishes per entry,
/// small enough that a reader sees a flood arrive in steps of well under a second.
const BATCH: usize = 8192;
/// Under a flood (a batch starting within this long of the last commit), how long the writer
/// lets a batch gather before it commits: each commit rewrites the last page of every table and
/// index it touched, so thousands of small commits a second cost more than the rows. Far below
/// what a user sees in the list.
const GATHER: Duration = Duration::from_millis(5);
/// Rows of `entries` one INSERT statement writes: one statement step for many rows (each
/// execution has a fixed cost: bind, step, reset). 64 × 17 parameters is far under SQLite's
/// limit.
const ROWS_PER_INSERT: usize = 64;
const ENTRY_COLUMNS: &str = "seq, kind, direction, wall_us, mono_us, size, method, rpc_id,
    latency_us, status, problem, call_first, call_round, call_asked_by, truncated_from,
    exchange, app_view";
const COLUMNS: usize = 17;

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
    let mut writer = BatchWriter::default();
    // When the last commit ended: a batch that starts soon after it is part of a flood.
    let mut last_commit: Option<Instant> = None;
    while let Ok(first) = queue.recv() {
        let flooding = last_commit.is_some_and(|at| at.elapsed() < GATHER);
        let started = Instant::now();
        take(first, &mut batch, &mut syncs);
        drain(&queue, &mut batch, &mut syncs);
        // Under a flood, a commit of what a few frames' time brought costs nearly as much as one
        // of thousands (each rewrites the pages it ends in): sleep a little, then take what came
        // meanwhile, unless somebody waits for the commit. A sleep, not a wait on the queue: a
        // waiting writer would have every frame's producer wake it.
        if flooding && syncs.is_empty() && batch.len() < BATCH {
            std::thread::sleep(GATHER.saturating_sub(started.elapsed()));
            drain(&queue, &mut batch, &mut syncs);
        }
        let last = batch.iter().rev().find_map(Entry::seq);
        match writer.write(&mut conn, &mut rows, &mut batch, &mut syncs) {
            Ok(()) => {
                if let Some(last) = last {
                    shared.committed_to.fetch_max(last, Ordering::Release);
                }
            }
            Err(e) => {
                writer = BatchWriter::default();
                shared.fail(format!("the traffic store could not write: {e}"));
            }
        }
        shared.written_batches.fetch_add(1, Ordering::Relaxed);
        last_commit = Some(Instant::now());
        for s in syncs.drain(..) {
            let _ = s.send(());
        }
    }
}

/// Puts an entry in the batch. Syncs are taken out as they come (answered after the batch is
/// committed, or after its failure is recorded: a batch that fails must not drop them before).
fn take(entry: Entry, batch: &mut Vec<Entry>, syncs: &mut Vec<Sender<()>>) {
    match entry {
        Entry::Sync(reply) => syncs.push(reply),
        entry => batch.push(entry),
    }
}

/// Takes what the queue holds, up to a full batch.
fn drain(queue: &Receiver<Entry>, batch: &mut Vec<Entry>, syncs: &mut Vec<Sender<()>>) {
    while batch.len() < BATCH {
        match queue.try_recv() {
            Ok(entry) => take(entry, batch, syncs),
            Err(_) => return,
        }
    }
}

/// One row of `entries`, held until a statement's worth of rows is ready.
#[derive(Default)]
struct EntryRow {
    seq: i64,
    kind: i64,
    direction: i64,
    wall_us: i64,
    mono_us: i64,
    size: i64,
    method: Option<String>,
    rpc_id: Option<String>,
    latency_us: Option<i64>,
    status: i64,
    problem: Option<String>,
    call_first: Option<i64>,
    call_round: Option<i64>,
    call_asked_by: Option<i64>,
    truncated_from: Option<i64>,
    exchange: Option<i64>,
    app_view: Option<i64>,
}

impl EntryRow {
    /// Binds the row's columns from parameter `first` (1-based) on.
    fn bind(&self, stmt: &mut CachedStatement<'_>, first: usize) -> rusqlite::Result<()> {
        stmt.raw_bind_parameter(first, self.seq)?;
        stmt.raw_bind_parameter(first + 1, self.kind)?;
        stmt.raw_bind_parameter(first + 2, self.direction)?;
        stmt.raw_bind_parameter(first + 3, self.wall_us)?;
        stmt.raw_bind_parameter(first + 4, self.mono_us)?;
        stmt.raw_bind_parameter(first + 5, self.size)?;
        stmt.raw_bind_parameter(first + 6, &self.method)?;
        stmt.raw_bind_parameter(first + 7, &self.rpc_id)?;
        stmt.raw_bind_parameter(first + 8, self.latency_us)?;
        stmt.raw_bind_parameter(first + 9, self.status)?;
        stmt.raw_bind_parameter(first + 10, &self.problem)?;
        stmt.raw_bind_parameter(first + 11, self.call_first)?;
        stmt.raw_bind_parameter(first + 12, self.call_round)?;
        stmt.raw_bind_parameter(first + 13, self.call_asked_by)?;
        stmt.raw_bind_parameter(first + 14, self.truncated_from)?;
        stmt.raw_bind_parameter(first + 15, self.exchange)?;
        stmt.raw_bind_parameter(first + 16, self.app_view)?;
        Ok(())
    }
}

/// `INSERT INTO entries … VALUES (…)` with `n` rows.
fn insert_entries_sql(n: usize) -> String {
    let row = format!("({})", vec!["?"; COLUMNS].join(","));
    format!(
        "INSERT INTO entries({ENTRY_COLUMNS}) VALUES {}",
        vec![row; n].join(",")
    )
}

/// What a batch leaves behind for the next: the buffers, kept to spare their allocations.
#[derive(Default)]
struct BatchWriter {
    pending: Vec<EntryRow>,
    page: PageBuilder,
}

impl BatchWriter {
    fn write(
        &mut self,
        conn: &mut Connection,
        rows: &mut RowBuilder,
        batch: &mut Vec<Entry>,
        syncs: &mut Vec<Sender<()>>,
    ) -> rusqlite::Result<()> {
        static MANY: OnceLock<String> = OnceLock::new();
        static ONE: OnceLock<String> = OnceLock::new();
        let many = MANY.get_or_init(|| insert_entries_sql(ROWS_PER_INSERT));
        let one = ONE.get_or_init(|| insert_entries_sql(1));
        let tx = conn.transaction()?;
        {
            let mut many_stmt = tx.prepare_cached(many)?;
            let mut one_stmt = tx.prepare_cached(one)?;
            let mut page_stmt = tx.prepare_cached(INSERT_PAGE)?;
            let mut flag_stmt =
                tx.prepare_cached("INSERT INTO flags(seq, flag) VALUES (?1, ?2)")?;
            let mut status_stmt =
                tx.prepare_cached("UPDATE entries SET status = status | ?2 WHERE seq = ?1")?;
            let mut http_stmt =
                tx.prepare_cached("INSERT INTO http(seq, exchange) VALUES (?1, ?2)")?;
            let mut decision_stmt =
                tx.prepare_cached("INSERT INTO decisions(decision) VALUES (?1)")?;
            for entry in batch.drain(..) {
                match entry {
                    Entry::Frame(frame, call) => {
                        self.page.push(&mut page_stmt, frame.seq, &frame.bytes)?;
                        self.pending.push(frame_row(rows, &frame, call));
                    }
                    Entry::Stderr(line) => {
                        self.page
                            .push(&mut page_stmt, line.seq, line.text.as_bytes())?;
                        self.pending.push(other_row(
                            line.seq,
                            EntryKind::Stderr,
                            Direction::In,
                            (line.wall_us, line.mono_us),
                            line.text.len() as u64,
                            None,
                            0,
                        ));
                    }
                    Entry::Http(exchange) => {
                        let failed = exchange_failed(&exchange);
                        self.page.push(
                            &mut page_stmt,
                            exchange.seq,
                            exchange_body(&exchange).as_bytes(),
                        )?;
                        self.pending.push(other_row(
                            exchange.seq,
                            EntryKind::HttpExchange,
                            Direction::Out,
                            (exchange.wall_us, exchange.mono_us),
                            0,
                            exchange.error.clone(),
                            if failed { EntryStatus::Error.bit() } else { 0 },
                        ));
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
                        // A row not written yet takes the bits as it is; a written one is
                        // updated.
                        let seq = record.seq as i64;
                        match self.pending.iter_mut().rev().find(|r| r.seq == seq) {
                            Some(row) => row.status |= bits,
                            None => {
                                status_stmt.execute(params![seq, bits])?;
                            }
                        }
                    }
                    Entry::Decision(decision) => {
                        decision_stmt
                            .execute([serde_json::to_string(&decision).unwrap_or_default()])?;
                    }
                    Entry::Sync(reply) => syncs.push(reply),
                }
                if self.pending.len() == ROWS_PER_INSERT {
                    for (i, row) in self.pending.iter().enumerate() {
                        row.bind(&mut many_stmt, i * COLUMNS + 1)?;
                    }
                    many_stmt.raw_execute()?;
                    self.pending.clear();
                }
            }
            for row in self.pending.drain(..) {
                row.bind(&mut one_stmt, 1)?;
                one_stmt.raw_execute()?;
            }
            self.page.flush(&mut page_stmt)?;
        }
        tx.commit()
    }
}

/// A frame's row, paired with its request as it is written.
fn frame_row(rows: &mut RowBuilder, frame: &Frame, call: Option<CallRound>) -> EntryRow {
    // No preview: the store keeps the bytes, and a list asks for few rows.
    let row = rows.paired(frame, call);
    let kind = row.kind;
    let mut status = 0;
    if kind == EntryKind::ErrorResponse {
        status |= EntryStatus::Error.bit();
    }
    if !frame.verdict.is_valid() {
        status |= EntryStatus::Malformed.bit();
    }
    let call = row.call;
    EntryRow {
        seq: frame.seq as i64,
        kind: kind.code(),
        direction: direction_code(frame.direction),
        wall_us: frame.wall_us as i64,
        mono_us: frame.mono_us as i64,
        size: frame.size() as i64,
        method: row.method,
        rpc_id: row.id,
        latency_us: row.latency_us.map(|l| l as i64),
        status,
        problem: row.problem,
        call_first: call.map(|c| c.first_seq as i64),
        call_round: call.map(|c| c.round as i64),
        call_asked_by: call.map(|c| c.asked_by as i64),
        truncated_from: frame.truncated_from.map(|t| t as i64),
        exchange: frame.exchange.map(|e| e as i64),
        app_view: frame.app_view.map(i64::from),
    }
}

/// The row of a stderr line or an HTTP exchange.
fn other_row(
    seq: u64,
    kind: EntryKind,
    direction: Direction,
    (wall_us, mono_us): (u64, u64),
    size: u64,
    problem: Option<String>,
    status: i64,
) -> EntryRow {
    EntryRow {
        seq: seq as i64,
        kind: kind.code(),
        direction: direction_code(direction),
        wall_us: wall_us as i64,
        mono_us: mono_us as i64,
        size: size as i64,
        problem,
        status,
        ..EntryRow::default()
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
