//! The Evals view ([docs/evals.md](../../../docs/evals.md)): a server's suite (kept as typed,
//! checked as it is saved; a starter made from the server's tools), a run of it over the
//! server's live connection (its tool calls are in Traffic like any other) with the models of
//! Settings → Models, its progress streamed to the view, its report kept; kept runs listed,
//! read, compared and deleted.

use periscope_core::evals::compare::{self, CaseComparison};
use periscope_core::evals::run::{self, EvalModel, EvalProgress, RunError, RunOptions};
use periscope_core::evals::starter::starter;
use periscope_core::evals::suite::{Suite, SuiteProblem};
use periscope_core::evals::tools::{Approvals, Keeper};
use periscope_core::vocabulary::Problem;
use periscope_core::vocabulary::problem::Thing;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::eval_history::EvalHistory;
use crate::eval_runs::{EvalRun, EvalRunInfo, EvalRuns};

/// Progress updates that wait for the view before the newest are dropped (the report has
/// every repetition either way).
const PROGRESS_QUEUE: usize = 64;

/// What a saved suite holds, or why it does not read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct EvalSuiteCheck {
    pub outline: Option<EvalSuiteOutline>,
    pub problem: Option<SuiteProblem>,
}

/// A readable suite in brief: what the run form offers to pick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct EvalSuiteOutline {
    pub name: Option<String>,
    pub cases: Vec<String>,
    pub variants: Vec<String>,
    pub repeat: Option<u32>,
}

fn check(text: &str) -> EvalSuiteCheck {
    match Suite::parse(text) {
        Ok(suite) => EvalSuiteCheck {
            outline: Some(EvalSuiteOutline {
                name: suite.name.clone(),
                cases: suite.cases.iter().map(|c| c.id.clone()).collect(),
                variants: suite.variants.iter().map(|v| v.name.clone()).collect(),
                repeat: suite.repeat,
            }),
            problem: None,
        },
        Err(problem) => EvalSuiteCheck {
            outline: None,
            problem: Some(problem),
        },
    }
}

/// A run as the view asks for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct EvalRunRequest {
    /// Providers of Settings → Models, by id.
    pub models: Vec<String>,
    /// The advisory judge's provider id.
    pub judge: Option<String>,
    pub repeat: u32,
    pub concurrency: u32,
    pub variants: Vec<String>,
    /// Only these cases; all when empty.
    pub cases: Vec<String>,
    pub approvals: Approvals,
    /// Tokens the run may spend.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub max_tokens: Option<u64>,
}

/// The server's suite as last typed, if any.
#[tauri::command]
pub async fn evals_suite(
    runs: State<'_, EvalRuns>,
    server_id: String,
) -> Result<Option<String>, Problem> {
    let folder = runs.folder()?;
    super::off_main("evals", move || Ok(folder.suite(&server_id))).await
}

/// Keeps the suite as typed (readable or not) and says what it holds or why it does not read.
#[tauri::command]
pub async fn evals_suite_save(
    runs: State<'_, EvalRuns>,
    server_id: String,
    text: String,
) -> Result<EvalSuiteCheck, Problem> {
    let folder = runs.folder()?;
    let checked = check(&text);
    super::off_main("evals", move || folder.save_suite(&server_id, &text)).await?;
    Ok(checked)
}

/// A starter suite made from the connected server's tools.
#[tauri::command]
pub async fn evals_starter(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<String, Problem> {
    let session = state.session(&server_id)?;
    let tools = session.list_tools().await.map_err(Problem::from)?;
    let entry = state.entry(&server_id)?;
    Ok(starter(&entry.name, &tools))
}

/// Runs the server's saved suite over its connection; each repetition's end goes to
/// `on_progress`. The run is kept, and returned, when it ends (Stop ends it too).
#[tauri::command]
pub async fn evals_run<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    runs: State<'_, EvalRuns>,
    server_id: String,
    request: EvalRunRequest,
    on_progress: Channel<EvalProgress>,
) -> Result<EvalRun, Problem> {
    let refused = |detail: String| Problem::EvalRefused { detail };
    let folder = runs.folder()?;
    let text = folder
        .suite(&server_id)
        .ok_or_else(|| refused("there is no suite yet: write one or make a starter".into()))?;
    let suite = Suite::parse(&text).map_err(|e| refused(e.to_string()))?;
    let models_setting = state.asks.models()?;
    let model = |id: &String| -> Result<EvalModel, Problem> {
        Ok(EvalModel {
            name: models_setting.provider(id)?.name,
            client: models_setting.client(id)?,
        })
    };
    let models = request
        .models
        .iter()
        .map(model)
        .collect::<Result<Vec<_>, _>>()?;
    let judge = request.judge.as_ref().map(model).transpose()?;
    let session = state.session(&server_id)?;
    let entry = state.entry(&server_id)?;
    let turn = runs.start(&server_id)?;
    let id = crate::kept_runs::new_id();
    let record = session.traffic().started_wall_us();
    let options = RunOptions {
        repeat: request.repeat,
        concurrency: request.concurrency as usize,
        variants: request.variants.clone(),
        approvals: request.approvals.clone(),
        case_timeout: run::DEFAULT_CASE_TIMEOUT,
        max_tokens: request.max_tokens,
        max_duration: None,
        only: request.cases.clone(),
        judge,
        keeper: Keeper(Some(Arc::new(EvalHistory {
            app: app.clone(),
            server_id: server_id.clone(),
            run: id.clone(),
        }))),
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel(PROGRESS_QUEUE);
    let forward = tauri::async_runtime::spawn(async move {
        while let Some(p) = rx.recv().await {
            // A view that went away misses the updates; the report still comes back.
            let _ = on_progress.send(p);
        }
    });
    let ran = run::run(
        &suite,
        &session,
        &entry.name,
        &models,
        &options,
        &tx,
        &turn.stop,
    )
    .await;
    drop(tx);
    let _ = forward.await;
    drop(turn);
    let report = ran.map_err(|e| match e {
        RunError::Tools(detail) => Problem::ToolsUnlisted { detail },
        other => refused(other.to_string()),
    })?;
    let mut kept = EvalRun {
        id,
        report,
        not_kept: None,
        record: Some(record),
        in_traffic: false,
    };
    let now = record_now(&state, &server_id);
    let copy = kept.clone();
    kept.not_kept = super::off_main("evals", move || folder.keep(&server_id, &copy))
        .await
        .err();
    Ok(kept.for_view(now))
}

/// Stops the server's running eval run; whether one was running.
#[tauri::command]
pub fn evals_stop(runs: State<'_, EvalRuns>, server_id: String) -> bool {
    runs.stop(&server_id)
}

#[tauri::command]
pub async fn evals_runs(
    runs: State<'_, EvalRuns>,
    server_id: String,
) -> Result<Vec<EvalRunInfo>, Problem> {
    let folder = runs.folder()?;
    super::off_main("evals", move || Ok(folder.list(&server_id))).await
}

#[tauri::command]
pub async fn evals_get(
    state: State<'_, AppState>,
    runs: State<'_, EvalRuns>,
    server_id: String,
    run_id: String,
) -> Result<EvalRun, Problem> {
    let folder = runs.folder()?;
    let now = record_now(&state, &server_id);
    super::off_main("evals", move || {
        folder
            .get(&server_id, &run_id)
            .map(|run| run.for_view(now))
            .ok_or_else(|| Problem::not_found(Thing::EvalRun, &run_id))
    })
    .await
}

/// When the record Traffic shows for the server now began, if it has one.
fn record_now(state: &AppState, server_id: &str) -> Option<u64> {
    state
        .traffic_of(server_id)
        .ok()
        .map(|t| t.started_wall_us())
}

/// Two kept runs compared case by case (`before` the earlier).
#[tauri::command]
pub async fn evals_compare(
    runs: State<'_, EvalRuns>,
    server_id: String,
    before: String,
    after: String,
) -> Result<Vec<CaseComparison>, Problem> {
    let folder = runs.folder()?;
    super::off_main("evals", move || {
        let get = |id: &str| {
            folder
                .get(&server_id, id)
                .ok_or_else(|| Problem::not_found(Thing::EvalRun, id))
        };
        Ok(compare::compare(
            &get(&before)?.report,
            &get(&after)?.report,
        ))
    })
    .await
}

/// Forgets a kept run; the runs left.
#[tauri::command]
pub async fn evals_delete(
    runs: State<'_, EvalRuns>,
    server_id: String,
    run_id: String,
) -> Result<Vec<EvalRunInfo>, Problem> {
    let folder = runs.folder()?;
    super::off_main("evals", move || {
        folder.delete(&server_id, &run_id);
        Ok(folder.list(&server_id))
    })
    .await
}

/// The formats a kept run is exported in.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum EvalExport {
    /// The report: `periscope eval run --baseline FILE` and `periscope eval compare` read it,
    /// so a run made here gates CI.
    Json,
    /// JUnit XML: a test case per case, model and variant (failed when a repetition failed).
    Junit,
}

/// Writes a kept run where the user picks; the path, or None when cancelled.
#[tauri::command]
pub async fn evals_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    runs: State<'_, EvalRuns>,
    server_id: String,
    run_id: String,
    format: EvalExport,
) -> Result<Option<String>, Problem> {
    let folder = runs.folder()?;
    let (server, id) = (server_id.clone(), run_id.clone());
    let run = super::off_main("evals", move || {
        folder
            .get(&server, &id)
            .ok_or_else(|| Problem::not_found(Thing::EvalRun, &id))
    })
    .await?;
    let (bytes, ext) = match format {
        EvalExport::Json => (
            serde_json::to_vec_pretty(&run.report).map_err(Problem::internal)?,
            "json",
        ),
        EvalExport::Junit => (
            periscope_core::evals::format::junit(&run.report, &[], None).into_bytes(),
            "junit.xml",
        ),
    };
    let file_name = crate::kept_runs::export_name(&state, &server_id, "evals", &run_id, ext);
    crate::save_file::save_bytes(&app, "Export the eval run", &file_name, &bytes).await
}
