//! A server's host settings (the roots it is shown and the reply rule for its sampling
//! requests, kept in the catalog's store), and the app's own settings (`app_settings`): the
//! request timeout, the default era, the theme, where data and secrets live, and clearing the
//! history and the saved sign-ins.

use periscope_core::answering::HostSettings;
use periscope_core::vocabulary::Problem;
use tauri::{AppHandle, Runtime, State};

use periscope_core::auth::store::StoreBackend;
use periscope_core::config::ServerTarget;
use serde::Serialize;

use crate::app_settings::{self, AppSettings};

use crate::remembered_args::{self, RememberedArgs};
use crate::{AppState, browser, catalog_store, saved_store};

#[tauri::command]
pub fn host_settings(state: State<'_, AppState>, server_id: String) -> HostSettings {
    state.asks.settings(&server_id)
}

/// Saves a server's roots and reply rule; tells a connected server when its roots changed.
#[tauri::command]
pub async fn save_host_settings<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    settings: HostSettings,
) -> Result<(), Problem> {
    let roots_changed = state.asks.settings(&server_id).roots != settings.roots;
    state.asks.set_settings(&server_id, settings);
    catalog_store::save_host_settings(&app, &state)?;
    if roots_changed {
        state.roots_changed(&server_id).await?;
    }
    Ok(())
}

#[tauri::command]
pub fn app_settings_get(state: State<'_, AppState>) -> AppSettings {
    state.settings.get()
}

/// The desktop's preferred languages, for the UI to resolve the "system" language.
#[tauri::command]
pub fn system_languages() -> Vec<String> {
    app_settings::system_languages()
}

/// Saves the app's settings; the request timeout applies to connections made from now on.
#[tauri::command]
pub fn app_settings_save<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    settings: AppSettings,
) -> Result<(), Problem> {
    if let Some(problem) = settings.problem() {
        return Err(problem);
    }
    app_settings::save(&app, &settings)?;
    state.settings.set(settings);
    Ok(())
}

/// Where the app keeps what it keeps, for the Settings view.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct DataPlaces {
    /// The data folder: the catalog, saved calls, history, settings.
    pub data_folder: String,
    /// Whether secrets (tokens, client secrets, secret header and environment values) are in
    /// the OS keychain or in an owner-only file.
    pub secrets_in_keychain: bool,
    /// With the file: its path and why the keychain was not used.
    pub secrets_file: Option<String>,
    pub keychain_unavailable_because: Option<String>,
}

#[tauri::command]
pub fn data_places<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
) -> Result<DataPlaces, Problem> {
    let folder = data_folder(&app)?;
    let store = state.secrets.get();
    Ok(DataPlaces {
        data_folder: folder.display().to_string(),
        secrets_in_keychain: store.is_some_and(|s| s.backend() == StoreBackend::Keychain),
        secrets_file: store
            .and_then(|s| s.file_path())
            .map(|p| p.display().to_string()),
        keychain_unavailable_because: store.and_then(|s| s.fallback_reason()).map(str::to_string),
    })
}

fn data_folder<R: Runtime>(app: &AppHandle<R>) -> Result<std::path::PathBuf, Problem> {
    crate::json_file::data_dir(app)
}

/// Opens the data folder in the file manager (the user clicked "Open folder").
#[tauri::command]
pub fn open_data_folder<R: Runtime>(app: AppHandle<R>) -> Result<(), Problem> {
    let folder = data_folder(&app)?;
    std::fs::create_dir_all(&folder).map_err(|e| Problem::io(&folder, e))?;
    browser::open_folder(&folder)
}

/// Forgets every server's call history; returns how many entries went.
#[tauri::command]
pub fn clear_all_history<R: Runtime>(app: AppHandle<R>) -> Result<usize, Problem> {
    saved_store::clear_all_history(&app)
}

/// Forgets the stored sign-ins (tokens) of every remote server in the catalog; returns how
/// many. A connected server keeps the token it holds until it disconnects.
#[tauri::command]
pub fn clear_sign_ins(state: State<'_, AppState>) -> Result<usize, Problem> {
    let Some(store) = state.secrets.get() else {
        return Ok(0);
    };
    let mut cleared = 0;
    for entry in state.catalog() {
        let ServerTarget::Http { target, .. } = &entry.target else {
            continue;
        };
        let forgotten = |e| {
            Problem::not_saved(
                periscope_core::vocabulary::problem::Stored::SignIns,
                Problem::internal(e),
            )
        };
        let issuers = store.issuers(&target.url).map_err(forgotten)?;
        for issuer in issuers {
            store.delete(&target.url, &issuer).map_err(forgotten)?;
            cleared += 1;
        }
    }
    Ok(cleared)
}

/// The last arguments of every tool the user filled in, oldest first.
#[tauri::command]
pub fn remembered_args_all<R: Runtime>(app: AppHandle<R>) -> Vec<RememberedArgs> {
    remembered_args::all(&app)
}

/// Keeps a tool's latest arguments (the form as the user left it).
#[tauri::command]
pub fn remembered_args_put<R: Runtime>(
    app: AppHandle<R>,
    entry: RememberedArgs,
) -> Result<(), Problem> {
    remembered_args::put(&app, entry)
}
