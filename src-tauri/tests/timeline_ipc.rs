//! The Timeline tab's commands through Tauri's real IPC layer on the mock runtime, against the
//! real demo server: JSON in, JSON out, exactly as the UI calls them.

mod common;

use common::{invoke, said, start_app};
use serde_json::{Value, json};

/// Reads the timeline until `done` says it has what the test waits for (the record is read as
/// the frames arrive).
fn timeline_until(
    webview: &tauri::WebviewWindow<tauri::test::MockRuntime>,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let mut timeline = Value::Null;
    for _ in 0..250 {
        timeline = invoke(
            webview,
            "timeline",
            json!({"serverId": "demo", "window": {}}),
        )
        .unwrap();
        if done(&timeline) {
            return timeline;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("the timeline never got there: {timeline:#}");
}

#[test]
fn the_ui_reads_a_servers_timeline_and_latency_and_several_servers_side_by_side() {
    let data = std::env::temp_dir().join(format!("periscope-app-timeline-{}", std::process::id()));
    // SAFETY: set before the app (or any other thread of this test binary) reads it.
    unsafe { std::env::set_var("XDG_DATA_HOME", &data) };
    let (_app, webview) = start_app();
    invoke(&webview, "connect", json!({"serverId": "demo"})).unwrap();

    for (a, b) in [(2, 3), (4, 5)] {
        invoke(
            &webview,
            "call_tool",
            json!({"serverId": "demo", "name": "add", "arguments": {"a": a, "b": b}}),
        )
        .unwrap();
    }
    invoke(
        &webview,
        "call_tool",
        // With a call id, as the UI calls: the app follows the call's progress (and asks for it).
        json!({"serverId": "demo", "name": "slow_task", "arguments": {"steps": 3, "step_ms": 100}, "callId": "slow-1"}),
    )
    .unwrap();

    let calls = |t: &Value| -> Vec<Value> {
        t["spans"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["method"] == "tools/call")
            .cloned()
            .collect()
    };
    let timeline = timeline_until(&webview, |t| {
        let calls = calls(t);
        calls.len() == 3 && calls.iter().all(|s| s["outcome"] == "ok")
    });
    let calls = calls(&timeline);
    // The slow call carries its progress (it asked with a token); the quick ones none.
    let slow = calls
        .iter()
        .max_by_key(|s| s["duration_us"].as_u64().unwrap())
        .unwrap();
    assert_eq!(slow["progress_count"], 3, "{slow:#}");
    assert_eq!(slow["progress"].as_array().unwrap().len(), 3);
    assert_eq!(slow["progress"][2]["total"], 3.0);
    assert!(slow["duration_us"].as_u64().unwrap() >= 300_000, "{slow:#}");
    assert!(
        calls
            .iter()
            .filter(|s| s["request_seq"] != slow["request_seq"])
            .all(|s| s["progress_count"] == 0)
    );
    assert_eq!(slow["direction"], "out");
    assert!(slow["request_seq"].as_u64().unwrap() < slow["response_seq"].as_u64().unwrap());
    assert_eq!(timeline["omitted_spans"], 0);

    // A budget of one span keeps the newest and counts the rest.
    let one = invoke(
        &webview,
        "timeline",
        json!({"serverId": "demo", "window": {"max_spans": 1}}),
    )
    .unwrap();
    let shown = timeline["spans"].as_array().unwrap().len() as u64;
    assert_eq!(one["spans"].as_array().unwrap().len(), 1);
    assert_eq!(one["omitted_spans"].as_u64().unwrap(), shown - 1);

    // Latency: tools/call with its three answers, the percentiles in order.
    let latency = invoke(&webview, "latency", json!({"serverId": "demo"})).unwrap();
    let call = latency["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["method"] == "tools/call")
        .unwrap()
        .clone();
    assert_eq!(call["count"], 3);
    assert_eq!(call["direction"], "out");
    let p = |k: &str| call[k].as_u64().unwrap();
    assert!(p("p50_us") <= p("p90_us") && p("p90_us") <= p("p99_us"));
    assert_eq!(p("p99_us"), p("max_us"));
    // The app keeps each server's latency up to date: asked again, nothing counts twice; a
    // new answer counts once.
    let count = |r: &Value| {
        r["methods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["method"] == "tools/call")
            .unwrap()["count"]
            .as_u64()
            .unwrap()
    };
    let again = invoke(&webview, "latency", json!({"serverId": "demo"})).unwrap();
    assert_eq!(again, latency);
    invoke(
        &webview,
        "call_tool",
        json!({"serverId": "demo", "name": "add", "arguments": {"a": 1, "b": 1}}),
    )
    .unwrap();
    let mut later = Value::Null;
    for _ in 0..250 {
        later = invoke(&webview, "latency", json!({"serverId": "demo"})).unwrap();
        if count(&later) > 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(count(&later), 4, "{later:#}");

    // Several servers: each one's timeline, or why it has none.
    let all = invoke(
        &webview,
        "timeline_all",
        json!({"serverIds": ["demo", "nope"], "window": {}}),
    )
    .unwrap();
    assert_eq!(all[0]["server_id"], "demo");
    assert!(all[0]["timeline"]["spans"].as_array().unwrap().len() >= 4);
    assert_eq!(all[1]["server_id"], "nope");
    assert!(all[1]["timeline"].is_null());
    assert!(
        said(&all[1]["error"]).contains("not connected")
            && all[1]["error"]["kind"] == "not_connected",
        "{all:#}"
    );
    let latencies = invoke(
        &webview,
        "latency_all",
        json!({"serverIds": ["demo", "nope"]}),
    )
    .unwrap();
    assert!(
        !latencies[0]["latency"]["methods"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(latencies[1]["latency"].is_null());
    let too_many: Vec<String> = (0..33).map(|i| format!("s{i}")).collect();
    let refused = invoke(
        &webview,
        "timeline_all",
        json!({"serverIds": too_many, "window": {}}),
    )
    .unwrap_err();
    assert!(said(&refused).contains("at most 32"), "{refused}");

    invoke(&webview, "disconnect", json!({"serverId": "demo"})).unwrap();
    // A disconnected server's record stays readable.
    let after = invoke(
        &webview,
        "timeline",
        json!({"serverId": "demo", "window": {}}),
    )
    .unwrap();
    assert!(after["spans"].as_array().unwrap().len() >= 3);
    // A new session: its latency starts over (the old session's calls are not in it).
    invoke(&webview, "connect", json!({"serverId": "demo"})).unwrap();
    let fresh = invoke(&webview, "latency", json!({"serverId": "demo"})).unwrap();
    assert!(
        !fresh["methods"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["method"] == "tools/call"),
        "{fresh:#}"
    );
    invoke(&webview, "disconnect", json!({"serverId": "demo"})).unwrap();
    let _ = std::fs::remove_dir_all(data);
}
