//! Tasks through the app's real IPC on the mock runtime, against the demo server in its
//! modern era (`--eras dual`): "Run as task" starts `long_job`, the task list follows it to
//! its result; Cancel stops another; a plain call the server makes a task is followed too, and
//! Run as task is offered.

mod common;

use std::time::Duration;

use common::{invoke, start_app};
use serde_json::{Value, json};
use tauri::WebviewWindow;
use tauri::test::MockRuntime;

/// Polls `task_list` until `task_id`'s entry satisfies `done` (at most 10 s).
fn wait_for(
    webview: &WebviewWindow<MockRuntime>,
    task_id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let mut last = Value::Null;
    for _ in 0..200 {
        let list = invoke(webview, "task_list", json!({"serverId": "dual"})).unwrap();
        if let Some(entry) = list
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["task"]["task_id"] == task_id)
        {
            last = entry.clone();
            if done(entry) {
                return last;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the task never got there: {last}");
}

#[test]
fn a_tool_runs_as_a_task_to_its_result_and_another_is_cancelled() {
    let data = std::env::temp_dir().join(format!("periscope-tasks-test-{}", std::process::id()));
    // SAFETY: set before the app (or any other thread of this test binary) reads it.
    unsafe { std::env::set_var("XDG_DATA_HOME", &data) };
    let (_app, webview) = start_app();
    let demo = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("periscope-demo-server");
    let entry = json!({
        "id": "dual", "name": "Demo (dual)", "era": "auto",
        "target": {"transport": "stdio", "command": demo, "args": ["--eras", "dual"],
                   "env": [], "cwd": null, "secret_env": []}
    });
    invoke(&webview, "catalog_save", json!({"entry": entry})).unwrap();
    let identity = invoke(&webview, "connect", json!({"serverId": "dual"})).unwrap();
    assert_eq!(identity["era"], "modern", "{identity}");

    let start = invoke(
        &webview,
        "call_tool_as_task",
        json!({"serverId": "dual", "name": "long_job", "arguments": {"steps": 3, "step_ms": 100}}),
    )
    .unwrap();
    assert_eq!(start["kind"], "task", "{start}");
    assert_eq!(start["entry"]["flavour"], "extension");
    let id = start["entry"]["task"]["task_id"]
        .as_str()
        .unwrap()
        .to_string();
    let done = wait_for(&webview, &id, |e| e["following"] == false);
    assert_eq!(done["task"]["status"], "completed", "{done}");
    assert_eq!(done["tool"], "long_job");
    assert_eq!(
        done["task"]["result"]["content"][0]["text"], "long_job finished all 3 steps",
        "the task's result read as a tool's: {done}"
    );
    assert_eq!(done["task"]["result"]["raw"]["content"][0]["type"], "text");

    let start = invoke(
        &webview,
        "call_tool_as_task",
        json!({"serverId": "dual", "name": "long_job", "arguments": {"steps": 100, "step_ms": 100}}),
    )
    .unwrap();
    let id = start["entry"]["task"]["task_id"]
        .as_str()
        .unwrap()
        .to_string();
    invoke(
        &webview,
        "cancel_task",
        json!({"serverId": "dual", "taskId": id}),
    )
    .unwrap();
    let stopped = wait_for(&webview, &id, |e| e["following"] == false);
    assert_eq!(stopped["cancel_sent"], true, "{stopped}");
    // The server stops within a step; the last look may still say working.
    let status = &stopped["task"]["status"];
    assert!(status == "cancelled" || status == "working", "{stopped}");

    // A plain Call the server answers with a task: the engine says so, and the app follows it.
    let called = invoke(
        &webview,
        "call_tool",
        json!({"serverId": "dual", "name": "long_job", "arguments": {"steps": 2, "step_ms": 100}}),
    )
    .unwrap();
    assert_eq!(called["result"]["raw"]["resultType"], "task", "{called}");
    let became = &called["task"];
    assert_eq!(became["following"], true, "{called}");
    assert_eq!(became["tool"], "long_job");
    let id = became["task"]["task_id"].as_str().unwrap().to_string();
    let done = wait_for(&webview, &id, |e| e["following"] == false);
    assert_eq!(done["task"]["status"], "completed", "{done}");

    // Run as task is offered for every tool of a server declaring the extension: the tool
    // views the list carries say so (the engine's one decision, for the session's era).
    let listed = invoke(
        &webview,
        "list_items",
        json!({"serverId": "dual", "kind": "tools"}),
    )
    .unwrap();
    let tools = listed["list"]["items"]
        .as_array()
        .expect("the tools' views");
    assert!(!tools.is_empty(), "{listed}");
    for tool in tools {
        assert_eq!(tool["task_support"], "optional", "{tool}");
    }
    let _ = std::fs::remove_dir_all(&data);
}
