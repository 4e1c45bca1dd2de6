//! End-to-end: the Timeline tab of the real app against the demo server. Two quick `add`
//! calls and a `slow_task` with progress; the timeline shows a bar per call with its method,
//! the slow call is the longest and carries its progress, the latency plot marks
//! p50/p90/p99, and clicking the slow bar selects its request frame in the Traffic tab. Then
//! across servers: the modern demo (with a multi round-trip call, one bar of three rounds) and
//! the legacy-era demo (with a server→client roots/list) in two lanes.
//! Screenshots under test-artifacts/e2e/timeline/ and timeline-all/.

use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME, WAIT};

/// A bar as the page draws it (read inside the page, so a re-render cannot leave a stale
/// element behind).
#[derive(Debug)]
struct Bar {
    seq: String,
    method: String,
    outcome: String,
    duration: f64,
    progress: u32,
    marks: usize,
}

const BARS: &str = r#"return [...document.querySelectorAll('[data-testid="timeline-bar"]')].map(b => ({
    seq: b.dataset.seq, method: b.dataset.method, outcome: b.dataset.outcome,
    duration: Number(b.dataset.durationUs || 0), progress: Number(b.dataset.progressCount),
    marks: b.querySelectorAll('[data-testid="timeline-progress"]').length }));"#;

async fn bars(h: &Harness) -> Vec<Bar> {
    let value = h
        .client
        .execute(BARS, vec![])
        .await
        .expect("the page answers");
    value
        .as_array()
        .expect("a list of bars")
        .iter()
        .map(|b| Bar {
            seq: b["seq"].as_str().unwrap_or_default().to_string(),
            method: b["method"].as_str().unwrap_or_default().to_string(),
            outcome: b["outcome"].as_str().unwrap_or_default().to_string(),
            duration: b["duration"].as_f64().unwrap_or(0.0),
            progress: b["progress"].as_u64().unwrap_or(0) as u32,
            marks: b["marks"].as_u64().unwrap_or(0) as usize,
        })
        .collect()
}

/// Replaces the text of an input.
async fn set(h: &Harness, css: &str, text: &str) {
    let input = h.find(css).await;
    input.clear().await.expect("clear");
    input.send_keys(text).await.expect("typing");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_timeline_shows_a_slow_call_with_progress_and_opens_its_frame() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("timeline").await;
    h.ready_demo().await;

    // Two quick calls.
    h.pick_tool("add").await;
    for (a, b) in [("2", "40"), ("5", "8")] {
        set(&h, r#"input[id$="add_a"]"#, a).await;
        set(&h, r#"input[id$="add_b"]"#, b).await;
        h.call_tool_button().await;
        h.attr_is(r#"[data-testid="tool-result"]"#, "data-outcome", "ok")
            .await;
    }
    // A slow one with progress: 8 steps of 150 ms.
    h.pick_tool("slow_task").await;
    set(&h, r#"input[id$="slow_task_steps"]"#, "8").await;
    set(&h, r#"input[id$="slow_task_step_ms"]"#, "150").await;
    h.call_tool_button().await;
    h.find(r#"[data-testid="tool-running"]"#).await;
    h.attr_is(r#"[data-testid="tool-result"]"#, "data-outcome", "ok")
        .await;

    h.click(r#"[data-testid="tab-timeline"]"#).await;
    h.find(r#"[data-testid="timeline-chart"]"#).await;
    // Three tools/call bars, all answered (the timeline reads again as traffic arrives).
    let deadline = Instant::now() + WAIT;
    let calls = loop {
        let calls: Vec<Bar> = bars(&h)
            .await
            .into_iter()
            .filter(|b| b.method == "tools/call")
            .collect();
        if calls.len() >= 3 && calls.iter().all(|b| b.outcome == "ok") {
            break calls;
        }
        assert!(
            Instant::now() < deadline,
            "no three answered calls: {calls:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(calls.len(), 3, "{calls:?}");
    let all = bars(&h).await;
    // The handshake and the lists are there too, each under its method.
    assert!(all.iter().any(|b| b.method == "tools/list"), "{all:?}");

    // The modern era's listen stream is a request that stays open: a pending bar up to now.
    assert!(
        all.iter()
            .any(|b| b.method == "subscriptions/listen" && b.outcome == "pending"),
        "{all:?}"
    );
    // Of the answered requests, the slow call is the longest, and shows its progress inside.
    let longest = all
        .iter()
        .filter(|b| b.outcome == "ok")
        .max_by(|a, b| a.duration.total_cmp(&b.duration))
        .unwrap();
    assert_eq!(longest.method, "tools/call", "{all:?}");
    assert!(longest.duration >= 1_000_000.0, "{longest:?}");
    assert!(longest.progress >= 7, "{longest:?}");
    assert_eq!(
        longest.marks as u32,
        longest.progress.min(64),
        "{longest:?}"
    );
    let quick: Vec<&Bar> = calls.iter().filter(|b| b.seq != longest.seq).collect();
    assert!(
        quick
            .iter()
            .all(|b| b.duration < longest.duration / 2.0 && b.progress == 0),
        "{quick:?}"
    );

    // The latency plot: tools/call with its three answers and p50/p90/p99 marked.
    // Its option's value is server|direction|method.
    h.find(r#"[data-testid="latency-method"]"#)
        .await
        .select_by_value("demo|out|tools/call")
        .await
        .expect("pick tools/call");
    h.attr_is(
        r#"[data-testid="latency-plot"]"#,
        "data-method",
        "tools/call",
    )
    .await;
    let summary = h.text(r#"[data-testid="latency-summary"]"#).await;
    assert!(summary.contains("3 answers"), "{summary}");
    for p in ["p50", "p90", "p99"] {
        let mark = h.find(&format!(r#"[data-testid="latency-{p}"]"#)).await;
        let us: f64 = mark
            .attr("data-us")
            .await
            .unwrap()
            .unwrap()
            .parse()
            .unwrap();
        assert!(us > 0.0, "{p}");
    }
    // p99 of three answers is the slowest one.
    let p99: f64 = h
        .find(r#"[data-testid="latency-p99"]"#)
        .await
        .attr("data-us")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    assert!(p99 >= 1_000_000.0, "{p99}");

    // Hovering the slow bar tells its method and duration.
    let slow = format!(
        r#"[data-testid="timeline-bar"][data-seq="{}"]"#,
        longest.seq
    );
    h.find(&slow).await;
    h.client
        .execute(
            "document.querySelector(arguments[0]).focus();",
            vec![serde_json::Value::from(slow.clone())],
        )
        .await
        .expect("focus the bar");
    h.find(r#"[data-testid="timeline-tooltip"]"#).await;
    h.shot("timeline").await;

    // A click opens its request frame in the Traffic tab.
    // The bar's body: WebKit's driver clicks elements with a box, and an SVG group has none.
    h.click(&format!("{slow} .timeline-bar-body")).await;
    h.find(&format!(
        r#"[data-testid="traffic-row"][data-seq="{}"][aria-selected="true"]"#,
        longest.seq
    ))
    .await;
    let title = h
        .text(r#"[data-testid="frame-detail"] .frame-detail-title"#)
        .await;
    assert!(title.contains(&longest.seq), "{title}");
    h.shot("frame-opened").await;

    // Zooming in narrows the view; Fit brings every bar back.
    h.click(r#"[data-testid="tab-timeline"]"#).await;
    h.find(r#"[data-testid="timeline-chart"]"#).await;
    let before = h.count(r#"[data-testid="timeline-bar"]"#).await;
    for _ in 0..12 {
        h.click(r#"[data-testid="timeline-zoom-in"]"#).await;
    }
    let zoomed = h.count(r#"[data-testid="timeline-bar"]"#).await;
    assert!(
        zoomed < before,
        "{zoomed} of {before} bars after zooming in"
    );
    h.click(r#"[data-testid="timeline-fit"]"#).await;
    h.count_is(r#"[data-testid="timeline-bar"]"#, before).await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn all_connected_servers_share_one_time_axis_with_server_requests_shown() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("timeline-all").await;
    h.ready_demo().await;
    h.call_tool("slow_task").await;
    h.attr_is(r#"[data-testid="tool-result"]"#, "data-outcome", "ok")
        .await;
    // A multi round-trip call: two rounds of input_required, each answered in the form dialog.
    h.call_tool("mrtr_two_rounds").await;
    h.type_into(r#"[data-testid="elicit-field-city"]"#, "Oslo")
        .await;
    h.click(r#"[data-testid="elicit-accept"]"#).await;
    h.text_containing(
        r#"[data-testid="ask-dialog"]"#,
        "Round 2 of 2: book a trip to Oslo?",
    )
    .await;
    h.click(r#"[data-testid="elicit-accept"]"#).await;
    h.result_saying("booked a trip to Oslo after 2 rounds")
        .await;
    // The legacy-era demo asks the client for its roots: a server→client request.
    h.connect_legacy_demo().await;
    h.call_tool("list_roots").await;
    h.result_saying("(no roots)").await;

    h.click(r#"[data-testid="tab-timeline"]"#).await;
    h.count_is(r#"[data-testid="timeline-lane"]"#, 1).await;
    h.click(r#"[data-testid="timeline-all-servers"]"#).await;
    h.count_is(r#"[data-testid="timeline-lane"]"#, 2).await;
    let legacy = r#"[data-testid="timeline-lane"][data-server-id="demo-legacy"]"#;
    let modern = r#"[data-testid="timeline-lane"][data-server-id="demo"]"#;
    // Each lane has its own server's traffic: the handshake of its era, and its calls.
    h.find(&format!(
        r#"{legacy} [data-testid="timeline-bar"][data-method="initialize"]"#
    ))
    .await;
    h.find(&format!(
        r#"{modern} [data-testid="timeline-bar"][data-method="server/discover"]"#
    ))
    .await;
    h.find(&format!(
        r#"{modern} [data-testid="timeline-bar"][data-method="tools/call"][data-progress-count]:not([data-progress-count="0"])"#
    ))
    .await;
    // The three sendings of the multi round-trip call are one bar with three rounds.
    h.find(&format!(
        r#"{modern} [data-testid="timeline-bar"][data-method="tools/call"][data-rounds="3"][data-outcome="ok"]"#
    ))
    .await;
    assert_eq!(
        h.count(&format!(
            r#"{modern} [data-testid="timeline-bar"][data-method="tools/call"]"#
        ))
        .await,
        2,
        "slow_task and the multi round-trip call"
    );
    assert_eq!(
        h.count(&format!(
            r#"{modern} [data-testid="timeline-bar"][data-rounds="3"] [data-testid="timeline-round"]"#
        ))
        .await,
        3
    );
    // roots/list went from the server to the client, and was answered.
    h.find(&format!(
        r#"{legacy} [data-testid="timeline-bar"][data-method="roots/list"][data-direction="in"][data-outcome="ok"]"#
    ))
    .await;
    assert_eq!(
        h.count(&format!(
            r#"{modern} [data-testid="timeline-bar"][data-method="roots/list"]"#
        ))
        .await,
        0
    );
    // The legacy demo's notifications (its log messages, list changes) are ticks.
    h.find(&format!(r#"{legacy} [data-testid="timeline-tick"]"#))
        .await;
    // The latency picker names each method's server.
    let options = h.text(r#"[data-testid="latency-method"]"#).await;
    assert!(options.contains("Demo server"), "{options}");
    h.find(r#"[data-testid="latency-method"]"#)
        .await
        .select_by_value("demo|out|tools/call")
        .await
        .expect("pick the demo's tools/call");
    let summary = h.text(r#"[data-testid="latency-summary"]"#).await;
    // slow_task and the three rounds, each answered.
    assert!(summary.contains("4 answers"), "{summary}");
    let rounds = format!(r#"{modern} [data-testid="timeline-bar"][data-rounds="3"]"#);
    h.client
        .execute(
            "document.querySelector(arguments[0]).focus();",
            vec![serde_json::Value::from(rounds)],
        )
        .await
        .expect("focus the bar");
    h.text_containing(r#"[data-testid="timeline-tooltip"]"#, "3 rounds")
        .await;
    h.shot("all-servers").await;
    h.stop().await;
}
