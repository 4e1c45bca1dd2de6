//! Answering the server: the requests waiting for the user and their answers, URLs a server
//! wants opened (analysis and consent), roots from a typed path or the folder picker, and the
//! decisions recorded along the way.

use periscope_core::answering::{Answer, PendingAsk, Root, UrlAnalysis, UrlDecision};
use periscope_core::record::Decision;
use periscope_core::vocabulary::Problem;
use tauri::{AppHandle, Runtime, State};

use crate::AppState;

#[tauri::command]
pub fn pending_asks(state: State<'_, AppState>) -> Vec<PendingAsk> {
    state.asks.pending()
}

#[tauri::command]
pub fn answer_ask(state: State<'_, AppState>, ask_id: u64, answer: Answer) -> Result<(), Problem> {
    state.asks.answer(ask_id, answer)
}

/// The analysis of a URL a server wants opened (e.g. from a -32042 error's elicitations).
#[tauri::command]
pub fn analyze_url(state: State<'_, AppState>, server_id: String, url: String) -> UrlAnalysis {
    let host = state.server_host(&server_id);
    periscope_core::answering::analyze_url(&url, host.as_deref())
}

/// The user's decision about a URL from a -32042 error's elicitations, made in a dialog that
/// showed it: kept in the record, and the URL opened when the decision is Open.
#[tauri::command]
pub fn consent_url(
    state: State<'_, AppState>,
    server_id: String,
    url: String,
    elicitation_id: String,
    decision: UrlDecision,
) -> Result<(), Problem> {
    state.consent_url(&server_id, &url, &elicitation_id, decision)
}

#[tauri::command]
pub fn decisions(state: State<'_, AppState>, server_id: String) -> Result<Vec<Decision>, Problem> {
    state.decisions(&server_id)
}

/// A root for a folder path the user typed or picked.
#[tauri::command]
pub fn root_of_path(path: String) -> Result<Root, Problem> {
    let path = std::path::PathBuf::from(path.trim());
    if path.as_os_str().is_empty() {
        return Err(Problem::invalid(
            periscope_core::vocabulary::problem::Field::FolderPath,
        ));
    }
    Ok(Root::of_path(&path))
}

/// The native folder picker; None when the user cancels.
#[tauri::command]
pub async fn pick_folder<R: Runtime>(app: AppHandle<R>) -> Result<Option<Root>, Problem> {
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Add a root folder")
        .pick_folder(move |picked| {
            let _ = tx.send(picked);
        });
    let picked = rx.await.map_err(|_| Problem::DialogClosed)?;
    Ok(match picked {
        None => None,
        Some(path) => Some(Root::of_path(&path.into_path().map_err(|e| {
            Problem::InvalidInput {
                field: periscope_core::vocabulary::problem::Field::LocalFolder,
                detail: Some(e.to_string()),
            }
        })?)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_path_becomes_a_root_and_an_empty_one_is_refused() {
        assert_eq!(
            root_of_path("  ".into()).unwrap_err(),
            Problem::invalid(periscope_core::vocabulary::problem::Field::FolderPath)
        );
        assert!(root_of_path("/tmp".into()).is_ok());
    }
}
