//! End-to-end: a million notifications in the real app's Traffic list. The app records them
//! into the session's store file and the list is a window over it (docs/store.md): the count
//! says all of them, a method filter and a full-text search find the right frames and clearing
//! them brings every frame back (count and rows), scrolling to the end (scrollbar, End key)
//! shows the last one although the list is taller than WebKit lays out (ui/src/traffic/scale.ts),
//! and a frame's detail opens. Correctness only; how fast is measured in benches
//! (benches/benches/app_flood.rs).
//!
//! `PERISCOPE_E2E_FLOOD` sets another number of notifications (the default is 1 000 000).

use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

/// How long the whole flood may take to be listed on a slow, shared machine (debug build).
const LISTED_WITHIN: Duration = Duration::from_secs(240);
/// How long a filter's answer may take before the test calls it lost.
const ANSWERED_WITHIN: Duration = Duration::from_secs(60);

const COUNT: &str = r#"[data-testid="traffic-count"]"#;

fn flood_size() -> usize {
    std::env::var("PERISCOPE_E2E_FLOOD")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000)
}

/// Waits until the count reads `shown of total` (digits grouped or not).
async fn count_is(h: &Harness, shown: usize, total: usize, within: Duration) {
    let want = format!("{shown} of {total} ");
    let deadline = Instant::now() + within;
    loop {
        let text = h.text(COUNT).await.replace([',', '\u{a0}', '\u{202f}'], "");
        if text.starts_with(&want) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the count never read {want:?}; it says {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Scrolls the list by script to `to` (again while it has not moved: see
/// [`scroll_list_until`]) until it shows a row within `slack` of `seq`.
async fn rows_around(h: &Harness, to: &str, seq: usize, slack: usize) {
    let deadline = Instant::now() + ANSWERED_WITHIN;
    loop {
        scroll_list(h, to).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let shown = h
            .client
            .execute(
                "return [...document.querySelectorAll('[data-testid=\"traffic-row\"]')].map(r => Number(r.dataset.seq));",
                vec![],
            )
            .await
            .expect("the page answers");
        let seqs: Vec<usize> = shown
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_u64())
                    .map(|v| v as usize)
                    .collect()
            })
            .unwrap_or_default();
        if seqs.iter().any(|s| s.abs_diff(seq) <= slack) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the list never showed a row near {seq}; it shows {seqs:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Scrolls the list by script until `css` is shown: a script's scroll whose event comes after
/// a render of the list (rows arriving) is read as the list's own move and dropped, so it is
/// said again, as a user drags the scrollbar again when the list did not move.
async fn scroll_list_until(h: &Harness, to: &str, css: &str) {
    let deadline = Instant::now() + ANSWERED_WITHIN;
    loop {
        scroll_list(h, to).await;
        for _ in 0..5 {
            if h.count(css).await > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(
            Instant::now() < deadline,
            "scrolled to {to}, the list never showed {css}"
        );
    }
}

async fn scroll_list(h: &Harness, to: &str) {
    h.client
        .execute(
            &format!("document.querySelector('.traffic-scroll').scrollTop = {to}; return true;"),
            vec![],
        )
        .await
        .expect("the page scrolls");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_million_notifications_are_listed_filtered_searched_scrolled_and_opened() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let flood = flood_size();
    // initialize, its response, notifications/initialized, then the flood.
    let total = flood + 3;
    let last = flood - 1;
    let mut h = Harness::start_with("flood", |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [{"id": "flood", "name": "Flood",
            "era": "legacy", "target": {"transport": "stdio",
            "command": periscope_tests::bin_str("misbehaving-server"),
            "args": ["flood", flood.to_string()], "env": [], "cwd": null}}]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;
    h.click(r#"[data-testid="server-item"][data-server-id="flood"]"#)
        .await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.click(r#"[data-testid="connect-button"]"#).await;

    // Every frame is listed, and the list follows the newest one: the last notification.
    count_is(&h, total, total, LISTED_WITHIN).await;
    h.find(&format!(
        r#"[data-testid="traffic-row"][data-seq="{total}"]"#
    ))
    .await;
    h.shot("flood-listed").await;

    // The session's store file is in the app's data folder.
    let stores = std::fs::read_dir(h.data.join("data/dev.periscope.app/traffic"))
        .expect("the traffic folder")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "periscope"))
        .count();
    assert_eq!(stores, 1, "one store file for the one session");

    // A method filter keeps the notifications only.
    h.type_into(r#"[data-testid="traffic-method"]"#, "notifications/message")
        .await;
    count_is(&h, flood, total, ANSWERED_WITHIN).await;
    h.attr_is(
        r#"[data-testid="traffic-row"]"#,
        "data-method",
        "notifications/message",
    )
    .await;
    h.shot("flood-method").await;
    h.clear(r#"[data-testid="traffic-method"]"#).await;
    count_is(&h, total, total, ANSWERED_WITHIN).await;
    // Not only the count: the rows are the unfiltered list's again (a window kept from the
    // method filter would show notifications only), the last one being the flood's last.
    h.find(&format!(
        r#"[data-testid="traffic-row"][data-seq="{total}"][data-method="notifications/message"]"#
    ))
    .await;
    scroll_list_until(
        &h,
        "0",
        r#"[data-testid="traffic-row"][data-seq="2"][data-method="initialize"]"#,
    )
    .await;
    scroll_list_until(
        &h,
        "1e9",
        &format!(r#"[data-testid="traffic-row"][data-seq="{total}"]"#),
    )
    .await;

    // Full-text search finds the one frame that says "message 123456" (or its like).
    let needle = format!("message {}", flood / 2 + 17);
    h.type_into(r#"[data-testid="traffic-filter"]"#, &needle)
        .await;
    count_is(&h, 1, total, ANSWERED_WITHIN).await;
    // The count can say 1 a render before the list drops the rows it showed: the list comes to
    // hold exactly one row, the frame that says it (the server's i-th notification is frame
    // i + 4).
    h.count_is(r#"[data-testid="traffic-row"]"#, 1).await;
    let hit = h
        .attr_is(
            r#"[data-testid="traffic-row"][data-method="notifications/message"]"#,
            "data-seq",
            &(flood / 2 + 17 + 4).to_string(),
        )
        .await;
    hit.click().await.unwrap();
    h.text_containing(r#"[data-testid="frame-detail"]"#, &needle)
        .await;
    h.shot("flood-search").await;
    h.clear(r#"[data-testid="traffic-filter"]"#).await;
    count_is(&h, total, total, ANSWERED_WITHIN).await;

    // Scrolled to the top and back to the end, the list shows the first and the last frame.
    h.click(r#"[data-testid="traffic-follow"]"#).await;
    scroll_list_until(
        &h,
        "0",
        r#"[data-testid="traffic-row"][data-seq="1"][data-method="initialize"]"#,
    )
    .await;
    // The first frame, initialize, jumps to its response, and the response back to it.
    h.click(r#"[data-testid="traffic-row"][data-seq="1"][data-method="initialize"]"#)
        .await;
    h.click(r#"[data-testid="frame-go-response"]"#).await;
    h.text_containing(r#"[data-testid="frame-detail"]"#, "Frame #2")
        .await;
    h.find(r#"[data-testid="traffic-row"][data-seq="2"][aria-selected="true"]"#)
        .await;
    h.click(r#"[data-testid="frame-go-request"]"#).await;
    h.text_containing(r#"[data-testid="frame-detail"]"#, "Frame #1")
        .await;

    // A million 28 px rows are taller than the spacer WebKit can lay out: the spacer is capped
    // and its scroll position maps onto the list. Half way down the scrollbar is half way down
    // the list; the End key and the scrollbar's end both show the last frame.
    let spacer = h
        .client
        .execute(
            "const s = document.querySelector('.traffic-scroll');
             return [s.scrollHeight, document.querySelector('.traffic-sizer').offsetHeight];",
            vec![],
        )
        .await
        .expect("the page answers");
    let heights: Vec<f64> = spacer
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
        .unwrap_or_default();
    assert!(
        heights.len() == 2 && heights[1] <= 16_000_000.0 && heights[0] <= heights[1] + 1.0,
        "the spacer stays under WebKit's height cap and the rows never make the list taller: {heights:?}"
    );
    rows_around(
        &h,
        "(s => (s.scrollHeight - s.clientHeight) / 2)(document.querySelector('.traffic-scroll'))",
        total / 2,
        total / 100,
    )
    .await;
    let list = h.find(".traffic-scroll").await;
    list.send_keys(&char::from(fantoccini::key::Key::End).to_string())
        .await
        .expect("End");
    h.find(&format!(
        r#"[data-testid="traffic-row"][data-seq="{total}"]"#
    ))
    .await;
    list.send_keys(&char::from(fantoccini::key::Key::Home).to_string())
        .await
        .expect("Home");
    h.find(r#"[data-testid="traffic-row"][data-seq="1"]"#).await;
    scroll_list_until(
        &h,
        "1e9",
        &format!(r#"[data-testid="traffic-row"][data-seq="{total}"]"#),
    )
    .await;
    let end = h
        .find(&format!(
            r#"[data-testid="traffic-row"][data-seq="{total}"]"#
        ))
        .await;
    end.click().await.unwrap();
    h.text_containing(
        r#"[data-testid="frame-detail"]"#,
        &format!("message {last}"),
    )
    .await;
    h.shot("flood-last-frame").await;
    h.stop().await;
}
