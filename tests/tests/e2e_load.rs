//! End-to-end: the Load view in the real app. Against the demo server: a short concurrency
//! ramp of `echo` is prepared, its summary confirmed, its figures arrive live, and it ends with
//! every step held; a run not confirmed sends nothing; a long run is stopped; two kept runs
//! compare; the run's requests open in Traffic and on the Timeline. Against `chaos-server
//! overload 4 20` (it refuses calls past four at once): a ramp finds the breaking point at 5 in
//! flight, the last level that held 4 — as `periscope load` finds it (tests/cli_load.rs). The
//! destructive `wipe` is named before anything is sent. Screenshots under
//! test-artifacts/e2e/load/.

use periscope_tests::app::{DEMO_READY, Harness, ONE_AT_A_TIME};

const PREPARE: &str = r#"[data-testid="load-prepare"]:not([disabled])"#;
const OVERLOAD_READY: &str =
    r#"[data-testid="server-item"][data-server-id="overload"][data-status="ready"]"#;

/// Sets a number field of the form.
async fn set(h: &Harness, field: &str, value: &str) {
    let css = format!(r#"[data-testid="load-{field}"]"#);
    h.clear(&css).await;
    h.type_into(&css, value).await;
}

/// The demo's `echo` of "hi", as what to send.
async fn echo_hi(h: &Harness) {
    h.click(r#"[data-testid="load-tool"] option[value="echo"]"#)
        .await;
    h.clear(r#"[data-testid="load-args"]"#).await;
    h.type_into(r#"[data-testid="load-args"]"#, r#"{"message":"hi"}"#)
        .await;
}

/// A concurrency ramp of `steps` steps of `seconds` each, from 1 up by 1.
async fn ramp(h: &Harness, steps: &str, seconds: &str) {
    h.click(r#"[data-testid="load-end-ramp"]"#).await;
    h.find(r#"[data-testid="load-ramp"]"#).await;
    set(h, "rampSteps", steps).await;
    set(h, "stepS", seconds).await;
}

/// Prepares the run and waits for its summary.
async fn prepare(h: &Harness) {
    h.click(PREPARE).await;
    h.find(r#"[data-testid="load-confirm-dialog"] [data-testid="load-summary"]"#)
        .await;
}

/// Confirms the summary and waits for the run's report.
async fn send_and_wait(h: &Harness) {
    h.click(r#"[data-testid="load-confirm"]"#).await;
    h.gone(r#"[data-testid="load-confirm-dialog"]"#).await;
    h.find(PREPARE).await;
    h.find(r#"[data-testid="load-report"]"#).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_load_view_ramps_stops_compares_opens_requests_and_finds_a_breaking_point() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let demo = periscope_tests::bin_str("periscope-demo-server");
    let chaos = periscope_tests::bin_str("chaos-server");
    let remote = periscope_tests::demo_http();
    let url = remote.url.clone();
    let mut h = Harness::start_with("load", move |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [
            {"id": "demo", "name": "Demo", "era": "auto",
             "target": {"transport": "stdio", "command": demo, "args": []}},
            {"id": "remote", "name": "Remote demo", "era": "auto",
             "target": {"transport": "http", "url": url, "headers": [], "mode": "auto"}},
            {"id": "overload", "name": "Overload", "era": "legacy",
             "target": {"transport": "stdio", "command": chaos,
                        "args": ["overload", "4", "20"]}},
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;
    let loads = h.data.join("data/dev.periscope.app/loads/demo");

    // The demo, connected so its tools are known.
    h.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(DEMO_READY).await;
    h.click(r#"[data-testid="tab-load"]"#).await;
    h.find(r#"[data-testid="load-empty"]"#).await;
    // Nothing to send yet: the form says what is missing.
    h.click(PREPARE).await;
    h.text_containing(r#"[data-testid="load-error"]"#, "Pick a tool")
        .await;
    echo_hi(&h).await;
    ramp(&h, "3", "0.5").await;
    set(&h, "sessions", "2").await;

    // Prepared, not confirmed: the summary says what and how, then Cancel sends nothing.
    prepare(&h).await;
    let summary = h.text(r#"[data-testid="load-summary"]"#).await;
    assert!(
        summary.contains(r#"tools/call echo {"message":"hi"}"#)
            && summary.contains("2 sessions × 1 in flight each")
            && summary
                .contains("a ramp of requests in flight: 1, then +1 a step, 3 steps of 0.5 s")
            && summary.contains("2 server processes"),
        "{summary}"
    );
    h.shot("confirm").await;
    h.click(r#"[data-testid="load-discard"]"#).await;
    h.gone(r#"[data-testid="load-confirm-dialog"]"#).await;
    h.find(r#"[data-testid="load-empty"]"#).await;
    assert_eq!(
        std::fs::read_dir(&loads).map_or(0, |d| d.count()),
        0,
        "a run not confirmed leaves nothing"
    );

    // The ramp: figures live, then every step held.
    prepare(&h).await;
    h.click(r#"[data-testid="load-confirm"]"#).await;
    h.find(r#"[data-testid="load-live"]"#).await;
    h.find(r#"[data-testid="load-live-step"]"#).await;
    h.shot("live").await;
    h.find(PREPARE).await;
    h.attr_is(
        r#"[data-testid="load-report"]"#,
        "data-stopped",
        "ramp_done",
    )
    .await;
    h.find(r#"[data-testid="load-ramp-held"]"#).await;
    h.count_is(r#"[data-testid="load-step"][data-crossed="false"]"#, 3)
        .await;
    assert!(h.count(r#"[data-testid="load-second"]"#).await >= 1);
    let done: u64 = h
        .text(r#"[data-testid="load-op"][data-label="All requests"] [data-testid="load-op-completed"]"#)
        .await
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(done > 0);
    h.text_containing(
        r#"[data-testid="load-sample"]"#,
        "Session 1 of 2 is recorded",
    )
    .await;
    h.scroll_to(r#"[data-testid="load-report"]"#).await;
    h.shot("ramp-held").await;

    // A long run, stopped: what was measured until then is its report.
    h.click(r#"[data-testid="load-end-duration"]"#).await;
    set(&h, "durationS", "60").await;
    prepare(&h).await;
    h.click(r#"[data-testid="load-confirm"]"#).await;
    h.find(r#"[data-testid="load-live"]"#).await;
    h.click(r#"[data-testid="load-stop"]"#).await;
    h.attr_is(r#"[data-testid="load-report"]"#, "data-stopped", "stopped")
        .await;
    h.text_containing(r#"[data-testid="load-runs"]"#, "2 runs kept")
        .await;

    // The stopped run against the ramp: every request's figures side by side.
    let older = h
        .find(r#"[data-testid="load-compare-pick"] option:nth-child(2)"#)
        .await;
    older.click().await.unwrap();
    h.find(r#"[data-testid="load-comparison"] [data-testid="load-compare-op"]"#)
        .await;
    h.find(r#"[data-testid="load-change-p99"]"#).await;
    h.scroll_to(r#"[data-testid="load-runs"]"#).await;
    h.shot("compared").await;

    // The run's requests, opened read-only in Traffic and on the Timeline.
    h.click(r#"[data-testid="load-open-traffic"]"#).await;
    h.find(r#"[data-testid="recording-view"]"#).await;
    h.find(r#"[data-testid="traffic-row"]"#).await;
    h.shot("requests-in-traffic").await;
    h.click(r#"[data-testid="close-recording"]"#).await;
    h.gone(r#"[data-testid="recording-view"]"#).await;
    h.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    h.click(r#"[data-testid="tab-load"]"#).await;
    h.click(r#"[data-testid="load-open-timeline"]"#).await;
    h.find(r#"[data-testid="recording-view"] [data-testid="timeline-chart"]"#)
        .await;
    h.shot("requests-on-timeline").await;
    h.click(r#"[data-testid="close-recording"]"#).await;

    // Over Streamable HTTP: sessions are connections, no process starts, and the connections
    // Periscope held are counted.
    h.click(r#"[data-testid="server-item"][data-server-id="remote"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-id="remote"][data-status="ready"]"#)
        .await;
    h.click(r#"[data-testid="tab-load"]"#).await;
    echo_hi(&h).await;
    set(&h, "sessions", "2").await;
    set(&h, "inFlight", "4").await;
    set(&h, "count", "200").await;
    prepare(&h).await;
    h.text_containing(r#"[data-testid="load-summary"]"#, &remote.url)
        .await;
    assert_eq!(
        h.count(r#"[data-testid="load-summary-processes"]"#).await,
        0
    );
    send_and_wait(&h).await;
    h.attr_is(r#"[data-testid="load-report"]"#, "data-stopped", "count")
        .await;
    assert_eq!(
        h.text(r#"[data-testid="load-op"][data-label="All requests"] [data-testid="load-op-completed"]"#)
            .await,
        "200"
    );
    h.text_containing(r#"[data-testid="load-cost"]"#, "connections to the server")
        .await;
    h.shot("http").await;

    // The overload fixture: `wipe` is destructive and said so; a ramp of `work` breaks at 5.
    h.click(r#"[data-testid="server-item"][data-server-id="overload"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(OVERLOAD_READY).await;
    h.click(r#"[data-testid="tab-load"]"#).await;
    h.click(r#"[data-testid="load-tool"] option[value="wipe"]"#)
        .await;
    h.find(r#"[data-testid="load-destructive-note"]"#).await;
    set(&h, "count", "1").await;
    prepare(&h).await;
    h.text_containing(r#"[data-testid="load-summary-destructive"]"#, "wipe")
        .await;
    h.click(r#"[data-testid="load-discard"]"#).await;
    h.gone(r#"[data-testid="load-confirm-dialog"]"#).await;
    h.click(r#"[data-testid="load-tool"] option[value="work"]"#)
        .await;
    ramp(&h, "8", "0.3").await;
    prepare(&h).await;
    send_and_wait(&h).await;
    let broke = h
        .attr_is(r#"[data-testid="load-breaking-point"]"#, "data-level", "5")
        .await;
    let words = broke.text().await.unwrap();
    assert!(
        words.contains("step 5, 5 in flight")
            && words.contains("last level that held: 4 in flight"),
        "{words}"
    );
    h.attr_is(
        r#"[data-testid="load-report"]"#,
        "data-stopped",
        "breaking_point",
    )
    .await;
    h.find(r#"[data-testid="load-failure"][data-kind="rpc"]"#)
        .await;
    h.count_is(r#"[data-testid="load-step"][data-crossed="true"]"#, 1)
        .await;
    h.find(r#"[data-testid="load-band-broke"]"#).await;
    h.scroll_to(r#"[data-testid="load-runs"]"#).await;
    h.shot("breaking-point").await;

    // Exported as JSON, the run is a baseline `periscope load` reads in CI.
    h.click(r#"[data-testid="load-export-json"]"#).await;
    let exported = h.saved_file(".json").await;
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&exported).unwrap()).unwrap();
    assert_eq!(report["breaking_point"]["level"], 5.0);
    let cli = periscope_tests::periscope(&[
        "load",
        "--tool",
        "work",
        "--count",
        "20",
        "--yes",
        "-q",
        "--format",
        "json",
        "--era",
        "legacy",
        "--baseline",
        exported.to_str().unwrap(),
        "--",
        &periscope_tests::bin_str("chaos-server"),
        "overload",
        "4",
        "20",
    ]);
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(
        cli["comparison"]["operations"][0]["name"], "work",
        "compared with the app's run: {cli}"
    );

    // Kept across a restart.
    let mut h = h.restart().await;
    h.click(r#"[data-testid="server-item"][data-server-id="overload"]"#)
        .await;
    h.click(r#"[data-testid="tab-load"]"#).await;
    h.attr_is(r#"[data-testid="load-breaking-point"]"#, "data-level", "5")
        .await;
    h.shot("kept").await;
    h.stop().await;
}
