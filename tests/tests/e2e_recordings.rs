//! End-to-end: recordings on the real app. A session with the demo server is saved (Save
//! session…, written into PERISCOPE_SAVE_DIR), the app restarted on the same data folder, the
//! file reopened with File → Open (the PERISCOPE_OPEN_FILE seam): it is listed read-only, its
//! Overview, recorded Tools and Traffic work offline, and a Traffic search finds the call.
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
    assert_eq!(first["format_version"], "1.1");
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
    let counts = h.text(r#"[data-testid="recording-counts"]"#).await;
    assert!(counts.contains("frames"), "{counts}");
    assert_eq!(
        h.text(r#"[data-testid="recording-format"]"#).await.get(..3),
        Some("1.1")
    );
    h.shot("recording-overview").await;

    // Tools: the list the session fetched, with no Call button.
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="recorded-item"][data-name="echo"]"#)
        .await;
    h.find(r#"[data-testid="recorded-read-only-note"]"#).await;
    assert_eq!(h.count(r#"[data-testid="call-tool-button"]"#).await, 0);
    h.shot("recording-tools").await;

    // Traffic: the recorded frames, searchable offline.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/list"]"#)
        .await;
    h.type_into(r#"[data-testid="traffic-filter"]"#, "tools/call")
        .await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/call"]"#)
        .await;
    h.count_is(
        r#"[data-testid="traffic-row"][data-method="tools/list"]"#,
        0,
    )
    .await;
    h.shot("recording-traffic-search").await;

    // Closing it takes it out of the sidebar.
    h.click(r#"[data-testid="close-recording"]"#).await;
    h.gone(item).await;
    h.stop().await;
}
