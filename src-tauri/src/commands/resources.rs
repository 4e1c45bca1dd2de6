//! Resources: reading one (recorded in the history), filling in a template, subscriptions, and
//! saving a binary resource to a file the user picks.

use std::collections::BTreeMap;

use base64::Engine;
use periscope_core::cache_hint::CacheHint;
use periscope_core::resource_template;
use periscope_core::saved_calls::CallKind;
use periscope_core::session::timed;
use periscope_core::view::CallError;
use periscope_core::views::ReadResultView;
use periscope_core::vocabulary::Problem;
use serde::Serialize;
use serde_json::json;
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::call_history::{self, CallTarget};

/// What `resources/read` gave back: the result read (its JSON as sent in `raw`), and the
/// caching hints of the modern era.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ResourceReadView {
    pub result: ReadResultView,
    pub cache: Option<CacheHint>,
}

/// `resources/read`, recorded in the history.
#[tauri::command]
pub async fn read_resource<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    uri: String,
) -> Result<ResourceReadView, Problem> {
    let call = CallTarget {
        server_id: &server_id,
        kind: CallKind::Resource,
        target: &uri,
        arguments: json!({}),
    };
    let mut cache = None;
    let request = timed(async {
        let session = state.session(&server_id)?;
        let read = session
            .read_resource_cached(&uri)
            .await
            .map_err(CallError::from)?;
        cache = read.cache;
        Ok(read.result)
    });
    let result = call_history::recorded(&app, &state, call, request)
        .await
        .map_err(|e| *e.problem)?;
    Ok(ResourceReadView {
        result: ReadResultView::read(&result),
        cache,
    })
}

/// A resource template's variables and the URI the form's values make (RFC 6570, in the engine).
#[tauri::command]
pub fn fill_resource_template(
    template: String,
    values: BTreeMap<String, String>,
) -> resource_template::TemplateExpansion {
    resource_template::fill(&template, &values)
}

#[tauri::command]
pub async fn subscribe_resource(
    state: State<'_, AppState>,
    server_id: String,
    uri: String,
) -> Result<(), Problem> {
    let session = state.session(&server_id)?;
    session
        .subscribe_resource(&uri)
        .await
        .map_err(Problem::from)
}

#[tauri::command]
pub async fn unsubscribe_resource(
    state: State<'_, AppState>,
    server_id: String,
    uri: String,
) -> Result<(), Problem> {
    let session = state.session(&server_id)?;
    session
        .unsubscribe_resource(&uri)
        .await
        .map_err(Problem::from)
}

/// A file name to suggest for a resource: the last path segment of its URI, made safe.
pub fn suggested_file_name(uri: &str) -> String {
    let last = uri
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or_default();
    crate::save_file::safe_file_name(last, "resource.bin")
}

/// Opens the native save dialog and writes a blob's bytes (base64, as the server sent them)
/// to the file the user picked. Returns the path written, or None when the user cancelled.
#[tauri::command]
pub async fn save_blob<R: Runtime>(
    app: AppHandle<R>,
    uri: String,
    blob: String,
) -> Result<Option<String>, Problem> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(blob.trim())
        .map_err(|e| Problem::InvalidInput {
            field: periscope_core::vocabulary::problem::Field::Blob,
            detail: Some(e.to_string()),
        })?;
    crate::save_file::save_bytes(
        &app,
        &format!("Save {uri}"),
        &suggested_file_name(&uri),
        &bytes,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::suggested_file_name;

    #[test]
    fn a_file_name_comes_from_the_uri() {
        assert_eq!(suggested_file_name("demo://blob/logo.png"), "logo.png");
        assert_eq!(suggested_file_name("file:///tmp/a b.bin"), "a_b.bin");
        assert_eq!(suggested_file_name("demo://x/"), "x");
        assert_eq!(suggested_file_name("urn:..hidden"), "hidden");
        assert_eq!(suggested_file_name(""), "resource.bin");
    }
}
