//! Saved calls, history, ping and the log level through Tauri's real IPC layer on the mock
//! runtime, as the UI calls them: kept in the store files across a rebuilt app (a restart).
//! Its own test binary, so its XDG_DATA_HOME is its own.

use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow};

fn invoke(webview: &WebviewWindow<MockRuntime>, cmd: &str, body: Value) -> Result<Value, Value> {
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

fn start_app() -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
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

fn saved(id: &str, server: &str, name: &str, arguments: Value) -> Value {
    json!({"id": id, "server_id": server, "name": name, "kind": "tool", "target": "add",
           "arguments": arguments, "created_wall_us": 1})
}

#[test]
fn saved_calls_and_history_survive_a_restart_and_the_server_utilities_answer() {
    let data = std::env::temp_dir().join(format!("periscope-app-saved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    // SAFETY: set before the app (or any other thread of this test binary) reads it.
    unsafe { std::env::set_var("XDG_DATA_HOME", &data) };

    let (app, webview) = start_app();
    let one = saved("1", "demo", "forty two", json!({"a": 40, "b": 2}));
    let put = invoke(&webview, "saved_put", json!({"call": one})).unwrap();
    assert_eq!(put, json!([one]));
    invoke(
        &webview,
        "saved_put",
        json!({"call": saved("2", "other", "x", json!({}))}),
    )
    .unwrap();
    let error = invoke(
        &webview,
        "saved_put",
        json!({"call": saved("3", "demo", "bad", json!([1]))}),
    )
    .unwrap_err();
    assert!(error.as_str().unwrap().contains("JSON object"), "{error}");
    let error = invoke(
        &webview,
        "saved_put",
        json!({"call": saved("3", "demo", " ", json!({}))}),
    )
    .unwrap_err();
    assert!(error.as_str().unwrap().contains("name"), "{error}");
    // Editing replaces by id.
    let renamed = saved("1", "demo", "forty-two", json!({"a": 40, "b": 2}));
    invoke(&webview, "saved_put", json!({"call": renamed})).unwrap();
    let all = invoke(&webview, "saved_list", json!({"serverId": null})).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 2);
    assert_eq!(
        invoke(&webview, "saved_remove", json!({"id": "2"})).unwrap(),
        json!([])
    );

    let big = "x".repeat(100_000);
    let entry = json!({"id": "h1", "server_id": "demo", "kind": "tool", "target": "echo",
        "arguments": {"message": big}, "started_wall_us": 5, "duration_us": 7, "outcome": "ok",
        "result_preview": {"content": [{"type": "text", "text": big}]}, "truncated": false});
    let stored = invoke(&webview, "history_record", json!({"entry": entry})).unwrap();
    assert_eq!(stored["truncated"], true);
    let preview = stored["result_preview"].as_str().unwrap();
    assert!(preview.len() <= 64 * 1024 && preview.starts_with("{\"content\""));

    // The utilities of the Overview tab, on the demo server.
    invoke(&webview, "connect", json!({"serverId": "demo"})).unwrap();
    let latency = invoke(&webview, "ping_server", json!({"serverId": "demo"})).unwrap();
    assert!(latency.as_u64().unwrap() > 0, "{latency}");
    invoke(
        &webview,
        "set_log_level",
        json!({"serverId": "demo", "level": "warning"}),
    )
    .unwrap();
    let error = invoke(
        &webview,
        "set_log_level",
        json!({"serverId": "demo", "level": "loud"}),
    )
    .unwrap_err();
    assert!(
        error.as_str().unwrap().contains("not a log level"),
        "{error}"
    );
    invoke(&webview, "disconnect", json!({"serverId": "demo"})).unwrap();
    let error = invoke(&webview, "ping_server", json!({"serverId": "demo"})).unwrap_err();
    assert!(error.as_str().unwrap().contains("connect"), "{error}");
    drop(webview);
    drop(app);

    // A restart: a new app over the same folder reads both files back.
    let (_app, webview) = start_app();
    let calls = invoke(&webview, "saved_list", json!({"serverId": "demo"})).unwrap();
    assert_eq!(calls, json!([renamed]));
    let history = invoke(&webview, "history_list", json!({"serverId": "demo"})).unwrap();
    assert_eq!(history, json!([stored]));
    invoke(&webview, "history_clear", json!({"serverId": "demo"})).unwrap();
    let history = invoke(&webview, "history_list", json!({"serverId": "demo"})).unwrap();
    assert_eq!(history, json!([]));
    // The mock context has no identifier: its data folder is XDG_DATA_HOME itself.
    let file = std::fs::read_to_string(data.join("saved.json")).unwrap();
    assert!(file.contains("forty-two"), "the CLI's file: {file}");
    let _ = std::fs::remove_dir_all(&data);
}
