//! End-to-end: the Evals view in the real app, against the demo server and two fake models
//! (tests/src/bin/fake-model.rs, one process serving `fake-good` and `fake-flaky`; no network).
//! A starter suite is made from the demo's tools; the demo suite of the CLI tests is typed in
//! and read back (3 cases, a variant); a run across both models, 3 repetitions each, with the
//! variant beside the server's wording, shows each case's pass rate (the flaky model's `add`
//! 2/3); the failing repetition opens to its trace (it called echo, not add, and why each
//! expectation failed); a second run compares with the first. Screenshots under
//! test-artifacts/e2e/evals/.

#[path = "support/fake_model.rs"]
mod fake_model;

use fake_model::FakeModel;
use periscope_tests::app::{DEMO_READY, Harness, ONE_AT_A_TIME};
use periscope_tests::scratch_dir;

const RUN: &str = r#"[data-testid="evals-run"]:not([disabled])"#;
const SUITE: &str = r#"[data-testid="evals-suite"]"#;

/// The cell of a case, model and variant in the shown run.
fn cell(case: &str, model: &str, variant: &str) -> String {
    format!(
        r#"[data-testid="evals-cell"][data-case="{case}"][data-model="{model}"][data-variant="{variant}"]"#
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn the_evals_view_runs_a_suite_across_two_models_and_opens_a_failure_to_its_trace() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let fake = FakeModel::start(
        "eval-good.json,eval-flaky.json",
        None,
        &scratch_dir("e2e-evals-model"),
    );
    let demo = periscope_tests::bin_str("periscope-demo-server");
    let base = format!("{}/v1", fake.base);
    let mut h = Harness::start_with("evals", move |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [
            {"id": "demo", "name": "Demo", "era": "auto",
             "target": {"transport": "stdio", "command": demo, "args": []}},
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
        let provider = |id: &str, name: &str, default: bool| {
            serde_json::json!({"id": id, "name": name, "kind": "open_ai_compatible",
                               "base_url": base, "model": id, "max_tokens": null,
                               "default": default})
        };
        let models = serde_json::json!({"providers": [
            provider("fake-good", "Good model", true),
            provider("fake-flaky", "Flaky model", false),
        ]});
        std::fs::write(dir.join("models.json"), models.to_string()).unwrap();
    })
    .await;

    h.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(DEMO_READY).await;
    h.click(r#"[data-testid="tab-evals"]"#).await;
    h.find(r#"[data-testid="evals-no-run"]"#).await;

    // A starter suite from the demo's tools: a case per tool a model may see.
    h.click(r#"[data-testid="evals-starter"]"#).await;
    let ok = h.find(r#"[data-testid="evals-suite-ok"]"#).await;
    let cases: usize = ok
        .attr("data-cases")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    assert!(cases >= 10, "{cases} cases");
    let text = h.find(SUITE).await.prop("value").await.unwrap().unwrap();
    assert!(
        text.contains("- id: \"add\"") && !text.contains("calculator_log"),
        "{text}"
    );
    h.shot("starter").await;

    // The demo suite, typed in, and read back on leaving the editor.
    let suite = std::fs::read_to_string(
        periscope_tests::tests_dir().join("fixtures/evals/demo-suite.yaml"),
    )
    .unwrap();
    h.clear(SUITE).await;
    // Each line break typed as the Enter key (WebDriver sends a bare "\n" as nothing).
    h.type_into(SUITE, &suite.replace('\n', "\u{E007}")).await;
    h.click(r#"[data-testid="evals-save"]"#).await;
    h.attr_is(r#"[data-testid="evals-suite-ok"]"#, "data-cases", "3")
        .await;
    let saved = h.data.join("data/dev.periscope.app/evals/demo/suite.yaml");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), suite);

    // Both models, two repetitions at once, the variant beside the server's wording.
    h.click(r#"[data-testid="evals-model-fake-good"]"#).await;
    h.click(r#"[data-testid="evals-model-fake-flaky"]"#).await;
    h.click(r#"[data-testid="evals-variant-arithmetic-first"]"#)
        .await;
    h.shot("form").await;
    h.click(RUN).await;
    h.find(r#"[data-testid="evals-report"]"#).await;
    h.find(RUN).await;
    // 3 cases × 2 models × 2 wordings × 3 repetitions.
    h.attr_is(&cell("add", "Flaky model", "as-served"), "data-passed", "2")
        .await;
    h.attr_is(&cell("add", "Good model", "as-served"), "data-passed", "3")
        .await;
    h.attr_is(
        &cell("add", "Flaky model", "arithmetic-first"),
        "data-passed",
        "3",
    )
    .await;
    h.count_is(r#"[data-testid="evals-cell"]"#, 12).await;
    h.count_is(r#"[data-testid="evals-variant"]"#, 2).await;
    // The judge rubric of no-tool went unjudged: said.
    h.attr_is(r#"[data-testid="evals-notice"]"#, "data-kind", "no_judge")
        .await;
    h.scroll_to(r#"[data-testid="evals-report"]"#).await;
    h.shot("report").await;

    // The flaky model's add, opened: its failed repetition's trace.
    h.click(&cell("add", "Flaky model", "as-served")).await;
    h.attr_is(r#"[data-testid="evals-trace"]"#, "data-outcome", "failed")
        .await;
    h.attr_is(r#"[data-testid="evals-call"]"#, "data-tool", "echo")
        .await;
    h.text_containing(
        r#"[data-testid="evals-trace"]"#,
        "called add first: echo came first",
    )
    .await;
    h.text_containing(r#"[data-testid="evals-answer"]"#, "echo: 2 plus 3")
        .await;
    h.scroll_to(r#"[data-testid="evals-trace"]"#).await;
    h.shot("trace").await;
    // The wrong call, followed: its response in Traffic (this connection's record)…
    let traffic_link = h.find(r#"[data-testid="evals-call-traffic"]"#).await;
    let seq = traffic_link.attr("data-seq").await.unwrap().unwrap();
    traffic_link.click().await.unwrap();
    h.text_containing(
        &format!(r#"[data-testid="frame-detail"][aria-label="Frame {seq}"]"#),
        "echo: 2 plus 3",
    )
    .await;
    // …and in History, marked as the eval's, which leads back to the case's trace.
    h.click(r#"[data-testid="tab-evals"]"#).await;
    h.click(r#"[data-testid="evals-call-history"]"#).await;
    let focused = r#"[data-testid="history-row"][data-focused="true"]"#;
    h.attr_is(focused, "data-target", "echo").await;
    h.text_containing(
        &format!(r#"{focused} [data-testid="history-by-eval"]"#),
        "eval add · Flaky model",
    )
    .await;
    h.shot("history").await;
    h.click(&format!(r#"{focused} [data-testid="history-by-eval"]"#))
        .await;
    h.attr_is(r#"[data-testid="evals-trials"]"#, "data-case", "add")
        .await;
    h.attr_is(r#"[data-testid="evals-trace"]"#, "data-outcome", "failed")
        .await;
    let kept = h.data.join("data/dev.periscope.app/evals/demo");
    let runs = || {
        std::fs::read_dir(&kept)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
            .count()
    };
    assert_eq!(runs(), 1, "the run is kept");

    // A second run of add alone, compared with the first.
    h.click(r#"[data-testid="evals-variant-arithmetic-first"]"#)
        .await;
    h.click(r#"[data-testid="evals-case-add"]"#).await;
    h.click(RUN).await;
    h.find(r#"[data-testid="evals-live"]"#).await;
    h.find(RUN).await;
    h.count_is(r#"[data-testid="evals-cell"]"#, 2).await;
    assert_eq!(runs(), 2);
    let first = h
        .find(r#"[data-testid="evals-compare-pick"] option:nth-child(2)"#)
        .await
        .attr("value")
        .await
        .unwrap()
        .unwrap();
    h.click(&format!(
        r#"[data-testid="evals-compare-pick"] option[value="{first}"]"#
    ))
    .await;
    h.find(r#"[data-testid="evals-comparison"]"#).await;
    // The good model's add passed both times; no-tool and echo were only in the first.
    h.attr_is(
        r#"[data-testid="evals-compare-row"][data-case="add"]"#,
        "data-change",
        "unchanged",
    )
    .await;
    h.find(r#"[data-testid="evals-compare-row"][data-change="removed"]"#)
        .await;
    h.shot("compare").await;
    // Exported, the run is what `periscope eval` reads in CI (a baseline, or compare's input),
    // and JUnit for a CI's test report.
    h.click(r#"[data-testid="evals-export-json"]"#).await;
    let exported = h.saved_file(".json").await;
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&exported).unwrap()).unwrap();
    assert_eq!(report["server"], "Demo");
    let path = exported.to_str().unwrap();
    let cli = periscope_tests::periscope(&["eval", "compare", path, path, "--format", "json"]);
    assert_eq!(
        cli.status.code(),
        Some(0),
        "{}",
        periscope_tests::stderr(&cli)
    );
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(cli["broken"], false);
    assert_eq!(cli["cases"][0]["case"], "add");
    h.click(r#"[data-testid="evals-export-junit"]"#).await;
    let junit = h.saved_file(".junit.xml").await;
    let xml = std::fs::read_to_string(junit).unwrap();
    assert!(xml.contains("<testsuite") && xml.contains("add"), "{xml}");
    h.assert_layout_fits().await;
    // Both models were asked, each offered the demo's tools, the variant's wording among them.
    let requests = fake.requests();
    for model in ["fake-good", "fake-flaky"] {
        assert!(
            requests.iter().any(|r| r["body"]["model"] == model),
            "{model}"
        );
    }
    assert!(
        requests.iter().any(|r| r["body"]["tools"]
            .to_string()
            .contains("Use for arithmetic.")),
        "the variant's wording reached the model"
    );
    h.stop().await;
}
