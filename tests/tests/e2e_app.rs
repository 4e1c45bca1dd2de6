//! End-to-end: the real built desktop app, its real webview, driven through WebDriver
//! (tauri-driver + WebKitWebDriver) on a private Xvfb display, against the real demo server.
//! Each step saves a screenshot under test-artifacts/e2e/.
//!
//! Needs: the app built with its UI (`make test` does it), Xvfb, WebKitWebDriver and
//! tauri-driver (`scripts/bootstrap.sh` installs them). The harness starts and stops its own
//! display and driver, and gives the app a fresh data folder, so it sees a first launch.

use std::time::{Duration, Instant};

use periscope_tests::app::{DEMO_READY, Harness, ONE_AT_A_TIME, WAIT};

#[tokio::test(flavor = "multi_thread")]
async fn the_app_connects_the_demo_server_calls_a_tool_shows_traffic_and_runs_two_servers() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("main-flow").await;

    // First launch: the demo server is in the catalog and connects by itself.
    h.ready_demo().await;
    h.find(r#"[data-testid="overview-protocol-version"]"#).await;
    h.shot("demo-connected").await;
    // At 1280 x 800 every view's tab is in the window (grouped, wrapping, never scrolling),
    // and the sidebar and main view fill its height.
    h.assert_layout_fits().await;

    // The Tools list's filter keeps the tools that hold the words typed, and says how many.
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="tool-item"][data-tool-name="add"]"#)
        .await;
    let all = h.count(r#"[data-testid="tool-item"]"#).await;
    h.type_into(r#"[data-testid="tools-filter"]"#, "ADD").await;
    h.text_containing(
        r#"[data-testid="tools-filter-count"]"#,
        &format!(" of {all}"),
    )
    .await;
    // Kept: `add` (its name); gone: `slow_task` (nothing of it says "add"). What is kept
    // is what the count says.
    h.find(r#"[data-testid="tool-item"][data-tool-name="add"]"#)
        .await;
    h.count_is(
        r#"[data-testid="tool-item"][data-tool-name="slow_task"]"#,
        0,
    )
    .await;
    let kept = h.count(r#"[data-testid="tool-item"]"#).await;
    assert!(kept < all, "the filter kept all {all} tools");
    h.text_containing(
        r#"[data-testid="tools-filter-count"]"#,
        &format!("{kept} of {all}"),
    )
    .await;
    h.shot("tools-filtered").await;
    h.clear(r#"[data-testid="tools-filter"]"#).await;
    h.count_is(r#"[data-testid="tool-item"]"#, all).await;

    // Tools: list, pick `add`, fill its generated form, call, see the result.
    h.pick_tool("add").await;
    h.type_into(r#"input[id$="add_a"]"#, "2").await;
    h.type_into(r#"input[id$="add_b"]"#, "40").await;
    h.shot("add-form").await;
    h.call_tool_button().await;
    let result = h
        .find(r#"[data-testid="tool-result"][data-is-error="false"]"#)
        .await;
    let text = result.text().await.unwrap();
    assert!(text.contains("42"), "the result shows the sum: {text}");
    h.shot("add-result").await;

    // Traffic: the era probe (server/discover, answered: 2026-07-28) went out, no
    // initialize, and the call's response is paired with its latency.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="server/discover"][data-direction="out"]"#)
        .await;
    assert_eq!(
        h.count(r#"[data-testid="traffic-row"][data-method="initialize"]"#)
            .await,
        0
    );
    let answer = h
        .find(r#"[data-testid="traffic-row"][data-method="tools/call"][data-kind="response"]"#)
        .await;
    let latency = answer
        .attr("data-latency-us")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(latency.parse::<u64>().unwrap() > 0, "latency {latency:?}");
    answer.click().await.unwrap();
    // The pane fills in when the frame's bytes arrive.
    h.text_containing(r#"[data-testid="frame-detail"]"#, "structuredContent")
        .await;
    h.shot("traffic").await;

    // The legacy-era demo entry beside it: the initialize handshake, and the era said.
    h.connect_legacy_demo().await;
    h.text_containing(r#"[data-testid="overview-era"]"#, "Legacy (initialize)")
        .await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="initialize"][data-direction="out"]"#)
        .await;

    // A third server beside them: duplicate the demo entry and connect it too.
    h.click(r#"[data-testid="duplicate-server"]"#).await;
    let deadline = Instant::now() + WAIT;
    while h.count(r#"[data-testid="server-item"]"#).await < 3 {
        assert!(Instant::now() < deadline, "the duplicate did not appear");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let copy = r#"[data-testid="server-item"]:not([data-server-id^="demo"])"#;
    h.click(copy).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(&format!("{copy}[data-status=\"ready\"]")).await;
    h.find(DEMO_READY).await;
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="tool-item"][data-tool-name="echo"]"#)
        .await;
    h.shot("two-servers").await;

    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_fails_to_start_shows_a_clear_error_and_the_app_stays_usable() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("failing-server").await;
    h.find(DEMO_READY).await;
    h.click(r#"[data-testid="add-server-button"]"#).await;
    h.type_into(r#"[data-testid="server-form-name"]"#, "Broken")
        .await;
    h.type_into(r#"[data-testid="server-form-command"]"#, "sh")
        .await;
    h.find(r#"[data-testid="server-form-args"]"#)
        .await
        // One argument per line; WebDriver types a new line as the Enter key.
        .send_keys(&format!(
            "-c{}echo 'fatal: no config file' >&2; exit 4",
            fantoccini::key::Key::Enter
        ))
        .await
        .unwrap();
    h.click(r#"[data-testid="server-form-save"]"#).await;
    h.click(r#"[data-testid="server-item"][data-server-name="Broken"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-name="Broken"][data-status="failed"]"#)
        .await;
    let error = h.text(r#"[data-testid="connection-error"]"#).await;
    assert!(error.contains("exited with status 4"), "{error}");
    assert!(error.contains("fatal: no config file"), "{error}");
    h.shot("failed-server").await;

    // The demo server is untouched and still answers.
    h.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="tool-item"][data-tool-name="add"]"#)
        .await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_flooding_server_and_a_dying_server_leave_the_app_responsive_and_say_what_happened() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start_with("bad-servers", |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let entry = |id: &str, name: &str, mode: &str, extra: &[&str]| {
            let mut args = vec![mode.to_string()];
            args.extend(extra.iter().map(|s| s.to_string()));
            // Legacy fixtures, scripted from initialize on.
            serde_json::json!({"id": id, "name": name, "era": "legacy", "target": {"transport": "stdio",
                "command": periscope_tests::bin_str("misbehaving-server"), "args": args, "env": [], "cwd": null}})
        };
        let catalog = serde_json::json!({"servers": [
            entry("flood", "Flood", "flood", &["20000"]),
            entry("dies", "Dies", "exit-mid-request", &[]),
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;

    // 20 000 notifications arrive as fast as the server can write them.
    h.click(r#"[data-testid="server-item"][data-server-id="flood"]"#)
        .await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    let deadline = Instant::now() + WAIT;
    loop {
        let count = h
            .text(r#"[data-testid="traffic-count"]"#)
            .await
            .replace(',', ""); // the UI groups digits
        if count.contains("20003 of 20003") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the flood never fully arrived: {count}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    h.type_into(r#"[data-testid="traffic-filter"]"#, "message 19999")
        .await;
    h.find(r#"[data-testid="traffic-row"][data-method="notifications/message"]"#)
        .await;
    h.shot("flood-filtered").await;

    // A server that dies when asked for its tools: the app says so, with its last words.
    h.click(r#"[data-testid="server-item"][data-server-id="dies"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-id="dies"][data-status="ready"]"#)
        .await;
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-id="dies"][data-status="failed"]"#)
        .await;
    let error = h.text(r#"[data-testid="connection-error"]"#).await;
    assert!(error.contains("exited with status 3"), "{error}");
    assert!(error.contains("out of cheese"), "{error}");
    h.shot("server-died").await;

    // The flooded server is still there and still answers.
    h.click(r#"[data-testid="server-item"][data-server-id="flood"][data-status="ready"]"#)
        .await;
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="tool-item"][data-tool-name="noop"]"#)
        .await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_app_reaches_the_demo_server_over_http_and_shows_the_exchanges() {
    let _turn = ONE_AT_A_TIME.lock().await;
    // The demo server over Streamable HTTP on a free port; it prints its URL first.
    let demo = periscope_tests::HttpServerProcess::start(
        std::process::Command::new(periscope_tests::bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0"])
            .stderr(std::process::Stdio::null()),
    );
    let url = demo.url.clone();
    let seeded = url.clone();
    let mut h = Harness::start_with("remote-demo", move |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [
            {"id": "remote", "name": "Remote demo", "target": {"transport": "http", "url": seeded, "headers": [["X-Api-Key", "not-for-screens"]], "mode": "auto"}},
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;

    h.click(r#"[data-testid="server-item"][data-server-id="remote"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-id="remote"][data-status="ready"]"#)
        .await;
    h.pick_tool("add").await;
    h.type_into(r#"input[id$="add_a"]"#, "20").await;
    h.type_into(r#"input[id$="add_b"]"#, "22").await;
    h.call_tool_button().await;
    let result = h
        .find(r#"[data-testid="tool-result"][data-is-error="false"]"#)
        .await;
    assert!(result.text().await.unwrap().contains("42"));

    h.click(r#"[data-testid="tab-network"]"#).await;
    h.find(r#"[data-testid="network-row"][data-method="POST"][data-status="200"]"#)
        .await;
    let rows = h
        .count(r#"[data-testid="network-row"][data-method="POST"]"#)
        .await;
    assert!(
        rows >= 3,
        "initialize, initialized and the call went as POSTs ({rows})"
    );
    h.click(r#"[data-testid="network-row"][data-method="POST"]"#)
        .await;
    let detail = h.text(r#"[data-testid="exchange-detail"]"#).await;
    assert!(detail.contains(&url), "{detail}");
    assert!(
        detail.contains("[redacted]"),
        "the API key header is redacted: {detail}"
    );
    assert!(
        !detail.contains("not-for-screens"),
        "a secret reached the screen"
    );
    h.shot("network").await;

    // Traffic → Export → HAR: the exchanges, the call's body as sent, the key still redacted.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.click(r#"[data-testid="traffic-export"] summary"#).await;
    h.shot("export-menu").await;
    h.click(r#"[data-testid="traffic-export-har"]"#).await;
    let saved = h.data.join("saved-files");
    let deadline = Instant::now() + WAIT;
    let har = loop {
        let file = std::fs::read_dir(&saved)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "har"));
        // The file is there before all of it is written (`fs::write`): wait for a whole one.
        if let Some(text) = file.and_then(|f| std::fs::read_to_string(f).ok())
            && serde_json::from_str::<serde_json::Value>(&text).is_ok()
        {
            break text;
        }
        assert!(Instant::now() < deadline, "no HAR was saved in {saved:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(!har.contains("not-for-screens"), "a secret reached the HAR");
    let har: serde_json::Value = serde_json::from_str(&har).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    assert!(entries.len() >= rows, "{} entries", entries.len());
    assert!(
        entries.iter().any(|e| e["request"]["postData"]["text"]
            .as_str()
            .is_some_and(|t| t.contains(r#""method":"tools/call""#))),
        "the call's request body is in the HAR"
    );
    h.stop().await;
    drop(demo);
}
