//! End-to-end: the real app speaks the modern era (2026-07-28) to a dual-era server when its
//! entry says auto, shows which era and how it was found, answers a multi round-trip tool
//! through the same form dialog as the legacy era's elicitation, and still speaks the legacy
//! era to the same server when the entry pins it. Screenshots under test-artifacts/e2e/.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

const DIALOG: &str = r#"[data-testid="ask-dialog"]"#;

fn catalog(data: &std::path::Path) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let entry = |id: &str, name: &str, era: &str| {
        serde_json::json!({"id": id, "name": name, "era": era, "target": {"transport": "stdio",
            "command": periscope_tests::bin_str("periscope-demo-server"),
            "args": ["--eras", "dual"], "env": [], "cwd": null}})
    };
    let catalog = serde_json::json!({"servers": [
        entry("auto", "Dual-era demo", "auto"),
        entry("legacy", "Dual-era demo, pinned legacy", "legacy"),
    ]});
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
}

/// A catalog of one stdio server in the auto era: `binary` (one of this build's) with `args`.
fn one_auto_server(data: &std::path::Path, id: &str, name: &str, binary: &str, args: &[&str]) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let catalog = serde_json::json!({"servers": [
        {"id": id, "name": name, "era": "auto", "target": {"transport": "stdio",
            "command": periscope_tests::bin_str(binary),
            "args": args, "env": [], "cwd": null}},
    ]});
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn auto_lands_in_the_modern_era_and_a_multi_round_trip_tool_completes_through_the_form() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start_with("eras", catalog).await;

    h.click(r#"[data-testid="server-item"][data-server-id="auto"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.click(r#"[data-testid="tab-overview"]"#).await;
    let era = h
        .text_containing(r#"[data-testid="overview-era"]"#, "Modern")
        .await;
    assert!(era.contains("found by server/discover"), "{era}");
    let version = h.text(r#"[data-testid="overview-protocol-version"]"#).await;
    assert_eq!(version, "2026-07-28");
    let supported = h
        .text(r#"[data-testid="overview-supported-versions"]"#)
        .await;
    assert!(supported.contains("2025-11-25"), "{supported}");
    // 2026-07-28 removed ping: the button says why instead of failing.
    h.find(r#"[data-testid="ping-removed"]"#).await;
    h.shot("modern-overview").await;

    // Two rounds of input_required: each opens the form dialog; the answers go back with the
    // retried call, and the server's result comes at the end.
    h.call_tool("mrtr_two_rounds").await;
    h.find(r#"[data-testid="ask-dialog"][data-kind="elicit_form"]"#)
        .await;
    h.type_into(r#"[data-testid="elicit-field-city"]"#, "Oslo")
        .await;
    h.shot("modern-round-1").await;
    h.click(r#"[data-testid="elicit-accept"]"#).await;
    let second = h
        .text_containing(DIALOG, "Round 2 of 2: book a trip to Oslo?")
        .await;
    assert!(second.contains("Dual-era demo"), "{second}");
    h.shot("modern-round-2").await;
    h.click(r#"[data-testid="elicit-accept"]"#).await;
    h.gone(DIALOG).await;
    h.result_saying("booked a trip to Oslo after 2 rounds")
        .await;
    h.shot("modern-round-trip-done").await;

    // The same server, pinned legacy: the initialize handshake, and ping is back.
    h.click(r#"[data-testid="server-item"][data-server-id="legacy"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.click(r#"[data-testid="tab-overview"]"#).await;
    let era = h
        .text_containing(r#"[data-testid="overview-era"]"#, "Legacy")
        .await;
    assert!(era.contains("pinned"), "{era}");
    h.click(r#"[data-testid="ping-button"]"#).await;
    h.find(r#"[data-testid="ping-latency"]"#).await;
    h.shot("legacy-overview").await;

    // Back to the modern connection. Its tools list carries the server's caching hints.
    h.click(r#"[data-testid="server-item"][data-server-id="auto"]"#)
        .await;
    h.click(r#"[data-testid="tab-tools"]"#).await;
    let hint = h
        .text_containing(r#"[data-testid="cache-hint"]"#, "cacheable")
        .await;
    assert!(hint.contains("cacheable 60 s · shared"), "{hint}");
    h.shot("modern-tools-cache-hint").await;
    // The Traffic view shows the three sendings of mrtr_two_rounds as one call with its rounds.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    let last_round = r#"[data-testid="round-chip"][data-round-label^="round 3 of #"]"#;
    // The attribute, not the text: a narrow column may cut the chip's text short.
    let label = h
        .find(last_round)
        .await
        .attr("data-round-label")
        .await
        .unwrap()
        .unwrap();
    let first_seq: u64 = label.rsplit('#').next().unwrap().parse().unwrap();
    h.find(r#"[data-testid="round-chip"][data-round-label="call with 3 rounds"]"#)
        .await;
    h.shot("traffic-rounds").await;
    h.click(last_round).await;
    h.text_containing(r#"[data-testid="call-rounds"]"#, "Call in 3 rounds")
        .await;
    h.count_is(r#"[data-testid="round-link"]"#, 5).await;
    h.shot("traffic-call-rounds").await;
    // The first link is round 1's request: the detail pane moves to it.
    h.click(r#"[data-testid="round-link"]"#).await;
    h.find(&format!(
        r#"[data-testid="frame-detail"][aria-label="Frame {first_seq}"]"#
    ))
    .await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_found_to_speak_legacy_is_spoken_to_in_legacy_at_once_until_asked_to_probe_again()
{
    let _turn = ONE_AT_A_TIME.lock().await;
    // The demo in its default, legacy-only mode: it answers server/discover -32601.
    let mut h = Harness::start_with("eras-remembered", |data| {
        one_auto_server(
            data,
            "old",
            "Legacy-only demo",
            "periscope-demo-server",
            &[],
        )
    })
    .await;
    let era = r#"[data-testid="overview-era"]"#;
    let discover = r#"[data-testid="traffic-row"][data-method="server/discover"]"#;

    // First connection: the probe, refused, then initialize.
    h.click(r#"[data-testid="server-item"][data-server-id="old"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.click(r#"[data-testid="tab-overview"]"#).await;
    h.text_containing(era, "fell back to initialize").await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(discover).await;

    // Reconnected: legacy at once, said so, and no probe on the wire.
    h.click(r#"[data-testid="reconnect-button"]"#).await;
    h.click(r#"[data-testid="tab-overview"]"#).await;
    h.text_containing(era, "remembered from an earlier connection")
        .await;
    h.shot("era-remembered").await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="initialize"]"#)
        .await;
    h.count_is(discover, 0).await;

    // Probe again: the probe goes out once more, and is refused as before.
    h.click(r#"[data-testid="tab-overview"]"#).await;
    h.click(r#"[data-testid="era-reprobe"]"#).await;
    h.text_containing(era, "fell back to initialize").await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(discover).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_that_needs_the_legacy_era_says_so_and_reconnects_there_on_a_click() {
    let _turn = ONE_AT_A_TIME.lock().await;
    // Both eras; its `confirm` fails on a 2026-07-28 connection as FastMCP's ctx.elicit()
    // does there, and works on a legacy one.
    let mut h = Harness::start_with("eras-doctor", |data| {
        one_auto_server(
            data,
            "fast",
            "FastMCP-like",
            "misbehaving-server",
            &["modern-elicit"],
        )
    })
    .await;
    h.click(r#"[data-testid="server-item"][data-server-id="fast"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.call_tool("confirm").await;
    let hint = h
        .text_containing(
            r#"[data-testid="diagnosis"][data-kind="needs_legacy_era"]"#,
            "legacy era (2025-11-25)",
        )
        .await;
    assert!(hint.contains("elicitation"), "{hint}");
    h.shot("needs-legacy-era").await;

    // One click: reconnected in the legacy era, which is remembered, and the tool works.
    h.click(r#"[data-testid="reconnect-legacy"]"#).await;
    h.click(r#"[data-testid="tab-overview"]"#).await;
    h.text_containing(
        r#"[data-testid="overview-era"]"#,
        "remembered from an earlier connection",
    )
    .await;
    h.call_tool("confirm").await;
    h.result_saying("confirmed").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_probe_the_server_ignores_is_explained_and_skipped_on_a_click() {
    let _turn = ONE_AT_A_TIME.lock().await;
    // A legacy server that says nothing at all to server/discover (as many do): auto
    // would wait out the probe's whole time before falling back.
    let mut h = Harness::start_with("eras-probe-wait", |data| {
        one_auto_server(
            data,
            "mute",
            "Ignores the probe",
            "misbehaving-server",
            &["ignores-discover"],
        )
    })
    .await;
    h.click(r#"[data-testid="server-item"][data-server-id="mute"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.click(r#"[data-testid="tab-overview"]"#).await;
    let note = h
        .text_containing(r#"[data-testid="probe-waiting"]"#, "server/discover")
        .await;
    assert!(note.contains("legacy era"), "{note}");
    h.shot("probe-waiting").await;

    // One click: the probe is given up on (no failure said), and the legacy era is used and
    // remembered.
    h.click(r#"[data-testid="probe-skip"]"#).await;
    h.text_containing(
        r#"[data-testid="overview-era"]"#,
        "remembered from an earlier connection",
    )
    .await;
    h.count_is(r#"[data-testid="connection-error"]"#, 0).await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="initialize"]"#)
        .await;
    h.count_is(
        r#"[data-testid="traffic-row"][data-method="server/discover"]"#,
        0,
    )
    .await;
}
