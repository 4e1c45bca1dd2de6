//! End-to-end: the main flow on a Chinese desktop (the app started with `LANG=zh_CN.UTF-8`):
//! the UI speaks Simplified Chinese from the first paint, through the welcome view, a tool call
//! Traffic and a check of the server; switching to English in Settings applies at once and survives a restart.
//! What the UI must show is read from its own locale files (tests/src/locale.rs), and each
//! string checked is one that differs from the English.

use periscope_tests::app::{DEMO_READY, Harness, Launch, ONE_AT_A_TIME};
use periscope_tests::locale::{ui_string, zh};

#[tokio::test(flavor = "multi_thread")]
async fn on_a_chinese_desktop_the_main_flow_is_in_chinese_and_english_can_be_chosen() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let chinese_desktop = Launch {
        env: vec![
            ("LANG".into(), "zh_CN.UTF-8".into()),
            ("LC_ALL".into(), "zh_CN.UTF-8".into()),
            ("LANGUAGE".into(), String::new()),
        ],
        ..Launch::default()
    };
    let mut h = Harness::start_launch("chinese", chinese_desktop, |_| {}).await;

    // The welcome view, in Chinese from the start.
    h.attr_is("html", "lang", "zh-Hans").await;
    h.text_containing(
        r#"[data-testid="welcome"]"#,
        &zh("onboarding", "demo.title"),
    )
    .await;
    h.find(DEMO_READY).await;
    h.shot("welcome").await;

    // The demo server: tabs, the tool form and its result.
    h.click(r#"[data-testid="welcome-demo"]"#).await;
    h.text_containing(r#"[data-testid="tab-tools"]"#, &zh("server", "tabs.tools"))
        .await;
    h.pick_tool("add").await;
    h.type_into(r#"input[id$="add_a"]"#, "2").await;
    h.type_into(r#"input[id$="add_b"]"#, "40").await;
    h.text_containing(
        r#"[data-testid="call-tool-button"]"#,
        &zh("tools", "form.call"),
    )
    .await;
    h.call_tool_button().await;
    let result = h
        .text(r#"[data-testid="tool-result"][data-is-error="false"]"#)
        .await;
    assert!(result.contains("42"), "{result}");
    // The grouped views fit the window in Chinese too, their groups' captions in Chinese.
    h.assert_layout_fits().await;
    h.text_containing(
        r#"[data-testid="tab-group-activity"]"#,
        &zh("server", "tabs.groups.activity"),
    )
    .await;
    h.shot("tool-result").await;

    // Traffic: the frames, counted in Chinese.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="tools/call"][data-kind="response"]"#)
        .await
        .click()
        .await
        .unwrap();
    h.text_containing(r#"[data-testid="frame-detail"]"#, "structuredContent")
        .await;
    let frames_word = zh("traffic", "count_other")
        .rsplit("}}")
        .next()
        .unwrap()
        .trim()
        .to_string();
    h.text_containing(r#"[data-testid="traffic-count"]"#, &frames_word)
        .await;
    h.shot("traffic").await;

    // Check: a run of the demo server, its verdicts and every rule's words in Chinese.
    h.click(r#"[data-testid="tab-check"]"#).await;
    h.text_containing(r#"[data-testid="check-tab"] h2"#, &zh("check", "title"))
        .await;
    h.click(r#"[data-testid="check-run"]:not([disabled])"#)
        .await;
    h.text_containing(
        r#"[data-testid="check-changes"]"#,
        &zh("check", "changes.first"),
    )
    .await;
    h.click(r#"[data-testid="check-show-all"]"#).await;
    h.text_containing(
        r#"[data-testid="check-area-json_rpc"]"#,
        &zh("check", "rules.jsonrpc.unknown-method.title"),
    )
    .await;
    h.shot("check").await;

    // Load: a short run of add, confirmed, its report in Chinese.
    h.click(r#"[data-testid="tab-load"]"#).await;
    h.text_containing(r#"[data-testid="load-tab"] h2"#, &zh("load", "title"))
        .await;
    h.click(r#"[data-testid="load-tool"] option[value="add"]"#)
        .await;
    h.clear(r#"[data-testid="load-args"]"#).await;
    h.type_into(r#"[data-testid="load-args"]"#, r#"{"a":2,"b":40}"#)
        .await;
    h.clear(r#"[data-testid="load-count"]"#).await;
    h.type_into(r#"[data-testid="load-count"]"#, "50").await;
    h.click(r#"[data-testid="load-prepare"]"#).await;
    h.text_containing(
        r#"[data-testid="load-confirm-dialog"]"#,
        &zh("load", "confirm.title"),
    )
    .await;
    h.click(r#"[data-testid="load-confirm"]"#).await;
    h.attr_is(r#"[data-testid="load-report"]"#, "data-stopped", "count")
        .await;
    h.text_containing(
        r#"[data-testid="load-report"]"#,
        &zh("load", "stopped.count"),
    )
    .await;
    h.shot("load").await;

    // Skills: the demo's two listed, arithmetic loaded and verified, in Chinese.
    h.click(r#"[data-testid="tab-skills"]"#).await;
    h.count_is(r#"[data-testid="skill-item"]"#, 2).await;
    h.click(r#"[data-testid="skill-item"][data-skill-uri="skill://arithmetic/SKILL.md"]"#)
        .await;
    h.text_containing(
        r#"[data-testid="skill-load"]"#,
        &zh("skills", "detail.load"),
    )
    .await;
    h.click(r#"[data-testid="skill-load"]"#).await;
    h.attr_is(
        r#"[data-testid="skill-loaded"] [data-testid="skill-check"]"#,
        "data-verdict",
        "verified",
    )
    .await;
    h.text_containing(
        r#"[data-testid="skill-loaded"] [data-testid="skill-check"]"#,
        "已校验",
    )
    .await;
    h.shot("skills").await;

    // Evals: a starter suite from the demo's tools, read back, and the run form, in Chinese.
    h.click(r#"[data-testid="tab-evals"]"#).await;
    h.text_containing(r#"[data-testid="evals-tab"] h2"#, &zh("evals", "title"))
        .await;
    h.click(r#"[data-testid="evals-starter"]"#).await;
    let read = zh("evals", "suite.ok_other")
        .split("{{")
        .next()
        .unwrap()
        .to_string();
    h.text_containing(r#"[data-testid="evals-suite-ok"]"#, &read)
        .await;
    h.text_containing(
        r#"[data-testid="evals-form"]"#,
        &zh("evals", "form.noModels"),
    )
    .await;
    h.shot("evals").await;

    // Settings: English, at once.
    h.click(r#"[data-testid="settings-button"]"#).await;
    h.text_containing(
        r#"[data-testid="settings-dialog"]"#,
        &zh("settings", "appearance.language"),
    )
    .await;
    h.shot("settings").await;
    h.find(r#"[data-testid="settings-language"]"#)
        .await
        .select_by_value("en")
        .await
        .unwrap();
    h.click(r#"[data-testid="settings-save"]"#).await;
    h.gone(r#"[data-testid="settings-dialog"]"#).await;
    h.attr_is("html", "lang", "en").await;
    let tools = ui_string("en", "server", "tabs.tools");
    h.text_containing(r#"[data-testid="tab-tools"]"#, &tools)
        .await;

    // The choice beats the desktop's language after a restart.
    let h = h.restart().await;
    h.attr_is("html", "lang", "en").await;
    h.text_containing(r#"[data-testid="tab-tools"]"#, &tools)
        .await;
    h.stop().await;
}
