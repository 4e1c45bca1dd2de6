//! End-to-end: saved calls and history survive a restart of the real app; the Overview's
//! server utilities (ping with its latency, the log level `emit_logs` then respects) and the
//! list_changed notice. Screenshots under test-artifacts/e2e/saved/.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

/// Selects all of an input's text, deletes it and types `text`, as a user does (WebDriver's
/// clear() changes the DOM value behind React's back).
async fn replace_text(h: &Harness, css: &str, text: &str) {
    let input = h.find(css).await;
    // Control+A, release, Backspace.
    input
        .send_keys("\u{E009}a\u{E000}\u{E003}")
        .await
        .expect("clearing");
    if !text.is_empty() {
        input.send_keys(text).await.expect("typing");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn saved_calls_and_history_survive_a_restart_and_the_overview_pings_and_sets_the_log_level() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("saved").await;
    h.ready_demo().await;
    // Ping and logging/setLevel are the legacy era's (2026-07-28 removed them).
    h.connect_legacy_demo().await;

    // Overview: ping shows a round trip; the log level goes to warning.
    h.click(r#"[data-testid="ping-button"]"#).await;
    let latency = h
        .text_containing(r#"[data-testid="ping-latency"]"#, "ms")
        .await;
    assert!(latency.contains("round trip"), "{latency}");
    h.find(r#"[data-testid="log-level-select"]"#)
        .await
        .select_by_value("warning")
        .await
        .unwrap();
    h.text_containing(r#"[data-testid="log-level-set"]"#, "warning and above")
        .await;
    h.shot("overview-ping-and-log-level").await;

    // emit_logs sends one message per level the server still sends: warning and above.
    h.call_tool("emit_logs").await;
    h.result_saying("sent 5 log messages").await;
    h.click(r#"[data-testid="tab-console"]"#).await;
    h.count_is(r#"[data-testid="console-line"][data-kind="log"]"#, 5)
        .await;
    for quiet in ["debug", "info", "notice"] {
        assert_eq!(
            h.count(&format!(
                r#"[data-testid="console-line"][data-kind="log"][data-level="{quiet}"]"#
            ))
            .await,
            0,
            "no {quiet} message after setLevel(warning)"
        );
    }
    h.shot("console-warning-and-above").await;

    // list_changed: the refresh is announced.
    h.call_tool("trigger_list_changed").await;
    let notice = h
        .text_containing(
            r#"[data-testid="list-changed-notice"][data-kind="tools"]"#,
            "Tools list changed at",
        )
        .await;
    assert!(notice.contains("refreshed"), "{notice}");
    h.shot("list-changed-notice").await;

    // Call add; it shows in the history, searchable.
    h.click(r#"[data-testid="tool-item"][data-tool-name="add"]"#)
        .await;
    h.type_into(r#"input[id$="add_a"]"#, "40").await;
    h.type_into(r#"input[id$="add_b"]"#, "2").await;
    h.call_tool_button().await;
    h.result_saying("42").await;
    // "Save call" beside Call: saved under the tool's name.
    h.click(r#"[data-testid="save-call-button"]"#).await;
    let name = h.find(r#"[data-testid="save-call-name"]"#).await;
    assert_eq!(name.prop("value").await.unwrap().as_deref(), Some("add"));
    h.shot("save-call-dialog").await;
    h.click(r#"[data-testid="save-call-confirm"]"#).await;
    h.count_is(r#"[data-testid="save-call-dialog"]"#, 0).await;

    h.click(r#"[data-testid="tab-saved"]"#).await;
    let add_entry = r#"[data-testid="history-row"][data-target="add"][data-outcome="ok"]"#;
    h.find(add_entry).await;
    h.find(r#"[data-testid="history-row"][data-target="emit_logs"]"#)
        .await;
    h.type_into(r#"[data-testid="history-filter"]"#, "\"sum\":42")
        .await;
    h.count_is(r#"[data-testid="history-row"]"#, 1).await;
    h.find(add_entry).await;
    h.shot("history-filtered").await;
    replace_text(&h, r#"[data-testid="history-filter"]"#, "no such call").await;
    h.count_is(r#"[data-testid="history-row"]"#, 0).await;
    replace_text(&h, r#"[data-testid="history-filter"]"#, "").await;
    h.count_is(r#"[data-testid="history-row"]"#, 3).await;

    // Save the history entry under a name.
    h.click(&format!(r#"{add_entry} [data-testid="history-save"]"#))
        .await;
    replace_text(&h, r#"[data-testid="save-call-name"]"#, "forty two").await;
    h.click(r#"[data-testid="save-call-confirm"]"#).await;
    h.find(r#"[data-testid="saved-row"][data-name="forty two"]"#)
        .await;
    h.find(r#"[data-testid="saved-row"][data-name="add"]"#)
        .await;
    h.shot("saved-and-history").await;

    // Restart on the same data folder: both lists are still there.
    let mut h = h.restart().await;
    h.connect_legacy_demo().await;
    h.click(r#"[data-testid="tab-saved"]"#).await;
    let forty_two = r#"[data-testid="saved-row"][data-name="forty two"]"#;
    h.find(forty_two).await;
    h.find(add_entry).await;
    h.shot("after-restart").await;

    // Re-run the saved call: its result shows inline.
    h.click(&format!(r#"{forty_two} [data-testid="saved-rerun"]"#))
        .await;
    let result = h
        .text_containing(
            &format!(r#"{forty_two} [data-testid="saved-run-result"] [data-testid="tool-result"]"#),
            "42",
        )
        .await;
    assert!(!result.contains("failed"), "{result}");
    h.shot("saved-rerun").await;

    // Edit the other one's arguments, re-run it; duplicate it, delete the copy.
    let add_row = r#"[data-testid="saved-row"][data-name="add"]"#;
    h.click(&format!(r#"{add_row} [data-testid="saved-edit"]"#))
        .await;
    replace_text(
        &h,
        r#"[data-testid="saved-edit-args"]"#,
        r#"{"a": 100, "b": 23}"#,
    )
    .await;
    h.shot("saved-edit").await;
    h.click(r#"[data-testid="saved-edit-save"]"#).await;
    h.count_is(r#"[data-testid="saved-edit-form"]"#, 0).await;
    h.click(&format!(r#"{add_row} [data-testid="saved-rerun"]"#))
        .await;
    h.text_containing(
        &format!(r#"{add_row} [data-testid="saved-run-result"]"#),
        "123",
    )
    .await;
    h.click(&format!(r#"{add_row} [data-testid="saved-duplicate"]"#))
        .await;
    let copy = r#"[data-testid="saved-row"][data-name="add (copy)"]"#;
    h.find(copy).await;
    h.click(&format!(r#"{copy} [data-testid="saved-delete"]"#))
        .await;
    h.count_is(copy, 0).await;
    // The re-runs are in the history too (newest first).
    let newest = h
        .find(r#"[data-testid="history-row"] .saved-args-line"#)
        .await
        .prop("textContent")
        .await
        .unwrap();
    assert_eq!(newest.as_deref(), Some(r#"{"a":100,"b":23}"#));
    h.shot("saved-final").await;

    // The files the CLI reads.
    let saved = std::fs::read_to_string(h.data.join("data/dev.periscope.app/saved.json")).unwrap();
    assert!(saved.contains("forty two"), "{saved}");
    h.stop().await;
}
