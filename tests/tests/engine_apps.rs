//! MCP Apps through the engine against the real demo server: a view's `tools/call` carried by
//! the bridge to the session and recorded as app frames beside the server's frames; app
//! frames surviving a saved record file and `periscope open FILE --print`.

use periscope_core::apps::bridge::{AppView, BridgeAction, ProxyRequest, ViewSpec};
use periscope_core::apps::{UI_EXTENSION, client_capability};
use periscope_core::config::StdioTarget;
use periscope_core::era::EraChoice;
use periscope_core::export::{Recording, write_record};
use periscope_core::rows::RowBuilder;
use periscope_core::session::{CallOptions, Session, SessionOptions};
use periscope_core::traffic::Traffic;
use periscope_core::wire::Direction;
use periscope_tests::{bin_str, periscope, scratch_dir, stderr, stdout};
use serde_json::{Value, json};

const LIMIT: usize = 1 << 20;

async fn demo() -> Session {
    let target = StdioTarget::new(bin_str("periscope-demo-server"), Vec::<String>::new());
    let session = Session::spawn_stdio(&target, SessionOptions::default()).unwrap();
    session.initialize().await.unwrap();
    session
}

/// The extension as the first request carried it: `initialize`'s capabilities (legacy) or
/// the request's `_meta` client capabilities (2026-07-28).
fn declared(session: &Session, pointer: &str) -> Value {
    let first = session.traffic().frames()[0].clone();
    let first: Value = serde_json::from_slice(&first.bytes).unwrap();
    first
        .pointer(pointer)
        .and_then(|e| e.get(UI_EXTENSION))
        .cloned()
        .unwrap_or_else(|| panic!("no {UI_EXTENSION} at {pointer}: {first}"))
}

#[tokio::test]
async fn the_ui_extension_is_declared_in_both_eras() {
    let legacy = demo().await;
    assert_eq!(
        declared(&legacy, "/params/capabilities/extensions"),
        client_capability()
    );
    legacy.close().await;
    let target = StdioTarget::new(bin_str("periscope-demo-server"), ["--eras", "dual"]);
    let options = SessionOptions {
        era: EraChoice::Auto,
        ..SessionOptions::default()
    };
    let modern = Session::spawn_stdio(&target, options).unwrap();
    modern.handshake().await.unwrap();
    assert_eq!(
        declared(
            &modern,
            "/params/_meta/io.modelcontextprotocol~1clientCapabilities/extensions"
        ),
        json!({"mimeTypes": ["text/html;profile=mcp-app"]})
    );
    modern.close().await;
}

/// Hands `text` to the bridge as the shell does: recorded first, then read.
fn from_app(traffic: &Traffic, view: &mut AppView, text: &str) -> Vec<BridgeAction> {
    traffic.append_app_frame(1, Direction::FromApp, text.as_bytes(), LIMIT);
    view.on_from_app(text)
}

/// Records and returns the texts the bridge posts to the view.
fn posted(traffic: &Traffic, actions: &[BridgeAction]) -> Vec<Value> {
    actions
        .iter()
        .filter_map(|a| match a {
            BridgeAction::Post(text) => {
                traffic.append_app_frame(1, Direction::ToApp, text.as_bytes(), LIMIT);
                Some(serde_json::from_str(text).unwrap())
            }
            _ => None,
        })
        .collect()
}

/// A view of the demo server, initialized, and the app's `tools/call add` carried through.
async fn an_app_calls_add(session: &Session) {
    let traffic = session.traffic();
    let tools = session.list_tools().await.unwrap();
    let mut view = AppView::new(ViewSpec {
        server_tools: tools,
        tool: None,
        expects_input: false,
        host_info: json!({"name": "Periscope", "version": "test"}),
        host_context: json!({"theme": "light"}),
        sandbox_csp: json!({}),
    });
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "ui/initialize",
        "params": {"appInfo": {"name": "t", "version": "1"}, "appCapabilities": {},
            "protocolVersion": "2026-01-26"}});
    let answer = posted(traffic, &from_app(traffic, &mut view, &init.to_string()));
    assert_eq!(answer[0]["result"]["protocolVersion"], "2026-01-26");
    from_app(
        traffic,
        &mut view,
        r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized","params":{}}"#,
    );
    let call = json!({"jsonrpc": "2.0", "id": "app-1", "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 2, "b": 3}}});
    let actions = from_app(traffic, &mut view, &call.to_string());
    let [BridgeAction::Proxy { id, request }] = actions.as_slice() else {
        panic!("not proxied: {actions:?}")
    };
    let ProxyRequest::CallTool { name, arguments } = request else {
        panic!("{request:?}")
    };
    let result = session
        .call_tool(name, arguments.clone(), CallOptions::default())
        .await
        .unwrap();
    let answered = posted(traffic, &view.answer(id, Ok(result)));
    assert_eq!(answered[0]["id"], "app-1");
    assert!(
        answered[0]["result"].to_string().contains('5'),
        "{answered:?}"
    );
}

#[tokio::test]
async fn an_app_tools_call_is_proxied_and_recorded_as_app_frames_beside_the_server_frames() {
    let session = demo().await;
    an_app_calls_add(&session).await;
    let frames = session.traffic().frames();
    let mut rows = RowBuilder::default();
    let rows: Vec<_> = frames.iter().map(|f| rows.row(f)).collect();
    // The app's request, the server's tools/call, the server's answer, the app's answer, in
    // that order; the app's pair within its view, the server's within its own.
    let app_call = rows
        .iter()
        .position(|r| {
            r.direction == Direction::FromApp && r.method.as_deref() == Some("tools/call")
        })
        .expect("the app's tools/call is an app frame");
    let server_call = rows
        .iter()
        .position(|r| r.direction == Direction::Out && r.method.as_deref() == Some("tools/call"))
        .expect("the session sent tools/call to the server");
    let app_answer = rows
        .iter()
        .position(|r| {
            r.direction == Direction::ToApp
                && r.id.as_deref() == Some("\"app-1\"")
                && r.method.as_deref() == Some("tools/call")
        })
        .expect("the app's answer is paired with its request");
    assert!(
        app_call < server_call && server_call < app_answer,
        "{rows:#?}"
    );
    assert!(rows[app_call].app_view == Some(1) && rows[server_call].app_view.is_none());
    assert!(rows[app_answer].latency_us.is_some());
    // The server never saw an app frame's bytes: one tools/call went out.
    let sent_calls = rows
        .iter()
        .filter(|r| r.direction == Direction::Out && r.method.as_deref() == Some("tools/call"))
        .count();
    assert_eq!(sent_calls, 1);
    session.close().await;
}

#[tokio::test]
async fn an_app_frame_round_trips_through_a_saved_record_and_periscope_open_print() {
    let session = demo().await;
    an_app_calls_add(&session).await;
    let dir = scratch_dir("engine-apps-record");
    let path = dir.join("apps.jsonl");
    let recording = Recording::from_traffic(session.traffic());
    let mut file = std::fs::File::create(&path).unwrap();
    write_record(&recording, json!({"command": "demo"}), &mut file).unwrap();
    drop(file);
    session.close().await;

    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""format_version":"1.2""#), "{text}");
    assert!(text.contains(r#"{"type":"app_frame","#), "{text}");
    let read = Recording::read(&path).unwrap();
    let app: Vec<_> = read
        .frames
        .iter()
        .filter(|f| f.direction.is_app())
        .collect();
    assert_eq!(
        app.len(),
        5,
        "initialize, its answer, initialized, the call, its answer"
    );
    assert!(app.iter().all(|f| f.app_view == Some(1)));

    let printed = periscope(&["open", path.to_str().unwrap(), "--print"]);
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    let out = stdout(&printed);
    assert!(out.contains("format 1.2"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("← app 1") && l.contains("\"tools/call\"") && l.contains("app-1")),
        "the app's call, exactly: {out}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("→ app 1") && l.contains("\"app-1\"")),
        "the answer to the app: {out}"
    );
}

#[tokio::test]
async fn the_demo_calculator_resource_reads_with_the_app_mime_and_default_csp() {
    use periscope_core::apps::{APP_MIME, csp, meta, resource};
    let session = demo().await;
    let tools = session.list_tools().await.unwrap();
    let app_tool = tools
        .iter()
        .find(|t| t["name"] == "calculator_app")
        .expect("the demo lists calculator_app");
    let uri = meta::tool_ui(app_tool)
        .resource_uri
        .expect("a client with the extension sees the link");
    assert_eq!(uri, "ui://periscope-demo/calculator.html");
    let result = session
        .request(
            "resources/read",
            Some(json!({ "uri": uri })),
            CallOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(result["contents"][0]["mimeType"], APP_MIME);
    let page = resource::from_read(&uri, &result, None).unwrap();
    assert!(page.problems.is_empty(), "{:?}", page.problems);
    assert!(
        page.html.contains("ui/initialize"),
        "the page speaks the protocol"
    );
    assert_eq!(page.sha256.len(), 64);
    // No csp declared: the spec's default (no network at all).
    let header = csp::build(page.meta.csp.as_ref());
    assert_eq!(header.header, csp::DEFAULT_CSP);
    assert!(header.external.is_empty() && header.dropped.is_empty());
    session.close().await;
}

#[tokio::test]
async fn the_app_only_calculator_log_is_left_out_of_the_models_tool_list() {
    use periscope_core::apps::meta;
    let session = demo().await;
    let tools = session.list_tools().await.unwrap();
    let log = tools
        .iter()
        .find(|t| t["name"] == "calculator_log")
        .expect("the demo lists calculator_log");
    let visibility = meta::visibility_of(log);
    assert!(visibility.app && !visibility.model, "{visibility:?}");
    let for_model: Vec<_> = meta::model_tools(&tools)
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert!(
        !for_model.iter().any(|n| n == "calculator_log"),
        "{for_model:?}"
    );
    assert!(
        for_model.iter().any(|n| n == "calculator_app"),
        "{for_model:?}"
    );
    assert_eq!(for_model.len(), tools.len() - 1);
    session.close().await;
}
