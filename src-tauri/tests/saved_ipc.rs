//! Saved calls, the history the calls record themselves, ping and the log level through
//! Tauri's real IPC layer on the mock runtime, as the UI calls them: kept in the store files
//! across a rebuilt app (a restart). Its own test binary, so its XDG_DATA_HOME is its own.

mod common;

use common::{invoke, said, start_app};
use serde_json::{Value, json};

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
    let one = saved("1", "demo-legacy", "forty two", json!({"a": 40, "b": 2}));
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
        json!({"call": saved("3", "demo-legacy", "bad", json!([1]))}),
    )
    .unwrap_err();
    assert!(said(&error).contains("JSON object"), "{error}");
    let error = invoke(
        &webview,
        "saved_put",
        json!({"call": saved("3", "demo-legacy", " ", json!({}))}),
    )
    .unwrap_err();
    assert!(said(&error).contains("name"), "{error}");
    // Editing replaces by id.
    let renamed = saved("1", "demo-legacy", "forty-two", json!({"a": 40, "b": 2}));
    invoke(&webview, "saved_put", json!({"call": renamed})).unwrap();
    let all = invoke(&webview, "saved_list", json!({"serverId": null})).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 2);
    assert_eq!(
        invoke(&webview, "saved_remove", json!({"id": "2"})).unwrap(),
        json!([])
    );

    // The calls record themselves in the history, timed in Rust, each exactly once.
    invoke(&webview, "connect", json!({"serverId": "demo-legacy"})).unwrap();
    let big = "x".repeat(100_000);
    let echoed = invoke(
        &webview,
        "call_tool",
        json!({"serverId": "demo-legacy", "name": "echo", "arguments": {"message": big}}),
    )
    .unwrap();
    assert!(
        echoed["result"]["raw"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .len()
            > 100_000
    );
    let prompt = invoke(
        &webview,
        "get_prompt",
        json!({"serverId": "demo-legacy", "name": "greeting", "arguments": {"name": "Ada"}}),
    )
    .unwrap();
    // The prompt read by the engine, with the JSON as sent beside it.
    let message = &prompt["messages"][0];
    assert_eq!(message["content"]["type"], "text", "{prompt}");
    assert_eq!(
        message["content"]["raw"],
        prompt["raw"]["messages"][0]["content"]
    );
    invoke(
        &webview,
        "read_resource",
        json!({"serverId": "demo-legacy", "uri": "demo://no-such-resource"}),
    )
    .unwrap_err();
    let recorded = invoke(&webview, "history_list", json!({"serverId": "demo-legacy"})).unwrap();
    let recorded = recorded.as_array().unwrap().clone();
    assert_eq!(recorded.len(), 3, "one entry per call: {recorded:?}");
    // Newest first: the failed read, the prompt, the tool call.
    let (read, prompt, stored) = (&recorded[0], &recorded[1], &recorded[2]);
    assert_eq!(read["kind"], "resource");
    assert_eq!(read["target"], "demo://no-such-resource");
    assert_eq!(read["outcome"], "protocol_error");
    assert!(read["result_preview"]["error"].is_string(), "{read}");
    assert!(read["result_preview"]["code"].is_i64(), "{read}");
    assert_eq!(prompt["kind"], "prompt");
    assert_eq!(prompt["arguments"], json!({"name": "Ada"}));
    assert_eq!(prompt["outcome"], "ok");
    assert_eq!(stored["kind"], "tool");
    assert_eq!(stored["target"], "echo");
    assert_eq!(stored["outcome"], "ok");
    assert_eq!(stored["arguments"]["message"], big.as_str());
    assert!(stored["started_wall_us"].as_u64().unwrap() > 0);
    assert!(stored["duration_us"].as_u64().unwrap() > 0);
    assert_eq!(stored["truncated"], true);
    let preview = stored["result_preview"].as_str().unwrap();
    assert!(preview.len() <= 64 * 1024 && preview.starts_with("{\"content\""));
    // No command takes a history entry from the UI any more.
    assert!(invoke(&webview, "history_record", json!({"entry": stored})).is_err());

    // The utilities of the Overview tab, on the demo server in the legacy era (2026-07-28
    // removed ping and logging/setLevel): the built-in "Demo server (legacy era)" entry.
    let latency = invoke(&webview, "ping_server", json!({"serverId": "demo-legacy"})).unwrap();
    assert!(latency.as_u64().unwrap() > 0, "{latency}");
    invoke(
        &webview,
        "set_log_level",
        json!({"serverId": "demo-legacy", "level": "warning"}),
    )
    .unwrap();
    let error = invoke(
        &webview,
        "set_log_level",
        json!({"serverId": "demo-legacy", "level": "loud"}),
    )
    .unwrap_err();
    assert_eq!(error["kind"], "invalid_input", "{error}");
    assert_eq!(error["field"], "log_level", "{error}");
    assert_eq!(error["detail"], "loud", "{error}");
    assert!(said(&error).contains("is not one of debug"), "{error}");
    invoke(&webview, "disconnect", json!({"serverId": "demo-legacy"})).unwrap();
    let error = invoke(&webview, "ping_server", json!({"serverId": "demo-legacy"})).unwrap_err();
    assert!(said(&error).contains("connect"), "{error}");
    drop(webview);
    drop(app);

    // A restart: a new app over the same folder reads both files back.
    let (_app, webview) = start_app();
    let calls = invoke(&webview, "saved_list", json!({"serverId": "demo-legacy"})).unwrap();
    assert_eq!(calls, json!([renamed]));
    let history = invoke(&webview, "history_list", json!({"serverId": "demo-legacy"})).unwrap();
    assert_eq!(history, Value::Array(recorded));
    invoke(
        &webview,
        "history_clear",
        json!({"serverId": "demo-legacy"}),
    )
    .unwrap();
    let history = invoke(&webview, "history_list", json!({"serverId": "demo-legacy"})).unwrap();
    assert_eq!(history, json!([]));
    // The mock context has no identifier: its data folder is XDG_DATA_HOME itself.
    let file = std::fs::read_to_string(data.join("saved.json")).unwrap();
    assert!(file.contains("forty-two"), "the CLI's file: {file}");
    let _ = std::fs::remove_dir_all(&data);
}
