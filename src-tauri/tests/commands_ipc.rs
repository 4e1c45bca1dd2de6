//! The commands through Tauri's real IPC layer on the mock runtime (no window, no webview):
//! JSON in, JSON out, exactly as the UI calls them, against the real demo server.

mod common;

use common::{invoke, said, start_app};
use serde_json::{Value, json};

#[test]
fn the_ui_can_list_the_catalog_connect_call_a_tool_and_read_the_traffic() {
    let data = std::env::temp_dir().join(format!("periscope-app-test-{}", std::process::id()));
    // SAFETY: set before the app (or any other thread of this test binary) reads it.
    unsafe { std::env::set_var("XDG_DATA_HOME", &data) };
    // The app lives to the end of the test: dropping it would end its sessions.
    let (_app, webview) = start_app();

    let catalog = invoke(&webview, "catalog_list", json!({})).unwrap();
    assert_eq!(
        catalog[0]["id"], "demo",
        "first launch seeds the demo server: {catalog}"
    );
    assert_eq!(catalog[0]["era"], "auto");
    assert_eq!(catalog[1]["id"], "demo-legacy");
    assert_eq!(catalog[1]["era"], "legacy");
    assert!(
        catalog[0]["target"]["command"]
            .as_str()
            .unwrap()
            .ends_with("periscope-demo-server")
    );

    let identity = invoke(&webview, "connect", json!({"serverId": "demo"})).unwrap();
    assert_eq!(identity["server_info"]["name"], "periscope-demo-server");

    let tools = invoke(
        &webview,
        "list_items",
        json!({"serverId": "demo", "kind": "tools"}),
    )
    .unwrap();
    assert!(
        tools["list"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "add")
    );

    let sum = invoke(
        &webview,
        "call_tool",
        json!({"serverId": "demo", "name": "add", "arguments": {"a": 2, "b": 3}}),
    )
    .unwrap();
    // The result read by the engine, with the JSON as sent beside it.
    assert_eq!(sum["result"]["structured_content"]["sum"], 5, "{sum}");
    assert_eq!(sum["result"]["is_error"], false, "{sum}");
    assert_eq!(sum["result"]["content"][0]["type"], "text", "{sum}");
    assert_eq!(sum["result"]["raw"]["structuredContent"]["sum"], 5, "{sum}");
    assert_eq!(sum["task"], Value::Null, "a plain result became no task");
    let read = invoke(
        &webview,
        "read_resource",
        json!({"serverId": "demo", "uri": "demo://blob/logo.png"}),
    )
    .unwrap();
    // The engine read the blob and decided it is shown as an image; the JSON as sent is beside.
    let contents = &read["result"]["contents"][0];
    assert_eq!(contents["read"], "contents", "{read}");
    assert_eq!(contents["shown_as"], "image", "{read}");
    assert!(contents["blob"]["size"].as_u64().unwrap() > 0, "{read}");
    assert_eq!(
        read["result"]["raw"]["contents"][0]["uri"],
        "demo://blob/logo.png"
    );

    // The list asks the record for a window (here, with no store on the mock runtime, the
    // same filter over memory); the response may take a moment to be recorded.
    let mut rows = Value::Null;
    for _ in 0..100 {
        rows = invoke(
            &webview,
            "traffic_window",
            json!({"serverId": "demo", "filter": {}, "offset": 0, "limit": 1000}),
        )
        .unwrap();
        if rows
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["method"] == "tools/call" && r["kind"] == "response")
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let rows = rows.as_array().unwrap();
    // The demo entry's era is auto and the demo speaks 2026-07-28: no initialize, a probe.
    assert!(
        !rows.iter().any(|r| r["method"] == "initialize"),
        "{rows:?}"
    );
    let probe = rows
        .iter()
        .find(|r| r["method"] == "server/discover" && r["kind"] == "request")
        .unwrap();
    assert_eq!(probe["direction"], "out");
    let answer = rows
        .iter()
        .find(|r| r["method"] == "tools/call" && r["kind"] == "response")
        .unwrap();
    assert!(answer["latency_us"].as_u64().unwrap() > 0);
    let calls = invoke(
        &webview,
        "traffic_count",
        json!({"serverId": "demo", "filter": {"method": "tools/call", "kinds": ["response"]}}),
    )
    .unwrap();
    assert_eq!(calls, json!(1));
    // A list following the newest frame asks for the count and the newest rows at once.
    let tail = invoke(
        &webview,
        "traffic_tail",
        json!({"serverId": "demo", "filter": {}, "tail": 2, "page": 2}),
    )
    .unwrap();
    let count = tail["count"].as_u64().unwrap();
    assert!(count >= rows.len() as u64, "{tail}");
    assert_eq!(tail["from"].as_u64().unwrap() % 2, 0, "{tail}");
    let newest = tail["rows"].as_array().unwrap();
    assert_eq!(newest.len() as u64, count - tail["from"].as_u64().unwrap());
    assert!((2..=3).contains(&newest.len()), "{tail}");
    let position = invoke(
        &webview,
        "traffic_position",
        json!({"serverId": "demo", "seq": answer["seq"], "filter": {"method": "tools/call"}}),
    )
    .unwrap();
    assert_eq!(position, json!(1), "after its request");
    let answered = invoke(
        &webview,
        "frame_detail",
        json!({"serverId": "demo", "seq": answer["seq"]}),
    )
    .unwrap();
    assert!(answered["partner_seq"].as_u64().unwrap() < answer["seq"].as_u64().unwrap());

    let detail = invoke(
        &webview,
        "frame_detail",
        json!({"serverId": "demo", "seq": probe["seq"]}),
    )
    .unwrap();
    assert!(
        detail["text"]
            .as_str()
            .unwrap()
            .contains("\"method\":\"server/discover\"")
    );

    let bad = invoke(
        &webview,
        "catalog_save",
        json!({"entry": {"id": "x", "name": " ", "target": {"transport": "stdio", "command": "true", "args": [], "env": [], "cwd": null}}}),
    )
    .unwrap_err();
    assert!(said(&bad).contains("a server's name is missing"), "{bad}");

    let not_connected = invoke(
        &webview,
        "list_items",
        json!({"serverId": "nope", "kind": "tools"}),
    )
    .unwrap_err();
    assert!(said(&not_connected).contains("not connected"));

    invoke(&webview, "disconnect", json!({"serverId": "demo"})).unwrap();
    let conns = invoke(&webview, "connections", json!({})).unwrap();
    assert_eq!(conns[0]["status"]["state"], "disconnected");
    let _ = std::fs::remove_dir_all(data);
}
