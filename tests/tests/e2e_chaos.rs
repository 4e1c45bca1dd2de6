//! End-to-end chaos (docs/chaos.md): the real app, driven through WebDriver, with hostile
//! servers connected beside the demo server. While a server floods notifications, floods
//! elicitations, or stops reading its input, the app stays responsive: a click answers within
//! a second (a behavioural deadline, not a speed figure: the figures are in benches/), the
//! stalled server still disconnects, and the app still quits.
//!
//! Needs what tests/tests/e2e_app.rs needs (the app built with its UI, Xvfb, tauri-driver).

use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME, WAIT};
use periscope_tests::bin_str;

/// How long a click may take to show its answer while a server misbehaves (issue 15: "a click
/// answers within 1 s").
const CLICK_ANSWERS_WITHIN: Duration = Duration::from_secs(1);

/// Disconnecting a server that stopped reading: its shutdown escalates (close stdin, 2 s,
/// SIGTERM, 2 s, SIGKILL), so a few seconds; this bound only tells "done" from "stuck".
const DISCONNECT_WITHIN: Duration = Duration::from_secs(15);

/// Quitting the app with such a server connected (servers are closed in parallel on exit).
const QUIT_WITHIN: Duration = Duration::from_secs(20);

fn entry(id: &str, name: &str, command: &str, args: &[&str]) -> serde_json::Value {
    serde_json::json!({"id": id, "name": name, "target": {"transport": "stdio",
        "command": command, "args": args, "env": [], "cwd": null}})
}

fn write_catalog(data: &std::path::Path, servers: Vec<serde_json::Value>) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let catalog = serde_json::json!({ "servers": servers });
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
}

fn server(id: &str) -> String {
    format!(r#"[data-testid="server-item"][data-server-id="{id}"]"#)
}

/// Connects the server `id` and waits until it is ready.
async fn connect(h: &Harness, id: &str) {
    h.click(&server(id)).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(&format!(r#"{}[data-status="ready"]"#, server(id)))
        .await;
}

/// Clicks `click` and measures until `shows` matches something: the click's answer.
async fn click_answers(h: &Harness, click: &str, shows: &str) -> Duration {
    let element = h.find(click).await;
    let started = Instant::now();
    element.click().await.expect("click");
    while h.count(shows).await == 0 {
        assert!(
            started.elapsed() < WAIT,
            "{shows} never appeared after clicking {click}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    started.elapsed()
}

fn answered_in_time(what: &str, took: Duration) {
    println!("  {what}: {} ms", took.as_millis());
    assert!(
        took <= CLICK_ANSWERS_WITHIN,
        "{what} took {took:?}, more than {CLICK_ANSWERS_WITHIN:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn while_servers_flood_notifications_and_elicitations_clicks_answer_within_a_second() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let chaos = bin_str("chaos-server");
    let mut h = Harness::start_with("chaos-floods", |data| {
        write_catalog(
            data,
            vec![
                entry("demo", "Demo", &bin_str("periscope-demo-server"), &[]),
                entry(
                    "notify",
                    "Notification flood",
                    &chaos,
                    &["notify-flood", "50000", "30"],
                ),
                entry(
                    "elicit",
                    "Elicitation flood",
                    &chaos,
                    &["elicit-flood", "10000"],
                ),
            ],
        )
    })
    .await;
    connect(&h, "demo").await;
    connect(&h, "notify").await;
    h.shot("notification-flood-running").await;

    // While 50 000 notifications a second pour in, the other server's tabs and ping answer.
    h.click(&server("demo")).await;
    for round in 0..3 {
        let took = click_answers(
            &h,
            r#"[data-testid="tab-tools"]"#,
            r#"[data-testid="tool-item"][data-tool-name="add"]"#,
        )
        .await;
        answered_in_time(&format!("Tools tab during the flood ({round})"), took);
        let took = click_answers(
            &h,
            r#"[data-testid="tab-traffic"]"#,
            r#"[data-testid="traffic-count"]"#,
        )
        .await;
        answered_in_time(&format!("Traffic tab during the flood ({round})"), took);
    }
    // The flooding server's own traffic view keeps up and answers its tab too.
    h.click(&server("notify")).await;
    let took = click_answers(
        &h,
        r#"[data-testid="tab-traffic"]"#,
        r#"[data-testid="traffic-row"][data-method="notifications/message"]"#,
    )
    .await;
    answered_in_time("the flooding server's Traffic tab", took);
    h.shot("flooding-server-traffic").await;
    // Its console is handed a few hundred log messages a second, and says how many more came
    // (each is in Traffic): the rest of a flood never crosses to the page (live_logs.rs).
    let took = click_answers(
        &h,
        r#"[data-testid="tab-console"]"#,
        r#"[data-testid="console-held-total"]"#,
    )
    .await;
    answered_in_time("the flooding server's Console tab", took);
    let held = h.text(r#"[data-testid="console-held-total"]"#).await;
    assert!(
        held.contains("log messages of a flood are not shown here: more than 500 came in a second"),
        "{held}"
    );
    // Thousands of lines, and only those in sight are drawn; the newest stay in view.
    let drawn = h.count(r#"[data-testid="console-line"]"#).await;
    assert!(
        h.count(r#".console-scroll [data-windowed="true"]"#).await == 1
            && (1..200).contains(&drawn),
        "the flooded console is not windowed: {drawn} lines drawn"
    );
    let following = "const s = document.querySelector('.console-scroll'); \
        return s.scrollTop > 0 && s.scrollHeight - s.scrollTop - s.clientHeight < 24;";
    h.until_script_true(following, "the console never showed its newest lines")
        .await;
    h.shot("flooding-server-console").await;
    // The lines saying where messages were held back are found by what they say.
    h.type_into(r#"[data-testid="console-filter"]"#, "not shown")
        .await;
    h.until_script_true(
        "return document.querySelectorAll('[data-testid=\"console-line\"][data-kind=\"held\"]').length > 0;",
        "no line says where messages were held back",
    )
    .await;

    // 10 000 elicitations: the ask dialog comes up; each Decline answers within a second.
    h.click(&server("elicit")).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    let dialog = r#"[data-testid="ask-dialog"][data-kind="elicit_form"]"#;
    h.find(dialog).await;
    h.shot("elicitation-flood").await;
    for round in 0..5 {
        // The dialog shows the oldest ask ("Question N of 10000"); the queue count beside it
        // moves as asks arrive, so the question is what tells that the click was answered.
        let before = question(&h.text(r#"[data-testid="ask-dialog"]"#).await);
        let decline = h.find(r#"[data-testid="elicit-decline"]"#).await;
        let started = Instant::now();
        decline.click().await.expect("click");
        loop {
            let now = h
                .client
                .execute(
                    "const d = document.querySelector('[data-testid=\"ask-dialog\"]'); return d ? d.textContent : '';",
                    vec![],
                )
                .await
                .expect("the page answers");
            if question(now.as_str().unwrap_or_default()) != before {
                break;
            }
            assert!(started.elapsed() < WAIT, "Decline never answered");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        answered_in_time(
            &format!("Decline during the elicitation flood ({round})"),
            started.elapsed(),
        );
    }
    h.shot("elicitations-declined").await;
    h.stop().await;
}

/// "Question N" of an elicitation dialog's text (empty once no dialog is shown).
fn question(text: &str) -> String {
    text.split_once("Question ")
        .and_then(|(_, rest)| rest.split_once(" of"))
        .map(|(n, _)| n.to_string())
        .unwrap_or_default()
}

/// Process ids of every `name` process (the app, here).
fn pids_named(name: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let comm = std::fs::read_to_string(e.path().join("comm")).ok()?;
            (comm.trim() == name).then_some(pid)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_stops_reading_holds_up_neither_other_servers_nor_disconnect_nor_quitting() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let before: Vec<u32> = pids_named("periscope-app");
    let servers_before: Vec<u32> = pids_named("chaos-server");
    let mut h = Harness::start_with("chaos-stall", |data| {
        write_catalog(
            data,
            vec![
                entry("demo", "Demo", &bin_str("periscope-demo-server"), &[]),
                // 20 000 pings whose answers it never reads: the app's writes to it stall.
                entry(
                    "stall",
                    "Stops reading",
                    &bin_str("chaos-server"),
                    &["ping-flood-no-read", "20000"],
                ),
            ],
        )
    })
    .await;
    connect(&h, "demo").await;
    connect(&h, "stall").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    h.shot("stalled-server").await;

    // The demo server is untouched: its ping answers within a second.
    h.click(&server("demo")).await;
    let took = click_answers(
        &h,
        r#"[data-testid="ping-button"]"#,
        r#"[data-testid="ping-latency"]"#,
    )
    .await;
    answered_in_time("ping the demo server beside a stalled one", took);

    // Disconnect ends the stalled connection (its shutdown escalates: close stdin, SIGTERM,
    // SIGKILL, a few seconds at most), without waiting on the stalled write.
    h.click(&server("stall")).await;
    let started = Instant::now();
    h.click(r#"[data-testid="disconnect-button"]"#).await;
    let disconnected = format!(r#"{}[data-status="disconnected"]"#, server("stall"));
    while h.count(&disconnected).await == 0 && started.elapsed() < DISCONNECT_WITHIN {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let disconnect_took = started.elapsed();
    println!(
        "  disconnect of the stalled server: {} ms",
        disconnect_took.as_millis()
    );
    h.shot("stalled-server-disconnect").await;

    // Stalled again (or still), then quit: the app exits without waiting on the stalled write.
    if disconnect_took < DISCONNECT_WITHIN {
        connect(&h, "stall").await;
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let apps: Vec<u32> = pids_named("periscope-app")
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    let started = Instant::now();
    h.stop().await;
    while started.elapsed() < QUIT_WITHIN
        && apps
            .iter()
            .any(|p| std::path::Path::new(&format!("/proc/{p}")).exists())
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let quit_took = started.elapsed();
    println!("  quit with a stalled server: {} ms", quit_took.as_millis());
    // Whatever happened, nothing this test started outlives it.
    for pid in pids_named("chaos-server")
        .into_iter()
        .chain(apps.iter().copied())
    {
        if !servers_before.contains(&pid) {
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
        }
    }
    assert!(!apps.is_empty(), "the app's process was found");
    assert!(
        disconnect_took < DISCONNECT_WITHIN,
        "Disconnect of a stalled server did not complete within {DISCONNECT_WITHIN:?}"
    );
    assert!(
        quit_took < QUIT_WITHIN,
        "the app did not quit within {QUIT_WITHIN:?} with a stalled server connected"
    );
}
