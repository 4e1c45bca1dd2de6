//! End-to-end: a model in the loop, on the real app, against the fake provider fixture
//! (tests/src/bin/fake-model.rs; no network, no real model). The provider is configured
//! through Settings → Models with its key typed into the masked field; then (a) the legacy
//! demo's `sample` tool is drafted by the model, edited by the user and approved, and the
//! response frame in Traffic holds the edited text and the model's name; (b) a playground turn
//! on the demo: the model asks for `add` {a:2,b:3}, the call waits for the user's approval,
//! then the answer streams in with its tokens and time, and the call is in Traffic and in
//! History as the model's; (c) the conversation exports as Markdown. The key is never on the
//! page after saving, never in models.json, and reaches the provider.

#[path = "support/fake_model.rs"]
mod fake_model;

use fake_model::FakeModel;
use periscope_tests::app::{Harness, ONE_AT_A_TIME, catalog_of_one};
use periscope_tests::scratch_dir;

const KEY: &str = "sk-e2e-periscope-0123456789";
const DIALOG: &str = r#"[data-testid="ask-dialog"]"#;

/// Clicks `css` after scrolling it into the middle of its scrolling box (the settings
/// dialog's body scrolls, and a click WebKit aims at an element below its fold lands on the
/// backdrop, which closes the dialog).
async fn click_in_view(h: &Harness, css: &str) {
    let element = h.find(css).await;
    h.client
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});",
            vec![serde_json::to_value(&element).unwrap()],
        )
        .await
        .unwrap();
    element.click().await.expect("click");
}

/// Settings → Models → Add: the fake provider (OpenAI-compatible at `<base>/v1`), model
/// fake-1, the key typed into the masked field. Asserts the key leaves the page once saved.
async fn add_fake_provider(h: &mut Harness, model: &FakeModel) {
    h.click(r#"[data-testid="settings-button"]"#).await;
    h.find(r#"[data-testid="models-section"]"#).await;
    click_in_view(h, r#"[data-testid="model-add"]"#).await;
    h.type_into(r#"[data-testid="model-name"]"#, "Fake model")
        .await;
    h.type_into(
        r#"[data-testid="model-base-url"]"#,
        &format!("{}/v1", model.base),
    )
    .await;
    h.type_into(r#"[data-testid="model-model"]"#, "fake-1")
        .await;
    let key = h.find(r#"[data-testid="model-key"]"#).await;
    assert_eq!(
        key.attr("type").await.unwrap().as_deref(),
        Some("password"),
        "the key field is masked"
    );
    key.send_keys(KEY).await.unwrap();
    h.shot("provider-form").await;
    click_in_view(h, r#"[data-testid="model-save"]"#).await;
    h.find(r#"[data-testid="model-item"] [data-testid="model-has-key"]"#)
        .await;
    // Test: the smallest request; which model answered and how fast.
    click_in_view(h, r#"[data-testid="model-test"]"#).await;
    h.text_containing(r#"[data-testid="model-probe"]"#, "fake-1")
        .await;
    h.shot("provider-saved").await;
    let page = h.client.source().await.unwrap();
    assert!(
        !page.contains(KEY),
        "the key is not on the page after saving"
    );
    h.click(r#"[data-testid="settings-save"]"#).await;
    h.gone(r#"[data-testid="settings-dialog"]"#).await;

    let models_json = h.data.join("data/dev.periscope.app/models.json");
    let text = std::fs::read_to_string(&models_json).expect("models.json is written");
    assert!(text.contains("fake-1"), "{text}");
    assert!(
        !text.contains(KEY),
        "the key is never in models.json: {text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sampling_is_drafted_by_the_fake_model_edited_and_approved_then_answered_by_the_auto_rule()
{
    let _turn = ONE_AT_A_TIME.lock().await;
    let model = FakeModel::start(
        "e2e-sample.json",
        Some(KEY),
        &scratch_dir("e2e-models-sample"),
    );
    let mut h = Harness::start("models/sampling").await;
    h.ready_demo().await;
    add_fake_provider(&mut h, &model).await;

    h.connect_legacy_demo().await;
    h.pick_tool("sample").await;
    h.type_into(
        r#"input[id$="sample_prompt"]"#,
        "Write a haiku about periscopes",
    )
    .await;
    h.call_tool_button().await;
    h.find(r#"[data-testid="ask-dialog"][data-kind="sampling"]"#)
        .await;
    h.click(r#"[data-testid="sampling-draft-button"]"#).await;
    h.find(r#"[data-testid="sampling-draft-done"]"#).await;
    let chosen = h.text(r#"[data-testid="sampling-draft-chosen"]"#).await;
    assert!(
        chosen.contains("Fake model") && chosen.contains("fake-1"),
        "{chosen}"
    );
    let reply = h.find(r#"[data-testid="sampling-reply-text"]"#).await;
    let drafted = reply.prop("value").await.unwrap().unwrap_or_default();
    assert_eq!(drafted, "Periscope up: the sea of frames, each byte kept.");
    let model_field = h.find(r#"[data-testid="sampling-model"]"#).await;
    assert_eq!(
        model_field.prop("value").await.unwrap().as_deref(),
        Some("fake-1")
    );
    // The user edits the draft before approving it.
    reply.send_keys(" Edited by hand.").await.unwrap();
    h.shot("sampling-draft").await;
    h.click(r#"[data-testid="sampling-approve"]"#).await;
    h.gone(DIALOG).await;
    h.result_saying("Edited by hand.").await;

    // The response the app sent is in Traffic with the edited text and the model's name.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.click(r#"[data-testid="traffic-row"][data-method="sampling/createMessage"][data-kind="response"]"#)
        .await;
    let detail = h
        .text_containing(r#"[data-testid="frame-detail"]"#, "Edited by hand.")
        .await;
    assert!(detail.contains("fake-1"), "{detail}");
    // Recorded as a model's draft the user approved.
    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.find(r#"[data-testid="decision-row"][data-decision="model_reply"]"#)
        .await;

    // The rule "approve automatically for this server": the model answers without a dialog,
    // the rule is visible where it is set, and the answer is recorded as the model's.
    h.click(r#"[data-testid="model-rule-auto"]"#).await;
    h.click(r#"[data-testid="model-rule-save"]"#).await;
    h.find(r#"[data-testid="model-rule-auto-on"]"#).await;
    h.shot("auto-approve-rule").await;
    h.pick_tool("sample").await;
    h.call_tool_button().await;
    h.result_saying("Auto answer: frames surface, kept.").await;
    assert_eq!(h.count(DIALOG).await, 0, "the rule answered, no dialog");
    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.find(r#"[data-testid="decision-row"][data-decision="auto_model_reply"]"#)
        .await;

    let requests = model.requests();
    assert_eq!(
        requests.len(),
        3,
        "the Test probe, the draft, the automatic answer: {requests:?}"
    );
    assert!(requests.iter().all(|r| r["auth"] == "ok"), "{requests:?}");
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_playground_turn_calls_add_after_approval_answers_and_exports_as_markdown() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let model = FakeModel::start("e2e-add.json", Some(KEY), &scratch_dir("e2e-models-add"));
    let mut h = Harness::start("models/playground").await;
    h.ready_demo().await;
    add_fake_provider(&mut h, &model).await;

    h.click(r#"[data-testid="tab-playground"]"#).await;
    h.click(r#"[data-testid="chat-new"]"#).await;
    h.type_into(r#"[data-testid="chat-input"]"#, "add 2 and 3")
        .await;
    h.click(r#"[data-testid="chat-send"]"#).await;
    // The call is shown with its arguments before it runs, and waits.
    let card = h
        .find(r#"[data-testid="chat-tool-call"][data-tool="add"][data-waiting="true"]"#)
        .await;
    let args = h.text(r#"[data-testid="chat-tool-args"]"#).await;
    let args: serde_json::Value = serde_json::from_str(&args).unwrap();
    assert_eq!(args, serde_json::json!({"a": 2, "b": 3}));
    assert!(card.text().await.unwrap().contains("add"));
    h.shot("tool-approval").await;
    h.click(r#"[data-testid="chat-approve-once"]"#).await;
    h.find(r#"[data-testid="chat-tool-result"]"#).await;
    h.text_containing(r#"[data-testid="chat-transcript"]"#, "The sum is 5.")
        .await;
    let stats = h.text(r#"[data-testid="turn-stats"]"#).await;
    // 40 + 60 in, 12 + 8 out, two requests, the model's name.
    assert!(stats.contains("100") && stats.contains("20"), "{stats}");
    assert!(stats.contains("fake-1") && stats.contains("ms"), "{stats}");
    h.shot("playground").await;

    // A prompt chosen with "/" (its arguments form) and a resource attached from the picker:
    // both are read from the server and reach the model as the user's message.
    h.type_into(r#"[data-testid="chat-input"]"#, "/gre").await;
    h.click(r#"[data-testid="chat-prompt-option"]"#).await;
    h.type_into(r#"[data-testid="chat-prompt-arg-name"]"#, "Ada")
        .await;
    let picker = h.find(r#"[data-testid="chat-resource-picker"]"#).await;
    picker
        .select_by_value("demo://text/1")
        .await
        .expect("the demo's first text resource is offered");
    h.click(r#"[data-testid="chat-attach"]"#).await;
    h.find(r#"[data-testid="chat-resource-chip"]"#).await;
    h.click(r#"[data-testid="chat-send"]"#).await;
    h.text_containing(
        r#"[data-testid="chat-transcript"]"#,
        "Hello Ada, I read text resource 1.",
    )
    .await;
    h.count_is(r#"[data-testid="turn-stats"]"#, 2).await;
    let sent = model.requests().last().unwrap()["body"].to_string();
    assert!(sent.contains("Hey Ada! Great to see you."), "{sent}");

    // A skill attached from the picker (SEP-2640): loaded when the message is sent, its
    // SKILL.md verified against its entry, and its text reaching the model with its origin.
    h.click(r#"[data-testid="chat-skill-picker"] option[value="skill://arithmetic/SKILL.md"]"#)
        .await;
    h.click(r#"[data-testid="chat-attach-skill"]"#).await;
    h.find(r#"[data-testid="chat-skill-chip"]"#).await;
    h.type_into(r#"[data-testid="chat-input"]"#, "Use the skill")
        .await;
    h.click(r#"[data-testid="chat-send"]"#).await;
    h.text_containing(
        r#"[data-testid="chat-transcript"]"#,
        "I follow the arithmetic skill.",
    )
    .await;
    h.count_is(r#"[data-testid="turn-stats"]"#, 3).await;
    let sent = model.requests().last().unwrap()["body"].to_string();
    assert!(sent.contains("untrusted server content"), "{sent}");
    assert!(sent.contains("# Arithmetic"), "{sent}");

    // The model's call went through the session: in Traffic, and in History as the model's.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/call"][data-kind="response"]"#)
        .await;
    // The call's card links to its History entry, which is shown marked as the model's.
    h.click(r#"[data-testid="tab-playground"]"#).await;
    h.click(r#"[data-testid="chat-tool-history"]"#).await;
    h.find(r#"[data-testid="history-row"][data-focused="true"][data-target="add"][data-origin="model"]"#)
        .await;
    // The user's approval is a consent decision in the server's record (Requests tab).
    h.click(r#"[data-testid="tab-requests"]"#).await;
    h.find(r#"[data-testid="decision-row"][data-decision="tool_approved"]"#)
        .await;

    // Export as Markdown (the save dialog is the harness's PERISCOPE_SAVE_DIR seam).
    h.click(r#"[data-testid="tab-playground"]"#).await;
    // The button is disabled while a turn runs: wait until the last turn has ended.
    h.click(r#"[data-testid="chat-export"]:not([disabled])"#)
        .await;
    let said = h.text(r#"[data-testid="chat-exported"]"#).await;
    let saved = std::fs::read_dir(h.data.join("saved-files"))
        .unwrap()
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "md"))
        .expect("a Markdown file is written")
        .path();
    assert!(
        said.contains(saved.file_name().unwrap().to_str().unwrap()),
        "{said}"
    );
    let markdown = std::fs::read_to_string(&saved).unwrap();
    assert!(markdown.contains("add 2 and 3"), "{markdown}");
    assert!(markdown.contains("The sum is 5."), "{markdown}");
    assert!(markdown.contains("Hello Ada"), "{markdown}");
    assert!(
        markdown.contains("I follow the arithmetic skill."),
        "{markdown}"
    );
    assert!(!markdown.contains(KEY));
    // Saved in the data folder too, owner-only.
    let conversations = h.data.join("data/dev.periscope.app/conversations");
    let file = std::fs::read_dir(&conversations)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );

    // A new conversation starts empty; the saved one opens again with its transcript.
    h.click(r#"[data-testid="chat-new"]"#).await;
    h.count_is(r#"[data-testid="chat-user"]"#, 0).await;
    let open = h.find(r#"[data-testid="chat-open"]"#).await;
    open.select_by_index(1).await.unwrap();
    h.text_containing(r#"[data-testid="chat-transcript"]"#, "The sum is 5.")
        .await;
    h.count_is(r#"[data-testid="turn-stats"]"#, 3).await;

    let requests = model.requests();
    assert_eq!(requests.len(), 5, "probe and four requests: {requests:?}");
    assert!(requests.iter().all(|r| r["auth"] == "ok"), "{requests:?}");
    h.stop().await;
}

/// The rug pull in the playground (`rug-pull-server`): the user allows `get_weather` always;
/// the call pulls the rug (the server lists the tool anew, telling the model to send the SSH
/// key along). On the next turn the model calls it again, and the playground asks again,
/// saying the tool changed since it was allowed, before anything runs.
#[tokio::test(flavor = "multi_thread")]
async fn the_playground_asks_again_before_a_model_calls_a_tool_that_changed() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let model = FakeModel::start(
        "e2e-rug-pull.json",
        Some(KEY),
        &scratch_dir("e2e-models-rug-pull"),
    );
    let mut h = Harness::start_with("models/rug-pull", |data| {
        let command = periscope_tests::bin_str("rug-pull-server");
        catalog_of_one(data, "rug", "Weather", &command, &[]);
    })
    .await;
    let server = r#"[data-testid="server-item"][data-server-id="rug"]"#;
    h.click(server).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(&format!(r#"{server}[data-status="ready"]"#)).await;
    add_fake_provider(&mut h, &model).await;

    h.click(r#"[data-testid="tab-playground"]"#).await;
    h.click(r#"[data-testid="chat-new"]"#).await;
    h.type_into(
        r#"[data-testid="chat-input"]"#,
        "What is the weather in Paris?",
    )
    .await;
    h.click(r#"[data-testid="chat-send"]"#).await;
    h.find(r#"[data-testid="chat-tool-call"][data-waiting="true"]"#)
        .await;
    assert_eq!(h.count(r#"[data-testid="chat-tool-changed"]"#).await, 0);
    h.click(r#"[data-testid="chat-approve-always"]"#).await;
    h.text_containing(
        r#"[data-testid="chat-transcript"]"#,
        "It is sunny in Paris.",
    )
    .await;

    h.type_into(r#"[data-testid="chat-input"]"#, "And in Oslo?")
        .await;
    // The button is disabled while a turn runs: wait until the last turn has ended.
    h.click(r#"[data-testid="chat-send"]:not([disabled])"#)
        .await;
    // Allowed always, but changed since: asked again, and told why.
    h.find(r#"[data-testid="chat-tool-call"][data-waiting="true"]"#)
        .await;
    h.text_containing(
        r#"[data-testid="chat-tool-changed"]"#,
        "the server changed it since",
    )
    .await;
    h.shot("asked-again").await;
    h.click(r#"[data-testid="chat-approve-once"]"#).await;
    h.text_containing(r#"[data-testid="chat-transcript"]"#, "Sunny in Oslo too.")
        .await;
    h.stop().await;
}
