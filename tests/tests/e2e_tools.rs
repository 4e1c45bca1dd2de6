//! End-to-end: the Tools tab of the real app against the demo server. The `create_order` form
//! (nested object, array of objects, a oneOf choice) is filled and sent; the Rust validator's
//! warnings show and the call can still be made; arguments are remembered across tab switches
//! and a restart; `add` shows its structuredContent verdict; `mixed_content` shows an image,
//! audio and a resource link read inline; `slow_task` shows progress and is cancelled.
//! Screenshots under test-artifacts/e2e/.

use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME, WAIT};

/// The generated form's field for a path of the `create_order` arguments.
fn field(path: &str) -> String {
    format!(r#"[id="tool-create_order_{path}"]"#)
}

/// Replaces the text of an input.
async fn set(h: &Harness, css: &str, text: &str) {
    let input = h.find(css).await;
    input.clear().await.expect("clear");
    input.send_keys(text).await.expect("typing");
}

/// Picks the option of a <select> whose label is `label`.
async fn choose(h: &Harness, select: &str, label: &str) {
    let select = h.find(select).await;
    select
        .select_by_label(label)
        .await
        .unwrap_or_else(|e| panic!("no option {label:?}: {e}"));
}

#[tokio::test(flavor = "multi_thread")]
async fn create_order_is_filled_warned_about_sent_and_remembered() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("tools-create-order").await;
    h.ready_demo().await;
    h.pick_tool("create_order").await;

    // The annotations are shown as the server's claims.
    let claims = h.text(r#"[data-testid="tool-claims"]"#).await;
    assert!(claims.contains("The server claims"), "{claims}");
    assert!(claims.contains("not destructive"), "{claims}");

    // Nothing filled in yet: the Rust validator lists what is missing, and the button still
    // calls ("Call anyway").
    let verdict = h
        .attr_is(r#"[data-testid="args-verdict"]"#, "data-verdict", "invalid")
        .await;
    let warning = verdict.text().await.unwrap();
    assert!(warning.contains("You can still send them"), "{warning}");
    assert!(warning.contains("/customer/name"), "{warning}");
    let button = h.text(r#"[data-testid="call-tool-button"]"#).await;
    assert_eq!(button, "Call anyway");
    h.shot("create-order-warnings").await;

    // Nested object ($ref'd address), array of objects (two lines), a oneOf choice (invoice).
    set(&h, &field("customer_name"), "Ada").await;
    set(&h, &field("customer_email"), "ada@example.com").await;
    set(&h, &field("customer_address_street"), "1 Main St").await;
    set(&h, &field("customer_address_city"), "London").await;
    choose(&h, &field("customer_address_country"), "GB").await;
    set(&h, &field("items_0_sku"), "ABC-1234").await;
    set(&h, &field("items_0_quantity"), "3").await;
    h.click(r#".tool-form .form-add"#).await;
    set(&h, &field("items_1_sku"), "XYZ-0001").await;
    choose(&h, r#"select[id$="payment__oneof_select"]"#, "Invoice").await;
    set(&h, &field("payment_po_number"), "PO-77").await;
    h.attr_is(r#"[data-testid="args-verdict"]"#, "data-verdict", "valid")
        .await;
    assert_eq!(h.text(r#"[data-testid="call-tool-button"]"#).await, "Call");
    h.shot("create-order-filled").await;
    h.call_tool_button().await;
    let placed = h.result_saying("Order placed for Ada").await;
    for expected in [
        "<ada@example.com>",
        "1 Main St, London, GB",
        "2 line(s), 4 unit(s): ABC-1234 x3, XYZ-0001 x1",
        "Payment: invoice, PO PO-77",
        "Priority: normal",
    ] {
        assert!(placed.contains(expected), "{expected} in {placed}");
    }
    h.attr_is(r#"[data-testid="tool-result"]"#, "data-outcome", "ok")
        .await;
    h.shot("create-order-result").await;

    // A bad SKU: a warning with its path, and the call goes out anyway; the server refuses it
    // in its result (isError), which is not a protocol error.
    set(&h, &field("items_0_sku"), "bad").await;
    let verdict = h
        .attr_is(r#"[data-testid="args-verdict"]"#, "data-verdict", "invalid")
        .await;
    let warning = verdict.text().await.unwrap();
    assert!(warning.contains("/items/0/sku"), "{warning}");
    h.call_tool_button().await;
    h.result_saying("items[0].sku must look like ABC-1234")
        .await;
    h.attr_is(
        r#"[data-testid="tool-result"]"#,
        "data-outcome",
        "tool-error",
    )
    .await;
    h.shot("create-order-sent-anyway").await;

    // The raw JSON editor (CodeMirror) shows the same arguments.
    h.click(r#".tool-form .segmented button:nth-child(2)"#)
        .await;
    let json = h.text(r#"[data-testid="json-editor"]"#).await;
    assert!(json.contains(r#""po_number": "PO-77""#), "{json}");
    assert!(json.contains(r#""sku": "bad""#), "{json}");
    h.shot("create-order-json").await;

    // Remembered across a tab switch and a restart.
    h.pick_tool("add").await;
    h.pick_tool("create_order").await;
    let name = h.find(&field("customer_name")).await;
    assert_eq!(name.prop("value").await.unwrap().as_deref(), Some("Ada"));
    let mut h = h.restart().await;
    // Only the first launch connects by itself.
    h.connect_demo().await;
    h.ready_demo().await;
    h.pick_tool("create_order").await;
    let name = h.find(&field("customer_name")).await;
    assert_eq!(name.prop("value").await.unwrap().as_deref(), Some("Ada"));
    let po = h.find(&field("payment_po_number")).await;
    assert_eq!(po.prop("value").await.unwrap().as_deref(), Some("PO-77"));
    h.shot("create-order-after-restart").await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn results_show_the_output_verdict_media_markdown_and_a_readable_link() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("tools-results").await;
    h.ready_demo().await;

    // `add` declares an outputSchema: its structuredContent is checked in Rust.
    h.pick_tool("add").await;
    set(&h, r#"input[id$="add_a"]"#, "2").await;
    set(&h, r#"input[id$="add_b"]"#, "40").await;
    h.call_tool_button().await;
    let verdict = h
        .attr_is(r#"[data-testid="output-verdict"]"#, "data-verdict", "valid")
        .await;
    let text = verdict.text().await.unwrap();
    assert!(
        text.contains("structuredContent matches the tool's outputSchema"),
        "{text}"
    );
    h.shot("add-verdict").await;

    // mixed_content: one block of each kind.
    h.pick_tool("mixed_content").await;
    h.call_tool_button().await;
    let image = h.find(r#"[data-testid="tool-result"] img"#).await;
    let src = image.attr("src").await.unwrap().unwrap_or_default();
    assert!(src.starts_with("data:image/"), "{src}");
    let audio = h.find(r#"[data-testid="tool-result"] audio"#).await;
    let src = audio.attr("src").await.unwrap().unwrap_or_default();
    assert!(src.starts_with("data:audio/"), "{src}");
    // The image really decoded (the CSP allows data: images).
    let width = h
        .client
        .execute(
            r#"return document.querySelector('[data-testid="tool-result"] img').naturalWidth"#,
            vec![],
        )
        .await
        .unwrap();
    assert!(
        width.as_u64().unwrap_or(0) > 0,
        "the image did not load: {width}"
    );

    // Markdown on request.
    h.click(r#"[data-testid="markdown-toggle"]"#).await;
    h.find(r#"[data-testid="result-markdown"]"#).await;

    // The resource link is read inline with one click.
    h.click(r#"[data-testid="read-resource-link"]"#).await;
    let contents = h.text(r#"[data-testid="resource-link-contents"]"#).await;
    assert!(contents.contains("demo://"), "{contents}");
    h.shot("mixed-content").await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn slow_task_shows_progress_and_is_cancelled() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("tools-progress").await;
    h.ready_demo().await;
    h.pick_tool("slow_task").await;
    set(&h, r#"input[id$="slow_task_steps"]"#, "40").await;
    set(&h, r#"input[id$="slow_task_step_ms"]"#, "250").await;
    h.call_tool_button().await;

    // Progress arrives with its total: the bar is determinate and moves; the time ticks.
    h.find(r#"[data-testid="tool-running"]"#).await;
    let deadline = Instant::now() + WAIT;
    let bar = loop {
        let bar = h.find(r#"[data-testid="call-progress"]"#).await;
        let now: u32 = bar
            .attr("aria-valuenow")
            .await
            .unwrap()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        if now >= 10 {
            break bar;
        }
        assert!(Instant::now() < deadline, "no progress shown");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let first = bar.attr("aria-valuenow").await.unwrap().unwrap();
    let progress = h.text(r#"[data-testid="progress-text"]"#).await;
    assert!(progress.contains("of 40"), "{progress}");
    let elapsed = h.text(r#"[data-testid="call-elapsed"]"#).await;
    h.shot("progress").await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_ne!(
        h.text(r#"[data-testid="call-elapsed"]"#).await,
        elapsed,
        "the time ticks"
    );
    let later = h
        .find(r#"[data-testid="call-progress"]"#)
        .await
        .attr("aria-valuenow")
        .await
        .unwrap()
        .unwrap();
    assert!(
        later.parse::<u32>().unwrap() > first.parse::<u32>().unwrap(),
        "{first} → {later}"
    );

    // Cancel: the result says so, long before the 10 s the task would take.
    let cancelled_at = Instant::now();
    h.click(r#"[data-testid="cancel-call"]"#).await;
    h.attr_is(
        r#"[data-testid="tool-result"]"#,
        "data-outcome",
        "cancelled",
    )
    .await;
    assert!(cancelled_at.elapsed() < Duration::from_secs(5));
    let text = h.text(r#"[data-testid="tool-result"]"#).await;
    assert!(text.contains("You cancelled this call"), "{text}");
    h.shot("cancelled").await;

    // The server was told: notifications/cancelled went out.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="notifications/cancelled"][data-direction="out"]"#)
        .await;

    // The tool still works afterwards.
    h.click(r#"[data-testid="tab-tools"]"#).await;
    set(&h, r#"input[id$="slow_task_steps"]"#, "2").await;
    set(&h, r#"input[id$="slow_task_step_ms"]"#, "50").await;
    h.call_tool_button().await;
    h.attr_is(r#"[data-testid="tool-result"]"#, "data-outcome", "ok")
        .await;
    h.stop().await;
}
