//! The session's record on disk: SQLite with an FTS5 index over frame bodies (docs/store.md).
//!
//! [`Traffic`](crate::traffic::Traffic) sends every entry here through a bounded queue; a
//! writer thread commits them in batches. A traffic list asks for windows ([`Store::count`],
//! [`Store::rows`], [`Store::position`], [`Store::search`]) instead of holding every row.

mod filter;
mod query;
mod schema;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, TrySendError};
use rusqlite::{Connection, OpenFlags};

pub use filter::{EntryKind, EntryStatus, TrafficFilter};
pub use query::{RowStatus, SearchHit, TrafficRow};
pub(crate) use writer::{Entry, truncated_verdict};

/// Entries the queue holds before a producer waits. With frames capped by the frame size
/// limit, this bounds what a writer that fell behind can cost in memory.
const QUEUE: usize = 32 * 1024;
/// How long a producer waits for room in the queue before the store is declared stalled (a
/// disk that hangs): past it the store takes nothing more and says why (see docs/store.md).
const WRITER_DEADLINE: Duration = Duration::from_secs(10);

/// How long dropping a store waits for its writer to commit and index what is queued (a full
/// queue and a flood's worth of index take seconds, not minutes).
const CLOSE_DEADLINE: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the traffic store failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{0}")]
    Failed(String),
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
    /// Entries up to this seq are in the full-text index.
    indexed_to: AtomicU64,
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

    /// Waits until everything queued so far is committed and in the full-text index, so every
    /// query sees it.
    pub fn sync(&self) -> Result<(), StoreError> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(Entry::Sync(tx))?;
        rx.recv_timeout(WRITER_DEADLINE + WRITER_DEADLINE)
            .map_err(|_| StoreError::Failed("the traffic store's writer did not answer".into()))?;
        match self.error() {
            Some(e) => Err(StoreError::Failed(e)),
            None => Ok(()),
        }
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

    /// Entries up to this seq are found by text filters and search; later ones are listed but
    /// not yet indexed (the index follows the writer when it has a moment: docs/store.md).
    pub fn searchable_to(&self) -> u64 {
        self.shared.indexed_to.load(Ordering::Acquire)
    }

    /// Entries up to this seq are committed: window queries list them.
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
    /// Lets the writer commit (and index) what is queued, then waits for it: a closed store
    /// is complete. The wait has a deadline: a writer stuck on a hung disk is left behind
    /// rather than hanging whoever dropped the store.
    fn drop(&mut self) {
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
mod tests;
