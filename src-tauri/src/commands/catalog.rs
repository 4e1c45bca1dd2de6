//! The server catalog: list, add or edit (validated by the engine's `config::validate_entry`),
//! remove; keep a temporary entry (opened from the command line); what loading it found wrong;
//! a secret value shown on request.

use periscope_core::config::ServerEntry;
use periscope_core::server_secrets::SecretSlot;
use periscope_core::vocabulary::Problem;
use tauri::{AppHandle, Runtime, State};

use crate::temporary::{Temporary, TemporaryEntry};
use crate::{AppState, catalog_store};

/// Whether this launch found no catalog and seeded the demo entries: the UI then opens on the
/// welcome view instead of selecting a server.
pub struct FirstLaunch(pub bool);

#[tauri::command]
pub fn first_launch(flag: State<'_, FirstLaunch>) -> bool {
    flag.0
}

#[tauri::command]
pub fn catalog_list(state: State<'_, AppState>) -> Vec<ServerEntry> {
    state.catalog()
}

#[tauri::command]
pub fn catalog_save<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    temporary: State<'_, Temporary>,
    entry: ServerEntry,
) -> Result<Vec<ServerEntry>, Problem> {
    let id = entry.id.clone();
    let entries = state.save_entry(entry)?;
    // Saving a temporary entry from the form is the user's choice to keep it.
    temporary.forget(&id);
    catalog_store::save(&app, &state, &entries)?;
    Ok(entries)
}

#[tauri::command]
pub async fn catalog_remove<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    temporary: State<'_, Temporary>,
    check_runs: State<'_, crate::check_runs::CheckRuns>,
    load_runs: State<'_, crate::load_runs::LoadRuns>,
    eval_runs: State<'_, crate::eval_runs::EvalRuns>,
    id: String,
) -> Result<Vec<ServerEntry>, Problem> {
    state.disconnect(&id).await?;
    let entries = state.remove_entry(&id)?;
    temporary.forget(&id);
    state.forget_era(&id);
    check_runs.forget(&id);
    if let Ok(folder) = load_runs.folder() {
        folder.forget(&id);
    }
    if let Ok(folder) = eval_runs.folder() {
        folder.forget(&id);
    }
    catalog_store::save(&app, &state, &entries)?;
    Ok(entries)
}

/// The entries opened from the command line and not saved yet, with the command line.
#[tauri::command]
pub fn catalog_temporary(temporary: State<'_, Temporary>) -> Vec<TemporaryEntry> {
    temporary.list()
}

/// Keeps a temporary entry: from now on it is written to the catalog file like any other.
#[tauri::command]
pub fn catalog_keep<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    temporary: State<'_, Temporary>,
    id: String,
) -> Result<Vec<ServerEntry>, Problem> {
    temporary.forget(&id);
    let entries = state.catalog();
    catalog_store::save(&app, &state, &entries)?;
    Ok(entries)
}

/// What loading the catalog file found wrong (entries it could not read, a broken file), in
/// sentences for the user; empty when all was well.
#[tauri::command]
pub fn catalog_problems(state: State<'_, AppState>) -> Vec<Problem> {
    state.catalog_problems()
}

/// One secret value of a server entry from the secret store, shown when the user clicks
/// "show" in the server form. None when nothing is stored.
#[tauri::command]
pub fn catalog_secret(
    state: State<'_, AppState>,
    server_id: String,
    slot: SecretSlot,
    name: String,
) -> Result<Option<String>, Problem> {
    state.reveal_secret(&server_id, slot, &name)
}

/// For each (name, value) of the server form's environment or headers, whether it looks like a
/// secret: the engine's guess (`secret_hint`), the form's default until the user chooses.
#[tauri::command]
pub fn secret_hints(pairs: Vec<(String, String)>) -> Vec<bool> {
    pairs
        .iter()
        .map(|(name, value)| periscope_core::secret_hint::looks_secret(name, value))
        .collect()
}
