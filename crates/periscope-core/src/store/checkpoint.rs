//! The store's checkpointer: copies the WAL back into the database file from its own thread and
//! connection, so the writer never waits on the copy or its fsyncs (with `synchronous = NORMAL`
//! a checkpoint is the only place a WAL database syncs). A passive checkpoint runs beside the
//! writer without blocking it; the writer's own autocheckpoint, at a larger size, stays as the
//! bound on the WAL should this thread fall behind (docs/store.md).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError};
use rusqlite::Connection;

use super::Shared;

/// How often the WAL is copied back while entries arrive: each pass then copies a fraction of
/// a second's worth of pages.
const EVERY: Duration = Duration::from_millis(100);

/// Runs until `stop` is dropped: a passive checkpoint whenever the writer committed since the
/// last one. A checkpoint that fails (busy, a disk error) is left to the next pass or to the
/// writer's own autocheckpoint: the writer reports disk errors.
pub(crate) fn run(path: &Path, shared: Arc<Shared>, stop: Receiver<()>) {
    let Ok(conn) = Connection::open(path) else {
        return;
    };
    if conn
        .busy_timeout(Duration::from_millis(100))
        .and_then(|()| conn.pragma_update(None, "synchronous", "NORMAL"))
        .is_err()
    {
        return;
    }
    let mut done_to = 0;
    loop {
        match stop.recv_timeout(EVERY) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
        let committed = shared.committed_to.load(Ordering::Acquire);
        if committed == done_to || shared.failed.load(Ordering::Acquire) {
            continue;
        }
        if conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .is_ok()
        {
            done_to = committed;
        }
    }
}
