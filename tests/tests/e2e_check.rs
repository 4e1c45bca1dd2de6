//! End-to-end: the Check view in the real app. The demo server is checked with tool calls off
//! (the default; turning them on lists the read-only tools first) and passes every rule asked;
//! a second run says nothing changed; a third, calling tools, is cancelled and changes
//! nothing. The demo behind `faulty-server jsonrpc.unknown-method` fails that rule: the run says it is new since the demo's run (its kept report copied to the
//! faulty server's place), a failure opens to its fix and its frames, and a frame opens in
//! Traffic in the check's record. The report exports as Markdown, JUnit and SARIF, and the
//! last run is still there after a restart. Screenshots under test-artifacts/e2e/check/.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

const DEMO_READY: &str =
    r#"[data-testid="server-item"][data-server-id="demo"][data-status="ready"]"#;
const RUN: &str = r#"[data-testid="check-run"]:not([disabled])"#;
const UNKNOWN_METHOD: &str =
    r#"[data-testid^="check-result-jsonrpc.unknown-method"][data-verdict="fail"]"#;

/// Runs a check and waits for its summary (the Run button is enabled again once it ended).
async fn run_check(h: &Harness) {
    h.click(RUN).await;
    h.find(r#"[data-testid="check-live"]"#).await;
    h.find(RUN).await;
    h.find(r#"[data-testid="check-summary"]"#).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_check_view_runs_compares_opens_frames_and_exports() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let demo = periscope_tests::bin_str("periscope-demo-server");
    let faulty = periscope_tests::bin_str("faulty-server");
    let mut h = Harness::start_with("check", move |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [
            {"id": "demo", "name": "Demo", "era": "auto",
             "target": {"transport": "stdio", "command": demo, "args": []}},
            {"id": "faulty", "name": "Faulty demo", "era": "auto",
             "target": {"transport": "stdio", "command": faulty,
                        "args": ["jsonrpc.unknown-method", "--", demo]}},
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;
    let checks = h.data.join("data/dev.periscope.app/checks");

    // The demo, connected so its tools are known.
    h.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(DEMO_READY).await;
    h.click(r#"[data-testid="tab-check"]"#).await;
    h.find(r#"[data-testid="check-empty"]"#).await;
    // Calling tools is off; on, the read-only tools are listed as the ones to be called, and
    // the others can be ticked.
    let calls = h.find(r#"[data-testid="check-call-tools"]"#).await;
    assert_eq!(
        calls.prop("checked").await.unwrap().as_deref(),
        Some("false")
    );
    assert_eq!(h.count(r#"[data-testid="check-tools"]"#).await, 0);
    h.click(r#"[data-testid="check-call-tools"]"#).await;
    h.find(r#"[data-testid="check-read-only-tools"] code"#)
        .await;
    h.find(r#"[data-testid^="check-call-"][type="checkbox"]:not([data-testid="check-call-tools"]):not([data-testid="check-call-all"])"#)
        .await;
    h.shot("options-calling").await;
    h.click(r#"[data-testid="check-call-tools"]"#).await;
    h.gone(r#"[data-testid="check-tools"]"#).await;

    run_check(&h).await;
    h.find(r#"[data-testid="check-all-passed"]"#).await;
    assert_eq!(h.text(r#"[data-testid="check-count-fail"] b"#).await, "0");
    // The same verdicts as the CLI's check of the same server with the same options.
    let cli = std::process::Command::new(periscope_tests::bin("periscope"))
        .args(["--format", "json", "check", "--no-calls", "--"])
        .arg(periscope_tests::bin("periscope-demo-server"))
        .output()
        .unwrap();
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    for verdict in ["pass", "fail", "warning", "skipped"] {
        assert_eq!(
            h.text(&format!(r#"[data-testid="check-count-{verdict}"] b"#))
                .await,
            cli["counts"][verdict].to_string(),
            "{verdict}"
        );
    }
    h.text_containing(r#"[data-testid="check-changes"]"#, "First check")
        .await;
    // Failures only by default; every verdict with "Show passed and skipped".
    assert_eq!(h.count(r#"[data-testid^="check-result-"]"#).await, 0);
    h.click(r#"[data-testid="check-show-all"]"#).await;
    h.find(r#"[data-testid="check-area-lifecycle"] [data-verdict="pass"]"#)
        .await;
    h.find(r#"[data-testid="check-area-http"] [data-verdict="skipped"]"#)
        .await;
    h.shot("demo-passed").await;
    assert!(checks.join("demo.json").is_file());
    assert!(checks.join("demo.jsonl").is_file(), "the record is kept");

    run_check(&h).await;
    h.text_containing(r#"[data-testid="check-changes"]"#, "No change since")
        .await;

    // Cancelled while a slow tool runs (calling on: slow_task takes 2.5 s): the run stops,
    // the last run stays, and nothing is said to have failed.
    h.click(r#"[data-testid="check-call-tools"]"#).await;
    h.click(RUN).await;
    h.find(r#"[data-testid="check-will-call"]"#).await;
    h.click(r#"[data-testid="check-cancel"]"#).await;
    h.find(RUN).await;
    h.gone(r#"[data-testid="check-live"]"#).await;
    h.text_containing("body", "The check was cancelled").await;
    assert_eq!(h.count(r#"[data-testid="check-error"]"#).await, 0);
    h.text_containing(r#"[data-testid="check-changes"]"#, "No change since")
        .await;
    h.click(r#"[data-testid="check-call-tools"]"#).await;

    // The faulty demo, not connected: the check starts its own sessions. Its last run is the
    // demo's (copied), so the failure is new.
    std::fs::copy(checks.join("demo.json"), checks.join("faulty.json")).unwrap();
    h.click(r#"[data-testid="server-item"][data-server-id="faulty"]"#)
        .await;
    h.click(r#"[data-testid="tab-check"]"#).await;
    // The stdio area left out: none of its rules is asked.
    h.click(r#"[data-testid="check-area-pick-stdio"]"#).await;
    run_check(&h).await;
    h.find(UNKNOWN_METHOD).await;
    h.find(r#"[data-testid="check-area-lifecycle"]"#).await;
    assert_eq!(h.count(r#"[data-testid="check-area-stdio"]"#).await, 0);
    let fails: u32 = h
        .text(r#"[data-testid="check-count-fail"] b"#)
        .await
        .parse()
        .unwrap();
    assert!(fails >= 1);
    h.text_containing(r#"[data-testid="check-changes"]"#, "new failure")
        .await;
    h.find(&format!(r#"{UNKNOWN_METHOD} [data-testid="check-new"]"#))
        .await;
    h.click(&format!("{UNKNOWN_METHOD} .check-result-head"))
        .await;
    h.text_containing(
        &format!(r#"{UNKNOWN_METHOD} [data-testid="check-fix"]"#),
        "-32601",
    )
    .await;
    h.shot("faulty-failure").await;

    // Export, in each format.
    for (format, ext, says) in [
        ("markdown", "md", "jsonrpc.unknown-method"),
        ("junit", "junit.xml", "<testsuites"),
        ("sarif", "sarif", "\"jsonrpc.unknown-method\""),
    ] {
        h.click(&format!(r#"[data-testid="check-export-{format}"]"#))
            .await;
        let path = h.data.join(format!("saved-files/Faulty_demo-check.{ext}"));
        let deadline = std::time::Instant::now() + periscope_tests::app::WAIT;
        while !path.is_file() {
            assert!(std::time::Instant::now() < deadline, "{path:?} written");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(says), "{format}: {text}");
    }

    // A frame of the failure opens in Traffic, in the check's record.
    let frame = h
        .find(&format!(
            r#"{UNKNOWN_METHOD} [data-testid^="check-frame-"]"#
        ))
        .await;
    let seq = frame
        .attr("data-testid")
        .await
        .unwrap()
        .unwrap()
        .trim_start_matches("check-frame-")
        .to_string();
    frame.click().await.unwrap();
    h.find(&format!(
        r#"[data-testid="traffic-row"][data-seq="{seq}"][aria-selected="true"]"#
    ))
    .await;
    h.text_containing(
        r#"[data-testid="frame-detail"] .frame-detail-title"#,
        &format!("#{seq}"),
    )
    .await;
    h.text_containing(
        r#"[data-testid="frame-detail"]"#,
        "periscope/no-such-method",
    )
    .await;
    h.shot("frame-opened").await;

    // The last run of each server is kept.
    let mut h = h.restart().await;
    h.click(r#"[data-testid="server-item"][data-server-id="faulty"]"#)
        .await;
    h.click(r#"[data-testid="tab-check"]"#).await;
    h.find(UNKNOWN_METHOD).await;
    h.text_containing(r#"[data-testid="check-changes"]"#, "new failure")
        .await;
    h.shot("kept-after-restart").await;
    h.stop().await;
}
