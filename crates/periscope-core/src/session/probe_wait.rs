//! The auto era's `server/discover` probe, watched while it waits.
//!
//! A legacy server may ignore a request it does not know before `initialize`, so the probe
//! waits its whole timeout (10 s) before falling back, and a user who sees nothing happen for
//! that long cannot tell why. While the probe waits, the watcher:
//! - tells hosts once, after [`TELL_AFTER`], that the probe is what is being waited for
//!   ([`Event::ProbeWaiting`]), so they can say how to skip it;
//! - cuts the wait short when the server shows it is alive and talking (it has written a
//!   frame or a stderr line, a banner before the probe included) yet has not answered
//!   [`AFTER_LIFE`] after the probe saw it: a server that reads and answers requests would
//!   have answered by then. A server that says
//!   nothing at all may still be starting (`npx` fetching a package), so it gets the whole
//!   timeout.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use tokio::sync::broadcast;

use crate::event::Event;
use crate::traffic::Traffic;

/// How long the probe waits before hosts are told what they are waiting for.
pub(super) const TELL_AFTER: Duration = Duration::from_secs(1);
/// How long after its first sign of life a server that has not answered the probe is given.
pub(super) const AFTER_LIFE: Duration = Duration::from_secs(3);
/// How often the watcher looks at the record.
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// A watcher over one probe in flight; stops watching when dropped.
pub(super) struct ProbeWatch {
    task: JoinHandle<()>,
    /// Cancelled when the watcher cut the wait short (the probe's request gives up then).
    pub cancel: CancellationToken,
}

impl ProbeWatch {
    /// Starts watching the probe about to go out.
    pub(super) fn start(traffic: Arc<Traffic>, events: broadcast::Sender<Event>) -> ProbeWatch {
        let cancel = CancellationToken::new();
        let task = tokio::spawn(watch(traffic, events, cancel.clone()));
        ProbeWatch { task, cancel }
    }

    /// Whether the watcher cut the wait short.
    pub(super) fn cut_short(&self) -> bool {
        self.cancel.is_cancelled()
    }
}

impl Drop for ProbeWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn watch(traffic: Arc<Traffic>, events: broadcast::Sender<Event>, cancel: CancellationToken) {
    let started = tokio::time::Instant::now();
    let mut told = false;
    let mut alive_at = None;
    loop {
        tokio::time::sleep(LOOK_EVERY).await;
        let now = tokio::time::Instant::now();
        if !told && now - started >= TELL_AFTER {
            told = true;
            let _ = events.send(Event::ProbeWaiting {
                waited_ms: (now - started).as_millis() as u64,
            });
        }
        if alive_at.is_none() && traffic.signs_of_life() > 0 {
            alive_at = Some(now);
        }
        if alive_at.is_some_and(|at| now - at >= AFTER_LIFE) {
            cancel.cancel();
            return;
        }
    }
}
