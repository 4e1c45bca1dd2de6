//! Where a timeline's frames come from: the store when one is attached (memory keeps only the
//! newest frames then; what its writer has committed, at most one batch behind), the frames in
//! memory otherwise. Both give the same entries: the store's
//! writer pairs responses with the same [`RowBuilder`] used here.

use crate::rows::RowBuilder;
use crate::store::StoreError;
use crate::traffic::Traffic;

use super::TimelineWindow;
use super::entry::Entry;

/// Frames read for each span of the budget: a request, its answer, a little progress and a
/// notification or two. Past it the oldest frames are left out and their requests counted.
const FRAMES_PER_SPAN: usize = 6;

pub(crate) struct Read {
    /// Oldest first.
    pub entries: Vec<Entry>,
    /// Requests in the window older than the oldest frame read.
    pub omitted_requests: u64,
}

pub(crate) fn read(
    traffic: &Traffic,
    window: &TimelineWindow,
    max_spans: usize,
) -> Result<Read, StoreError> {
    let from = window.from_wall_us.unwrap_or(0);
    let to = window.to_wall_us.unwrap_or(u64::MAX);
    let limit = max_spans.saturating_mul(FRAMES_PER_SPAN);
    if let Some(store) = traffic.store() {
        // What the writer has committed, without `sync`: a sync makes the writer catch the
        // full-text index up first, and a view that reads every second would put that on the
        // ingest path during a flood. Committed is at most one batch behind.
        let rows = store.timeline_rows(from, to, limit as u64)?;
        let omitted_requests = match rows.last() {
            Some(oldest) if rows.len() >= limit => store.requests_before(from, to, oldest.seq)?,
            _ => 0,
        };
        let mut entries: Vec<Entry> = rows.into_iter().map(Entry::from_store).collect();
        entries.reverse();
        return Ok(Read {
            entries,
            omitted_requests,
        });
    }
    // In memory: pair every frame in order (a response in the window may answer an older
    // request), keep the window's newest `limit`.
    let frames = traffic.frames();
    let mut rows = RowBuilder::default();
    let mut in_window = Vec::new();
    // App frames (host ↔ MCP App) are not the server's calls: not on its timeline.
    for frame in frames.iter().filter(|f| !f.direction.is_app()) {
        let call = traffic.round_of(frame.seq);
        let row = rows.paired(frame, call);
        if frame.wall_us >= from && frame.wall_us <= to {
            in_window.push((row, frame));
        }
    }
    let cut = in_window.len().saturating_sub(limit);
    let omitted_requests = in_window[..cut]
        .iter()
        .filter(|(row, _)| row.kind == crate::rows::EntryKind::Request)
        .count() as u64;
    let entries = in_window
        .drain(cut..)
        .map(|(row, frame)| Entry::from_row(row, &frame.bytes))
        .collect();
    Ok(Read {
        entries,
        omitted_requests,
    })
}
