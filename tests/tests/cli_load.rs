//! `periscope load` through the real CLI, against the real demo server (stdio and Streamable
//! HTTP) and `chaos-server overload`, which refuses calls past a number at once: the counts
//! and rates asked for are the counts and rates sent; a ramp finds the concurrency the fixture
//! breaks at; every gate passes at its limit and fails past it, in text, JSON and JUnit; a
//! baseline catches a slower server; nothing is sent without a confirmation or `--yes`.

use std::process::{Command, Output};

use periscope_tests::{bin, bin_str, demo_http, periscope, scratch_dir, stderr, stdout};
use serde_json::{Value, json};

fn demo() -> String {
    bin_str("periscope-demo-server")
}

/// `periscope load ARGS -- SERVER…` (the chaos fixture speaks only legacy: `--era legacy`
/// spares each session the modern probe's wait).
fn load(args: &[&str], server: &[&str]) -> Output {
    let mut all = vec!["load"];
    all.extend_from_slice(args);
    if server[0].ends_with("chaos-server") {
        all.extend(["--era", "legacy"]);
    }
    all.push("--");
    all.extend_from_slice(server);
    periscope(&all)
}

fn report_of(out: &Output) -> Value {
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is JSON ({e}): {}\nstderr: {}",
            stdout(out),
            stderr(out)
        )
    });
    json
}

/// The run was refused before anything was sent (exit 2), saying `says`.
fn refused(out: &Output, says: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    assert!(stderr(out).contains(says), "{says}: {}", stderr(out));
}

/// A run that must succeed, as JSON (`--yes -q --format json` added).
fn measured(args: &[&str], server: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--yes", "-q", "--format", "json"]);
    let out = load(&all, server);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    report_of(&out)
}

/// A concurrency ramp of `work` with short steps.
const RAMP: &[&str] = &[
    "--tool",
    "work",
    "--ramp",
    "concurrency",
    "--step-time",
    "0.3",
];

fn echo() -> Vec<&'static str> {
    vec!["--tool", "echo", "--arg", "message=hi", "--yes", "-q"]
}

#[test]
fn a_count_goes_through_every_session_and_is_measured() {
    let mut args = echo();
    args.extend([
        "--count",
        "300",
        "--sessions",
        "3",
        "--in-flight",
        "4",
        "--format",
        "json",
    ]);
    let out = load(&args, &[&demo()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json = report_of(&out);
    let r = &json["report"];
    assert_eq!(r["stopped"], "count");
    assert_eq!(r["total"]["completed"], 300);
    assert_eq!(r["total"]["failed"], 0);
    assert_eq!(
        r["sessions"],
        json!({"asked": 3, "opened": 3, "failed": [], "lost": 0})
    );
    let op = &r["operations"][0];
    assert_eq!(
        (op["method"].as_str(), op["name"].as_str()),
        (Some("tools/call"), Some("echo"))
    );
    let latency = &op["latency"];
    for p in ["p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms"] {
        assert!(latency[p].as_f64().unwrap() > 0.0, "{p}: {latency}");
    }
    assert!(latency["p50_ms"].as_f64() <= latency["p99_ms"].as_f64());
    assert!(latency["p99_ms"].as_f64() <= latency["max_ms"].as_f64());
    // Three server processes were watched, and Periscope's CPU beside theirs.
    assert!(
        r["cpu"]["server_cpu_s"].as_f64().unwrap() > 0.0,
        "{}",
        r["cpu"]
    );
    assert!(r["cpu"]["own_cpu_s"].as_f64().unwrap() > 0.0);
    // The last sample is taken at the end, however short the run.
    assert!(
        r["server_peak_rss_bytes"].as_u64().unwrap_or(0) > 0,
        "{}",
        r["resources"]
    );
    // The series has the last, partial second at least.
    let series = r["series"].as_array().unwrap();
    let in_series: u64 = series
        .iter()
        .map(|p| p["completed"].as_u64().unwrap())
        .sum();
    assert_eq!(in_series, 300);
}

#[test]
fn record_keeps_the_first_sessions_requests_as_a_recording() {
    let dir = scratch_dir("load-record");
    let file = dir.join("first.jsonl");
    let mut args = vec!["--record", file.to_str().unwrap()];
    args.extend(echo());
    args.extend(["--count", "90", "--sessions", "3", "--format", "json"]);
    let out = load(&args, &[&demo()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sample = report_of(&out)["report"]["sample"].clone();
    assert_eq!(sample["record"], file.display().to_string());
    assert_eq!(sample["sessions"], 3);
    assert_eq!(sample["cut"], false);
    // Session 1's share of the 90, each a request in the file with its answer, after the
    // handshake. The three sessions draw on one budget, so the share is whatever session 1 was
    // quick enough to take: some, never all.
    let text = std::fs::read_to_string(&file).unwrap();
    let calls = text
        .lines()
        .filter(|l| l.contains(r#"\"tools/call\""#))
        .count() as u64;
    assert_eq!(calls, sample["requests"].as_u64().unwrap(), "{text}");
    assert!((1..90).contains(&calls), "{calls}");
    // A recording like any other: `periscope open` reads it.
    let print = periscope(&["open", file.to_str().unwrap(), "--print"]);
    assert_eq!(print.status.code(), Some(0), "{}", stderr(&print));
    assert!(stdout(&print).contains("tools/call"), "{}", stdout(&print));
}

/// Lines of a record file holding `what`.
fn lines_with(text: &str, what: &str) -> usize {
    text.lines().filter(|l| l.contains(what)).count()
}

#[test]
fn the_lane_times_out_flags_what_comes_late_or_twice_and_loses_a_crashed_session() {
    // The closed loop on a stdio session goes through its lane (requests pipelined, answers
    // matched by id): what the general path does per call, it must do too.
    let dir = scratch_dir("load-lane");
    let file = dir.join("lane.jsonl");
    // Every 10th call is answered 300 ms late against a 100 ms timeout; every 10th + 1 twice.
    let json = measured(
        &[
            "--tool",
            "work",
            "--count",
            "400",
            "--in-flight",
            "8",
            "--timeout",
            "0.1",
            "--record",
            file.to_str().unwrap(),
        ],
        &[&bin_str("chaos-server"), "unreliable", "10", "300", "0"],
    );
    let total = &json["report"]["total"];
    assert_eq!(total["completed"], 400, "{total}");
    assert_eq!(
        total["failures"],
        json!([{"kind": "timeout", "count": 40}]),
        "{total}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(lines_with(&text, r#"\"tools/call\""#), 400);
    // Sent on the lane: its ids start at 2^40, above the session's own.
    assert_eq!(
        lines_with(&text, r#"\"id\":1099511627776,\"method\""#),
        1,
        "{text}"
    );
    // The server was told of each call given up on, and the answers that came anyway are
    // flagged late (those that came before the run ended), the repeated ones duplicate.
    assert_eq!(lines_with(&text, "notifications/cancelled"), 40);
    let late = lines_with(&text, r#""kind":"late_response""#);
    assert!((1..=40).contains(&late), "{late} late flags");
    let duplicate = lines_with(&text, r#""kind":"duplicate_response""#);
    assert!(
        (36..=40).contains(&duplicate),
        "{duplicate} duplicate flags"
    );

    // The server exits at its 51st call: the calls out are lost with it, and the run ends.
    let out = load(
        &[
            "--tool",
            "work",
            "--count",
            "100",
            "--in-flight",
            "4",
            "--yes",
            "-q",
            "--format",
            "json",
        ],
        &[&bin_str("chaos-server"), "unreliable", "1000", "0", "50"],
    );
    let r = &report_of(&out)["report"];
    assert_eq!(r["stopped"], "sessions_lost", "{r}");
    assert_eq!(r["sessions"]["lost"], 1);
    let total = &r["total"];
    let lost = total["failures"][0]["count"].as_u64().unwrap();
    assert_eq!(total["failures"][0]["kind"], "session_lost", "{total}");
    assert!((1..=4).contains(&lost), "{total}");
    assert_eq!(total["completed"].as_u64().unwrap() - lost, 50, "{total}");
}

#[test]
fn on_the_lane_a_call_that_asks_for_input_is_answered_on_the_general_path() {
    // 2026-07-28: `mrtr_form` answers its first call with input_required; the lane hands the
    // call to the general path, which asks again and answers the form (declined, as the CLI's
    // host does), and the call succeeds like any other.
    let dir = scratch_dir("load-lane-input");
    let file = dir.join("input.jsonl");
    let json = measured(
        &[
            "--era",
            "modern",
            "--tool",
            "mrtr_form",
            "--count",
            "20",
            "--in-flight",
            "4",
            "--record",
            file.to_str().unwrap(),
        ],
        &[&demo(), "--eras", "modern"],
    );
    let total = &json["report"]["total"];
    assert_eq!(total["completed"], 20, "{total}");
    assert_eq!(total["failed"], 0, "{total}");
    let text = std::fs::read_to_string(&file).unwrap();
    let calls = |lane: bool| {
        text.lines()
            .filter(|l| {
                l.contains(r#"\"method\":\"tools/call\""#) && l.starts_with(r#"{"type":"frame""#)
            })
            .filter(|l| l.contains(r#"\"id\":10995116"#) == lane)
            .count()
    };
    assert_eq!(calls(true), 20, "each call first went on the lane");
    assert!(
        calls(false) >= 20,
        "and again on the general path, with the answers"
    );
    assert!(text.contains("inputResponses"));
}

#[test]
fn an_open_loop_sends_at_its_rate_and_a_tool_error_is_a_failure() {
    // 100 a second for 1.5 s: due at 0, 10 ms, …, 1490 ms.
    let json = measured(
        &[
            "--tool",
            "echo",
            "--rate",
            "100",
            "--duration",
            "1.5",
            "--in-flight",
            "8",
        ],
        &[&demo()],
    );
    let r = &json["report"];
    assert_eq!(r["stopped"], "duration");
    assert_eq!(r["total"]["completed"], 150);
    // No message: the demo's echo answers isError, each one counted as such.
    assert_eq!(r["total"]["failed"], 150);
    assert_eq!(
        r["total"]["failures"],
        json!([{"kind": "tool_error", "count": 150}])
    );
    let elapsed = r["elapsed_ms"].as_f64().unwrap();
    assert!((1490.0..5000.0).contains(&elapsed), "{elapsed}");
}

#[test]
fn a_concurrency_ramp_finds_where_the_server_breaks() {
    // The fixture works 20 ms a call and refuses a call past 4 at once.
    let json = measured(
        &[
            "--tool",
            "work",
            "--ramp",
            "concurrency",
            "--ramp-start",
            "1",
            "--ramp-step",
            "1",
            "--step-time",
            "0.3",
        ],
        &[&bin_str("chaos-server"), "overload", "4", "20"],
    );
    let r = &json["report"];
    assert_eq!(r["stopped"], "breaking_point");
    let b = &r["breaking_point"];
    assert_eq!(b["axis"], "concurrency");
    assert_eq!(b["level"], 5.0);
    assert_eq!(b["last_good_level"], 4.0);
    assert_eq!(b["crossed"]["threshold"], "error_rate");
    let steps = r["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 5);
    for step in &steps[..4] {
        assert_eq!(step["total"]["failed"], 0, "{step}");
        assert!(step["crossed"].is_null());
    }
    assert_eq!(
        steps[4]["total"]["failures"][0],
        json!({"kind": "rpc", "code": -32603, "count": steps[4]["total"]["failed"]})
    );
    // In words, too.
    let out = load(
        &[RAMP, &["--yes", "-q"]].concat(),
        &[&bin_str("chaos-server"), "overload", "2", "20"],
    );
    let text = stdout(&out);
    assert!(
        text.contains("breaking point: step 3 at 3 (")
            && text.contains("the last level that held: 2"),
        "{text}"
    );
}

#[test]
fn a_p99_ramp_breaks_on_latency() {
    // 30 ms a call: a step breaks on p99 past 25 ms at once, on error rate never.
    let out = load(
        &[
            RAMP,
            &["--break-p99", "25", "--yes", "-q", "--format", "json"],
        ]
        .concat(),
        &[&bin_str("chaos-server"), "overload", "100", "30"],
    );
    let r = &report_of(&out)["report"];
    assert_eq!(r["breaking_point"]["step"], 1, "{r}");
    assert_eq!(r["breaking_point"]["crossed"]["threshold"], "p99");
    assert!(r["breaking_point"]["last_good_level"].is_null());
}

#[test]
fn a_rate_ramp_breaks_where_requests_queue() {
    // Two in flight of 25 ms calls: at most 80 a second, well under the first step's 20 and
    // far below the second's 120. At 20 a second nothing waits; at 120 each second queues 40
    // more, and a request's latency counts from when it was due, so p99 climbs to several
    // hundred ms, far past 100 (a fixture near the step's rate made the verdict a coin toss
    // on a busy machine).
    let json = measured(
        &[
            "--tool",
            "work",
            "--ramp",
            "rate",
            "--ramp-start",
            "20",
            "--ramp-step",
            "100",
            "--step-time",
            "1",
            "--in-flight",
            "2",
            "--break-p99",
            "100",
        ],
        &[&bin_str("chaos-server"), "overload", "100", "25"],
    );
    let b = &json["report"]["breaking_point"];
    assert_eq!(b["axis"], "rate", "{b}");
    assert_eq!(b["level"], 120.0, "{}", json["report"]["steps"]);
    assert_eq!(b["last_good_level"], 20.0);
    assert_eq!(b["crossed"]["threshold"], "p99");
    // Every request due in the step was sent: 20 + 120.
    assert_eq!(json["report"]["total"]["completed"], 140);
}

#[test]
fn each_gate_passes_at_its_limit_and_fails_past_it_in_every_format() {
    let server = [
        bin_str("chaos-server"),
        "overload".into(),
        "100".into(),
        "10".into(),
    ];
    let server: Vec<&str> = server.iter().map(String::as_str).collect();
    let base = [
        "--tool",
        "work",
        "--count",
        "60",
        "--in-flight",
        "3",
        "--yes",
        "-q",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        load(&args, &server)
    };
    // Lenient gates pass: exit 0.
    let out = with(&[
        "--max-p99",
        "5000",
        "--max-error-rate",
        "0",
        "--min-throughput",
        "1",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    for gate in ["pass max-p99", "pass max-error-rate", "pass min-throughput"] {
        assert!(text.contains(gate), "{gate}: {text}");
    }
    // Each one alone, past its limit: exit 1 and named.
    for (flag, value, gate) in [
        ("--max-p99", "0.5", "max-p99"),
        ("--min-throughput", "1000000", "min-throughput"),
    ] {
        let out = with(&[flag, value, "--format", "json"]);
        assert_eq!(out.status.code(), Some(1), "{flag}: {}", stderr(&out));
        let gates = report_of(&out)["gates"].clone();
        assert_eq!(gates[0]["gate"], gate.replace('-', "_"));
        assert_eq!(gates[0]["passed"], false, "{gates}");
    }
    // The error-rate gate against a server that fails every call (-32603 past 0 at once).
    let out = load(
        &[
            "--tool",
            "work",
            "--count",
            "20",
            "--yes",
            "-q",
            "--max-error-rate",
            "50",
            "--format",
            "junit",
        ],
        &[&bin_str("chaos-server"), "overload", "0", "10"],
    );
    assert_eq!(out.status.code(), Some(1));
    let xml = stdout(&out);
    assert!(
        xml.contains(r#"<testsuites name="periscope load" tests="2" failures="1""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="100.00% failed (20 of 20), limit 50%">"#),
        "{xml}"
    );
    assert!(xml.contains("20 × error -32603 (InternalError)"), "{xml}");
}

#[test]
fn a_baseline_catches_a_slower_server() {
    let dir = scratch_dir("load-baseline");
    let baseline = dir.join("baseline.json");
    let run = |work_ms: &str, extra: &[&str]| {
        let mut args = vec![
            "--tool",
            "work",
            "--count",
            "40",
            "--in-flight",
            "2",
            "--yes",
            "-q",
        ];
        args.extend_from_slice(extra);
        load(
            &args,
            &[&bin_str("chaos-server"), "overload", "100", work_ms],
        )
    };
    let saved = run("5", &["--save", baseline.to_str().unwrap()]);
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    // The same server again holds (well within 25% at 5 ms of sleep each).
    let same = run("40", &["--save", dir.join("slow.json").to_str().unwrap()]);
    assert_eq!(same.status.code(), Some(0));
    let again = run(
        "40",
        &["--baseline", dir.join("slow.json").to_str().unwrap()],
    );
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    assert!(stdout(&again).contains("pass baseline: no request regressed by more than 25%"));
    // Eight times slower a call: p50 and p99 regressed, throughput fell.
    let slower = run("40", &["--baseline", baseline.to_str().unwrap()]);
    assert_eq!(slower.status.code(), Some(1), "{}", stdout(&slower));
    let text = stdout(&slower);
    assert!(
        text.contains(
            "FAIL baseline: regressed by more than 25% against the baseline: all requests: p50"
        ),
        "{text}"
    );
    assert!(
        text.contains("tools/call work: p50") && text.contains("REGRESSED"),
        "{text}"
    );
    // A file that is not a load report is said so, before anything starts.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{}").unwrap();
    let out = run("5", &["--baseline", bad.to_str().unwrap()]);
    refused(&out, "not a Periscope load report (no version)");
}

#[test]
fn nothing_is_sent_without_a_confirmation() {
    // No terminal and no --yes: the summary, then nothing.
    let out = Command::new(bin("periscope"))
        .args(["load", "--tool", "echo", "--count", "5", "--", &demo()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("periscope load will send:\n  tools/call echo\nto "),
        "{err}"
    );
    assert!(
        err.contains("nothing was sent: confirm on a terminal, or pass --yes"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
    // A tool the server marks destructive is named in the summary.
    let out = load(
        &["--tool", "wipe", "--count", "1"],
        &[&bin_str("chaos-server"), "overload", "4", "1"],
    );
    refused(
        &out,
        "warning: the server marks these tools destructive: wipe",
    );
    // With --yes it runs, and a tool the server does not list is named.
    let out = load(
        &["--tool", "nosuch", "--count", "1", "--yes"],
        &[&bin_str("chaos-server"), "overload", "4", "1"],
    );
    assert!(
        stderr(&out).contains("warning: the server does not list these tools: nosuch"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_recording_and_saved_calls_are_workloads() {
    let dir = scratch_dir("load-workloads");
    let record = dir.join("session.jsonl");
    let out = periscope(&[
        "tools",
        "call",
        "add",
        "--arg",
        "a=2",
        "--arg",
        "b=3",
        "--record",
        record.to_str().unwrap(),
        "--",
        &demo(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json = measured(
        &[
            "--from-recording",
            record.to_str().unwrap(),
            "--count",
            "20",
        ],
        &[&demo()],
    );
    let r = &json["report"];
    // The recording's handshake is left out; its tools/list? none was sent by `tools call`.
    let ops: Vec<String> = r["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            format!(
                "{} {}",
                o["method"].as_str().unwrap(),
                o["name"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(ops, ["tools/call add"]);
    assert_eq!(r["total"]["completed"], 20);
    assert_eq!(r["total"]["failed"], 0);

    // Saved calls, mixed 3:1 (the app's saved.json).
    let data = dir.join("data");
    let app = data.join("dev.periscope.app");
    std::fs::create_dir_all(&app).unwrap();
    let call = |id: &str, name: &str, kind: &str, target: &str, args: Value| {
        json!({"id": id, "server_id": "demo", "name": name, "kind": kind, "target": target,
               "arguments": args, "created_wall_us": 1_700_000_000_000_000u64})
    };
    let saved = json!({"calls": [
        call("1", "two plus three", "tool", "add", json!({"a": 2, "b": 3})),
        call("2", "first text", "resource", "demo://text/1", json!({})),
    ]});
    std::fs::write(app.join("saved.json"), saved.to_string()).unwrap();
    let out = Command::new(bin("periscope"))
        .args([
            "load",
            "--saved",
            "two plus three@3",
            "--saved",
            "first text",
            "--count",
            "40",
            "--yes",
            "-q",
            "--format",
            "json",
            "--",
            &demo(),
        ])
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = &report_of(&out)["report"];
    let count = |method: &str| {
        r["operations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["method"] == method)
            .map(|o| o["completed"].as_u64().unwrap())
    };
    assert_eq!(count("tools/call"), Some(30));
    assert_eq!(count("resources/read"), Some(10));
    assert_eq!(r["methods"].as_array().unwrap().len(), 2);
    // A name that is not saved is said so.
    let out = Command::new(bin("periscope"))
        .args([
            "load",
            "--saved",
            "nope@2",
            "--count",
            "1",
            "--yes",
            "--",
            &demo(),
        ])
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    refused(&out, "no saved call named \"nope\"");
}

#[test]
fn over_http_each_session_is_its_own_connection() {
    let server = demo_http();
    let out = periscope(&[
        "load",
        "--url",
        &server.url,
        "--tool",
        "add",
        "--arg",
        "a=1",
        "--arg",
        "b=2",
        "--count",
        "200",
        "--sessions",
        "3",
        "--in-flight",
        "2",
        "--yes",
        "-q",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = &report_of(&out)["report"];
    assert_eq!(r["total"]["completed"], 200);
    assert_eq!(r["total"]["failed"], 0);
    assert!(r["cpu"]["server_cpu_s"].is_null());
    // Sampled once a second and at the end: a run this short has its last sample at least.
    let max = r["connections_max"].as_u64().unwrap_or(0);
    assert!(max >= 1, "{r}");
}

#[test]
fn a_run_needs_an_end_and_something_to_send() {
    for (args, says) in [
        (
            vec!["load", "--tool", "echo", "--yes"],
            "a run needs an end",
        ),
        (vec!["load", "--count", "1", "--yes"], "say what to send"),
        (
            vec![
                "load", "--tool", "echo", "--count", "1", "--rate", "0", "--yes",
            ],
            "the rate must be a positive number",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["--", "/nonexistent-server"]);
        let out = periscope(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn instances_of_one_server_share_the_load_and_are_compared() {
    let (a, b) = (demo_http(), demo_http());
    let both = |extra: &[&str]| {
        let mut args = vec![
            "load",
            "--url",
            &a.url,
            "--url",
            &b.url,
            "--tool",
            "add",
            "-a",
            "a=1",
            "-a",
            "b=2",
            "--count",
            "100",
            "--sessions",
            "2",
            "--in-flight",
            "2",
            "--yes",
            "-q",
        ];
        args.extend_from_slice(extra);
        periscope(&args)
    };
    // Alike: each logical client's requests went to both, and nothing differs.
    let out = both(&["--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = &report_of(&out)["report"];
    assert_eq!(r["sessions"]["asked"], 4, "two clients × two instances");
    assert_eq!(r["total"]["completed"], 100);
    let c = &r["consistency"];
    assert_eq!(c["instances"], json!([a.url, b.url]));
    assert_eq!(c["differences"], json!([]), "{c}");
    let compared = c["compared"].to_string();
    for what in [
        "server info and capabilities",
        "tools/list",
        "tools/list cache hints",
        "prompts/list",
        "tools/call add {\"a\":1,\"b\":2} cache hints",
    ] {
        assert!(
            compared.contains(&what.replace('"', "\\\"")),
            "{what}: {compared}"
        );
    }
    // One instance now lists its bonus items (the demo's trigger_list_changed): said, item by
    // item, against the first.
    let out = periscope(&["tools", "call", "trigger_list_changed", "--url", &b.url]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = both(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "the instances answered differently (against instance 1, {}):",
            a.url
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("  instance 2 ({}), tools/list:\n    /", b.url))
            && text.contains(r#"(absent) → {"name":"bonus""#),
        "{text}"
    );
    assert!(
        text.contains("prompts/list:") && text.contains("resources/list:"),
        "{text}"
    );
    // Several --url are load's alone.
    let out = periscope(&["tools", "list", "--url", &a.url, "--url", &b.url]);
    refused(&out, "several --url are for `periscope load` only");
}

/// Locust's statistics row for `name` in `stats.csv`: (requests, failures).
fn locust_counts(stats: &str, name: &str) -> Option<(u64, u64)> {
    stats.lines().find_map(|line| {
        let cols: Vec<&str> = line.split(',').collect();
        (cols.get(1) == Some(&name)).then(|| (cols[2].parse().unwrap(), cols[3].parse().unwrap()))
    })
}

#[test]
fn the_exported_locustfile_runs_distributed_and_counts_like_periscope() {
    let server = demo_http();
    let dir = scratch_dir("load-locust");
    let locust = periscope_tests::tests_dir().join("load/run.sh");
    // `echo` without its message: every call answers isError, in both tools' counts.
    let workload = [
        "--tool",
        "echo",
        "--count",
        "40",
        "--sessions",
        "4",
        "--url",
        &server.url,
    ];
    for era in ["legacy", "modern"] {
        let mut args = vec!["load", "--era", era, "--yes", "-q", "--format", "json"];
        args.extend_from_slice(&workload);
        let out = periscope(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let ours = &report_of(&out)["report"]["total"];
        assert_eq!(ours["completed"], 40);
        assert_eq!(
            ours["failures"],
            json!([{"kind": "tool_error", "count": 40}])
        );

        let mut args = vec!["load", "--era", era, "--export", "locust"];
        args.extend_from_slice(&workload);
        let out = periscope(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let file = dir.join(format!("{era}.py"));
        std::fs::write(&file, &out.stdout).unwrap();
        // One master and two workers on loopback, four users of ten calls each.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
            .to_string();
        let worker = || {
            Command::new(&locust)
                .args([
                    "-f",
                    file.to_str().unwrap(),
                    "--worker",
                    "--master-host",
                    "127.0.0.1",
                ])
                .args(["--master-port", &port])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        let workers = [worker(), worker()];
        let csv = dir.join(era);
        let master = Command::new(&locust)
            .args([
                "-f",
                file.to_str().unwrap(),
                "--master",
                "--master-bind-host",
                "127.0.0.1",
            ])
            .args([
                "--master-bind-port",
                &port,
                "--headless",
                "--expect-workers",
                "2",
            ])
            .args([
                "--expect-workers-max-wait",
                "60",
                "-u",
                "4",
                "-r",
                "4",
                "-t",
                "4s",
            ])
            .args(["--csv", csv.to_str().unwrap()])
            .output()
            .unwrap();
        for mut w in workers {
            let _ = w.wait();
        }
        let stats =
            std::fs::read_to_string(dir.join(format!("{era}_stats.csv"))).unwrap_or_else(|e| {
                panic!(
                    "{era}: no stats ({e}): {}",
                    String::from_utf8_lossy(&master.stderr)
                )
            });
        assert_eq!(
            locust_counts(&stats, "tools/call echo"),
            Some((40, 40)),
            "{era}: {stats}"
        );
        let handshake = if era == "legacy" {
            "initialize"
        } else {
            "server/discover"
        };
        assert_eq!(
            locust_counts(&stats, handshake),
            Some((4, 0)),
            "{era}: {stats}"
        );
        let failures = std::fs::read_to_string(dir.join(format!("{era}_failures.csv"))).unwrap();
        assert!(
            failures.contains("POST,tools/call echo,CatchResponseError('isError'),40,"),
            "{era}: {failures}"
        );
    }
    // Only over HTTP.
    let out = load(
        &["--tool", "echo", "--count", "1", "--export", "locust"],
        &[&demo()],
    );
    refused(&out, "--export locust writes a load test over HTTP");
}
