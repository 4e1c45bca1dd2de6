//! The `periscope` CLI as a user runs it, against the demo server and a few broken commands:
//! output, exit codes, and what reaches the record.

use std::process::{Command, Output};

use periscope_tests::{bin, names, ok_json, scratch_dir, stderr, stdout};
use serde_json::Value;

fn periscope_with(args: &[&str], server: &[&str]) -> Output {
    Command::new(bin("periscope"))
        .args(args)
        .arg("--")
        .args(server)
        .output()
        .expect("periscope runs")
}

fn demo(args: &[&str]) -> Output {
    let server = bin("periscope-demo-server");
    periscope_with(args, &[server.to_str().unwrap()])
}

#[test]
fn tools_list_shows_every_demo_tool() {
    let tools = ok_json(&demo(&["tools", "list", "--format", "json"]));
    let names = names(&tools);
    for expected in [
        "echo",
        "add",
        "create_order",
        "mixed_content",
        "slow_task",
        "elicit_form",
        "elicit_url",
        "sample",
        "list_roots",
        "fail",
        "emit_logs",
        "trigger_list_changed",
        "touch_resource",
        "calculator_app",
        "calculator_log",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let text = demo(&["tools", "list"]);
    assert!(stdout(&text).contains("add(a, b)"), "{}", stdout(&text));
}

#[test]
fn tools_call_prints_content_and_structured_content() {
    let out = demo(&["tools", "call", "add", "-a", "a=2", "-a", "b=40"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("structuredContent"),
        "{}",
        stdout(&out)
    );
    let json = ok_json(&demo(&[
        "tools",
        "call",
        "add",
        "--args",
        r#"{"a":1.5,"b":2}"#,
        "--format",
        "json",
    ]));
    assert_eq!(json["structuredContent"]["sum"], 3.5);

    let mixed = ok_json(&demo(&[
        "tools",
        "call",
        "mixed_content",
        "--format",
        "json",
    ]));
    let kinds: Vec<&str> = mixed["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["text", "image", "audio", "resource_link", "resource"]
    );
}

#[test]
fn a_tool_that_returns_is_error_exits_5() {
    let out = demo(&["tools", "call", "fail"]);
    assert_eq!(out.status.code(), Some(5));
    assert!(stdout(&out).contains("this tool always fails"));
    assert!(stderr(&out).contains("isError"));
}

#[test]
fn an_error_response_exits_4() {
    let out = demo(&["resources", "read", "demo://no/such/thing"]);
    assert_eq!(out.status.code(), Some(4), "stderr: {}", stderr(&out));
    assert!(stderr(&out).contains("resources/read: the server answered with error"));
}

#[test]
fn a_slow_call_reports_progress_and_a_timeout_exits_6_after_cancelling() {
    let out = demo(&[
        "tools",
        "call",
        "slow_task",
        "-a",
        "steps=3",
        "-a",
        "step_ms=50",
    ]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("[progress 1/3: step 1 of 3]"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("completed 3 steps"));

    let dir = scratch_dir("cli-timeout");
    let record = dir.join("timeout.jsonl");
    let out = demo(&[
        "tools",
        "call",
        "slow_task",
        "-a",
        "steps=5",
        "-a",
        "step_ms=2000",
        "--timeout",
        "0.5",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(6), "stderr: {}", stderr(&out));
    assert!(stderr(&out).contains("no answer within"));
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.contains(r#"\"method\":\"notifications/cancelled\""#),
        "{text}"
    );
}

#[test]
fn a_server_that_cannot_start_exits_3_and_says_why() {
    let out = periscope_with(&["tools", "list"], &["/nonexistent/mcp-server"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("could not start `/nonexistent/mcp-server`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_server_that_dies_before_initialize_exits_3_with_its_status_and_stderr() {
    let out = periscope_with(
        &[
            "tools",
            "list",
            "--env",
            "WHY=missing API key",
            "--cwd",
            "/tmp",
        ],
        &["sh", "-c", "echo \"fatal: $WHY in $(pwd)\" >&2; exit 7"],
    );
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(
        // Auto: the first request is the server/discover probe.
        err.contains("server exited with status 7 before answering server/discover"),
        "{err}"
    );
    assert!(err.contains("fatal: missing API key in /tmp"), "{err}");
}

#[test]
fn without_a_server_command_the_cli_explains_the_shape() {
    let out = Command::new(bin("periscope"))
        .args(["tools", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("after `--`"));
}

#[test]
fn resources_are_listed_across_pages_read_and_templated() {
    let list = ok_json(&demo(&["resources", "list", "--format", "json"]));
    assert_eq!(
        list.as_array().unwrap().len(),
        27,
        "25 text resources, a blob and the calculator app's page, over 3 pages"
    );
    let read = demo(&["resources", "read", "demo://text/7"]);
    assert_eq!(stdout(&read).trim(), "This is text resource 7.");
    let blob = demo(&["resources", "read", "demo://blob/logo.png"]);
    assert!(
        stdout(&blob).contains("[blob demo://blob/logo.png image/png"),
        "{}",
        stdout(&blob)
    );
    let templates = demo(&["resources", "templates"]);
    assert!(stdout(&templates).contains("demo://items/{category}/{id}"));
    let item = demo(&["resources", "read", "demo://items/books/42"]);
    assert_eq!(stdout(&item).trim(), "Item 42 in books");
}

#[test]
fn prompts_are_listed_and_got_with_arguments() {
    let list = demo(&["prompts", "list"]);
    assert!(
        stdout(&list).contains("greeting(name, style?)"),
        "{}",
        stdout(&list)
    );
    let got = demo(&[
        "prompts",
        "get",
        "greeting",
        "-a",
        "name=Ada",
        "-a",
        "style=pirate",
    ]);
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    assert!(stdout(&got).starts_with("# ") || stdout(&got).contains("user: "));
    assert!(stdout(&got).contains("Ada"));
}

#[test]
fn server_requests_are_declined_by_default_and_answered_from_flags() {
    let declined = demo(&["tools", "call", "elicit_form"]);
    assert!(
        stderr(&declined).contains("declined elicitation"),
        "{}",
        stderr(&declined)
    );
    assert!(stdout(&declined).contains("decline"));

    let accepted = demo(&[
        "tools",
        "call",
        "elicit_form",
        "--elicit-accept",
        r#"{"email":"ada@example.com"}"#,
    ]);
    assert!(
        stdout(&accepted).contains("ada@example.com"),
        "{}",
        stdout(&accepted)
    );

    let url = demo(&["tools", "call", "elicit_url"]);
    assert!(
        stderr(&url).contains("declined URL elicitation"),
        "{}",
        stderr(&url)
    );
    assert!(stderr(&url).contains("https://example.com/periscope-demo/authorize"));

    let sampled = demo(&[
        "tools",
        "call",
        "sample",
        "-a",
        "prompt=hi",
        "--sampling-reply",
        "Ahoy",
    ]);
    assert!(
        stdout(&sampled).contains("model periscope-cli replied: Ahoy"),
        "{}",
        stdout(&sampled)
    );

    let refused = demo(&["tools", "call", "sample", "-a", "prompt=hi"]);
    assert!(stderr(&refused).contains("declined sampling request"));

    let dir = scratch_dir("cli-roots");
    let roots = demo(&[
        "tools",
        "call",
        "list_roots",
        "--root",
        dir.to_str().unwrap(),
    ]);
    assert!(
        stdout(&roots).contains(&format!("file://{}", dir.display())),
        "{}",
        stdout(&roots)
    );
}

#[test]
fn url_elicitation_prints_the_analysis_and_opens_only_with_open_urls() {
    let dir = scratch_dir("cli-open-urls");
    let log = dir.join("opened.txt");
    let demo_with_log = |args: &[&str]| {
        Command::new(bin("periscope"))
            .args(args)
            .arg("--")
            .arg(bin("periscope-demo-server"))
            .env("PERISCOPE_OPEN_URL_LOG", &log)
            .output()
            .expect("periscope runs")
    };

    // A look-alike host: shown decoded and raw, with the warnings; declined, nothing opened.
    let spoof = demo_with_log(&[
        "tools",
        "call",
        "elicit_url",
        "-a",
        "url=https://xn--pple-43d.com/login",
    ]);
    let err = stderr(&spoof);
    assert!(
        err.contains("url:  https://xn--pple-43d.com/login"),
        "{err}"
    );
    assert!(err.contains("reads as аpple.com"), "{err}");
    assert!(err.contains("Punycode"), "{err}");
    assert!(err.contains("mixes Cyrillic and Latin"), "{err}");
    assert!(err.contains("declined URL elicitation"), "{err}");
    assert!(stdout(&spoof).contains("action: decline"));
    assert!(!log.exists(), "nothing is opened without --open-urls");

    // --elicit-accept accepts without opening.
    let accepted = demo_with_log(&["tools", "call", "elicit_url", "--elicit-accept", "{}"]);
    assert!(stdout(&accepted).contains("action: accept"));
    assert!(!log.exists(), "accepting is not opening");

    // --open-urls accepts and hands the URL to the opener (the seam records it).
    let opened = demo_with_log(&["tools", "call", "elicit_url", "--open-urls"]);
    assert!(
        stdout(&opened).contains("action: accept"),
        "{}",
        stderr(&opened)
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.starts_with("https://example.com/periscope-demo/authorize?session="),
        "{logged}"
    );

    // Never anything but http(s), even with --open-urls.
    std::fs::remove_file(&log).unwrap();
    let script = demo_with_log(&[
        "tools",
        "call",
        "elicit_url",
        "--open-urls",
        "-a",
        "url=javascript:alert(1)",
    ]);
    assert!(stdout(&script).contains("action: decline"));
    assert!(stderr(&script).contains("only http(s) URLs open"));
    assert!(!log.exists());

    // --elicit-decline declines forms quietly, naming the flag.
    let declined = demo(&["tools", "call", "elicit_form", "--elicit-decline"]);
    assert!(stderr(&declined).contains("(--elicit-decline)"));
    assert!(stdout(&declined).contains("action: decline"));
}

#[test]
fn sampling_with_tools_is_declared_and_answered() {
    let out = demo(&[
        "tools",
        "call",
        "sample",
        "-a",
        "prompt=weather?",
        "-a",
        "offer_tools=true",
        "--sampling-reply",
        "Sunny",
        "--format",
        "json",
    ]);
    assert!(
        stdout(&out).contains("model periscope-cli replied: Sunny"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

#[test]
fn server_log_messages_reach_stderr_and_quiet_silences_them() {
    let out = demo(&["tools", "call", "emit_logs"]);
    let err = stderr(&out);
    for level in ["debug", "info", "warning", "emergency"] {
        assert!(
            err.contains(&format!("[server {level} demo]")),
            "{level}: {err}"
        );
    }
    let quiet = demo(&["tools", "call", "emit_logs", "--quiet"]);
    assert!(!stderr(&quiet).contains("[server"));
}

#[test]
fn raw_sends_exactly_what_was_typed_and_shows_the_reply() {
    let out = demo(&["raw", r#"{"jsonrpc":"2.0","id":"mine","method":"ping"}"#]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["id"], "mine");

    let dir = scratch_dir("cli-raw");
    let record = dir.join("raw.jsonl");
    let garbage = "{\"jsonrpc\": \"2.0\", \"method\": tools/list}";
    let out = demo(&["raw", garbage, "--record", record.to_str().unwrap()]);
    assert!(
        stderr(&out).contains("sent as typed, but it is not JSON"),
        "{}",
        stderr(&out)
    );
    let lines: Vec<Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let sent = lines
        .iter()
        .find(|l| l["type"] == "frame" && l["bytes"]["text"] == garbage)
        .expect("the typed bytes are in the record, unchanged");
    assert!(lines.iter().any(|l| l["type"] == "flag"
        && l["seq"] == sent["seq"]
        && l["flag"]["kind"] == "invalid_user_frame"));
}

#[test]
fn an_older_protocol_version_can_be_offered() {
    let dir = scratch_dir("cli-version");
    let record = dir.join("v.jsonl");
    let out = demo(&[
        "ping",
        "--protocol-version",
        "2024-11-05",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&out).trim(), "pong", "{}", stderr(&out));
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains(r#"\"protocolVersion\":\"2024-11-05\""#));
}
