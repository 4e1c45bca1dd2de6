//! End-to-end: the first launch opens on the welcome view (the demo server connecting behind
//! it); its examples and "Continue" only open the server form or the import preview — nothing
//! is added until the user confirms there; the demo button and the house button go back and
//! forth.

use periscope_tests::app::{DEMO_READY, Harness, ONE_AT_A_TIME};

const WELCOME: &str = r#"[data-testid="welcome"]"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_first_launch_welcomes_and_the_paste_box_only_opens_the_form_or_the_preview() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("onboarding").await;

    // First launch: the welcome view, while the demo server connects by itself behind it.
    let welcome = h.text(WELCOME).await;
    assert!(
        welcome.contains("Select a server on the left, or add one."),
        "{welcome}"
    );
    h.find(DEMO_READY).await;
    assert_eq!(
        h.count(WELCOME).await,
        1,
        "still welcoming once the demo is up"
    );
    assert_eq!(h.count(r#"[data-testid="tab-tools"]"#).await, 0);
    h.shot("welcome").await;

    // A command line example goes to the import preview, which shows it; nothing is imported.
    h.click(r#"[data-testid="welcome-example-0"]"#).await;
    let pasted = h
        .find(r#"[data-testid="welcome-paste"]"#)
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(pasted, "npx -y @modelcontextprotocol/server-everything");
    h.click(r#"[data-testid="welcome-continue"]"#).await;
    h.text_containing(
        r#"[data-testid="import-preview"]"#,
        "@modelcontextprotocol/server-everything",
    )
    .await;
    h.shot("welcome-to-import").await;
    h.find(r#"[data-testid="import-confirm"]"#).await;
    h.find("body")
        .await
        .send_keys(&fantoccini::key::Key::Escape.to_string())
        .await
        .unwrap();
    h.gone(r#"[data-testid="import-preview"]"#).await;
    h.count_is(r#"[data-testid="server-item"]"#, 2).await;

    // A URL goes to the server form, filled in; cancelling adds nothing.
    h.click(r#"[data-testid="welcome-example-1"]"#).await;
    h.click(r#"[data-testid="welcome-continue"]"#).await;
    let url = h
        .find(r#"[data-testid="server-form-url"]"#)
        .await
        .prop("value")
        .await
        .unwrap();
    assert_eq!(url.as_deref(), Some("https://example.com/mcp"));
    h.click(r#"[data-testid="server-form-cancel"]"#).await;
    h.count_is(r#"[data-testid="server-item"]"#, 2).await;

    // The demo button selects the demo server; the house button brings the welcome back.
    h.click(r#"[data-testid="welcome-demo"]"#).await;
    h.gone(WELCOME).await;
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="tool-item"][data-tool-name="add"]"#)
        .await;
    h.click(r#"[data-testid="open-welcome"]"#).await;
    h.find(WELCOME).await;

    // Not a first launch any more: the app opens on a server.
    let h = h.restart().await;
    h.find(r#"[data-testid="tab-tools"]"#).await;
    assert_eq!(h.count(WELCOME).await, 0);
    h.stop().await;
}
