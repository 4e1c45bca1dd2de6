//! End-to-end: the app driven from the keyboard (issue 12 point 5) on the real built app,
//! through WebDriver, against the real demo server: the command palette (Ctrl+K, type, Enter),
//! a tool called with Ctrl+Enter, the shortcuts sheet (`?`), `/` into the traffic filter,
//! Alt+↓ to the next server, and the About dialog with the engine's versions and revisions.
//! Screenshots of the palette, the sheet and About go to test-artifacts/e2e/keyboard/.

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use periscope_tests::app::{Harness, ONE_AT_A_TIME};

/// Presses `key` with the modifiers held, as a person does, wherever the focus is.
async fn press(h: &Harness, modifiers: &[Key], key: char) {
    let mut keys = KeyActions::new("keyboard".to_owned());
    for m in modifiers {
        keys = keys.then(KeyAction::Down { value: (*m).into() });
    }
    keys = keys
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    for m in modifiers.iter().rev() {
        keys = keys.then(KeyAction::Up { value: (*m).into() });
    }
    h.client.perform_actions(keys).await.expect("key presses");
}

/// The `data-testid` of the focused element.
async fn focused(h: &Harness) -> String {
    h.client
        .execute(
            "return document.activeElement?.dataset?.testid ?? ''",
            vec![],
        )
        .await
        .expect("script")
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn blur(h: &Harness) {
    h.client
        .execute("document.activeElement?.blur()", vec![])
        .await
        .expect("script");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_palette_shortcuts_sheet_and_about_work_from_the_keyboard() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("keyboard").await;
    h.ready_demo().await;

    // Ctrl+K opens the palette with the focus in its search box; "add" puts the add tool
    // first; Enter opens it in the Tools tab.
    press(&h, &[Key::Control], 'k').await;
    h.find(r#"[data-testid="command-palette"][role="dialog"]"#)
        .await;
    assert_eq!(focused(&h).await, "palette-input");
    h.type_into(r#"[data-testid="palette-input"]"#, "add").await;
    h.attr_is(
        r#"[data-testid="palette-item"]"#,
        "data-item-id",
        "tool:add",
    )
    .await;
    h.shot("palette").await;
    press(&h, &[], Key::Enter.into()).await;
    h.gone(r#"[data-testid="command-palette"]"#).await;

    // The add tool's form: fill it, then Ctrl+Enter calls it.
    h.type_into(r#"input[id$="add_a"]"#, "2").await;
    h.type_into(r#"input[id$="add_b"]"#, "40").await;
    press(&h, &[Key::Control], Key::Enter.into()).await;
    let result = h
        .find(r#"[data-testid="tool-result"][data-is-error="false"]"#)
        .await;
    let text = result.text().await.unwrap();
    assert!(text.contains("42"), "Ctrl+Enter called add: {text}");

    // `?` outside a text field opens the shortcuts sheet; Esc closes it and gives the focus back.
    blur(&h).await;
    press(&h, &[], '?').await;
    h.find(r#"[data-testid="shortcuts-sheet"][role="dialog"]"#)
        .await;
    assert!(h.count(r#"[data-testid="shortcut-row"]"#).await >= 8);
    h.shot("shortcuts").await;
    press(&h, &[], Key::Escape.into()).await;
    h.gone(r#"[data-testid="shortcuts-sheet"]"#).await;

    // `/` shows Traffic with the focus in its filter.
    blur(&h).await;
    press(&h, &[], '/').await;
    h.find(r#"[data-testid="traffic-filter"]"#).await;
    assert_eq!(focused(&h).await, "traffic-filter");

    // About, from the palette: the versions and the revisions the engine speaks.
    press(&h, &[Key::Control], 'k').await;
    h.type_into(r#"[data-testid="palette-input"]"#, "about")
        .await;
    h.attr_is(
        r#"[data-testid="palette-item"]"#,
        "data-item-id",
        "action:about",
    )
    .await;
    press(&h, &[], Key::Enter.into()).await;
    let version = h.text(r#"[data-testid="about-app-version"]"#).await;
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert_eq!(
        h.text(r#"[data-testid="about-engine-version"]"#).await,
        env!("CARGO_PKG_VERSION")
    );
    for revision in ["2024-11-05", "2025-11-25", "2026-07-28"] {
        h.find(&format!(
            r#"[data-testid="about-revisions"] [data-revision="{revision}"]"#
        ))
        .await;
    }
    h.shot("about").await;
    // A link opens only on a click, through the app's browser path.
    assert!(h.opened_urls().is_empty());
    h.click(r#"[data-testid="about-link-spec_modern"]"#).await;
    let deadline = std::time::Instant::now() + periscope_tests::app::WAIT;
    while h.opened_urls().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the link was not opened"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        h.opened_urls(),
        vec!["https://modelcontextprotocol.io/specification/2026-07-28".to_owned()]
    );
    press(&h, &[], Key::Escape.into()).await;
    h.gone(r#"[data-testid="about-dialog"]"#).await;

    // Alt+↓ selects the next server in the catalog.
    blur(&h).await;
    press(&h, &[Key::Alt], Key::Down.into()).await;
    h.find(r#"[data-testid="server-item"][data-server-id="demo-legacy"][aria-current="true"]"#)
        .await;

    h.stop().await;
}
