//! End-to-end: MCP Apps on the real app (docs/apps.md). The demo server's `calculator_app` links
//! to `ui://periscope-demo/calculator.html` (a page with no SDK, raw JSON-RPC over postMessage):
//! it renders under the tool's result in its sandboxed frame with the call's input and result;
//! its Add button calls the server's `add` back through Periscope (seen in Traffic, beside the
//! App-badged rows of the app's own messages); its link request asks for consent and opens
//! only after it; Fullscreen, Inline and Close work (the teardown request is answered by the
//! page, so it went out while the frame was still there); the Apps tab opens the resource with
//! hand-written input and result.

use periscope_tests::app::{APP_FRAME, Harness, ONE_AT_A_TIME};

const PANEL: &str = r#"[data-testid="mcp-app-panel"]"#;
const SPEC_URL: &str = "https://modelcontextprotocol.io/extensions/apps";

/// Replaces the text of an input of Periscope's page.
async fn set(h: &Harness, css: &str, text: &str) {
    let input = h.find(css).await;
    input.clear().await.expect("clear");
    input.send_keys(text).await.expect("typing");
}

/// Sets an input of the app's page (inside its frame). WebKit's driver cannot focus an element
/// of a sandboxed frame without allow-same-origin ("Element is not focusable"), so the value is
/// set as the page's own script would, with the input event a typing user causes.
async fn set_in_app(h: &Harness, css: &str, value: &str) {
    let input = h.find(css).await;
    h.client
        .execute(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
            vec![serde_json::to_value(&input).unwrap(), value.into()],
        )
        .await
        .expect("the app's page takes the value");
}

/// The demo's `calculator_app` called with {a, b}; waits for its result and its app frame.
async fn call_calculator(h: &Harness, a: &str, b: &str) {
    h.pick_tool("calculator_app").await;
    set(h, r#"[id="tool-calculator_app_a"]"#, a).await;
    set(h, r#"[id="tool-calculator_app_b"]"#, b).await;
    h.call_tool_button().await;
    h.find(PANEL).await;
    // The page is up and past its handshake once it shows the call's result.
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-result"]"#, " = ")
        .await;
}

/// A traffic row of the server's channel (no App badge) matching `css`'s attributes.
fn server_row(attrs: &str) -> String {
    format!(r#"[data-testid="traffic-row"]:not([data-app-view]){attrs}"#)
}

/// A traffic row of an app's channel matching `attrs`.
fn app_row(attrs: &str) -> String {
    format!(r#"[data-testid="traffic-row"][data-app-view]{attrs}"#)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_demo_app_renders_and_its_tool_call_back_shows_in_traffic() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("apps/calculator").await;
    h.ready_demo().await;
    call_calculator(&h, "2", "3").await;
    h.result_saying("2 + 3 = 5").await;

    // What the panel says about it: whose code it is, and that it may reach no network.
    let boundary = h.text(r#"[data-testid="mcp-app-boundary"]"#).await;
    assert!(boundary.contains("Demo"), "{boundary}");
    let csp = h.text(r#"[data-testid="mcp-app-csp"]"#).await;
    assert!(csp.contains("no network"), "{csp}");
    assert_eq!(h.count(r#"[data-testid="mcp-app-csp-warning"]"#).await, 0);
    let frame = h.find(APP_FRAME).await;
    assert_eq!(
        frame.attr("sandbox").await.unwrap().as_deref(),
        Some("allow-scripts allow-forms"),
        "no allow-same-origin, no popups, no top navigation"
    );

    // The app got the call's input and result.
    let input = h
        .app_text_containing(APP_FRAME, r#"[data-testid="calc-input"]"#, "\"a\"")
        .await;
    let input: serde_json::Value = serde_json::from_str(&input).expect("the input as JSON");
    assert_eq!(input, serde_json::json!({"a": 2, "b": 3}));
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-result"]"#, "2 + 3 = 5")
        .await;

    // Add on the server, from the app: `tools/call add`, then the app-only `calculator_log`.
    h.enter_app(APP_FRAME).await;
    set_in_app(&h, r#"[data-testid="calc-a"]"#, "40").await;
    set_in_app(&h, r#"[data-testid="calc-b"]"#, "2").await;
    h.click(r#"[data-testid="calc-add"]"#).await;
    h.text_containing(r#"[data-testid="calc-sum"]"#, "42").await;
    h.text_containing(r#"[data-testid="calc-log"]"#, "logged 42")
        .await;
    h.leave_app().await;
    h.shot("calculator-app").await;

    // Traffic: the call went to the server as the client's own, and the app's messages are
    // there too, badged App.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(&server_row(
        r#"[data-method="tools/call"][data-direction="out"][title*='"add"']"#,
    ))
    .await;
    h.find(&server_row(
        r#"[data-method="tools/call"][data-direction="out"][title*='"calculator_log"']"#,
    ))
    .await;
    h.find(&app_row(r#"[data-method="ui/initialize"]"#)).await;
    h.find(&app_row(r#"[data-method="tools/call"]"#)).await;
    h.find(r#"[data-testid="traffic-row"] [data-testid="app-badge"]"#)
        .await;
    h.shot("traffic-app-rows").await;

    // The channel chip: the app's messages alone, then the server's alone.
    h.click(r#"[data-testid="traffic-channel-app"]"#).await;
    h.count_is(&server_row(""), 0).await;
    h.find(&app_row("")).await;
    h.click(r#"[data-testid="traffic-channel-server"]"#).await;
    h.count_is(&app_row(""), 0).await;
    h.find(&server_row("")).await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_apps_link_request_asks_and_opens_only_after_consent() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("apps/link").await;
    h.ready_demo().await;
    call_calculator(&h, "1", "1").await;
    h.app_click(APP_FRAME, r#"[data-testid="calc-open-link"]"#)
        .await;

    // Asked, with the URL consent dialog and the app named; nothing opened yet.
    h.find(r#"[data-testid="ask-dialog"] [data-testid="app-open-link"]"#)
        .await;
    let dialog = h.text(r#"[data-testid="ask-dialog"]"#).await;
    assert!(dialog.contains("Calculator app"), "{dialog}");
    assert_eq!(
        h.text(r#"[data-testid="url-host"]"#).await,
        "modelcontextprotocol.io"
    );
    assert!(h.opened_urls().is_empty(), "{:?}", h.opened_urls());
    h.shot("link-consent").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(
        h.opened_urls().is_empty(),
        "nothing opens while the dialog waits: {:?}",
        h.opened_urls()
    );

    h.click(r#"[data-testid="url-open"]"#).await;
    h.gone(r#"[data-testid="ask-dialog"]"#).await;
    let deadline = std::time::Instant::now() + periscope_tests::app::WAIT;
    while h.opened_urls().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the link never opened"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(h.opened_urls(), vec![SPEC_URL.to_string()]);
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-link-status"]"#, "opened")
        .await;

    // Declined: the app is told so, and nothing more opens.
    h.app_click(APP_FRAME, r#"[data-testid="calc-open-link"]"#)
        .await;
    h.click(r#"[data-testid="ask-dialog"] [data-testid="url-decline"]"#)
        .await;
    h.gone(r#"[data-testid="ask-dialog"]"#).await;
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-link-status"]"#, "declined")
        .await;
    assert_eq!(h.opened_urls(), vec![SPEC_URL.to_string()]);

    // Recorded as the user's decisions.
    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.find(r#"[data-testid="decision-row"][data-decision="app_link_opened"]"#)
        .await;
    h.find(r#"[data-testid="decision-row"][data-decision="app_link_declined"]"#)
        .await;
    h.stop().await;
}

/// The frame's width on Periscope's page, in px.
async fn frame_width(h: &Harness) -> f64 {
    let width = h
        .client
        .execute(
            "return document.querySelector(arguments[0]).getBoundingClientRect().width;",
            vec![serde_json::Value::from(APP_FRAME)],
        )
        .await
        .expect("the page answers");
    width.as_f64().unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread")]
async fn fullscreen_then_inline_then_close_sends_teardown_first() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("apps/modes").await;
    h.ready_demo().await;
    call_calculator(&h, "4", "5").await;
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-result"]"#, "4 + 5 = 9")
        .await;
    let inline = frame_width(&h).await;

    // The user's Fullscreen: over the whole window, and the app is told.
    h.click(r#"[data-testid="mcp-app-fullscreen"]"#).await;
    h.attr_is(r#"[data-testid="mcp-app-host"]"#, "data-mode", "fullscreen")
        .await;
    let full = frame_width(&h).await;
    assert!(full > inline && full > 1200.0, "{inline} → {full}");
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-mode"]"#, "fullscreen")
        .await;
    h.shot("fullscreen").await;

    // Esc: back inline, and the app is told.
    h.find("body").await.send_keys("\u{E00C}").await.unwrap();
    h.attr_is(r#"[data-testid="mcp-app-host"]"#, "data-mode", "inline")
        .await;
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-mode"]"#, "inline")
        .await;

    // The app's own request for fullscreen, then for inline.
    h.app_click(APP_FRAME, r#"[data-testid="calc-fullscreen"]"#)
        .await;
    h.attr_is(r#"[data-testid="mcp-app-host"]"#, "data-mode", "fullscreen")
        .await;
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-mode"]"#, "fullscreen")
        .await;
    h.app_click(APP_FRAME, r#"[data-testid="calc-fullscreen"]"#)
        .await;
    h.attr_is(r#"[data-testid="mcp-app-host"]"#, "data-mode", "inline")
        .await;
    h.shot("inline-again").await;

    // Close: the teardown request goes out while the frame is there, then the frame goes.
    h.click(r#"[data-testid="mcp-app-close"]"#).await;
    h.gone(APP_FRAME).await;
    h.find(r#"[data-testid="mcp-app-closed"]"#).await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(&app_row(
        r#"[data-method="ui/resource-teardown"][data-kind="request"]"#,
    ))
    .await;
    // The page answered it: the frame was still there when it was asked.
    h.find(&app_row(
        r#"[data-method="ui/resource-teardown"][data-kind="response"]"#,
    ))
    .await;
    h.find(&app_row(
        r#"[data-method="ui/notifications/host-context-changed"]"#,
    ))
    .await;
    h.shot("teardown-in-traffic").await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_apps_view_opens_a_ui_resource_with_hand_written_input_and_result() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("apps/manual").await;
    h.ready_demo().await;
    h.click(r#"[data-testid="tab-apps"]"#).await;
    h.click(r#"[data-testid="mcp-app-resource"][data-uri="ui://periscope-demo/calculator.html"]"#)
        .await;
    // Its tool: calculator_app, which the model sees too (not badged app-only).
    let tools = h.text(r#"[data-testid="mcp-app-tools"]"#).await;
    assert!(tools.contains("calculator_app"), "{tools}");
    assert_eq!(
        h.count(r#"[data-tool="calculator_app"] [data-testid="mcp-app-only"]"#)
            .await,
        0
    );

    let editor = |which: &str| format!(r#"[data-testid="mcp-app-manual-{which}"] .cm-content"#);
    let input = h.find(&editor("input")).await;
    input.click().await.unwrap();
    input.send_keys("\u{E009}a\u{E009}").await.unwrap();
    input.send_keys(r#"{"a": 7, "b": 8}"#).await.unwrap();
    let result = h.find(&editor("result")).await;
    result.click().await.unwrap();
    result
        .send_keys(r#"{"content": [{"type": "text", "text": "hand-written 15"}]}"#)
        .await
        .unwrap();
    h.click(r#"[data-testid="mcp-app-open-manual"]"#).await;
    h.find(APP_FRAME).await;
    let shown = h
        .app_text_containing(APP_FRAME, r#"[data-testid="calc-input"]"#, "\"a\"")
        .await;
    let shown: serde_json::Value = serde_json::from_str(&shown).expect("the input as JSON");
    assert_eq!(shown, serde_json::json!({"a": 7, "b": 8}));
    h.app_text_containing(
        APP_FRAME,
        r#"[data-testid="calc-result"]"#,
        "hand-written 15",
    )
    .await;
    h.shot("apps-tab-manual").await;

    // The tool was not called: no tools/call to the server.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(&app_row(r#"[data-method="ui/initialize"]"#)).await;
    assert_eq!(
        h.count(&server_row(r#"[data-method="tools/call"]"#)).await,
        0
    );
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_ext_apps_sdk_app_renders_and_gets_the_time_from_its_server() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let server = periscope_tests::server_basic_vanillajs();
    let mut h = Harness::start_with("apps/interop", |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({ "servers": [
            {"id": "vanilla", "name": "ext-apps vanillajs", "target": {"transport": "stdio",
             "command": server, "args": ["--stdio"], "env": [], "cwd": null}},
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;
    let item = r#"[data-testid="server-item"][data-server-id="vanilla"]"#;
    h.click(item).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(&format!(r#"{item}[data-status="ready"]"#)).await;
    h.call_tool("get-time").await;
    h.find(APP_FRAME).await;

    // The SDK's app shows the time of the call's result, then asks its server for a new one.
    let first = h.app_text_containing(APP_FRAME, "#server-time", ":").await;
    assert!(first.starts_with("20"), "an ISO time: {first}");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    h.enter_app(APP_FRAME).await;
    h.click("#get-time-btn").await;
    let deadline = std::time::Instant::now() + periscope_tests::app::WAIT;
    loop {
        let now = h.text("#server-time").await;
        if now != first && now.starts_with("20") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the time never came back from the server: {now}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    h.leave_app().await;
    h.shot("ext-apps-vanillajs").await;

    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(&app_row(r#"[data-method="ui/initialize"]"#)).await;
    h.find(&app_row(r#"[data-method="tools/call"]"#)).await;
    assert!(
        h.count(&server_row(
            r#"[data-method="tools/call"][data-direction="out"]"#
        ))
        .await
            >= 2,
        "the user's call and the app's"
    );
    h.stop().await;
}

#[tokio::test]
async fn an_open_app_follows_the_theme_the_user_picks() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("apps/theme").await;
    h.ready_demo().await;
    call_calculator(&h, "2", "3").await;
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-theme"]"#, "light")
        .await;
    // Settings → Theme → Dark, with the app open: the app is told (host-context-changed).
    h.click(r#"[data-testid="settings-button"]"#).await;
    h.find(r#"[data-testid="settings-theme"]"#)
        .await
        .select_by_value("dark")
        .await
        .unwrap();
    h.click(r#"[data-testid="settings-save"]"#).await;
    h.gone(r#"[data-testid="settings-dialog"]"#).await;
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-theme"]"#, "dark")
        .await;
    h.shot("dark-app").await;
    h.stop().await;
}

#[tokio::test]
async fn an_apps_message_the_user_accepts_lands_in_the_playground_box_unsent() {
    let _turn = ONE_AT_A_TIME.lock().await;
    // A configured model (never asked here: nothing is sent to it in this test).
    let mut h = Harness::start_with("apps/message", |data| {
        let file = data.join("dev.periscope.app/models.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let providers = serde_json::json!({ "providers": [{
            "id": "local", "name": "Local model", "kind": "open_ai_compatible",
            "base_url": "http://127.0.0.1:9/v1", "model": "fake-1", "default": true }]});
        std::fs::write(file, providers.to_string()).unwrap();
    })
    .await;
    h.ready_demo().await;
    call_calculator(&h, "2", "3").await;
    h.app_text_containing(APP_FRAME, r#"[data-testid="calc-result"]"#, "2 + 3 = 5")
        .await;
    h.app_click(APP_FRAME, r#"[data-testid="calc-message"]"#)
        .await;

    // Asked, with the app's message as it sent it; the Playground untouched so far.
    let content = h
        .text_containing(r#"[data-testid="app-message-content"]"#, "The sum is")
        .await;
    h.shot("message-ask").await;
    h.click(r#"[data-testid="app-message-accept"]"#).await;
    h.gone(r#"[data-testid="ask-dialog"]"#).await;

    // The server's Playground: once a conversation is started, the message is in its box,
    // for the user to send (or not).
    h.find(r#"[data-testid="playground"]"#).await;
    h.click(r#"[data-testid="chat-new"]"#).await;
    let input = h.find(r#"[data-testid="chat-input"]"#).await;
    let value = input.prop("value").await.unwrap().unwrap_or_default();
    assert_eq!(
        value.trim(),
        content.trim(),
        "the box holds the app's message"
    );
    assert_eq!(
        h.count(r#"[data-testid="chat-user"]"#).await,
        0,
        "nothing was sent to a model"
    );
    h.shot("message-in-playground").await;
    h.stop().await;
}
