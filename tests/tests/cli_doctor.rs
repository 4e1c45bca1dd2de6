//! The connection doctor through the real CLI: each failure a fixture produces comes with its
//! `periscope: hint: …` line (and in `--format json`, its typed `diagnoses`), and a normal
//! server (the demo server) gets none.

use std::path::Path;
use std::process::{Command, Output};

use periscope_tests::{HttpServerProcess, bin, scratch_dir, stderr};
use serde_json::Value;

fn periscope(args: &[&str]) -> Command {
    let mut command = Command::new(bin("periscope"));
    // Global options go first: everything after `--` is the server's.
    command.args(["--timeout", "10"]).args(args);
    command
}

fn run(mut command: impl std::borrow::BorrowMut<Command>) -> Output {
    command.borrow_mut().output().expect("periscope runs")
}

fn hints(out: &Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter_map(|l| l.strip_prefix("periscope: hint: "))
        .map(str::to_string)
        .collect()
}

fn json_stdout(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn demo() -> String {
    bin("periscope-demo-server").to_string_lossy().into_owned()
}

fn misbehaving_http(mode: &str) -> HttpServerProcess {
    HttpServerProcess::start(Command::new(bin("misbehaving-http")).arg(mode))
}

fn demo_http() -> HttpServerProcess {
    HttpServerProcess::start(Command::new(bin("periscope-demo-server")).args([
        "--http",
        "127.0.0.1:0",
        "--eras",
        "dual",
    ]))
}

/// A normal server gets no hint, whatever is in the environment.
#[test]
fn the_demo_server_gets_no_hint_over_stdio_or_http() {
    let out =
        run(periscope(&["tools", "list", "--", &demo()]).env("HTTPS_PROXY", "http://127.0.0.1:9"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(hints(&out).is_empty(), "{}", stderr(&out));
    let server = demo_http();
    let out = run(periscope(&["tools", "list", "--url", &server.url]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(hints(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn the_fallback_to_initialize_is_an_info_line_shown_only_with_v_and_never_doubled() {
    let out = run(periscope(&["tools", "list", "--", &demo()]));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");
    assert!(!err.contains("falls back"), "{err}");
    let out = run(periscope(&["tools", "list", "-v", "--", &demo()]));
    let err = stderr(&out);
    assert!(
        err.contains("periscope: server/discover: the server answered with error -32601"),
        "{err}"
    );
    assert!(
        err.contains("so Periscope falls back to initialize"),
        "{err}"
    );
    assert_eq!(err.matches("server/discover:").count(), 1, "{err}");
    assert!(!err.contains("warning"), "{err}");
    // The record keeps it, as Periscope's own decision.
    let dir = scratch_dir("doctor-fallback-record");
    let record = dir.join("r.jsonl");
    let out = run(periscope(&[
        "tools",
        "list",
        "--record",
        record.to_str().unwrap(),
        "--",
        &demo(),
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&record).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains(r#""decision":"era_fallback""#))
        .unwrap_or_else(|| panic!("no era_fallback decision in {text}"));
    assert!(line.contains(r#""method":"server/discover""#), "{line}");
    assert!(!line.contains("server/discover: "), "{line}");
}

#[test]
fn a_command_not_found_names_the_launchers_missing_from_path() {
    let dir = scratch_dir("doctor-not-found");
    // A PATH with only `node` on it.
    let node = dir.join("node");
    std::fs::write(&node, "#!/bin/sh\nexit 0\n").unwrap();
    make_executable(&node);
    let out =
        run(periscope(&["tools", "list", "--", "no-such-mcp-server-anywhere"]).env("PATH", &dir));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let hints = hints(&out);
    assert!(
        hints[0].starts_with("`no-such-mcp-server-anywhere` was not found"),
        "{hints:?}"
    );
    assert!(
        hints[1].starts_with("not on PATH: `npx`, `uvx`, `python3` ("),
        "{hints:?}"
    );
    let out = run(periscope(&[
        "tools",
        "list",
        "--format",
        "json",
        "--",
        "no-such-mcp-server-anywhere",
    ])
    .env("PATH", &dir));
    let json = json_stdout(&out);
    assert_eq!(json["diagnoses"][0]["kind"], "command_not_found", "{json}");
    assert_eq!(
        json["diagnoses"][0]["missing_launchers"],
        serde_json::json!(["npx", "uvx", "python3"])
    );
}

#[test]
fn a_server_that_exits_before_answering_gets_its_status_and_last_words_and_the_proxy_it_lacked() {
    let out = run(periscope(&["tools", "list", "--era", "legacy", "--"])
        .arg(bin("misbehaving-server"))
        .arg("exit-mid-request")
        .env("HTTPS_PROXY", "http://127.0.0.1:9"));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let hints = hints(&out);
    assert!(
        hints.iter().any(|h| h.starts_with(
            "the server exited with status 3 before it answered; its last stderr lines are quoted above"
        )),
        "{hints:?}"
    );
    assert!(
        stderr(&out).contains("last stderr line: fatal: out of cheese while listing tools"),
        "{}",
        stderr(&out)
    );
    assert!(
        hints
            .iter()
            .any(|h| h.starts_with("HTTPS_PROXY is set here, but the server does not inherit it")),
        "{hints:?}"
    );
    // Passed on: no proxy hint.
    let out = run(
        periscope(&["tools", "list", "--era", "legacy", "--inherit-env", "--"])
            .arg(bin("misbehaving-server"))
            .arg("exit-mid-request")
            .env("HTTPS_PROXY", "http://127.0.0.1:9"),
    );
    let hints_inherited = self::hints(&out);
    assert!(
        !hints_inherited.iter().any(|h| h.contains("PROXY")),
        "{hints_inherited:?}"
    );
    let out = run(
        periscope(&["tools", "list", "--era", "legacy", "--format", "json", "--"])
            .arg(bin("misbehaving-server"))
            .arg("exit-mid-request"),
    );
    let json = json_stdout(&out);
    assert_eq!(json["diagnoses"][0]["kind"], "exited_early", "{json}");
    assert_eq!(json["diagnoses"][0]["exit_code"], 3, "{json}");
}

#[test]
fn a_wrong_path_names_the_path_that_answers_on_the_same_origin() {
    let server = misbehaving_http("wrong-path");
    let wrong = server.url.replace("/mcp", "/api");
    let out = run(periscope(&["tools", "list", "--url", &wrong]));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let hints = hints(&out);
    assert_eq!(
        hints,
        [format!(
            "{wrong} answered POST with HTTP 404: it is not an MCP endpoint; {} answers on the same server: try --url {}",
            server.url, server.url
        )],
        "{}",
        stderr(&out)
    );
    // The right path works, without a hint.
    let out = run(periscope(&[
        "tools",
        "list",
        "--era",
        "legacy",
        "--url",
        &server.url,
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(self::hints(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn a_401_without_a_challenge_says_to_pass_a_token() {
    let server = misbehaving_http("no-challenge");
    let out = run(periscope(&[
        "tools",
        "list",
        "--no-browser",
        "--url",
        &server.url,
    ]));
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    let hints = hints(&out);
    assert!(
        hints.iter().any(|h| h.starts_with(
            "the server answered HTTP 401 without a WWW-Authenticate Bearer challenge"
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_html_answer_says_the_url_is_a_web_page() {
    let server = misbehaving_http("html");
    let out = run(periscope(&[
        "tools",
        "list",
        "--era",
        "legacy",
        "--format",
        "json",
        "--url",
        &server.url,
    ]));
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        hints(&out)
            .iter()
            .any(|h| h.starts_with("the server answered with text/html; charset=utf-8, not JSON")),
        "{}",
        stderr(&out)
    );
    let json = json_stdout(&out);
    assert_eq!(json["diagnoses"][0]["kind"], "wrong_content_type", "{json}");
}

#[test]
fn a_tool_that_needs_elicitation_on_a_modern_connection_points_to_the_legacy_era() {
    let out = run(periscope(&["tools", "call", "confirm", "--"])
        .arg(bin("misbehaving-server"))
        .arg("modern-elicit"));
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert!(
        hints(&out).iter().any(|h| h.contains("(elicitation)")
            && h.contains("(2025-11-25)")
            && h.ends_with("run again with --era legacy")),
        "{}",
        stderr(&out)
    );
    let out = run(
        periscope(&["tools", "call", "confirm", "--format", "json", "--"])
            .arg(bin("misbehaving-server"))
            .arg("modern-elicit"),
    );
    let json = json_stdout(&out);
    assert_eq!(json["diagnoses"][0]["kind"], "needs_legacy_era", "{json}");
    assert_eq!(json["diagnoses"][0]["request"], "elicitation", "{json}");
    // In the legacy era it works, and nothing is said.
    let out = run(
        periscope(&["tools", "call", "confirm", "--era", "legacy", "--"])
            .arg(bin("misbehaving-server"))
            .arg("modern-elicit"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(hints(&out).is_empty(), "{}", stderr(&out));
    // The demo server's modern tools call fine, without a hint.
    let out = run(
        periscope(&["tools", "call", "add", "-a", "a=1", "-a", "b=2", "--"])
            .arg(demo())
            .args(["--eras", "dual"]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(hints(&out).is_empty(), "{}", stderr(&out));
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn tls_server(cert: &str) -> HttpServerProcess {
    let dir = periscope_tests::tests_dir().join("fixtures/tls");
    HttpServerProcess::start(
        Command::new(bin("tls-http"))
            .arg(dir.join(cert))
            .arg(dir.join("key.pem")),
    )
}

/// The test authority, trusted the way a user would add one (`SSL_CERT_FILE`).
fn trusting_the_test_ca(command: &mut Command) -> &mut Command {
    command.env(
        "SSL_CERT_FILE",
        periscope_tests::tests_dir().join("fixtures/tls/ca.pem"),
    )
}

#[test]
fn tls_failures_name_the_certificates_problem() {
    let self_signed = tls_server("self-signed.pem");
    let out = run(periscope(&["tools", "list", "--url", &self_signed.url]));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        hints(&out)
            .iter()
            .any(|h| h.contains("is self-signed or from an authority this machine does not trust")),
        "{}",
        stderr(&out)
    );

    let wrong_name = tls_server("wrong-name.pem");
    let out = run(trusting_the_test_ca(&mut periscope(&[
        "tools",
        "list",
        "--format",
        "json",
        "--url",
        &wrong_name.url,
    ])));
    assert!(
        hints(&out)
            .iter()
            .any(|h| h.contains("is not for 127.0.0.1 (it names ") && h.contains("wrong.example")),
        "{}",
        stderr(&out)
    );
    let json = json_stdout(&out);
    assert_eq!(json["diagnoses"][0]["kind"], "tls", "{json}");
    assert_eq!(
        json["diagnoses"][0]["problem"]["kind"], "wrong_name",
        "{json}"
    );

    let expired = tls_server("expired.pem");
    let out = run(trusting_the_test_ca(&mut periscope(&[
        "tools",
        "list",
        "--url",
        &expired.url,
    ])));
    assert!(
        hints(&out)
            .iter()
            .any(|h| h.contains("has expired (valid until 2021-01-01)")),
        "{}",
        stderr(&out)
    );

    // A certificate the machine trusts: it works, and nothing is said.
    let good = tls_server("good.pem");
    let out = run(trusting_the_test_ca(&mut periscope(&[
        "tools", "list", "--url", &good.url,
    ])));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(hints(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn a_server_that_goes_away_while_listened_to_is_said_with_its_last_words_and_a_hint() {
    let out = run(periscope(&[
        "listen",
        "--era",
        "legacy",
        "--",
        bin("misbehaving-server").to_str().unwrap(),
        "exit-after-ready",
    ]));
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("the connection ended: server exited with status 4")
            && err.contains("fatal: lost the database connection"),
        "{err}"
    );
    assert!(
        hints(&out)
            .iter()
            .any(|h| h.contains("after the connection was ready")),
        "{err}"
    );
}
