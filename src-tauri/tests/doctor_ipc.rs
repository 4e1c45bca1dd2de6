//! The connection doctor after a connection was ready, through Tauri's real IPC layer: a
//! server that exits by itself once connected leaves a failed status that carries the
//! diagnosis (what to do next), not only the error.

mod common;

use std::time::{Duration, Instant};

use common::{invoke, said, start_app};
use serde_json::{Value, json};

/// The connection `id` as `connections` lists it, once `done` says so (at most 10 s).
fn wait_for(
    webview: &tauri::WebviewWindow<tauri::test::MockRuntime>,
    id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last = Value::Null;
    while Instant::now() < deadline {
        let conns = invoke(webview, "connections", json!({})).unwrap();
        if let Some(conn) = conns
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["server_id"] == id)
        {
            last = conn.clone();
            if done(conn) {
                return last;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the connection never got there: {last}");
}

#[test]
fn a_server_that_exits_after_it_was_ready_leaves_a_diagnosis_under_the_failed_status() {
    let data = std::env::temp_dir().join(format!("periscope-doctor-test-{}", std::process::id()));
    // SAFETY: set before the app (or any other thread of this test binary) reads it.
    unsafe { std::env::set_var("XDG_DATA_HOME", &data) };
    let (_app, webview) = start_app();
    let fixture = std::env::current_exe()
        .unwrap()
        .ancestors()
        .nth(2)
        .unwrap()
        .join("misbehaving-server");
    assert!(
        fixture.exists(),
        "build the fixture first: cargo build -p periscope-tests --bins"
    );
    let entry = json!({
        "id": "breaks", "name": "Breaks after ready", "era": "legacy",
        "target": {"transport": "stdio", "command": fixture, "args": ["exit-after-ready"],
                   "env": [], "cwd": null, "secret_env": []}
    });
    invoke(&webview, "catalog_save", json!({"entry": entry})).unwrap();
    let identity = invoke(&webview, "connect", json!({"serverId": "breaks"})).unwrap();
    assert_eq!(identity["server_info"]["name"], "misbehaving-server");

    let conn = wait_for(&webview, "breaks", |c| c["status"]["state"] == "failed");
    let status = &conn["status"];
    assert!(
        said(&status["error"]).contains("server exited with status 4"),
        "{status}"
    );
    let last_words = json!(["fatal: lost the database connection"]);
    assert_eq!(status["stderr_tail"], last_words, "{status}");
    assert_eq!(
        status["diagnoses"],
        json!([{"kind": "exited_after_ready", "exit_code": 4, "signal": null,
                "stderr_tail": last_words}]),
        "{status}"
    );

    // A server that closes its stdout and runs on: the doctor says what that means.
    let entry = json!({
        "id": "mute", "name": "Closes its stdout", "era": "legacy",
        "target": {"transport": "stdio", "command": fixture, "args": ["close-stdout"],
                   "env": [], "cwd": null, "secret_env": []}
    });
    invoke(&webview, "catalog_save", json!({"entry": entry})).unwrap();
    invoke(&webview, "connect", json!({"serverId": "mute"})).unwrap();
    let conn = wait_for(&webview, "mute", |c| c["status"]["state"] == "failed");
    let status = &conn["status"];
    assert_eq!(
        status["error"]["cause"]["kind"], "stdout_closed_still_running",
        "{status}"
    );
    assert_eq!(
        status["diagnoses"],
        json!([{"kind": "stdout_closed"}]),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(data);
}
