//! The Timeline tab: a server's spans and ticks in a window, and latency per method (the
//! engine's `timeline`), for one server or several side by side.

use periscope_core::vocabulary::Problem;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use periscope_core::timeline::{self, LatencyReport, LatencyTracker, Timeline, TimelineWindow};
use periscope_core::traffic::Traffic;
use serde::Serialize;
use tauri::State;

use crate::AppState;

/// Servers one across-servers call reads at most (each one's timeline is itself bounded).
pub const MAX_SERVERS: usize = 32;

/// One server's timeline in an across-servers view, or why it has none.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerTimeline {
    pub server_id: String,
    pub timeline: Option<Timeline>,
    pub error: Option<Problem>,
}

/// One server's latency report in an across-servers view, or why it has none.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerLatency {
    pub server_id: String,
    pub latency: Option<LatencyReport>,
    pub error: Option<Problem>,
}

/// Each server's latency, kept up to date (the tab asks every few seconds while a session
/// runs; a tracker reads only the answers since the last time). Keyed by server id; a new
/// session (another `Traffic`) starts its tracker over. Bounded by the catalog's servers.
#[derive(Default)]
pub struct LatencyTrackers(Mutex<HashMap<String, Tracked>>);

/// A server's tracker, and which session's `Traffic` it follows (held weakly: the allocation
/// stays, so a later session's `Traffic` cannot take its address and pass for it).
type Tracked = (Weak<Traffic>, Arc<Mutex<LatencyTracker>>);

impl LatencyTrackers {
    fn of(&self, server_id: &str, traffic: &Arc<Traffic>) -> Arc<Mutex<LatencyTracker>> {
        let mut all = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let entry = all
            .entry(server_id.to_string())
            .or_insert_with(|| (Arc::downgrade(traffic), Arc::default()));
        if !std::ptr::eq(entry.0.as_ptr(), Arc::as_ptr(traffic)) {
            *entry = (Arc::downgrade(traffic), Arc::default());
        }
        entry.1.clone()
    }

    /// The read to run off the async runtime.
    fn report(
        &self,
        server_id: &str,
        traffic: &Arc<Traffic>,
    ) -> impl FnOnce() -> Result<LatencyReport, Problem> + Send + use<> {
        let traffic = traffic.clone();
        let tracker = self.of(server_id, &traffic);
        move || {
            tracker
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .update(&traffic)
                .map_err(Problem::record)
        }
    }
}

/// The record the timeline reads (a disconnected server's stays; a reopened recording's too).
fn session(state: &AppState, server_id: &str) -> Result<Arc<Traffic>, Problem> {
    state.traffic_of(server_id)
}

/// Reads off the main thread and the async runtime (with a store, a read waits for its writer).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
) -> Result<T, Problem> {
    super::off_main("timeline", work).await
}

#[tauri::command]
pub async fn timeline(
    state: State<'_, AppState>,
    server_id: String,
    window: TimelineWindow,
) -> Result<Timeline, Problem> {
    let session = session(&state, &server_id)?;
    blocking(move || timeline::timeline(&session, &window).map_err(Problem::record)).await
}

#[tauri::command]
pub async fn latency(
    state: State<'_, AppState>,
    trackers: State<'_, LatencyTrackers>,
    server_id: String,
) -> Result<LatencyReport, Problem> {
    let session = session(&state, &server_id)?;
    blocking(trackers.report(&server_id, &session)).await
}

#[tauri::command]
pub async fn timeline_all(
    state: State<'_, AppState>,
    server_ids: Vec<String>,
    window: TimelineWindow,
) -> Result<Vec<ServerTimeline>, Problem> {
    let sessions = sessions(&state, server_ids)?;
    blocking(move || {
        Ok(sessions
            .into_iter()
            .map(|(server_id, session)| {
                let read =
                    session.and_then(|s| timeline::timeline(&s, &window).map_err(Problem::record));
                ServerTimeline {
                    server_id,
                    error: read.as_ref().err().cloned(),
                    timeline: read.ok(),
                }
            })
            .collect())
    })
    .await
}

#[tauri::command]
pub async fn latency_all(
    state: State<'_, AppState>,
    trackers: State<'_, LatencyTrackers>,
    server_ids: Vec<String>,
) -> Result<Vec<ServerLatency>, Problem> {
    let reads: Vec<_> = sessions(&state, server_ids)?
        .into_iter()
        .map(|(server_id, session)| {
            let read = session.map(|s| trackers.report(&server_id, &s));
            (server_id, read)
        })
        .collect();
    blocking(move || {
        Ok(reads
            .into_iter()
            .map(|(server_id, read)| {
                let read = read.and_then(|report| report());
                ServerLatency {
                    server_id,
                    error: read.as_ref().err().cloned(),
                    latency: read.ok(),
                }
            })
            .collect())
    })
    .await
}

type Sessions = Vec<(String, Result<Arc<Traffic>, Problem>)>;

fn sessions(state: &AppState, server_ids: Vec<String>) -> Result<Sessions, Problem> {
    if server_ids.len() > MAX_SERVERS {
        return Err(Problem::LimitHit {
            what: periscope_core::vocabulary::problem::Limit::TimelineServers,
            limit: MAX_SERVERS as u64,
            asked: Some(server_ids.len() as u64),
        });
    }
    Ok(server_ids
        .into_iter()
        .map(|id| {
            let session = session(state, &id);
            (id, session)
        })
        .collect())
}
