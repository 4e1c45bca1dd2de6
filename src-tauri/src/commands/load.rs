//! The Load view: a load run of a catalog server through the engine (`periscope_core::load`).
//! Prepared first (the plan checked, the first session open, the tools listed), so the view
//! can show what will be sent where and the user confirms it; then run, its progress streamed
//! to the view once a second, its report kept with its first session's record; kept runs
//! listed, compared and deleted.

use std::sync::{Arc, OnceLock};

use periscope_core::check::CheckTarget;
use periscope_core::config::ServerTarget;
use periscope_core::export::Recording;
use periscope_core::load::gates::{self, Comparison, DEFAULT_REGRESSION_PCT};
use periscope_core::load::{self, LoadPlan, LoadProgress, LoadRequest, LoadSummary};
use periscope_core::session::SessionOptions;
use periscope_core::vocabulary::Problem;
use periscope_core::vocabulary::problem::Thing;
use serde::{Deserialize, Serialize};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::load_runs::{LoadRun, LoadRunInfo, LoadRuns};

/// Progress updates that wait for the view before the newest are dropped (the report has
/// every figure either way).
const PROGRESS_QUEUE: usize = 64;

/// A saved call of the server and how often it is picked against the others.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct WeightedCall {
    pub id: String,
    pub weight: u32,
}

/// What a run sends, as the view asks for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LoadWorkload {
    /// One tool call with its arguments.
    Tool {
        name: String,
        #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
        arguments: serde_json::Map<String, serde_json::Value>,
    },
    /// Saved calls of this server, mixed by weight.
    Saved { calls: Vec<WeightedCall> },
    /// The client requests of a recording (its path).
    Recording { path: String },
}

/// A run as the view asks for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadOptions {
    pub workload: LoadWorkload,
    pub plan: LoadPlan,
}

fn workload<R: Runtime>(
    app: &AppHandle<R>,
    server_id: &str,
    asked: &LoadWorkload,
) -> Result<Vec<LoadRequest>, Problem> {
    let refused = |detail: String| Problem::LoadRefused { detail };
    match asked {
        LoadWorkload::Tool { name, arguments } => {
            if name.is_empty() {
                return Err(refused("no tool was picked".into()));
            }
            Ok(vec![LoadRequest::tool_call(name, arguments.clone())])
        }
        LoadWorkload::Saved { calls } => {
            let saved = crate::saved_store::list(app, Some(server_id))?;
            calls
                .iter()
                .map(|w| {
                    saved
                        .iter()
                        .find(|c| c.id == w.id)
                        .map(|c| LoadRequest::saved(c, w.weight))
                        .ok_or_else(|| refused(format!("no saved call with id {}", w.id)))
                })
                .collect()
        }
        LoadWorkload::Recording { path } => {
            let recording = Recording::read(std::path::Path::new(path))
                .map_err(|e| refused(format!("{path}: {e}")))?;
            Ok(load::workload::from_recording(&recording))
        }
    }
}

/// Checks the plan, opens the run's first session and lists its tools: what the run will
/// send, where, how hard and for how long, for the user to confirm ([`load_start`]) or not
/// ([`load_discard`]). Nothing of the workload is sent before.
#[tauri::command]
pub async fn load_prepare<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    runs: State<'_, LoadRuns>,
    server_id: String,
    options: LoadOptions,
) -> Result<LoadSummary, Problem> {
    if let Some((old, old_id)) = runs.free(&server_id)? {
        old.session().close().await;
        runs.remove_record(&server_id, &old_id);
    }
    let entry = state.entry(&server_id)?;
    let resolved = state.resolved_target(&entry)?;
    let requests = workload(&app, &server_id, &options.workload)?;
    let authorizer = state
        .oauth_client(&entry, &resolved, Arc::new(OnceLock::new()))
        .map(|o| o as Arc<dyn periscope_core::auth::Authorizer>);
    let target = match resolved {
        ServerTarget::Stdio(t) => CheckTarget::Stdio(t),
        ServerTarget::Http { target, mode } => CheckTarget::Http { target, mode },
    };
    let session = SessionOptions {
        authorizer,
        era: state.found_eras.choice(&entry).0,
        request_timeout: options.plan.timeout(),
        ..SessionOptions::default()
    };
    let (id, record) = runs.next_id(&server_id);
    let prepared = load::prepare(
        vec![target],
        session,
        options.plan,
        requests,
        record.as_deref(),
    )
    .await
    .map_err(|detail| {
        runs.remove_record(&server_id, &id);
        Problem::LoadRefused { detail }
    })?;
    let summary = prepared.summary();
    if let Err(prepared) = runs.hold(&server_id, Box::new(prepared), id.clone()) {
        // Prepared twice at once: the other one stands.
        prepared.session().close().await;
        runs.remove_record(&server_id, &id);
        return Err(Problem::LoadRunning);
    }
    Ok(summary)
}

/// The prepared run, not confirmed: its session closes and nothing is sent.
#[tauri::command]
pub async fn load_discard(runs: State<'_, LoadRuns>, server_id: String) -> Result<(), Problem> {
    if let Some((prepared, id)) = runs.discard(&server_id) {
        prepared.session().close().await;
        runs.remove_record(&server_id, &id);
    }
    Ok(())
}

/// Runs the prepared run (the user confirmed its summary); each second's figures go to
/// `on_progress`. The run is kept, and returned, when it ends (Stop ends it too: what was
/// measured until then is its report); when it could not be kept, it says why.
#[tauri::command]
pub async fn load_start(
    runs: State<'_, LoadRuns>,
    server_id: String,
    on_progress: Channel<LoadProgress>,
) -> Result<LoadRun, Problem> {
    let (turn, prepared) = runs.start(&server_id)?;
    let (tx, mut rx) = tokio::sync::mpsc::channel(PROGRESS_QUEUE);
    let forward = tauri::async_runtime::spawn(async move {
        while let Some(step) = rx.recv().await {
            // A view that went away misses the updates; the report still comes back.
            let _ = on_progress.send(step);
        }
    });
    let report = prepared.run(turn.stop.clone(), Some(tx)).await;
    let _ = forward.await;
    let mut run = LoadRun {
        id: turn.id.clone(),
        report,
        not_kept: None,
    };
    // A run that cannot be kept (the disk is full) is still shown: what it measured is not lost
    // for want of a file.
    let kept = match runs.folder() {
        Ok(folder) => {
            let copy = run.clone();
            super::off_main("load", move || folder.keep(&server_id, &copy)).await
        }
        Err(e) => Err(e),
    };
    run.not_kept = kept.err();
    Ok(run)
}

/// Stops the server's running load run; whether one was running.
#[tauri::command]
pub fn load_stop(runs: State<'_, LoadRuns>, server_id: String) -> bool {
    runs.stop(&server_id)
}

/// The server's kept runs, newest first (read off the main thread: a long run's report is
/// megabytes).
#[tauri::command]
pub async fn load_runs(
    runs: State<'_, LoadRuns>,
    server_id: String,
) -> Result<Vec<LoadRunInfo>, Problem> {
    let folder = runs.folder()?;
    super::off_main("load", move || Ok(folder.list(&server_id))).await
}

/// One kept run.
#[tauri::command]
pub async fn load_get(
    runs: State<'_, LoadRuns>,
    server_id: String,
    run_id: String,
) -> Result<LoadRun, Problem> {
    let folder = runs.folder()?;
    super::off_main("load", move || {
        folder
            .get(&server_id, &run_id)
            .ok_or_else(|| Problem::not_found(Thing::LoadRun, &run_id))
    })
    .await
}

/// Two kept runs compared request by request: the change in p50, p99, throughput and error
/// rate, each flagged as a regression past `threshold_pct` (25% when not given).
#[tauri::command]
pub async fn load_compare(
    runs: State<'_, LoadRuns>,
    server_id: String,
    before: String,
    after: String,
    threshold_pct: Option<f64>,
) -> Result<Comparison, Problem> {
    let folder = runs.folder()?;
    super::off_main("load", move || {
        let get = |id: &str| {
            folder
                .get(&server_id, id)
                .ok_or_else(|| Problem::not_found(Thing::LoadRun, id))
        };
        let (before, after) = (get(&before)?, get(&after)?);
        Ok(gates::compare(
            &before.report,
            &after.report,
            threshold_pct.unwrap_or(DEFAULT_REGRESSION_PCT),
        ))
    })
    .await
}

/// Forgets a kept run and its record; the runs left.
#[tauri::command]
pub async fn load_delete(
    runs: State<'_, LoadRuns>,
    server_id: String,
    run_id: String,
) -> Result<Vec<LoadRunInfo>, Problem> {
    let folder = runs.folder()?;
    super::off_main("load", move || {
        folder.delete(&server_id, &run_id);
        Ok(folder.list(&server_id))
    })
    .await
}

/// The formats a kept run is exported in.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum LoadExport {
    /// The report: `periscope load --baseline FILE` reads it, so a run made here gates CI.
    Json,
    /// JUnit XML: a test case per request of the workload, its figures as output.
    Junit,
}

/// Writes a kept run where the user picks; the path, or None when cancelled.
#[tauri::command]
pub async fn load_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    runs: State<'_, LoadRuns>,
    server_id: String,
    run_id: String,
    format: LoadExport,
) -> Result<Option<String>, Problem> {
    let folder = runs.folder()?;
    let (server, id) = (server_id.clone(), run_id.clone());
    let run = super::off_main("load", move || {
        folder
            .get(&server, &id)
            .ok_or_else(|| Problem::not_found(Thing::LoadRun, &id))
    })
    .await?;
    let (bytes, ext) = match format {
        LoadExport::Json => (
            serde_json::to_vec_pretty(&run.report).map_err(Problem::internal)?,
            "json",
        ),
        LoadExport::Junit => (
            load::format::junit(&run.report, &[]).into_bytes(),
            "junit.xml",
        ),
    };
    let file_name = crate::kept_runs::export_name(&state, &server_id, "load", &run_id, ext);
    crate::save_file::save_bytes(&app, "Export the load run", &file_name, &bytes).await
}
