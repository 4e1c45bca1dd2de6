//! MCP Apps interop: an app Periscope did not write. `@modelcontextprotocol/server-basic-vanillajs`
//! (the ext-apps SDK's own example, installed project-locally in tests/interop) over stdio,
//! through the engine's session: its `get-time` tool links to a `ui://` page (by the nested
//! `_meta.ui.resourceUri` and the deprecated flat `_meta["ui/resourceUri"]`, which it still
//! writes — a host must read both), `resources/read` of that page gives HTML built with the
//! SDK under the app MIME type, and on the same session the tool answers with the time.

use periscope_core::config::StdioTarget;
use periscope_core::era::{Era, EraChoice};
use periscope_core::session::{CallOptions, Session, SessionOptions};
use periscope_tests::server_basic_vanillajs;
use serde_json::{Map, Value, json};

const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
const APP_MIME: &str = "text/html;profile=mcp-app";

/// The `ui://` page a listed tool links to: the nested key first, the flat one as fallback.
fn resource_uri(tool: &Value) -> Option<&str> {
    tool.pointer("/_meta/ui/resourceUri")
        .or_else(|| tool["_meta"].get("ui/resourceUri"))
        .and_then(Value::as_str)
}

async fn connect() -> Session {
    let target = StdioTarget::new(
        server_basic_vanillajs().to_string_lossy().to_string(),
        ["--stdio"],
    );
    let mut options = SessionOptions {
        era: EraChoice::Legacy,
        ..SessionOptions::default()
    };
    // Declared as an MCP Apps host would (the server does not check, but a host must say it).
    options.capabilities["extensions"][UI_EXTENSION] = json!({"mimeTypes": [APP_MIME]});
    let session = Session::spawn_stdio(&target, options).expect("node starts the example");
    let identity = session.handshake().await.expect("the example initializes");
    assert_eq!(identity.era, Era::Legacy);
    session
}

#[tokio::test]
async fn the_ext_apps_vanillajs_example_links_get_time_to_its_ui_resource() {
    let session = connect().await;
    let tools = session.list_tools().await.unwrap();
    let tool = tools
        .iter()
        .find(|tool| tool["name"] == "get-time")
        .unwrap_or_else(|| panic!("get-time is listed: {tools:?}"));
    let uri = resource_uri(tool).expect("get-time links to its page");
    assert!(uri.starts_with("ui://"), "{uri}");
    // Both spellings name the same page (the SDK writes the flat one for older hosts).
    assert_eq!(tool["_meta"]["ui/resourceUri"], uri, "{tool}");
    assert_eq!(tool["_meta"]["ui"]["resourceUri"], uri, "{tool}");

    let read = session.read_resource(uri).await.unwrap();
    let content = &read["contents"][0];
    assert_eq!(content["uri"], uri);
    assert_eq!(content["mimeType"], APP_MIME);
    let html = content["text"].as_str().expect("the page comes as text");
    assert!(
        html.to_ascii_lowercase().starts_with("<!doctype html>"),
        "{}",
        &html[..80.min(html.len())]
    );
    // The SDK's app side is bundled in: it speaks the ui/ protocol to its host.
    assert!(
        html.contains("ui/initialize"),
        "the page carries the ext-apps handshake"
    );
    assert!(html.contains("get-time"), "the page calls its tool back");

    let answer = session
        .call_tool("get-time", Map::new(), CallOptions::default())
        .await
        .unwrap();
    let time = answer["structuredContent"]["time"]
        .as_str()
        .unwrap_or_else(|| panic!("a time in {answer}"));
    assert_eq!(answer["content"][0]["text"], time);
    // ISO 8601, e.g. 2026-11-24T06:40:00.000Z.
    assert!(
        time.len() >= 20 && time.as_bytes()[4] == b'-' && time.contains('T') && time.ends_with('Z'),
        "{time}"
    );
    session.close().await;
}
