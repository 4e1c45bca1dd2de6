//! End-to-end protocol checks (docs/protocol-checks.md): the real app connected to a server
//! whose tool list breaks the revision's schema shows the violation on its frame with its JSON
//! path and rule, counts it for the server (Traffic filter bar, Overview), and filters by it.
//!
//! Needs what tests/tests/e2e_app.rs needs (the app built with its UI, Xvfb, tauri-driver).

use periscope_tests::app::{Harness, ONE_AT_A_TIME};
use periscope_tests::bin_str;

const OFF_SPEC: &str = r#"[data-testid="server-item"][data-server-id="off-spec"]"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_list_off_the_schema_is_shown_with_its_path_counted_and_filtered() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start_with("protocol-checks", |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [{"id": "off-spec", "name": "Off spec",
            // A legacy fixture: no server/discover probe to wait out.
            "era": "legacy",
            "target": {"transport": "stdio", "command": bin_str("misbehaving-server"),
                "args": ["off-spec"], "env": [], "cwd": null}}]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;
    h.click(OFF_SPEC).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(&format!(r#"{OFF_SPEC}[data-status="ready"]"#)).await;

    // Opening Tools lists them; the answer's two tools break the schema.
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.text_containing(
        r#"[data-testid="traffic-violations"]"#,
        "1 frame off the schema",
    )
    .await;
    // The rows come in a window fetched after the count: wait for them, not just the count.
    let deadline = std::time::Instant::now() + periscope_tests::app::WAIT;
    let all = loop {
        let rows = h.count(r#"[data-testid="traffic-row"]"#).await;
        if rows >= 5 {
            break rows;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the handshake and the listing: {rows} rows"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };

    // The status filter keeps only that frame: the response to tools/list.
    h.click(r#"[data-testid="traffic-status"] option[value="schema_violation"]"#)
        .await;
    h.count_is(r#"[data-testid="traffic-row"]"#, 1).await;
    h.attr_is(
        r#"[data-testid="traffic-row"]"#,
        "data-method",
        "tools/list",
    )
    .await;
    h.attr_is(r#"[data-testid="traffic-row"]"#, "data-kind", "response")
        .await;

    // Its detail lists each violation with its path and rule.
    h.click(r#"[data-testid="traffic-row"]"#).await;
    h.text_containing(
        r#"[data-testid="frame-flags"]"#,
        "Breaks the 2025-11-25 schema in 2 places",
    )
    .await;
    h.count_is(r#"[data-testid="schema-violation"]"#, 2).await;
    let first = h
        .text_containing(
            r#"[data-testid="schema-violation"]:nth-child(1)"#,
            "/result/tools/0",
        )
        .await;
    assert!(first.contains("\"name\" is a required property"), "{first}");
    assert!(first.contains("rule: required"), "{first}");
    h.text_containing(
        r#"[data-testid="schema-violation"]:nth-child(2)"#,
        "/result/tools/1/inputSchema/type",
    )
    .await;
    h.shot("schema-violation-filtered").await;

    // Back to every frame: the others carry no violation.
    h.click(r#"[data-testid="traffic-status"] option[value="all"]"#)
        .await;
    h.count_is(r#"[data-testid="traffic-row"]"#, all).await;

    // The Overview counts it for the server too.
    h.click(r#"[data-testid="tab-overview"]"#).await;
    h.text_containing(
        r#"[data-testid="overview-checks"]"#,
        "1 frame off the schema",
    )
    .await;
    h.shot("schema-violation-overview").await;
    h.stop().await;
}
