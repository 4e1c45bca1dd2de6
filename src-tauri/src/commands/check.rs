//! The Check view: a check of a catalog server run by the engine (`periscope_core::check`),
//! its progress streamed to the view, its report kept as the server's last with what changed
//! since the one before, and exported as Markdown, JUnit or SARIF.

use std::sync::{Arc, OnceLock};

use periscope_core::check::compare::compare;
use periscope_core::check::report::FailOn;
use periscope_core::check::{self, CheckOptions, CheckProgress, CheckTarget, Selector};
use periscope_core::config::ServerTarget;
use periscope_core::session::SessionOptions;
use periscope_core::vocabulary::Problem;
use serde::Deserialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::check_runs::{CheckRun, CheckRunOptions, CheckRuns};

/// How many progress steps wait for the view before the newest are dropped (the results are
/// all in the report either way).
const PROGRESS_QUEUE: usize = 512;

/// Runs a check of `server_id` with `options`; each step goes to `on_progress` as it happens.
/// The run is kept as the server's last, and says what changed since the one before.
#[tauri::command]
pub async fn check_run(
    state: State<'_, AppState>,
    runs: State<'_, CheckRuns>,
    server_id: String,
    options: CheckRunOptions,
    on_progress: Channel<CheckProgress>,
) -> Result<CheckRun, Problem> {
    let turn = runs.begin(&server_id)?;
    let entry = state.entry(&server_id)?;
    let resolved = state.resolved_target(&entry)?;
    // A protected server signs in as a connection would: the stored token, else a sign-in the
    // user is asked to consent to (its exchanges are not part of the check's record).
    let authorizer = state
        .oauth_client(&entry, &resolved, Arc::new(OnceLock::new()))
        .map(|o| o as Arc<dyn periscope_core::auth::Authorizer>);
    let target = match resolved {
        ServerTarget::Stdio(t) => CheckTarget::Stdio(t),
        ServerTarget::Http { target, mode } => CheckTarget::Http { target, mode },
    };
    let mut check_options = CheckOptions::new(SessionOptions {
        authorizer,
        request_timeout: state.settings.get().request_timeout(),
        ..SessionOptions::default()
    });
    check_options.eras = options.eras;
    check_options.calls = options.calls.clone();
    check_options.skip = options.skip.iter().copied().map(Selector::Area).collect();
    check_options.call_wait = state.settings.get().request_timeout();
    check_options.record = runs.record_path(&server_id);

    let (tx, mut rx) = tokio::sync::mpsc::channel(PROGRESS_QUEUE);
    let forward = tauri::async_runtime::spawn(async move {
        while let Some(step) = rx.recv().await {
            // A view that went away misses the steps; the report still comes back.
            let _ = on_progress.send(step);
        }
    });
    // Stopped by the user: the run is dropped, and with it its sessions and the processes it
    // started (they are killed on drop); the last kept run stays.
    let mut report = tokio::select! {
        report = check::run(&target, &check_options, Some(tx)) => report,
        () = turn.stop.cancelled() => {
            runs.discard(&server_id);
            return Err(Problem::CheckCancelled);
        }
    };
    let _ = forward.await;
    runs.adopt(&server_id, &mut report);
    let changes = runs
        .last(&server_id)
        .map(|before| compare(&before.report, &report));
    let run = CheckRun {
        report,
        changes,
        options,
    };
    runs.keep(&server_id, &run)?;
    Ok(run)
}

/// Stops the server's running check (its `check_run` then fails with `CheckCancelled`).
#[tauri::command]
pub fn check_cancel(runs: State<'_, CheckRuns>, server_id: String) -> bool {
    runs.cancel(&server_id)
}

/// The server's last run, if it was ever checked.
#[tauri::command]
pub fn check_last(runs: State<'_, CheckRuns>, server_id: String) -> Option<CheckRun> {
    runs.last(&server_id)
}

/// The formats a report is exported in.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum CheckExport {
    Markdown,
    Junit,
    Sarif,
}

/// Writes the server's last report where the user picks; the path, or None when cancelled.
#[tauri::command]
pub async fn check_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    runs: State<'_, CheckRuns>,
    server_id: String,
    format: CheckExport,
) -> Result<Option<String>, Problem> {
    let run = runs.last(&server_id).ok_or_else(|| {
        Problem::not_found(
            periscope_core::vocabulary::problem::Thing::CheckReport,
            &server_id,
        )
    })?;
    let name = state
        .entry(&server_id)
        .map_or_else(|_| server_id.clone(), |e| e.name);
    let report = &run.report;
    let (bytes, ext) = match format {
        CheckExport::Markdown => (check::format::markdown(report).into_bytes(), "md"),
        CheckExport::Junit => (
            check::format::junit(report, FailOn::Error).into_bytes(),
            "junit.xml",
        ),
        CheckExport::Sarif => (
            serde_json::to_vec_pretty(&check::format::sarif(report, None))
                .map_err(Problem::internal)?,
            "sarif",
        ),
    };
    let file_name = crate::save_file::safe_file_name(&format!("{name}-check.{ext}"), "check");
    crate::save_file::save_bytes(&app, "Export the check", &file_name, &bytes).await
}
