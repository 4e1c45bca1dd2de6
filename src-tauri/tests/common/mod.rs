//! What the IPC tests share: an app on Tauri's mock runtime, and a call through its real IPC
//! layer exactly as the UI makes it (JSON in, JSON out).

// Each test binary uses a part of this module.
#![allow(dead_code)]

use serde_json::Value;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow};

pub fn invoke(
    webview: &WebviewWindow<MockRuntime>,
    cmd: &str,
    body: Value,
) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(body),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(webview, request).map(|b| b.deserialize::<Value>().unwrap())
}

/// A command's error, or a problem in a value, in the engine's English: it must be a typed
/// `Problem` (a kind with its parameters), which is what the UI words in its languages.
pub fn said(error: &Value) -> String {
    let problem: periscope_core::vocabulary::Problem = serde_json::from_value(error.clone())
        .unwrap_or_else(|e| panic!("not a typed Problem ({e}): {error}"));
    problem.to_string()
}

/// The app with its main window. The setup hook (catalog load, first-launch connect) runs on
/// the first loop iteration, which this runs.
pub fn start_app() -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let mut app = periscope_app::setup(mock_builder())
        .build(mock_context(noop_assets()))
        .expect("the app builds on the mock runtime");
    #[allow(deprecated)]
    app.run_iteration(|_, _| {});
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    (app, webview)
}
