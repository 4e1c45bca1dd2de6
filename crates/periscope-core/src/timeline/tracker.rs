//! Latency per method kept up to date: each update reads only the answers recorded since the
//! last one (from the store's committed rows, or from the frames in memory), so a view that
//! refreshes every few seconds does not scan a long session again each time.

use crate::rows::{EntryKind, RowBuilder};
use crate::store::StoreError;
use crate::store::timeline::LatencyRow;
use crate::traffic::Traffic;

use super::latency::{Collector, LatencyReport};

/// Where the next update starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Start,
    /// After this seq of the store.
    Store(u64),
    /// At this position among the frames (counted from the session's first).
    Memory(usize),
}

/// One session's latency statistics, updated incrementally. Give it the same `Traffic` each
/// time; a host keeps one per session.
pub struct LatencyTracker {
    stats: Collector,
    next: Next,
    /// Pairs answers with requests across updates (the memory path).
    rows: RowBuilder,
}

impl Default for LatencyTracker {
    fn default() -> Self {
        LatencyTracker {
            stats: Collector::default(),
            next: Next::Start,
            rows: RowBuilder::default(),
        }
    }
}

impl LatencyTracker {
    /// Reads what was recorded since the last update and returns the report so far. When the
    /// record's source changed (a store attached, or let go after failing), starts over.
    pub fn update(&mut self, traffic: &Traffic) -> Result<LatencyReport, StoreError> {
        match traffic.store() {
            Some(store) => {
                let after = match self.next {
                    Next::Store(after) => after,
                    _ => self.restart(),
                };
                let stats = &mut self.stats;
                let read_to = store.latencies_after(after, |row| stats.add(row))?;
                self.next = Next::Store(read_to);
            }
            None => {
                let from = match self.next {
                    Next::Memory(from) => from,
                    _ => self.restart() as usize,
                };
                // The count first: a frame recorded meanwhile is read next time, not skipped.
                let end = traffic.frame_count();
                let mut frames = traffic.frames_from(from);
                frames.truncate(end.saturating_sub(from));
                for frame in &frames {
                    let row = self.rows.paired(frame, traffic.round_of(frame.seq));
                    let error = row.kind == EntryKind::ErrorResponse;
                    // App frames are the host's talk with an MCP App, not the server's latency.
                    if row.direction.is_app()
                        || !matches!(row.kind, EntryKind::Response | EntryKind::ErrorResponse)
                    {
                        continue;
                    }
                    if let (Some(method), Some(latency_us)) = (row.method, row.latency_us) {
                        self.stats.add(LatencyRow {
                            method,
                            // An answer travels the other way from its request.
                            direction: row.direction.reverse(),
                            latency_us,
                            error,
                        });
                    }
                }
                self.next = Next::Memory(end.max(from));
            }
        }
        Ok(self.stats.report())
    }

    fn restart(&mut self) -> u64 {
        *self = LatencyTracker::default();
        0
    }
}
