//! Recordings: a live session saved as a record file ("Save session…"), a record file reopened
//! read-only (File → Open), closed again. The views read a reopened recording through the same
//! record commands as a live server (`connection/record.rs` asks `recordings.rs` first).

use periscope_core::vocabulary::Problem;
use std::path::PathBuf;

use periscope_core::config::ServerTarget;
use periscope_core::export::{self, Recording};
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::recordings::RecordingInfo;

/// Writes a server's record (live or ended) as a record file where the user picks; the path
/// written, or None when the user cancelled.
#[tauri::command]
pub async fn save_session<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Option<String>, Problem> {
    let traffic = state.traffic_of(&server_id)?;
    let entry = state.catalog().into_iter().find(|e| e.id == server_id);
    let name = entry
        .as_ref()
        .map_or_else(|| server_id.clone(), |e| e.name.clone());
    // What was recorded, secrets by name only (as `--record` writes it), and the entry's name.
    let mut target = match entry.as_ref().map(|e| &e.target) {
        Some(ServerTarget::Stdio(t)) => t.redacted(),
        Some(ServerTarget::Http { target, .. }) => target.redacted(),
        None => serde_json::json!({}),
    };
    if let Some(object) = target.as_object_mut() {
        object.insert("name".into(), name.clone().into());
    }
    let recording = Recording::from_traffic(&traffic);
    let mut bytes = Vec::new();
    export::write_record(&recording, target, &mut bytes).map_err(Problem::internal)?;
    let file_name = crate::save_file::safe_file_name(&format!("{name}-session.jsonl"), "session");
    crate::save_file::save_bytes(&app, "Save session", &file_name, &bytes).await
}

/// Opens a record file read-only: `path` when given (the command line), else the one the user
/// picks in the open dialog (test builds: `PERISCOPE_OPEN_FILE`). None when the user cancelled.
#[tauri::command]
pub async fn open_recording<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    path: Option<String>,
) -> Result<Option<RecordingInfo>, Problem> {
    let path = match path {
        Some(path) => PathBuf::from(path),
        None => match pick_record_file(&app).await? {
            Some(path) => path,
            None => return Ok(None),
        },
    };
    let recordings = &state.recordings;
    // Reading a large file takes a while: not on the async runtime's threads.
    let info = tokio::task::block_in_place(|| recordings.open(&path))?;
    Ok(Some(info))
}

#[tauri::command]
pub fn recordings_list(state: State<'_, AppState>) -> Vec<RecordingInfo> {
    state.recordings.list()
}

#[tauri::command]
pub fn close_recording(state: State<'_, AppState>, id: String) {
    state.recordings.close(&id);
}

/// The file the user picks in the native open dialog.
async fn pick_record_file<R: Runtime>(app: &AppHandle<R>) -> Result<Option<PathBuf>, Problem> {
    #[cfg(feature = "test-seams")]
    if let Some(path) = std::env::var_os("PERISCOPE_OPEN_FILE") {
        return Ok(Some(PathBuf::from(path)));
    }
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Open a recording")
        .add_filter("Periscope recording", &["jsonl"])
        .pick_file(move |picked| {
            let _ = tx.send(picked);
        });
    let picked = rx.await.map_err(|_| Problem::DialogClosed)?;
    picked
        .map(|p| {
            p.into_path().map_err(|e| Problem::InvalidInput {
                field: periscope_core::vocabulary::problem::Field::LocalFile,
                detail: Some(e.to_string()),
            })
        })
        .transpose()
}

/// What an edited request sent again brought back.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ResendOutcome {
    /// The sent frame's seq in the live server's record (its Traffic shows it).
    pub sent_seq: u64,
    /// The responses to the requests it held.
    #[cfg_attr(feature = "ts", ts(type = "Array<unknown>"))]
    pub responses: Vec<serde_json::Value>,
    /// Request ids it held that got no response in time, or were already in use.
    pub unanswered: Vec<periscope_core::wire::RequestId>,
}

/// Sends `text` exactly as the user edited it to a connected server (after they clicked Send
/// on a view that showed both), and waits for the answers (the request timeout at most). The
/// frames land in that server's Traffic like any other.
#[tauri::command]
pub async fn resend_frame(
    state: State<'_, AppState>,
    server_id: String,
    text: String,
) -> Result<ResendOutcome, Problem> {
    let session = state.session(&server_id)?;
    let wait = state.settings.get().request_timeout();
    let exchange = session
        .send_raw(text.into_bytes(), wait)
        .await
        .map_err(|e| periscope_core::session::send_problem("raw", &e))?;
    Ok(ResendOutcome {
        sent_seq: exchange.sent.seq,
        responses: exchange.responses,
        unanswered: exchange.unanswered,
    })
}

/// Replays a reopened recording's client messages against a connected server and compares
/// the answers (the engine's `replay`).
#[tauri::command]
pub async fn replay_recording(
    state: State<'_, AppState>,
    recording_id: String,
    server_id: String,
    ignore: Vec<String>,
) -> Result<periscope_core::replay::ReplayReport, Problem> {
    let opened = state
        .recordings
        .get(&recording_id)
        .ok_or(Problem::NoLongerWaiting {
            what: periscope_core::vocabulary::problem::Waiting::Recording,
        })?;
    let session = state.session(&server_id)?;
    let options = periscope_core::replay::ReplayOptions {
        wait: state.settings.get().request_timeout(),
        ignore,
    };
    let recording = opened.recording();
    Ok(periscope_core::replay::replay(&session, &recording, &options).await)
}

/// Which listing of a session a comparison takes.
#[derive(Debug, Clone, Copy, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum CompareMoment {
    First,
    Last,
}

/// One side of a comparison: a server (live or ended) or a reopened recording, at a moment.
#[derive(Debug, Clone, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CompareSide {
    pub id: String,
    pub moment: CompareMoment,
}

/// What the server showed of itself on each side, compared (the engine's `diff::compare`).
#[tauri::command]
pub fn compare_sessions(
    state: State<'_, AppState>,
    before: CompareSide,
    after: CompareSide,
) -> Result<periscope_core::diff::SurfaceDiff, Problem> {
    use periscope_core::diff::{Moment, Surface, compare};
    let surface = |side: &CompareSide| -> Result<Surface, Problem> {
        let moment = match side.moment {
            CompareMoment::First => Moment::First,
            CompareMoment::Last => Moment::Last,
        };
        Ok(match state.recordings.get(&side.id) {
            Some(opened) => Surface::of(&opened.recording(), moment),
            None => Surface::of(
                &Recording::from_traffic(&*state.traffic_of(&side.id)?),
                moment,
            ),
        })
    };
    Ok(compare(&surface(&before)?, &surface(&after)?))
}
