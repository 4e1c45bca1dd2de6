//! End-to-end: recordings on the real app. A session with the demo server is saved (Save
//! session…, written into PERISCOPE_SAVE_DIR), the app restarted on the same data folder, the
//! file reopened with File → Open (the PERISCOPE_OPEN_FILE seam): it is listed read-only, its
//! Overview, recorded Tools and Traffic work offline, and a Traffic search finds the call. Then,
//! with the demo connected: the recorded call edited and re-sent (the answer shown, the frames
//! in the demo's Traffic); the demo's tool list changed and Compare… showing the added tool;
//! the recording replayed against the demo, its tools/list differing.
//! Screenshots under test-artifacts/e2e/recordings/.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

/// The one record file a save wrote into `dir`, once it is there.
async fn saved_record(dir: &Path) -> PathBuf {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let found: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        if let [one] = found.as_slice() {
            return one.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no record file saved in {}: {found:?}",
            dir.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_saved_session_reopens_after_a_restart_read_only_and_searchable() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("recordings").await;
    h.ready_demo().await;
    h.call_tool("echo").await;
    h.find(r#"[data-testid="tool-result"]"#).await;

    // Save session…: the whole record as a record file.
    h.click(r#"[data-testid="save-session-button"]"#).await;
    let saved = saved_record(&h.data.join("saved-files")).await;
    let text = std::fs::read_to_string(&saved).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["type"], "session");
    assert_eq!(first["format_version"], "1.2");
    assert!(
        text.contains(r#"\"method\":\"tools/call\""#),
        "the call is in the file"
    );
    h.shot("session-saved").await;

    // The app restarts; File → Open reads the seam's file.
    std::fs::copy(&saved, h.data.join("open-file.jsonl")).unwrap();
    let mut h = h.restart().await;
    h.click(r#"[data-testid="open-recording-button"]"#).await;
    let item = r#"[data-testid="recording-item"][data-recording-name="open-file.jsonl"]"#;
    h.find(item).await;
    h.find(r#"[data-testid="recording-read-only"]"#).await;
    // The demo spoke the modern era: its name is in the discover answer's _meta, the version
    // in each request's.
    h.text_containing(
        r#"[data-testid="recording-server-name"]"#,
        "periscope-demo-server",
    )
    .await;
    h.text_containing(r#"[data-testid="recording-protocol"]"#, "2026-07-28")
        .await;
    h.text_containing(r#"[data-testid="recording-era"]"#, "Modern")
        .await;
    let counts = h.text(r#"[data-testid="recording-counts"]"#).await;
    assert!(counts.contains("frames"), "{counts}");
    assert_eq!(
        h.text(r#"[data-testid="recording-format"]"#).await.get(..3),
        Some("1.2")
    );
    h.shot("recording-overview").await;

    // Tools: the list the session fetched, with no Call button.
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="recorded-item"][data-name="echo"]"#)
        .await;
    h.find(r#"[data-testid="recorded-read-only-note"]"#).await;
    assert_eq!(h.count(r#"[data-testid="call-tool-button"]"#).await, 0);
    // The tab bar keeps its own height above a short panel (it once grew down the page,
    // pushing the list out of the window).
    let bar = h
        .client
        .execute(
            "return document.querySelector('[role=tablist]').getBoundingClientRect().height;",
            vec![],
        )
        .await
        .expect("the page answers");
    let height = bar.as_f64().unwrap_or(f64::MAX);
    assert!(height < 60.0, "the tab bar is {height} px tall");
    h.shot("recording-tools").await;

    // Traffic: the recorded frames, searchable offline.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/list"]"#)
        .await;
    // The method filter keeps the call; full-text search finds words inside bodies (the
    // demo's `break_next_stream` description says "a tools/call may not", so the text
    // "tools/call" rightly finds the tools/list answer too: search a phrase only it holds).
    h.type_into(r#"[data-testid="traffic-method"]"#, "tools/call")
        .await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/call"]"#)
        .await;
    h.count_is(
        r#"[data-testid="traffic-row"][data-method="tools/list"]"#,
        0,
    )
    .await;
    h.clear(r#"[data-testid="traffic-method"]"#).await;
    h.type_into(r#"[data-testid="traffic-filter"]"#, "Echoes the message")
        .await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/list"]"#)
        .await;
    h.count_is(
        r#"[data-testid="traffic-row"][data-method="tools/call"]"#,
        0,
    )
    .await;
    h.clear(r#"[data-testid="traffic-filter"]"#).await;
    h.type_into(r#"[data-testid="traffic-method"]"#, "tools/call")
        .await;
    h.shot("recording-traffic-search").await;

    // Edit and re-send the recorded call to the live demo: the editor shows the exact bytes
    // (a fresh id) and the server; nothing goes before Send; the answer shows.
    h.connect_demo().await;
    h.find(r#"[data-testid="server-item"][data-server-id="demo"][data-status="ready"]"#)
        .await;
    h.click(item).await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.click(r#"[data-testid="traffic-row"][data-method="tools/call"][data-kind="request"]"#)
        .await;
    h.click(r#"[data-testid="resend-button"]"#).await;
    let editor = h.find(r#"[data-testid="resend-editor"]"#).await;
    let bytes = editor.prop("value").await.unwrap().unwrap_or_default();
    assert!(bytes.contains(r#""id":"resend-1""#), "a fresh id: {bytes}");
    assert!(bytes.contains("tools/call"), "{bytes}");
    h.text_containing(r#"[data-testid="resend-consent"]"#, "Demo server")
        .await;
    assert_eq!(h.count(r#"[data-testid="resend-response"]"#).await, 0);
    // Edited: the recorded call had no message.
    let edited = bytes.replace(r#""arguments":{}"#, r#""arguments":{"message":"again"}"#);
    assert_ne!(edited, bytes, "the recorded call's arguments: {bytes}");
    // Control+A, release, Backspace; then the edited text, as a user types it.
    editor.send_keys("\u{E009}a\u{E000}\u{E003}").await.unwrap();
    editor.send_keys(&edited).await.unwrap();
    let typed = editor.prop("value").await.unwrap().unwrap_or_default();
    assert_eq!(typed, edited);
    h.click(r#"[data-testid="resend-send"]"#).await;
    h.text_containing(r#"[data-testid="resend-response"]"#, "echo: again")
        .await;
    h.shot("resend-answer").await;
    h.click(r#"[data-testid="resend-dialog"] .modal-footer .button:not(.button-primary)"#)
        .await;

    // The answer landed in the demo's Traffic like any frame.
    h.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/call"][data-kind="response"]"#)
        .await;

    // The demo's tool list changes: Compare… (first against last listing) shows the added tool.
    h.call_tool("trigger_list_changed").await;
    h.find(r#"[data-testid="tool-item"][data-tool-name="bonus"]"#)
        .await;
    h.click(r#"[data-testid="compare-button"]"#).await;
    h.click(r#"[data-testid="compare-run"]"#).await;
    h.find(r#"[data-testid="diff-list-tools"] [data-testid="diff-added"][data-name="bonus"]"#)
        .await;
    h.shot("diff-added-tool").await;
    h.click(r#"[data-testid="compare-dialog"] .modal-footer .button:not(.button-primary)"#)
        .await;

    // Replay against…: the recording's client requests sent to the live demo, whose tool list
    // has a bonus tool now: the recorded tools/list differs, each change shown.
    h.click(item).await;
    h.click(r#"[data-testid="replay-button"]"#).await;
    h.click(r#"[data-testid="replay-run"]"#).await;
    h.find(r#"[data-testid="replay-step"][data-method="tools/list"][data-outcome="differs"] [data-testid="change"]"#)
        .await;
    h.find(r#"[data-testid="replay-skipped"]"#).await;
    h.shot("replay-report").await;
    h.click(r#"[data-testid="replay-dialog"] .modal-footer .button:not(.button-primary)"#)
        .await;

    // Closing it takes it out of the sidebar.
    h.click(r#"[data-testid="close-recording"]"#).await;
    h.gone(item).await;
    h.stop().await;
}
