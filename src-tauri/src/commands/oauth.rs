//! Sign-in to remote servers: the OAuth report, signing out, and a pre-registered client's
//! secret.

use periscope_core::auth::AuthReport;
use periscope_core::vocabulary::Problem;
use tauri::State;

use crate::AppState;

/// The OAuth view of a remote server: the last sign-in's steps, its token (masked) and where
/// tokens are kept. None before the server was connected.
#[tauri::command]
pub async fn oauth_report(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Option<AuthReport>, Problem> {
    state.oauth_report(&server_id).await
}

#[tauri::command]
pub async fn sign_out(state: State<'_, AppState>, server_id: String) -> Result<(), Problem> {
    state.sign_out(&server_id).await
}

/// Keeps a pre-registered client's secret in the secret store (never in the catalog file);
/// an empty or missing secret forgets it.
#[tauri::command]
pub fn set_client_secret(
    state: State<'_, AppState>,
    server_id: String,
    secret: Option<String>,
) -> Result<(), Problem> {
    state.set_client_secret(&server_id, secret)
}

#[tauri::command]
pub fn has_client_secret(state: State<'_, AppState>, server_id: String) -> bool {
    state.has_client_secret(&server_id)
}
