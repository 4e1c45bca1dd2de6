//! End-to-end: resources and prompts in depth in the real app against the demo server. The
//! resource list pages (Load more, Load all: 27 resources), a template is filled in with a
//! completion suggestion and read, a PNG blob shows as an image and as a hex dump, a
//! subscription (in 2026-07-28, the listen stream's filter) shows the update `touch_resource`
//! causes and Re-read clears it, and prompt
//! arguments complete and render every message with its role and content type. Screenshots
//! under test-artifacts/e2e/resources-* and prompts-*.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

const RESOURCE: &str = r#"[data-testid="resource-item"]"#;

/// Clicks the subscribe toggle while it shows `subscribed`, then waits until it shows the
/// opposite.
async fn toggle_subscription(h: &Harness, subscribed: bool) {
    h.click(&format!(
        r#"[data-testid="subscribe-toggle"][data-subscribed="{subscribed}"]"#
    ))
    .await;
    h.find(&format!(
        r#"[data-testid="subscribe-toggle"][data-subscribed="{}"]"#,
        !subscribed
    ))
    .await;
}

/// Types into a completing field, then picks the suggestion `value`.
async fn complete(h: &Harness, field: &str, typed: &str, value: &str) {
    h.click(field).await;
    if !typed.is_empty() {
        h.type_into(field, typed).await;
    }
    h.click(&format!(
        r#"[data-testid="completion-option"][data-value="{value}"]"#
    ))
    .await;
    let picked = h.find(field).await.prop("value").await.unwrap();
    assert_eq!(
        picked.as_deref(),
        Some(value),
        "the suggestion fills {field}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn resources_page_fill_templates_view_blobs_and_show_updates() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("resources").await;
    h.ready_demo().await;
    h.click(r#"[data-testid="tab-resources"]"#).await;

    // The first page of ten, then one more, then all the rest.
    h.count_is(RESOURCE, 10).await;
    let pager = h.text(r#"[data-testid="pager"]"#).await;
    assert!(pager.contains("10 resources shown"), "{pager}");
    h.shot("first-page").await;
    h.click(r#"[data-testid="load-more"]"#).await;
    h.count_is(RESOURCE, 20).await;
    h.click(r#"[data-testid="load-all"]"#).await;
    h.count_is(RESOURCE, 27).await;
    h.gone(r#"[data-testid="pager"]"#).await;
    h.find(r#"[data-testid="resource-item"][data-uri="demo://blob/logo.png"]"#)
        .await;
    h.shot("all-resources").await;

    // A template: a completion suggestion for the category, an id, then Read.
    h.click(r#"[data-testid="resource-template-item"][data-uri-template="demo://items/{category}/{id}"]"#)
        .await;
    let category = r#"[data-testid="template-var"][data-arg-name="category"]"#;
    h.click(category).await;
    h.type_into(category, "g").await;
    h.find(r#"[data-testid="completion-option"][data-value="games"]"#)
        .await;
    h.find(r#"[data-testid="completion-option"][data-value="garden"]"#)
        .await;
    h.shot("template-suggestions").await;
    h.click(r#"[data-testid="completion-option"][data-value="garden"]"#)
        .await;
    h.type_into(r#"[data-testid="template-var"][data-arg-name="id"]"#, "42")
        .await;
    // The engine expands the template (fill_resource_template): wait for its answer.
    assert_eq!(
        h.text_containing(r#"[data-testid="template-uri"]"#, "demo://items/garden/42")
            .await,
        "demo://items/garden/42"
    );
    h.click(r#"[data-testid="template-read"]"#).await;
    h.text_containing(r#"[data-testid="resource-contents"]"#, "Item 42 in garden")
        .await;
    h.shot("template-read").await;

    // The PNG: an image, and its bytes as a hex dump.
    h.click(r#"[data-testid="resource-item"][data-uri="demo://blob/logo.png"]"#)
        .await;
    h.find(r#"[data-testid="resource-body"][data-viewer="image"] [data-testid="resource-image"]"#)
        .await;
    h.find(r#"[data-testid="save-blob"]"#).await;
    h.click(r#"[data-testid="viewer-toggle"]"#).await;
    let dump = h.text(r#"[data-testid="hex-dump"]"#).await;
    assert!(
        dump.starts_with("00000000  89 50 4e 47 0d 0a 1a 0a"),
        "{dump}"
    );
    assert!(dump.contains("|.PNG"), "{dump}");
    h.shot("blob-hex").await;

    // Subscribe to a resource, touch it from the Tools tab, see the update, read it again.
    let text3 = r#"[data-testid="resource-item"][data-uri="demo://text/3"]"#;
    h.click(text3).await;
    h.text_containing(
        r#"[data-testid="resource-contents"]"#,
        "This is text resource 3.",
    )
    .await;
    toggle_subscription(&h, false).await;
    h.find(r#"[data-testid="resource-item"][data-uri="demo://text/3"][data-subscribed="true"]"#)
        .await;
    h.pick_tool("touch_resource").await;
    h.type_into(r#"input[id$="touch_resource_uri"]"#, "demo://text/3")
        .await;
    h.call_tool_button().await;
    h.find(r#"[data-testid="tool-result"]"#).await;
    h.click(r#"[data-testid="tab-resources"]"#).await;
    let update = h
        .text_containing(
            r#"[data-testid="resource-update"][data-stale="true"]"#,
            "updated ",
        )
        .await;
    assert!(update.contains("not read since"), "{update}");
    h.find(r#"[data-testid="resource-item"][data-uri="demo://text/3"] [data-testid="resource-updated-badge"]"#)
        .await;
    h.shot("update-arrived").await;
    // The built-in demo entry is in the 2026-07-28 era: the subscription is the listen
    // stream's filter (re-opened with the URI), and the update came on that stream.
    h.click(r#"[data-testid="tab-overview"]"#).await;
    h.text_containing(
        r#"[data-testid="overview-listen"]"#,
        "list changes; 1 resource",
    )
    .await;
    h.shot("listen-with-subscription").await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="notifications/resources/updated"][data-direction="in"]"#)
        .await;
    // Asked through the method filter: the list renders only the rows in sight, so a row
    // count of the whole list would depend on the window's height.
    h.type_into(r#"[data-testid="traffic-method"]"#, "subscriptions/listen")
        .await;
    let listens =
        r#"[data-testid="traffic-row"][data-method="subscriptions/listen"][data-direction="out"]"#;
    let deadline = std::time::Instant::now() + periscope_tests::app::WAIT;
    while h.count(listens).await < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the listen stream was re-opened with the subscription: {} listen requests",
            h.count(listens).await
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // And no resources/subscribe went out (the modern era has none).
    h.clear(r#"[data-testid="traffic-method"]"#).await;
    h.type_into(r#"[data-testid="traffic-method"]"#, "resources/subscribe")
        .await;
    h.text_containing(r#"[data-testid="traffic-count"]"#, "0 of")
        .await;
    h.clear(r#"[data-testid="traffic-method"]"#).await;
    h.click(r#"[data-testid="tab-resources"]"#).await;
    h.click(r#"[data-testid="reread"]"#).await;
    h.find(r#"[data-testid="resource-update"][data-stale="false"]"#)
        .await;
    h.text_containing(
        r#"[data-testid="resource-contents"]"#,
        "This is text resource 3.",
    )
    .await;
    toggle_subscription(&h, true).await;
    h.shot("reread-unsubscribed").await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn prompt_arguments_complete_and_every_message_shows_its_role_and_content() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("prompts").await;
    h.ready_demo().await;
    h.click(r#"[data-testid="tab-prompts"]"#).await;

    // greeting: the style completes to "pirate".
    h.click(r#"[data-testid="prompt-item"][data-prompt-name="greeting"]"#)
        .await;
    h.type_into(r#"[data-testid="prompt-arg"][data-arg-name="name"]"#, "Ada")
        .await;
    let style = r#"[data-testid="prompt-arg"][data-arg-name="style"]"#;
    h.click(style).await;
    h.type_into(style, "p").await;
    h.find(r#"[data-testid="completion-option"][data-value="pirate"]"#)
        .await;
    h.shot("style-suggestion").await;
    complete(&h, style, "", "pirate").await;
    h.click(r#"[data-testid="get-prompt-button"]"#).await;
    let messages = h
        .text_containing(r#"[data-testid="prompt-messages"]"#, "Ahoy, Ada!")
        .await;
    assert!(messages.contains("A pirate greeting for Ada"), "{messages}");
    h.find(r#"[data-testid="prompt-message"][data-role="user"][data-content-type="text"]"#)
        .await;
    h.shot("greeting").await;

    // code_review: the language completes; the messages hold text and an embedded resource,
    // from the user and the assistant.
    h.click(r#"[data-testid="prompt-item"][data-prompt-name="code_review"]"#)
        .await;
    complete(
        &h,
        r#"[data-testid="prompt-arg"][data-arg-name="language"]"#,
        "ru",
        "rust",
    )
    .await;
    h.type_into(
        r#"[data-testid="prompt-arg"][data-arg-name="code"]"#,
        "fn main() { println!(\"hi\"); }",
    )
    .await;
    h.click(r#"[data-testid="get-prompt-button"]"#).await;
    h.text_containing(
        r#"[data-testid="prompt-messages"]"#,
        "Sure, I will review this rust code.",
    )
    .await;
    h.count_is(r#"[data-testid="prompt-message"]"#, 3).await;
    let embedded = h
        .text(r#"[data-testid="prompt-message"][data-content-type="resource"]"#)
        .await;
    assert!(
        embedded.contains("demo://code-review/snippet.rs"),
        "{embedded}"
    );
    assert!(embedded.contains("text/x-rust"), "{embedded}");
    assert!(embedded.contains("println!"), "{embedded}");
    h.find(r#"[data-testid="prompt-message"][data-role="assistant"]"#)
        .await;
    h.shot("code-review").await;
    h.stop().await;
}
