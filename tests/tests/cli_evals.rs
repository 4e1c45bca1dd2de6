//! `periscope eval init | run | compare` against the demo server, with the fake models of
//! tests/fixtures/models/eval-*.json (scripted tool choices by prompt; `fake-flaky` picks the
//! wrong tool for every third "plus" question, so pass rates and intervals are exercised).
//! Every gate passes at its limit and fails past it; nothing reaches the network.

#[path = "support/fake_model.rs"]
mod fake_model;

use std::path::{Path, PathBuf};
use std::process::Output;

use fake_model::FakeModel;
use periscope_core::evals::suite::Suite;
use periscope_tests::{bin, bin_str, periscope, scratch_dir, stderr, stdout};
use serde_json::Value;

fn suite() -> PathBuf {
    periscope_tests::tests_dir().join("fixtures/evals/demo-suite.yaml")
}

/// `periscope eval run SUITE --model-url URL/v1 ARGS -- demo`.
fn eval(suite: &Path, fake: &FakeModel, args: &[&str]) -> Output {
    let url = format!("{}/v1", fake.base);
    let mut all = vec!["eval", "run", suite.to_str().unwrap(), "--model-url", &url];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-q", "--", demo()]);
    periscope(&all)
}

fn demo() -> &'static str {
    Box::leak(bin_str("periscope-demo-server").into_boxed_str())
}

fn json_of(out: &Output) -> Value {
    serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(out), stderr(out)))
}

fn summary<'a>(report: &'a Value, case: &str, model: &str, variant: &str) -> &'a Value {
    report["summaries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["case"] == case && s["model"] == model && s["variant"] == variant)
        .unwrap_or_else(|| panic!("no summary for {case} {model} {variant}"))
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

/// The run exited with `code` and printed `text`.
fn says(out: &Output, code_wanted: i32, text: &str) {
    let printed = stdout(out);
    assert_eq!(code(out), code_wanted, "{printed}{}", stderr(out));
    assert!(printed.contains(text), "{printed}");
}

#[test]
fn a_starter_suite_for_the_demo_reads_back_with_a_case_per_model_visible_tool() {
    let out = periscope(&["eval", "init", "--", demo()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let suite = Suite::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let ids: Vec<&str> = suite.cases.iter().map(|c| c.id.as_str()).collect();
    assert!(ids.contains(&"add") && ids.contains(&"echo"), "{ids:?}");
    // The app-only tool is not offered to a model, so it gets no case.
    assert!(!ids.contains(&"calculator_log"), "{ids:?}");
    let add = suite.cases.iter().find(|c| c.id == "add").unwrap();
    assert!(add.user_turns()[0].contains("Adds two numbers"), "{text}");
    assert_eq!(add.expect.called[0].tool, "add");
    assert!(text.contains("(not read-only: a run calls it only when allowed by name)"));
}

#[test]
fn two_models_three_repetitions_give_pass_rates_intervals_and_traces() {
    let dir = scratch_dir("cli_evals_two_models");
    let fake = FakeModel::start("eval-good.json,eval-flaky.json", None, &dir);
    let out = eval(
        &suite(),
        &fake,
        &[
            "--model",
            "fake-good",
            "--model",
            "fake-flaky",
            "--auto-approve-read-only",
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json = json_of(&out);
    let report = &json["report"];
    assert_eq!(report["repeat"], 3);
    assert_eq!(report["trials"].as_array().unwrap().len(), 18);
    let good = summary(report, "add", "fake-good", "as-served");
    assert_eq!(
        (good["passed"].as_u64(), good["trials"].as_u64()),
        (Some(3), Some(3))
    );
    let flaky = summary(report, "add", "fake-flaky", "as-served");
    assert_eq!(
        (flaky["passed"].as_u64(), flaky["trials"].as_u64()),
        (Some(2), Some(3))
    );
    // Wilson's interval for 2 of 3.
    let low = flaky["interval"]["low"].as_f64().unwrap();
    assert!((low - 0.2077).abs() < 1e-3, "{flaky}");
    assert_eq!(flaky["failed_checks"]["called add"], 1);
    assert_eq!(flaky["failed_checks"]["never called echo"], 1);
    // The failing repetition's trace: the wrong tool, run (echo is read-only), its result
    // read back to the model, and the answer.
    let wrong = report["trials"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["model"] == "fake-flaky" && t["case"] == "add" && t["outcome"] == "failed")
        .expect("one failed repetition");
    let call = &wrong["trace"]["calls"][0];
    assert_eq!(call["tool"], "echo");
    assert_eq!(call["arguments"]["message"], "2 plus 3");
    assert_eq!(call["approval"], "once");
    assert_eq!(call["basis"], "read_only");
    assert_eq!(call["ran"]["tool"], "echo");
    assert_eq!(call["result"], "echo: 2 plus 3");
    assert_eq!(wrong["trace"]["answer"], "Here it is: echo: 2 plus 3");
    let first = wrong["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["expectation"]["kind"] == "first")
        .unwrap();
    assert_eq!(first["miss"]["tool"], "echo");
    // Tokens as the provider counted them: 100 + 20 for the call, 120 + 12 for the answer.
    let passed = summary(report, "add", "fake-good", "as-served");
    assert_eq!(passed["mean_tokens"], 252.0);
    assert!(passed["p95_ms"].as_f64().unwrap() > 0.0);
    assert!(report["overhead"]["p50_us"].as_u64().is_some());
    // A case with a rubric and no --judge is said, not silently skipped.
    assert!(
        report["notices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["kind"] == "no_judge"),
        "{}",
        report["notices"]
    );
    // Each repetition asked the model over a stream (chat completions, tools offered).
    let requests = fake.requests();
    assert!(requests.iter().all(|r| r["body"]["stream"] == true));
    assert!(requests.iter().all(|r| r["path"] == "/v1/chat/completions"));
}

#[test]
fn the_anthropic_wire_format_runs_the_same_suite() {
    let dir = scratch_dir("cli_evals_anthropic");
    let fake = FakeModel::start("eval-good.json", None, &dir);
    let out = periscope(&[
        "eval",
        "run",
        suite().to_str().unwrap(),
        "--model-url",
        &fake.base,
        "--model-api",
        "anthropic",
        "--model",
        "fake-good",
        "--auto-approve-read-only",
        "--repeat",
        "1",
        "--format",
        "json",
        "-q",
        "--",
        demo(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = &json_of(&out)["report"];
    assert_eq!(report["totals"][0]["passed"], 3, "{}", report["totals"]);
    assert!(fake.requests().iter().all(|r| r["path"] == "/v1/messages"));
}

#[test]
fn the_pass_rate_gate_passes_at_its_limit_and_fails_past_it_in_every_format() {
    let dir = scratch_dir("cli_evals_min_pass");
    let fake = FakeModel::start("eval-flaky.json", None, &dir);
    let args = |min: &'static str, format: &'static str| {
        vec![
            "--model",
            "fake-flaky",
            "--auto-approve-read-only",
            "--case",
            "add",
            "--min-pass-rate",
            min,
            "--format",
            format,
        ]
    };
    // Every run makes three "plus" requests, so each has exactly one wrong pick: 2/3.
    let at = eval(&suite(), &fake, &args("66.6", "text"));
    assert_eq!(code(&at), 0, "{}{}", stdout(&at), stderr(&at));
    assert!(
        stdout(&at).contains("PASS min-pass-rate"),
        "{}",
        stdout(&at)
    );
    let past = eval(&suite(), &fake, &args("70", "text"));
    assert_eq!(code(&past), 1, "{}", stdout(&past));
    let text = stdout(&past);
    assert!(text.contains("FAIL min-pass-rate"), "{text}");
    assert!(
        text.contains("add [fake-flaky, as-served]: 2/3 passed (67%)"),
        "{text}"
    );
    let json = eval(&suite(), &fake, &args("70", "json"));
    assert_eq!(code(&json), 1);
    let gates = &json_of(&json)["gates"];
    assert_eq!(gates[0]["gate"], "min_pass_rate");
    assert_eq!(gates[0]["passed"], false);
    let junit = eval(&suite(), &fake, &args("70", "junit"));
    assert_eq!(code(&junit), 1);
    let xml = stdout(&junit);
    assert!(
        xml.contains(
            "<testcase classname=\"periscope.eval.gates\" name=\"min-pass-rate\">\n      <failure"
        ),
        "{xml}"
    );
    assert!(xml.contains("name=\"add\""), "{xml}");
    let junit_ok = eval(&suite(), &fake, &args("66", "junit"));
    assert_eq!(code(&junit_ok), 0);
    assert!(
        stdout(&junit_ok).contains("failures=\"0\""),
        "{}",
        stdout(&junit_ok)
    );
}

#[test]
fn the_latency_gate_passes_under_its_limit_and_fails_past_it() {
    let dir = scratch_dir("cli_evals_latency");
    let fake = FakeModel::start("eval-good.json", None, &dir);
    let run = |max: &'static str| {
        eval(
            &suite(),
            &fake,
            &[
                "--model",
                "fake-good",
                "--auto-approve-read-only",
                "--repeat",
                "2",
                "--max-p95-latency",
                max,
                "--format",
                "json",
            ],
        )
    };
    let lenient = run("60000");
    assert_eq!(code(&lenient), 0, "{}", stderr(&lenient));
    let report = &json_of(&lenient)["report"];
    // The slowest case's p95, in ms: a limit just under it fails, at it passes.
    let slowest = report["summaries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["p95_ms"].as_f64())
        .fold(0.0, f64::max);
    assert!(slowest > 0.0);
    let strict = run("0.001");
    assert_eq!(code(&strict), 1);
    let gates = &json_of(&strict)["gates"];
    assert_eq!(gates[0]["gate"], "max_p95_latency");
    assert_eq!(gates[0]["failures"].as_array().unwrap().len(), 3);
}

#[test]
fn a_baseline_fails_a_case_that_fell_past_the_margin_and_compare_names_it_broken() {
    let dir = scratch_dir("cli_evals_baseline");
    let saved = dir.join("before.json");
    let case = [
        "--case",
        "add",
        "--auto-approve-read-only",
        "--model",
        "fake-flaky",
    ];
    {
        // The same model name, answered by the good script: the baseline passes 3/3.
        let good = FakeModel::start("eval-good.json", None, &dir);
        let mut args = case.to_vec();
        args.extend_from_slice(&["--save", saved.to_str().unwrap()]);
        let out = eval(&suite(), &good, &args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    let later_dir = scratch_dir("cli_evals_baseline_later");
    let flaky = FakeModel::start("eval-flaky.json", None, &later_dir);
    let after = later_dir.join("after.json");
    let with_margin = |margin: &'static str| {
        let mut args = case.to_vec();
        args.extend_from_slice(&[
            "--baseline",
            saved.to_str().unwrap(),
            "--margin",
            margin,
            "--save",
            after.to_str().unwrap(),
        ]);
        eval(&suite(), &flaky, &args)
    };
    // 100% → 67%: 33 points.
    let within = with_margin("34");
    says(&within, 0, "PASS baseline");
    says(
        &with_margin("30"),
        1,
        "add [fake-flaky, as-served]: 100% → 67% (-33 points)",
    );
    // Compared: the case broke (exit 1); the other way round it was fixed (exit 0).
    let broke = periscope(&[
        "eval",
        "compare",
        saved.to_str().unwrap(),
        after.to_str().unwrap(),
    ]);
    says(
        &broke,
        1,
        "broken    add [fake-flaky, as-served]: 3/3 → 2/3 (-33 points)",
    );
    let fixed = periscope(&[
        "eval",
        "compare",
        after.to_str().unwrap(),
        saved.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&fixed), 0, "{}", stdout(&fixed));
    assert_eq!(json_of(&fixed)["cases"][0]["change"], "fixed");
}

#[test]
fn a_variant_rewords_a_tool_for_the_model_only_and_the_difference_is_beyond_noise() {
    let dir = scratch_dir("cli_evals_variant");
    let fake = FakeModel::start("eval-wording.json", None, &dir);
    let out = eval(
        &suite(),
        &fake,
        &[
            "--model",
            "fake-wording",
            "--auto-approve-read-only",
            "--case",
            "add",
            "--variant",
            "arithmetic-first",
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = &json_of(&out)["report"];
    assert_eq!(
        report["variants"],
        serde_json::json!(["as-served", "arithmetic-first"])
    );
    assert_eq!(
        summary(report, "add", "fake-wording", "as-served")["passed"],
        0
    );
    assert_eq!(
        summary(report, "add", "fake-wording", "arithmetic-first")["passed"],
        3
    );
    let comparison = &report["comparisons"][0];
    assert_eq!(comparison["variant"], "arithmetic-first");
    assert_eq!(comparison["total"]["delta"], 1.0);
    assert_eq!(comparison["total"]["beyond_noise"], true);
    // The trace marks the reworded tool; the server's own wording is untouched.
    let trials = report["trials"].as_array().unwrap();
    let variant = trials
        .iter()
        .find(|t| t["variant"] == "arithmetic-first")
        .unwrap();
    assert_eq!(variant["trace"]["overridden"], serde_json::json!(["add"]));
    let served = trials.iter().find(|t| t["variant"] == "as-served").unwrap();
    assert_eq!(served["trace"]["overridden"], serde_json::json!([]));
    let requests = fake.requests();
    let described = |r: &Value| {
        r["body"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["function"]["name"] == "add")
            .map(|t| t["function"]["description"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert!(
        requests
            .iter()
            .any(|r| described(r).starts_with("Use for arithmetic."))
    );
    assert!(
        requests
            .iter()
            .any(|r| described(r).starts_with("Adds two numbers."))
    );
    let listed = periscope(&["tools", "list", "--format", "json", "--", demo()]);
    assert!(stdout(&listed).contains("Adds two numbers."));
}

#[test]
fn a_call_not_allowed_is_refused_to_the_model_and_one_named_runs() {
    let dir = scratch_dir("cli_evals_approvals");
    let fake = FakeModel::start("eval-good.json", None, &dir);
    let suite_file = dir.join("toggle.yaml");
    std::fs::write(
        &suite_file,
        "cases:\n  - id: toggle\n    prompt: Please toggle the bonus items.\n    expect:\n      called: [{tool: trigger_list_changed}]\n",
    )
    .unwrap();
    let run = |extra: &[&'static str]| {
        let mut args = vec!["--model", "fake-good", "--repeat", "1", "--format", "json"];
        args.extend_from_slice(extra);
        eval(&suite_file, &fake, &args)
    };
    // Read-only tools auto-approved: this one is not read-only, so it is refused.
    let refused = run(&["--auto-approve-read-only"]);
    assert_eq!(code(&refused), 0, "{}", stderr(&refused));
    let call = &json_of(&refused)["report"]["trials"][0]["trace"]["calls"][0];
    assert_eq!(call["approval"], "reject");
    assert_eq!(call["basis"], "not_allowed");
    assert_eq!(call["ran"], Value::Null);
    assert_eq!(call["result"], "the user rejected this call");
    // Named: it runs.
    let allowed = run(&["--approve", "trigger_list_changed"]);
    let call = &json_of(&allowed)["report"]["trials"][0]["trace"]["calls"][0];
    assert_eq!(call["approval"], "once");
    assert_eq!(call["basis"], "allowed");
    assert_eq!(call["ran"]["tool"], "trigger_list_changed");
    // With no approval at all, the run says so before it starts.
    let url = format!("{}/v1", fake.base);
    let out = periscope(&[
        "eval",
        "run",
        suite_file.to_str().unwrap(),
        "--model-url",
        &url,
        "--model",
        "fake-good",
        "--repeat",
        "1",
        "--",
        demo(),
    ]);
    assert!(
        stderr(&out).contains("no tool will run"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn each_calls_response_frame_is_in_the_record_the_run_wrote() {
    let dir = scratch_dir("cli_evals_record");
    let fake = FakeModel::start("eval-good.json", None, &dir);
    let record = dir.join("eval.jsonl");
    let out = eval(
        &suite(),
        &fake,
        &[
            "--model",
            "fake-good",
            "--repeat",
            "2",
            "--case",
            "add",
            "--auto-approve-read-only",
            "--record",
            record.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = &json_of(&out)["report"];
    let seqs: Vec<u64> = report["trials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["trace"]["calls"][0]["ran"])
        .map(|ran| {
            assert_eq!(ran["history_id"], Value::Null, "the CLI keeps no history");
            ran["timing"]["response_seq"].as_u64().expect("a frame")
        })
        .collect();
    assert_eq!(seqs.len(), 2);
    assert_ne!(seqs[0], seqs[1], "each repetition's call has its own frame");
    let text = std::fs::read_to_string(&record).unwrap();
    for seq in seqs {
        let frame = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|e| e["type"] == "frame" && e["seq"] == seq)
            .unwrap_or_else(|| panic!("no frame {seq} in the record"));
        assert_eq!(frame["direction"], "in", "{frame}");
        let bytes = frame["bytes"]["text"].as_str().unwrap();
        let message: Value = serde_json::from_str(bytes).unwrap();
        assert_eq!(message["result"]["structuredContent"]["sum"], 5, "{frame}");
    }
}

#[test]
fn the_runs_bounds_are_kept_and_said() {
    let dir = scratch_dir("cli_evals_bounds");
    let fake = FakeModel::start("eval-good.json", None, &dir);
    // One repetition of add costs 252 tokens: a budget of 100 stops the run after the first.
    let out = eval(
        &suite(),
        &fake,
        &[
            "--model",
            "fake-good",
            "--auto-approve-read-only",
            "--concurrency",
            "1",
            "--max-run-tokens",
            "100",
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = &json_of(&out)["report"];
    let bound = &report["bounds"][0];
    assert_eq!(bound["kind"], "tokens", "{}", report["bounds"]);
    assert_eq!(bound["used"], 252);
    assert_eq!(bound["skipped"], 8);
    let outcomes: Vec<&str> = report["trials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes.iter().filter(|o| **o == "skipped").count(), 8);
    // A repetition longer than --case-timeout is an error, counted and said.
    let text = eval(
        &suite(),
        &fake,
        &[
            "--model",
            "fake-good",
            "--auto-approve-read-only",
            "--repeat",
            "1",
            "--case",
            "add",
            "--case-timeout",
            "0.000001",
        ],
    );
    let printed = stdout(&text);
    assert!(
        printed.contains("1 repetitions took longer than the 1 ms a repetition may take"),
        "{printed}"
    );
    assert!(printed.contains("0/1 passed"), "{printed}");
}

#[test]
fn the_advisory_judge_is_reported_apart_from_the_pass() {
    let dir = scratch_dir("cli_evals_judge");
    let fake = FakeModel::start("eval-good.json,eval-judge.json", None, &dir);
    let out = eval(
        &suite(),
        &fake,
        &[
            "--model",
            "fake-good",
            "--judge",
            "fake-judge",
            "--auto-approve-read-only",
            "--case",
            "no-tool",
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = &json_of(&out)["report"];
    let s = summary(report, "no-tool", "fake-good", "as-served");
    assert_eq!(s["judge_passed"], serde_json::json!([3, 3]));
    let judgement = &report["trials"][0]["judge"];
    assert_eq!(judgement["verdict"], "pass");
    assert_eq!(judgement["reason"], "The assistant greeted the user.");
    // The judge read the rubric and the conversation.
    let asked = fake
        .requests()
        .into_iter()
        .find(|r| r["body"]["model"] == "fake-judge")
        .unwrap();
    let text = asked["body"]["messages"].to_string();
    assert!(text.contains("greets the user and calls no tool"), "{text}");
    assert!(text.contains("User: Just say hi"), "{text}");
}

#[test]
fn attached_resources_and_prompts_reach_the_model_with_the_first_turn() {
    let dir = scratch_dir("cli_evals_attach");
    let fake = FakeModel::start("eval-good.json", None, &dir);
    let suite_file = dir.join("attach.yaml");
    std::fs::write(
        &suite_file,
        "cases:\n  - id: attached\n    prompt: What did I attach?\n    attach:\n      resources: [demo://text/1]\n      prompts: [{name: greeting, arguments: {name: Ada}}]\n    expect:\n      answer: {contains: [text resource 1]}\n      not_called: [add]\n",
    )
    .unwrap();
    let out = eval(
        &suite_file,
        &fake,
        &["--model", "fake-good", "--repeat", "1", "--format", "json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json_of(&out)["report"]["totals"][0]["passed"], 1);
    // The prompt's message came first, then the user's turn with the resource's text.
    let request = &fake.requests()[0]["body"]["messages"];
    let text = request.to_string();
    let greeting = text
        .find("Hey Ada! Great to see you.")
        .expect("the prompt's message");
    let turn = text.find("What did I attach?").expect("the user's turn");
    let resource = text.find("This is text resource 1.").expect("the resource");
    assert!(greeting < turn && turn < resource, "{text}");
}

#[test]
fn a_suite_that_does_not_read_is_refused_with_its_reason() {
    let dir = scratch_dir("cli_evals_bad_suite");
    let fake = FakeModel::start("eval-good.json", None, &dir);
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        "cases:\n  - id: a\n    prompt: hi\n    expect:\n      caled: [{tool: add}]\n",
    )
    .unwrap();
    let out = eval(&bad, &fake, &["--model", "fake-good"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("caled"), "{}", stderr(&out));
    assert!(fake.requests().is_empty(), "nothing was asked of the model");
    // An unknown model in the app's settings is named, with where to add one.
    let data = scratch_dir("cli_evals_no_settings");
    let out = std::process::Command::new(bin("periscope"))
        .args([
            "eval",
            "run",
            suite().to_str().unwrap(),
            "--model",
            "gpt-x",
            "--",
            demo(),
        ])
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("Settings → Models"),
        "{}",
        stderr(&out)
    );
}
