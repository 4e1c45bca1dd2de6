//! End-to-end: the real app answers the demo server's requests through its dialogs: a form
//! elicitation with every field kind (accepted, declined, cancelled), URL-elicitation consent
//! (warnings shown, nothing opened before the click; the opener is the harness's seam),
//! sampling (answered, rejected, a tool use, a reply rule) and roots (edited, `roots/list`
//! reflects it, the server is told). Screenshots of each dialog under test-artifacts/e2e/.

use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME, WAIT};
use periscope_tests::scratch_dir;

const DIALOG: &str = r#"[data-testid="ask-dialog"]"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_form_elicitation_is_filled_and_accepted_declined_and_cancelled() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("elicit-form").await;
    h.ready_demo().await;
    // Server-to-client requests are the legacy era's; the modern one is in e2e_eras.rs.
    h.connect_legacy_demo().await;
    h.pick_tool("elicit_form").await;
    h.call_tool_button().await;

    let dialog = h
        .find(r#"[data-testid="ask-dialog"][data-kind="elicit_form"]"#)
        .await;
    let text = dialog.text().await.unwrap();
    assert!(
        text.contains("Demo server"),
        "names the asking server: {text}"
    );
    assert!(text.contains("Please fill in the Periscope demo form."));
    // Defaults are pre-filled.
    let nickname = h.find(r#"[data-testid="elicit-field-nickname"]"#).await;
    assert_eq!(
        nickname.prop("value").await.unwrap().as_deref(),
        Some("scope")
    );
    h.shot("form-as-asked").await;

    // Accept with the required email missing and a bad ZIP: refused in the form, not sent.
    h.type_into(r#"[data-testid="elicit-field-zip"]"#, "12ab")
        .await;
    h.click(r#"[data-testid="elicit-accept"]"#).await;
    h.find(r#"[data-testid="elicit-error-email"]"#).await;
    h.find(r#"[data-testid="elicit-error-zip"]"#).await;
    h.shot("form-errors").await;

    // Fill every kind of field and accept.
    h.type_into(r#"[data-testid="elicit-field-email"]"#, "ada@example.com")
        .await;
    let zip = h.find(r#"[data-testid="elicit-field-zip"]"#).await;
    for _ in 0..4 {
        zip.send_keys(&fantoccini::key::Key::Backspace.to_string())
            .await
            .unwrap();
    }
    zip.send_keys("12345").await.unwrap();
    h.type_into(r#"[data-testid="elicit-field-age"]"#, "36")
        .await;
    h.click(r#"[data-testid="elicit-option-toppings-olive"]"#)
        .await;
    h.shot("form-filled").await;
    h.click(r#"[data-testid="elicit-accept"]"#).await;
    h.gone(DIALOG).await;
    let accepted = h.result_saying("action: accept").await;
    for expected in [
        r#""email":"ada@example.com""#,
        r#""zip":"12345""#,
        r#""age":36"#,
        r#""nickname":"scope""#,
        r#""subscribe":true"#,
        r#""size":"m""#,
        "olive",
        "cheese",
    ] {
        assert!(accepted.contains(expected), "{expected} in {accepted}");
    }
    h.shot("form-accepted").await;

    // Decline, then cancel: each sends its own action.
    h.call_tool_button().await;
    h.click(r#"[data-testid="elicit-decline"]"#).await;
    h.result_saying("action: decline").await;
    h.call_tool_button().await;
    h.click(r#"[data-testid="elicit-cancel"]"#).await;
    h.result_saying("action: cancel").await;

    // The Requests tab keeps every decision.
    h.click(r#"[data-testid="tab-requests"]"#).await;
    for decision in ["accept", "decline", "cancel"] {
        h.find(&format!(
            r#"[data-testid="decision-row"][data-decision="{decision}"][data-method="elicitation/create"]"#
        ))
        .await;
    }
    h.shot("requests-history").await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn url_consent_shows_the_warnings_and_opens_nothing_before_the_click() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("elicit-url").await;
    h.ready_demo().await;
    // Server-to-client requests are the legacy era's; the modern one is in e2e_eras.rs.
    h.connect_legacy_demo().await;

    // A look-alike host.
    h.pick_tool("elicit_url").await;
    h.type_into(
        r#"input[id$="elicit_url_url"]"#,
        "https://xn--pple-43d.com/login",
    )
    .await;
    h.call_tool_button().await;
    h.find(r#"[data-testid="ask-dialog"][data-kind="elicit_url"]"#)
        .await;
    let host = h.text(r#"[data-testid="url-host-unicode"]"#).await;
    assert_eq!(host, "аpple.com", "the decoded host is shown");
    let raw = h.text(r#"[data-testid="url-host-ascii"]"#).await;
    assert_eq!(raw, "xn--pple-43d.com", "and the raw one");
    h.find(r#"[data-testid="url-warning"][data-kind="punycode"]"#)
        .await;
    h.find(r#"[data-testid="url-warning"][data-kind="mixed_script"]"#)
        .await;
    let full = h.text(r#"[data-testid="url-full"]"#).await;
    assert!(full.contains("https://xn--pple-43d.com/login"), "{full}");
    h.shot("url-consent-lookalike").await;
    assert!(h.opened_urls().is_empty(), "nothing opened before consent");

    // With warnings, the first click on Open only asks to confirm: the button turns into
    // "Open anyway" (the click reached it and was handled), and nothing was opened.
    h.click(r#"[data-testid="url-open"]"#).await;
    h.find(r#"[data-testid="url-open"][data-confirming="true"]"#)
        .await;
    assert!(
        h.opened_urls().is_empty(),
        "one click is not enough with warnings"
    );
    h.find(DIALOG).await;
    h.shot("url-consent-confirm").await;
    // Decline instead: nothing is opened, the server hears "decline".
    h.click(r#"[data-testid="url-decline"]"#).await;
    h.gone(DIALOG).await;
    h.result_saying("action: decline").await;
    assert!(h.opened_urls().is_empty());

    // The same URL, opened anyway with two clicks.
    h.call_tool_button().await;
    h.find(DIALOG).await;
    h.click(r#"[data-testid="url-open"]"#).await;
    h.click(r#"[data-testid="url-open"]"#).await;
    h.gone(DIALOG).await;
    h.result_saying("action: accept").await;
    assert_eq!(h.opened_urls(), vec!["https://xn--pple-43d.com/login"]);

    // The demo's own URL: no warnings; the server then says the elicitation is complete.
    let input = h.find(r#"input[id$="elicit_url_url"]"#).await;
    for _ in 0.."https://xn--pple-43d.com/login".len() {
        input
            .send_keys(&fantoccini::key::Key::Backspace.to_string())
            .await
            .unwrap();
    }
    h.call_tool_button().await;
    h.find(r#"[data-testid="url-no-warnings"]"#).await;
    h.shot("url-consent-plain").await;
    h.click(r#"[data-testid="url-open"]"#).await;
    h.gone(DIALOG).await;
    h.result_saying("action: accept").await;
    let opened = h.opened_urls();
    assert_eq!(opened.len(), 2, "{opened:?}");
    assert!(opened[1].starts_with("https://example.com/periscope-demo/authorize?session="));

    // A call answered with -32042: the URL is reviewed in the same dialog, opened on the
    // click, the server says it is complete, and the retry succeeds.
    h.pick_tool("needs_authorization").await;
    h.call_tool_button().await;
    h.find(r#"[data-testid="url-required"]"#).await;
    let item = h.text(r#"[data-testid="url-required-item"]"#).await;
    assert!(
        item.contains("https://example.com/periscope-demo/authorize"),
        "{item}"
    );
    h.shot("url-required").await;
    h.click(r#"[data-testid="url-required-review"]"#).await;
    h.find(r#"[data-testid="ask-dialog"][data-kind="url_required"] [data-testid="url-consent"]"#)
        .await;
    assert_eq!(h.opened_urls().len(), 2, "nothing opened before the click");
    h.click(r#"[data-testid="url-open"]"#).await;
    h.gone(DIALOG).await;
    let deadline = Instant::now() + WAIT;
    while h.opened_urls().len() < 3 {
        assert!(Instant::now() < deadline, "the URL was not opened");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let state = h
        .find(r#"[data-testid="url-required-item"][data-done="true"]"#)
        .await;
    assert!(
        state
            .text()
            .await
            .unwrap()
            .contains("completed by the server")
    );
    h.shot("url-required-complete").await;
    h.click(r#"[data-testid="url-required-retry"]"#).await;
    h.result_saying("authorized: the action ran").await;

    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.find(r#"[data-testid="decision-row"][data-decision="decline"]"#)
        .await;
    h.find(r#"[data-testid="decision-row"][data-method="URLElicitationRequiredError"][data-decision="open"]"#)
        .await;
    let done = h
        .text(r#"[data-testid="decision-row"]:nth-child(3) [data-testid="elicitation-state"]"#)
        .await;
    assert!(done.contains("completed by the server"), "{done}");
    h.shot("url-decisions").await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sampling_is_answered_rejected_and_ruled_and_roots_reach_the_server() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("sampling-roots").await;
    h.ready_demo().await;
    // Server-to-client requests are the legacy era's; the modern one is in e2e_eras.rs.
    h.connect_legacy_demo().await;

    // Answered by the user.
    h.pick_tool("sample").await;
    h.type_into(r#"input[id$="sample_prompt"]"#, "Say ahoy")
        .await;
    h.call_tool_button().await;
    h.find(r#"[data-testid="ask-dialog"][data-kind="sampling"]"#)
        .await;
    let message = h.text(r#"[data-testid="sampling-message"]"#).await;
    assert!(message.contains("Say ahoy"), "{message}");
    let system = h.text(r#"[data-testid="sampling-system-prompt"]"#).await;
    assert!(system.contains("Periscope demo"), "{system}");
    h.type_into(r#"[data-testid="sampling-reply-text"]"#, "Ahoy!")
        .await;
    h.shot("sampling-request").await;
    h.click(r#"[data-testid="sampling-approve"]"#).await;
    h.gone(DIALOG).await;
    h.result_saying("model periscope-human replied: Ahoy!")
        .await;

    // Rejected: the server gets error -1.
    h.call_tool_button().await;
    h.find(DIALOG).await;
    h.type_into(r#"[data-testid="sampling-reject-reason"]"#, "not today")
        .await;
    h.click(r#"[data-testid="sampling-reject"]"#).await;
    let rejected = h.result_saying("sampling failed").await;
    assert!(rejected.contains("not today"), "{rejected}");

    // A tool is offered; the user answers with a tool use.
    h.click(r#"input[id$="sample_offer_tools"]"#).await;
    h.call_tool_button().await;
    h.find(r#"[data-testid="sampling-tools"]"#).await;
    h.click(r#"[data-testid="sampling-mode-tool"]"#).await;
    let input = h.find(r#"[data-testid="sampling-tool-input"]"#).await;
    input.clear().await.unwrap();
    input.send_keys(r#"{"city": "Paris"}"#).await.unwrap();
    h.shot("sampling-tool-use").await;
    h.click(r#"[data-testid="sampling-approve"]"#).await;
    let tool_use = h.result_saying("tool_use get_weather").await;
    assert!(tool_use.contains("Paris"), "{tool_use}");
    h.click(r#"input[id$="sample_offer_tools"]"#).await;

    // A reply rule answers without asking, and says so.
    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.type_into(r#"[data-testid="sampling-rule-text"]"#, "Canned reply")
        .await;
    h.click(r#"[data-testid="sampling-rule-save"]"#).await;
    h.find(r#"[data-testid="sampling-rule-on"]"#).await;
    h.pick_tool("sample").await;
    h.call_tool_button().await;
    h.result_saying("model periscope-rule replied: Canned reply")
        .await;
    assert_eq!(h.count(DIALOG).await, 0, "the rule answered, no dialog");
    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.find(r#"[data-testid="decision-row"][data-decision="auto_reply"]"#)
        .await;
    h.click(r#"[data-testid="sampling-rule-off"]"#).await;
    h.gone(r#"[data-testid="sampling-rule-on"]"#).await;

    // Roots: none at first; a folder added by path reaches roots/list, and the server is told.
    let folder = scratch_dir("e2e-root folder");
    h.find(r#"[data-testid="roots-empty"]"#).await;
    h.type_into(
        r#"[data-testid="root-path-input"]"#,
        folder.to_str().unwrap(),
    )
    .await;
    h.click(r#"[data-testid="root-add"]"#).await;
    let uri = format!("file://{}", folder.display()).replace(' ', "%20");
    h.find(&format!(r#"[data-testid="root-item"][data-uri="{uri}"]"#))
        .await;
    h.shot("roots").await;
    h.pick_tool("list_roots").await;
    h.call_tool_button().await;
    h.result_saying(&uri).await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="notifications/roots/list_changed"][data-direction="out"]"#)
        .await;

    // Removed again: the server gets an empty list.
    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.click(r#"[data-testid="root-remove"]"#).await;
    h.find(r#"[data-testid="roots-empty"]"#).await;
    h.pick_tool("list_roots").await;
    h.call_tool_button().await;
    h.result_saying("(no roots)").await;
    h.stop().await;
}
