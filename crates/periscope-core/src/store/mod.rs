//! The session's record on disk: SQLite, bodies in pages scanned by full-text search
//! (docs/store.md).
//!
//! [`Traffic`](crate::traffic::Traffic) sends every entry here through a bounded queue; a
//! writer thread commits them in batches. A traffic list asks for windows ([`Store::count`],
//! [`Store::rows`], [`Store::position`], [`Store::search`]) instead of holding every row.

mod checkpoint;
mod filter;
mod pages;
mod query;
mod read_all;
mod schema;
mod text_match;
pub mod timeline;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, TrySendError};
use rusqlite::{Connection, OpenFlags};

pub(crate) use filter::flag_bits;
pub use filter::{EntryStatus, TrafficChannel, TrafficFilter};
pub(crate) use query::tail_from;
pub use query::{SearchHit, TrafficTail};
// The row types are the record's (`rows`); a list reads them from here too.
pub use crate::rows::{EntryKind, RoundChip, RowStatus, TrafficRow};
pub(crate) use text_match::TextQuery;
pub(crate) use writer::{Entry, exchange_body, exchange_failed, truncated_verdict};

/// Entries the queue holds before a producer waits. With frames capped by the frame size
/// limit, this bounds what a writer that fell behind can cost in memory.
const QUEUE: usize = 32 * 1024;
/// How long a producer waits for room in the queue before the store is declared stalled (a
/// disk that hangs): past it the store takes nothing more and says why (see docs/store.md).
const WRITER_DEADLINE: Duration = Duration::from_secs(10);

/// How long dropping a store waits for its writer to commit what is queued (a full queue takes
/// seconds, not minutes).
const CLOSE_DEADLINE: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the traffic store failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{0}")]
    Failed(String),
    /// Kept for hosts that match on it: no query is refused since search scans pages (any
    /// text is a query).
    #[error("not a search query: {0}")]
    BadQuery(String),
}

/// How long producers waited for the writer: what a flood costs when the disk is slower.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoreStats {
    pub waits: u64,
    pub waited_us: u64,
    pub batches: u64,
}

/// What the writer thread and the producers share.
#[derive(Default)]
pub(crate) struct Shared {
    error: Mutex<Option<String>>,
    failed: AtomicBool,
    waits: AtomicU64,
    waited_ns: AtomicU64,
    written_batches: AtomicU64,
    /// Entries up to this seq are committed (listed by window queries).
    committed_to: AtomicU64,
}

impl Shared {
    fn fail(&self, error: String) {
        self.failed.store(true, Ordering::Release);
        self.error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(error);
    }
}

/// One session's store file. Share it in an `Arc`; queries take `&self`.
pub struct Store {
    path: PathBuf,
    queue: Option<Sender<Entry>>,
    reader: Mutex<Connection>,
    shared: Arc<Shared>,
    writer: Option<JoinHandle<()>>,
    /// Closed by the writer thread when it ends: how a drop waits for it with a deadline.
    writer_done: crossbeam_channel::Receiver<()>,
    /// Dropped to stop the checkpointer thread.
    checkpoint_stop: Option<Sender<()>>,
    /// The entries the last text query matched (a list asks its count, then its rows, then
    /// more rows, with the same text).
    text_hits: Mutex<Option<query::TextHits>>,
}

impl Store {
    /// Creates (or continues) the store at `path`, owner-only (it holds everything the server and
    /// the user sent), and starts its writer thread.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            drop(
                crate::private_file::create(path)
                    .map_err(|e| StoreError::Failed(format!("cannot create the store: {e}")))?,
            );
        }
        let conn = Connection::open(path)?;
        schema::configure(&conn)?;
        schema::create(&conn)?;
        schema::configure_writer(&conn)?;
        let reader = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        reader.busy_timeout(Duration::from_secs(5))?;
        let shared = Arc::new(Shared::default());
        let (tx, rx) = crossbeam_channel::bounded(QUEUE);
        let writer_shared = shared.clone();
        let (done_tx, writer_done) = crossbeam_channel::bounded::<()>(0);
        let (checkpoint_stop, stop) = crossbeam_channel::bounded::<()>(0);
        let (checkpoint_path, checkpoint_shared) = (path.to_path_buf(), shared.clone());
        std::thread::Builder::new()
            // Under 16 bytes, the kernel's limit on a thread's name: told apart from the writer's.
            .name("periscope-ckpt".into())
            .spawn(move || checkpoint::run(&checkpoint_path, checkpoint_shared, stop))
            .map_err(|e| StoreError::Failed(format!("cannot start the store checkpointer: {e}")))?;
        let writer = std::thread::Builder::new()
            .name("periscope-store".into())
            .spawn(move || {
                writer::run(conn, rx, writer_shared);
                drop(done_tx);
            })
            .map_err(|e| StoreError::Failed(format!("cannot start the store writer: {e}")))?;
        Ok(Store {
            path: path.to_path_buf(),
            queue: Some(tx),
            reader: Mutex::new(reader),
            shared,
            writer: Some(writer),
            writer_done,
            checkpoint_stop: Some(checkpoint_stop),
            text_hits: Mutex::new(None),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Queues an entry; waits (up to [`WRITER_DEADLINE`]) when the writer is behind. An error
    /// means the store has failed and takes nothing more.
    pub(crate) fn send(&self, entry: Entry) -> Result<(), StoreError> {
        if self.shared.failed.load(Ordering::Acquire) {
            return Err(self.failure());
        }
        let Some(queue) = &self.queue else {
            return Err(self.failure());
        };
        match queue.try_send(entry) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(entry)) => {
                let start = Instant::now();
                let sent = queue.send_timeout(entry, WRITER_DEADLINE);
                self.shared.waits.fetch_add(1, Ordering::Relaxed);
                self.shared
                    .waited_ns
                    .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
                if sent.is_err() {
                    self.shared.fail(format!(
                        "the traffic store's writer took nothing for {} s (is the disk stuck?)",
                        WRITER_DEADLINE.as_secs()
                    ));
                    return Err(self.failure());
                }
                Ok(())
            }
            Err(TrySendError::Disconnected(_)) => {
                self.shared
                    .fail("the traffic store's writer stopped".into());
                Err(self.failure())
            }
        }
    }

    /// Waits until everything queued so far is committed, so every query (full-text search
    /// included) sees it.
    pub fn sync(&self) -> Result<(), StoreError> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(Entry::Sync(tx))?;
        // The deadline is on a writer that stalls, not on the work: writing a full queue on a
        // busy machine takes longer than a short fixed wait, and moves all along.
        let mut progress = self.progress();
        let mut stalled_since = Instant::now();
        loop {
            match rx.recv_timeout(Duration::from_millis(250)) {
                Ok(()) => break,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    let now = self.progress();
                    if now != progress {
                        progress = now;
                        stalled_since = Instant::now();
                    } else if stalled_since.elapsed() > WRITER_DEADLINE {
                        return Err(StoreError::Failed(
                            "the traffic store's writer did not answer".into(),
                        ));
                    }
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                    return Err(StoreError::Failed(
                        "the traffic store's writer did not answer".into(),
                    ));
                }
            }
        }
        match self.error() {
            Some(e) => Err(StoreError::Failed(e)),
            None => Ok(()),
        }
    }

    /// How far the writer has got (committed, batches written): moves while it works.
    fn progress(&self) -> (u64, u64) {
        (self.committed_to(), self.stats().batches)
    }

    /// The first failure, if the store failed.
    pub fn error(&self) -> Option<String> {
        self.shared
            .error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn failed(&self) -> bool {
        self.shared.failed.load(Ordering::Acquire)
    }

    fn failure(&self) -> StoreError {
        StoreError::Failed(
            self.error()
                .unwrap_or_else(|| "the traffic store is closed".into()),
        )
    }

    /// Entries up to this seq are committed: window queries list them and search finds them.
    pub fn committed_to(&self) -> u64 {
        self.shared.committed_to.load(Ordering::Acquire)
    }

    pub fn stats(&self) -> StoreStats {
        StoreStats {
            waits: self.shared.waits.load(Ordering::Relaxed),
            waited_us: self.shared.waited_ns.load(Ordering::Relaxed) / 1000,
            batches: self.shared.written_batches.load(Ordering::Relaxed),
        }
    }

    fn reader(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.reader.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Store {
    /// Lets the writer commit what is queued, then waits for it: a closed store
    /// is complete. The wait has a deadline: a writer stuck on a hung disk is left behind
    /// rather than hanging whoever dropped the store.
    fn drop(&mut self) {
        drop(self.checkpoint_stop.take());
        drop(self.queue.take());
        // Disconnected (not a message) is how the writer says it ended.
        let ended = matches!(
            self.writer_done.recv_timeout(CLOSE_DEADLINE),
            Err(crossbeam_channel::RecvTimeoutError::Disconnected)
        );
        if let Some(writer) = self.writer.take()
            && ended
        {
            let _ = writer.join();
        }
    }
}

#[cfg(test)]
/// The store on real files, fed through a real [`Traffic`](crate::traffic::Traffic).
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use tokio::sync::broadcast;

    use super::*;
    use crate::record::{CallRound, Flag, GaveUp, HttpExchange};
    use crate::traffic::Traffic;
    use crate::wire::{Direction, RequestId};

    struct Dir(PathBuf);

    impl Dir {
        fn new(name: &str) -> Dir {
            let dir =
                std::env::temp_dir().join(format!("periscope-store-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Dir(dir)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn traffic_with_store(dir: &Dir) -> (Traffic, Arc<Store>) {
        let (tx, _) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let store = Arc::new(Store::open(&dir.0.join("session.periscope")).unwrap());
        traffic.attach_store(store.clone());
        (traffic, store)
    }

    fn out(traffic: &Traffic, text: &str) -> u64 {
        traffic
            .append_frame(Direction::Out, text.as_bytes().to_vec(), None)
            .seq
    }

    /// A `notifications/message` numbered `n`, from the server.
    fn notify(traffic: &Traffic, n: u64) -> u64 {
        inn(
            traffic,
            format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"n":{n}}}}}"#)
                .as_bytes(),
        )
    }

    fn inn(traffic: &Traffic, bytes: &[u8]) -> u64 {
        traffic
            .append_frame(Direction::In, bytes.to_vec(), None)
            .seq
    }

    /// A small session with one of everything: requests answered (one with an error), a
    /// notification flood, a malformed frame, a late and an unknown-id response, stderr, HTTP.
    fn session(traffic: &Traffic) {
        out(
            traffic,
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        );
        inn(
            traffic,
            br#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"demo"}}}"#,
        );
        for i in 0..100 {
            inn(
                traffic,
                format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progress":{i},"message":"step {i}"}}}}"#).as_bytes(),
            );
        }
        out(
            traffic,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"zanzibar"}}}"#,
        );
        inn(
            traffic,
            br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no such tool"}}"#,
        );
        inn(traffic, b"\xffnot json at all");
        traffic.append_stderr("server warming up: zanzibar cache".into());
        let late = inn(traffic, br#"{"jsonrpc":"2.0","id":3,"result":{}}"#);
        traffic.flag(
            late,
            Flag::LateResponse {
                id: RequestId::Number(3),
                gave_up: GaveUp::TimedOut,
            },
        );
        let unknown = inn(traffic, br#"{"jsonrpc":"2.0","id":99,"result":{}}"#);
        traffic.flag(
            unknown,
            Flag::UnknownResponseId {
                id: Some(RequestId::Number(99)),
            },
        );
        let seq = traffic.reserve_seq();
        traffic.append_http_reserved(HttpExchange {
            seq,
            wall_us: crate::traffic::wall_now_us(),
            mono_us: traffic.mono_now_us(),
            method: "POST".into(),
            url: "https://example.test/mcp".into(),
            status: Some(500),
            error: None,
            request_headers: vec![],
            response_headers: vec![],
            duration_us: 10,
            sent_frame: None,
        });
    }

    #[test]
    fn counts_and_windows_follow_the_filter_in_seq_order() {
        let dir = Dir::new("windows");
        let (traffic, store) = traffic_with_store(&dir);
        session(&traffic);
        traffic.flush().unwrap();

        assert_eq!(store.count(&TrafficFilter::default()).unwrap(), 109);
        let progress = TrafficFilter {
            method: Some("notifications/progress".into()),
            ..TrafficFilter::default()
        };
        assert_eq!(store.count(&progress).unwrap(), 100);
        let window = store.rows(&progress, 10, 5).unwrap();
        assert_eq!(window.len(), 5);
        assert_eq!(window[0].seq, 13, "the 11th notification is the 13th entry");
        assert!(window.windows(2).all(|w| w[0].seq < w[1].seq));
        assert!(window[0].preview.contains(r#""progress":10"#));
        assert_eq!(window[0].kind, EntryKind::Notification);

        // A response is listed under the method it answers, with its latency.
        let responses = TrafficFilter {
            kinds: vec![EntryKind::Response, EntryKind::ErrorResponse],
            direction: Some(Direction::In),
            method: Some("tools/call".into()),
            ..TrafficFilter::default()
        };
        let rows = store.rows(&responses, 0, 10).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].kind, EntryKind::ErrorResponse);
        assert_eq!(rows[0].id.as_deref(), Some("2"));
        assert!(rows[0].latency_us.is_some());
        assert!(rows[0].status.error);

        // The last window is short; past the end is empty.
        assert_eq!(store.rows(&progress, 95, 10).unwrap().len(), 5);
        assert!(store.rows(&progress, 100, 10).unwrap().is_empty());
    }

    #[test]
    fn statuses_kinds_and_text_filter_and_position_finds_a_frame_under_a_filter() {
        let dir = Dir::new("status");
        let (traffic, store) = traffic_with_store(&dir);
        session(&traffic);
        traffic.flush().unwrap();

        let by = |statuses: Vec<EntryStatus>| {
            store
                .rows(
                    &TrafficFilter {
                        statuses,
                        ..TrafficFilter::default()
                    },
                    0,
                    100,
                )
                .unwrap()
        };
        let malformed = by(vec![EntryStatus::Malformed]);
        assert_eq!(malformed.len(), 1);
        assert_eq!(malformed[0].kind, EntryKind::Malformed);
        assert!(malformed[0].problem.is_some());
        let late = by(vec![EntryStatus::Late]);
        assert_eq!(late.len(), 1);
        assert!(late[0].status.late && late[0].status.flagged && !late[0].status.unknown_id);
        assert_eq!(by(vec![EntryStatus::UnknownId]).len(), 1);
        assert_eq!(by(vec![EntryStatus::Flagged]).len(), 2);
        // The JSON-RPC error and the HTTP 500.
        assert_eq!(by(vec![EntryStatus::Error]).len(), 2);
        assert_eq!(
            by(vec![EntryStatus::Late, EntryStatus::UnknownId]).len(),
            2,
            "statuses are any-of"
        );

        let kinds = |kinds: Vec<EntryKind>| {
            store
                .rows(
                    &TrafficFilter {
                        kinds,
                        ..TrafficFilter::default()
                    },
                    0,
                    200,
                )
                .unwrap()
        };
        let stderr = kinds(vec![EntryKind::Stderr]);
        assert_eq!(stderr.len(), 1);
        assert_eq!(stderr[0].preview, "server warming up: zanzibar cache");
        let http = kinds(vec![EntryKind::HttpExchange]);
        assert_eq!(http.len(), 1);
        assert_eq!(
            store.exchange(http[0].seq).unwrap().unwrap().status,
            Some(500)
        );
        assert_eq!(kinds(vec![EntryKind::Request]).len(), 2);

        // Text: whole words, every one of them, in frames and stderr alike.
        let text = |t: &str| TrafficFilter {
            text: Some(t.into()),
            ..TrafficFilter::default()
        };
        assert_eq!(store.count(&text("zanzibar")).unwrap(), 2);
        assert_eq!(store.count(&text("zanzibar cache")).unwrap(), 1);
        assert_eq!(store.count(&text("ZANZIBAR")).unwrap(), 2);
        assert_eq!(store.count(&text("step")).unwrap(), 100);
        assert_eq!(
            store.count(&text("\"AND")).unwrap(),
            0,
            "typed syntax is just words"
        );
        let stderr_only = TrafficFilter {
            kinds: vec![EntryKind::Stderr],
            ..text("zanzibar")
        };
        assert_eq!(store.count(&stderr_only).unwrap(), 1);

        // Time range: everything is after a moment before the session, nothing after it.
        let all = store.rows(&TrafficFilter::default(), 0, 200).unwrap();
        let mid = all[50].wall_us;
        let after = TrafficFilter {
            from_wall_us: Some(mid),
            ..TrafficFilter::default()
        };
        assert!(
            store
                .rows(&after, 0, 200)
                .unwrap()
                .iter()
                .all(|r| r.wall_us >= mid)
        );
        let before = TrafficFilter {
            to_wall_us: Some(mid),
            ..TrafficFilter::default()
        };
        assert_eq!(
            store.count(&after).unwrap() + store.count(&before).unwrap()
                - all.iter().filter(|r| r.wall_us == mid).count() as u64,
            109
        );

        // Position: the index in the filtered list; none when the filter hides it.
        let progress = TrafficFilter {
            method: Some("notifications/progress".into()),
            ..TrafficFilter::default()
        };
        assert_eq!(store.position(13, &progress).unwrap(), Some(10));
        assert_eq!(
            store.position(13, &TrafficFilter::default()).unwrap(),
            Some(12)
        );
        assert_eq!(store.position(1, &progress).unwrap(), None);
        assert_eq!(
            store.position(10_000, &TrafficFilter::default()).unwrap(),
            None
        );
    }

    /// The checkpointer copies the WAL back into the file while the store is open: the
    /// writer's own autocheckpoint (256 MiB) never runs in a test this small, so the file grows
    /// only through it.
    #[test]
    fn the_checkpointer_copies_the_wal_back_while_the_store_is_open() {
        let dir = Dir::new("checkpoint");
        let (traffic, store) = traffic_with_store(&dir);
        let path = store.path().to_path_buf();
        let size = || std::fs::metadata(&path).map_or(0, |m| m.len());
        let empty = size();
        for i in 0..2000 {
            notify(&traffic, i);
        }
        traffic.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while size() <= empty + 64 * 1024 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            size() > empty + 64 * 1024,
            "the file stayed at {} bytes",
            size()
        );
    }

    /// A store of another schema version (version 2 kept a `bodies` table and an FTS5 index)
    /// is refused, and left exactly as it was.
    #[test]
    fn a_store_of_another_version_is_refused_and_left_untouched() {
        let dir = Dir::new("old-version");
        let path = dir.0.join("old.periscope");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                 INSERT INTO meta VALUES ('schema_version', '2');
                 CREATE TABLE bodies (seq INTEGER PRIMARY KEY, body BLOB NOT NULL);",
            )
            .unwrap();
        }
        let refused = Store::open(&path);
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.to_string().contains("version 2")),
            "{:?}",
            refused.err()
        );
        let conn = Connection::open(&path).unwrap();
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(tables, ["bodies", "meta"]);
    }

    #[test]
    fn search_finds_every_term_as_a_substring_pages_by_seq_and_refuses_nothing() {
        let dir = Dir::new("search");
        let (traffic, store) = traffic_with_store(&dir);
        session(&traffic);
        traffic.flush().unwrap();

        // A frame and a stderr line.
        let hits = store.search("ZANZIBAR", 0, 10).unwrap();
        assert_eq!(hits.len(), 2);
        assert!(hits[0].seq < hits[1].seq);
        assert!(
            hits[0].snippet.contains("«zanzibar»"),
            "{}",
            hits[0].snippet
        );
        let page = store.search("step", 0, 30).unwrap();
        assert_eq!(page.len(), 30);
        let next = store.search("step", page[29].seq, 100).unwrap();
        assert_eq!(next.len(), 70);
        assert_eq!(store.search_count("step 42").unwrap(), 1);
        assert_eq!(store.search_count("\"step 42\"").unwrap(), 1);
        assert_eq!(store.search_count("\"42 step\"").unwrap(), 0);
        assert_eq!(store.search_count("prog*").unwrap(), 100);
        assert_eq!(store.search_count("ogres").unwrap(), 100, "a substring");
        // The HTTP exchange's `METHOD url status`.
        assert_eq!(store.search_count("example.test/mcp 500").unwrap(), 1);
        // Bytes that are not UTF-8 are searched as recorded.
        assert_eq!(store.search_count("not json AT ALL").unwrap(), 1);
        // Nothing is syntax: an unclosed quote is a phrase to the end.
        assert_eq!(store.search("\"unclosed", 0, 10).unwrap(), vec![]);
        assert_eq!(store.search("   ", 0, 10).unwrap(), vec![]);
    }

    /// Bodies go in pages of up to 64 KiB: each comes back exactly wherever it falls (first
    /// and last of a page, empty, alone in a page of its own when bigger than a page).
    #[test]
    fn bodies_come_back_exactly_across_page_edges() {
        let dir = Dir::new("pages");
        let (traffic, store) = traffic_with_store(&dir);
        let mut sent = Vec::new();
        for i in 0..3000u32 {
            let body = match i % 500 {
                7 => Vec::new(),
                13 => {
                    let mut big = vec![b'x'; 1 << 20];
                    big[..11].copy_from_slice(b"bigbody \xff\x00y");
                    big
                }
                _ => format!("line {i} {}", "y".repeat((i as usize * 37) % 200)).into_bytes(),
            };
            let frame = traffic.append_frame(Direction::In, body.clone(), None);
            sent.push((frame.seq, body));
        }
        traffic.flush().unwrap();
        let conn = store.reader();
        let pages: i64 = conn
            .query_row("SELECT count(*) FROM pages", [], |r| r.get(0))
            .unwrap();
        assert!(pages > 10, "{pages} pages");
        drop(conn);
        for (seq, body) in &sent {
            let back = store.frame(*seq).unwrap().unwrap();
            assert_eq!(&back.bytes[..], &body[..], "seq {seq}");
        }
        let all = store.all_frames().unwrap();
        assert_eq!(all.len(), sent.len());
        assert!(
            all.iter()
                .zip(&sent)
                .all(|(f, (seq, b))| f.seq == *seq && f.bytes[..] == b[..])
        );
        assert_eq!(store.search_count("bigbody").unwrap(), 6);
        assert_eq!(store.search_count("line 2999").unwrap(), 1);
    }

    /// An HTTP exchange's seq is reserved before the frames it carries: it is written after
    /// them, out of seq order, and still found, listed and searched in its place.
    #[test]
    fn an_entry_written_out_of_seq_order_is_read_back_and_searched_in_order() {
        let dir = Dir::new("out-of-order");
        let (traffic, store) = traffic_with_store(&dir);
        let reserved = traffic.reserve_seq();
        let after = out(
            &traffic,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        traffic.flush().unwrap();
        traffic.append_http_reserved(HttpExchange {
            seq: reserved,
            wall_us: crate::traffic::wall_now_us(),
            mono_us: traffic.mono_now_us(),
            method: "POST".into(),
            url: "https://example.test/mcp".into(),
            status: Some(202),
            error: None,
            request_headers: vec![],
            response_headers: vec![],
            duration_us: 10,
            sent_frame: None,
        });
        let last = out(
            &traffic,
            r#"{"jsonrpc":"2.0","method":"notifications/mcp"}"#,
        );
        traffic.flush().unwrap();
        let hits: Vec<u64> = store
            .search("mcp", 0, 10)
            .unwrap()
            .iter()
            .map(|h| h.seq)
            .collect();
        assert_eq!(hits, [reserved, last]);
        let text = TrafficFilter {
            text: Some("mcp".into()),
            ..TrafficFilter::default()
        };
        assert_eq!(store.count(&text).unwrap(), 2);
        assert_eq!(store.position(last, &text).unwrap(), Some(1));
        let rows = store.rows(&TrafficFilter::default(), 0, 10).unwrap();
        assert_eq!(
            rows.iter().map(|r| r.seq).collect::<Vec<_>>(),
            [reserved, after, last]
        );
        assert!(
            rows[0].preview.contains("example.test"),
            "{}",
            rows[0].preview
        );
        assert!(rows[1].preview.contains("initialized"));
    }

    #[test]
    fn a_frame_comes_back_from_the_store_with_its_exact_bytes_and_verdict() {
        let dir = Dir::new("frames");
        let (traffic, store) = traffic_with_store(&dir);
        let sent = traffic.append_frame(
            Direction::Out,
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#.to_vec(),
            None,
        );
        let bad = traffic.append_frame(Direction::In, b"\xff\x00raw".to_vec(), None);
        let cut = traffic.append_frame(Direction::In, b"{\"jsonrpc\":".to_vec(), Some(9000));
        traffic.append_stderr("not a frame".into());
        traffic.flush().unwrap();
        for frame in [&sent, &bad, &cut] {
            let back = store.frame(frame.seq).unwrap().unwrap();
            assert_eq!(
                (back.seq, back.direction, back.wall_us, back.mono_us),
                (frame.seq, frame.direction, frame.wall_us, frame.mono_us)
            );
            assert_eq!(
                (
                    &back.bytes,
                    back.truncated_from,
                    back.exchange,
                    &back.verdict
                ),
                (
                    &frame.bytes,
                    frame.truncated_from,
                    frame.exchange,
                    &frame.verdict
                )
            );
        }
        assert_eq!(
            store.flags_of(cut.seq).unwrap(),
            vec![Flag::Oversized { limit: 11 }]
        );
        assert!(store.frame(4).unwrap().is_none(), "stderr is not a frame");
        assert_eq!(
            store.request_before(10, Direction::Out, "\"a\"").unwrap(),
            Some(sent.seq)
        );
    }

    #[test]
    fn a_store_reopened_keeps_everything_and_its_file_is_owner_only() {
        let dir = Dir::new("reopen");
        let path = dir.0.join("session.periscope");
        {
            let (traffic, store) = traffic_with_store(&dir);
            session(&traffic);
            drop(traffic);
            drop(store);
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.count(&TrafficFilter::default()).unwrap(), 109);
        // Closing committed what was queued: nothing was synced before.
        assert_eq!(store.search_count("zanzibar").unwrap(), 2);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }

    #[test]
    fn with_a_budget_memory_keeps_the_newest_and_older_frames_come_from_the_store() {
        let dir = Dir::new("budget");
        let (tx, _) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let store = Arc::new(Store::open(&dir.0.join("s.periscope")).unwrap());
        traffic.attach_store_keeping(store.clone(), 10);

        let first = out(
            &traffic,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
        );
        let asking = inn(
            &traffic,
            br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#,
        );
        traffic.flag(asking, Flag::InvalidUserFrame);
        for i in 0..50 {
            notify(&traffic, i);
            traffic.append_stderr(format!("line {i}"));
            traffic.flag(asking + 1 + i * 2, Flag::Oversized { limit: 1 });
        }
        // Both frames of the first round left memory; the round is still linked through the store.
        assert!(traffic.frames().iter().all(|f| f.seq > asking));
        traffic.expect_round(&RequestId::Number(2), asking);
        let again = out(
            &traffic,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#,
        );
        let answer = inn(&traffic, br#"{"jsonrpc":"2.0","id":2,"result":{}}"#);

        assert_eq!(traffic.frames().len(), 10);
        assert_eq!(traffic.stderr().len(), 10);
        assert_eq!(traffic.flags().len(), 10);
        assert_eq!(traffic.frame_count(), 54);
        assert_eq!(
            traffic.frames_from(0).len(),
            10,
            "what left memory is not handed out"
        );
        assert_eq!(traffic.frames_from(53).len(), 1);
        let old = traffic
            .frame(first)
            .expect("an old frame comes from the store");
        assert_eq!(
            &*old.bytes,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#
        );
        assert_eq!(traffic.flags_of(asking), vec![Flag::InvalidUserFrame]);
        let rounds = traffic.call_of(answer);
        assert_eq!(rounds.len(), 2);
        assert_eq!(
            (rounds[0].request_seq, rounds[0].response_seq),
            (first, Some(asking))
        );
        assert_eq!(
            (rounds[1].request_seq, rounds[1].response_seq),
            (again, Some(answer))
        );
        assert_eq!(
            traffic.call_of(first).len(),
            2,
            "from the first request, long gone"
        );
        traffic.flush().unwrap();
        assert_eq!(store.count(&TrafficFilter::default()).unwrap(), 104);
    }

    #[test]
    fn a_round_is_linked_when_its_first_request_left_memory_but_its_answer_did_not() {
        let dir = Dir::new("half-gone");
        let (tx, _) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let store = Arc::new(Store::open(&dir.0.join("s.periscope")).unwrap());
        traffic.attach_store_keeping(store, 4);

        let first = out(
            &traffic,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
        );
        for i in 0..3 {
            notify(&traffic, i);
        }
        let asking = inn(
            &traffic,
            br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#,
        );
        let in_memory: Vec<u64> = traffic.frames().iter().map(|f| f.seq).collect();
        assert!(!in_memory.contains(&first) && in_memory.contains(&asking));

        assert_eq!(traffic.partner_of(asking), Some(first));
        traffic.expect_round(&RequestId::Number(2), asking);
        let again = out(
            &traffic,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#,
        );
        assert_eq!(
            traffic.round_of(again),
            Some(CallRound {
                first_seq: first,
                round: 2,
                asked_by: asking
            })
        );
    }

    #[test]
    fn without_a_store_nothing_leaves_memory() {
        let (tx, _) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        for _ in 0..(crate::traffic::MEMORY_BUDGET + 5) {
            inn(&traffic, b"{}");
        }
        assert_eq!(traffic.frames().len(), crate::traffic::MEMORY_BUDGET + 5);
    }

    #[test]
    fn a_store_that_fails_is_let_go_and_memory_keeps_everything_from_then_on() {
        let dir = Dir::new("fails");
        let (tx, _) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let store = Arc::new(Store::open(&dir.0.join("s.periscope")).unwrap());
        traffic.attach_store_keeping(store.clone(), 5);
        let first = traffic.append_frame(Direction::In, b"{}".to_vec(), None);
        // The same seq twice breaks the table's key: the writer fails the store.
        store.send(Entry::Frame(first.clone(), None)).unwrap();
        assert!(store.sync().is_err());
        assert!(store.failed());
        for _ in 0..20 {
            inn(&traffic, b"{}");
        }
        let error = traffic.flush().expect_err("the failure is told at flush");
        assert!(error.to_string().contains("could not write"), "{error}");
        assert!(traffic.store().is_none());
        assert!(
            traffic.frames().len() >= 20,
            "nothing more left memory once the store was gone"
        );
        assert!(traffic.flush().is_ok(), "told once");
    }

    /// A list following a record that grows as it asks gets a count and rows of the same
    /// moment: its newest row is the one the count says is last, never one committed between
    /// the two questions.
    #[test]
    fn a_tail_is_one_moment_while_the_record_grows() {
        let dir = Dir::new("tail-moment");
        let (traffic, store) = traffic_with_store(&dir);
        let traffic = Arc::new(traffic);
        let first = notify(&traffic, 0);
        traffic.flush().unwrap();
        let writing = {
            let traffic = traffic.clone();
            std::thread::spawn(move || {
                for n in 1..20_000 {
                    notify(&traffic, n);
                }
                traffic.flush().unwrap();
            })
        };
        let every = TrafficFilter::default();
        let mut asked = 0;
        while !writing.is_finished() || asked == 0 {
            let tail = traffic.window_tail(&every, 30, 10).unwrap();
            assert_eq!(tail.rows.len() as u64, tail.count - tail.from);
            let last = tail.rows.last().unwrap().seq;
            assert_eq!(
                last,
                first + tail.count - 1,
                "the newest row is the count's last"
            );
            asked += 1;
        }
        writing.join().unwrap();
        assert_eq!(store.count(&every).unwrap(), 20_000);
        assert!(asked > 1, "asked while the record grew ({asked} times)");
    }

    /// The window a host asks through `Traffic` means the same with a store and without one
    /// (the same filter run over memory): counts, rows, positions, for every kind of filter.
    #[test]
    fn the_window_means_the_same_with_a_store_and_in_memory() {
        let dir = Dir::new("same-window");
        let (stored, _store) = traffic_with_store(&dir);
        session(&stored);
        let extra = out(
            &stored,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#,
        );
        stored.flag(
            extra,
            Flag::SchemaViolation {
                revision: "2025-06-18".into(),
                violations: vec![],
            },
        );
        stored.flush().unwrap();
        let (tx, _) = broadcast::channel(16);
        let memory = Traffic::new(tx);
        session(&memory);
        out(
            &memory,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#,
        );
        memory.flag(
            extra,
            Flag::SchemaViolation {
                revision: "2025-06-18".into(),
                violations: vec![],
            },
        );
        assert!(memory.store().is_none());
        let filters = [
            TrafficFilter::default(),
            TrafficFilter {
                direction: Some(Direction::Out),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                kinds: vec![EntryKind::Stderr, EntryKind::HttpExchange],
                ..TrafficFilter::default()
            },
            // Every frame (the list's default, counted as every row less the others).
            TrafficFilter {
                kinds: EntryKind::ALL
                    .into_iter()
                    .filter(|k| k.is_frame())
                    .collect(),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                kinds: vec![EntryKind::Notification, EntryKind::Request],
                method: Some("notifications/progress".into()),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                method: Some("notifications/progress".into()),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                statuses: vec![EntryStatus::Late, EntryStatus::UnknownId],
                ..TrafficFilter::default()
            },
            TrafficFilter {
                statuses: vec![EntryStatus::SchemaViolation],
                ..TrafficFilter::default()
            },
            TrafficFilter {
                statuses: vec![EntryStatus::Error],
                ..TrafficFilter::default()
            },
            TrafficFilter {
                text: Some("zanzibar".into()),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                text: Some("step 42".into()),
                ..TrafficFilter::default()
            },
            // A text with the rest of a filter: every frame (the stderr line and the HTTP
            // exchange taken out), a direction, a method, a status.
            TrafficFilter {
                kinds: EntryKind::ALL
                    .into_iter()
                    .filter(|k| k.is_frame())
                    .collect(),
                text: Some("ZANZIBAR".into()),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                direction: Some(Direction::In),
                text: Some("\"step 4\"".into()),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                method: Some("tools/call".into()),
                text: Some("echo".into()),
                ..TrafficFilter::default()
            },
            TrafficFilter {
                statuses: vec![EntryStatus::Error],
                text: Some("500".into()),
                ..TrafficFilter::default()
            },
        ];
        for filter in &filters {
            let count = stored.window_count(filter).unwrap();
            assert!(count > 0, "{filter:?} keeps something");
            assert_eq!(count, memory.window_count(filter).unwrap(), "{filter:?}");
            // A text's hits narrowed by the rest of the filter the other way (merged with the
            // rest's rows rather than looked up one by one) keep the same.
            query::ALWAYS_MERGE.with(|m| m.set(true));
            let merged = stored.window_count(filter).unwrap();
            query::ALWAYS_MERGE.with(|m| m.set(false));
            assert_eq!(merged, count, "{filter:?}, merged");
            let seqs = |t: &Traffic| -> Vec<u64> {
                t.window_rows(filter, 0, 1000)
                    .unwrap()
                    .iter()
                    .map(|r| r.seq)
                    .collect()
            };
            assert_eq!(seqs(&stored), seqs(&memory), "{filter:?}");
            // Read from the end, a window near it is the same rows.
            let all = seqs(&stored);
            for offset in [0, count / 2, count.saturating_sub(3), count - 1] {
                let counted: Vec<u64> = stored
                    .window_rows_counted(filter, offset, 3, Some(count))
                    .unwrap()
                    .iter()
                    .map(|r| r.seq)
                    .collect();
                let start = offset as usize;
                let end = (start + 3).min(all.len());
                assert_eq!(counted, all[start..end], "{filter:?} at {offset}");
            }
            // The tail: the count and the newest rows from a multiple of the page, the same
            // on disk and in memory, and the same as the whole list's end.
            for (tail, page) in [(2, 4), (5, 1), (1000, 100), (0, 3)] {
                let on_disk = stored.window_tail(filter, tail, page).unwrap();
                let in_memory = memory.window_tail(filter, tail, page).unwrap();
                assert_eq!(on_disk.count, count, "{filter:?} tail {tail}");
                assert_eq!(on_disk.from % page, 0, "{filter:?} tail {tail}");
                assert!(
                    on_disk.from <= count.saturating_sub(tail),
                    "{filter:?} tail {tail}"
                );
                assert!(on_disk.from + page > count.saturating_sub(tail) || on_disk.from == 0);
                let seqs: Vec<u64> = on_disk.rows.iter().map(|r| r.seq).collect();
                assert_eq!(seqs, all[on_disk.from as usize..], "{filter:?} tail {tail}");
                assert_eq!(
                    (in_memory.count, in_memory.from),
                    (on_disk.count, on_disk.from)
                );
                assert_eq!(
                    in_memory.rows.iter().map(|r| r.seq).collect::<Vec<_>>(),
                    seqs,
                    "{filter:?} tail {tail} in memory"
                );
            }
            let rows = stored.window_rows(filter, 0, 1000).unwrap();
            let last = rows.last().unwrap();
            assert_eq!(
                stored.window_position(last.seq, filter).unwrap(),
                Some(count - 1)
            );
            assert_eq!(
                memory.window_position(last.seq, filter).unwrap(),
                Some(count - 1)
            );
        }
        let flagged = stored
            .window_rows(&filters[7], 0, 10)
            .unwrap()
            .pop()
            .unwrap();
        assert!(flagged.status.schema_violation && flagged.status.flagged);
        assert_eq!(flagged.flags.len(), 1, "a row carries its flags");
        // Search finds the same entries, a frame's snippet made the same way.
        let hits = |t: &Traffic| t.window_search("Zanzibar", 0, 10).unwrap();
        let (on_disk, in_memory) = (hits(&stored), hits(&memory));
        assert_eq!(
            on_disk.iter().map(|h| h.seq).collect::<Vec<_>>(),
            in_memory.iter().map(|h| h.seq).collect::<Vec<_>>()
        );
        assert_eq!(on_disk[0], in_memory[0]);
        assert!(
            on_disk[0].snippet.contains("«zanzibar»"),
            "{:?}",
            on_disk[0]
        );
        assert_eq!(stored.summary().violations, 1);
        assert_eq!(memory.summary().violations, 1);
        assert_eq!(stored.summary().listed_to, stored.last_seq());
    }

    /// A store attached after entries were recorded gets them first: nothing recorded before
    /// the host attached it is missing from the windows or the export.
    #[test]
    fn a_store_attached_late_gets_what_memory_held() {
        let dir = Dir::new("late-attach");
        let (tx, _) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        session(&traffic);
        let store = Arc::new(Store::open(&dir.0.join("late.periscope")).unwrap());
        traffic.attach_store_keeping(store.clone(), 5);
        out(
            &traffic,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        traffic.flush().unwrap();
        assert_eq!(store.count(&TrafficFilter::default()).unwrap(), 110);
        assert_eq!(traffic.frames().len(), 5, "memory kept only its budget");
        let recording = crate::export::Recording::from_traffic(&traffic);
        assert_eq!(recording.frames.len(), 108, "the export sees every frame");
        assert_eq!(recording.stderr.len(), 1);
        assert_eq!(recording.exchanges.len(), 1);
        assert_eq!(recording.flags.len(), 2);
    }

    /// A request finds its response and a response its request, in memory or, once they left
    /// it, in the store.
    #[test]
    fn a_request_and_its_response_find_each_other_in_memory_and_in_the_store() {
        let dir = Dir::new("partners");
        let (tx, _) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let store = Arc::new(Store::open(&dir.0.join("p.periscope")).unwrap());
        traffic.attach_store_keeping(store, 3);
        session(&traffic);
        traffic.flush().unwrap();
        // initialize (1) and its response (2) left memory long ago.
        assert_eq!(traffic.partner_of(1), Some(2));
        assert_eq!(traffic.partner_of(2), Some(1));
        // tools/call (103) and its error response (104).
        assert_eq!(traffic.partner_of(103), Some(104));
        assert_eq!(traffic.partner_of(104), Some(103));
        assert_eq!(traffic.partner_of(3), None, "a notification has none");
    }

    #[test]
    fn app_frames_are_listed_by_channel_with_their_view_and_paired_within_it() {
        let dir = Dir::new("app-frames");
        let (traffic, store) = traffic_with_store(&dir);
        let app = |dir: Direction, view: u32, text: &str| {
            traffic.append_app_frame(view, dir, text.as_bytes(), 1 << 20)
        };
        out(
            &traffic,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
        );
        app(
            Direction::FromApp,
            1,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        );
        app(
            Direction::FromApp,
            2,
            r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize"}"#,
        );
        // Answers view 2's request, not view 1's nor the server's (same id, three channels).
        app(
            Direction::ToApp,
            2,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        );
        inn(&traffic, br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        store.sync().unwrap();
        let check = |traffic: &Traffic| {
            let only = |channel| TrafficFilter {
                channel: Some(channel),
                ..TrafficFilter::default()
            };
            let apps = traffic
                .window_rows(&only(TrafficChannel::App), 0, 10)
                .unwrap();
            let views: Vec<_> = apps.iter().map(|r| r.app_view).collect();
            assert_eq!(views, [Some(1), Some(2), Some(2)]);
            assert_eq!(apps[2].method.as_deref(), Some("ui/initialize"));
            let server = traffic
                .window_rows(&only(TrafficChannel::Server), 0, 10)
                .unwrap();
            assert_eq!(server.len(), 2);
            assert!(server.iter().all(|r| r.app_view.is_none()));
            assert_eq!(server[1].method.as_deref(), Some("tools/call"));
        };
        check(&traffic);
        // The same over memory alone (no store).
        let (tx, _) = broadcast::channel(16);
        let memory = Traffic::new(tx);
        for f in traffic.frames() {
            match f.app_view {
                Some(view) => {
                    memory.append_app_frame(view, f.direction, &f.bytes, 1 << 20);
                }
                None => {
                    memory.append_frame(f.direction, f.bytes.to_vec(), None);
                }
            }
        }
        check(&memory);
        assert_eq!(store.frame(2).unwrap().unwrap().app_view, Some(1));
    }
}
