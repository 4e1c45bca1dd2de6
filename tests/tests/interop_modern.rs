//! The `periscope` CLI against 2026-07-28 servers nobody here wrote: the official Python SDK
//! (`mcp` 2.3.0) and TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4.0), each serving
//! the same small fixture (tests/interop/python/modern_server.py, tests/interop/ts/
//! modern-server.mjs) over stdio and over Streamable HTTP.
//!
//! Both SDKs serve both eras from one entry point, so the era is what Periscope picks: `auto`
//! (server/discover first) and `modern` must land in 2026-07-28, `legacy` in the initialize
//! handshake. In the modern era: no `initialize` on the wire, `_meta` on every request, the
//! 2026-07-28 HTTP headers and no session, and an `input_required` result answered by
//! retrying the same call with `inputResponses` and the server's `requestState` unchanged —
//! here for two rounds in a row, answered by the same `--elicit-accept` flag as a 2025-era
//! elicitation.

use std::process::{Command, Output};

use periscope_tests::modern::ModernSdk;
use periscope_tests::{HttpServerProcess, bin, names, ok_json, scratch_dir, stderr, stdout};
use serde_json::Value;

#[derive(Copy, Clone, Debug)]
enum Transport {
    Stdio,
    Http,
}

/// One fixture server, reachable the way `transport` says: over stdio each `periscope` run
/// starts its own process; over HTTP one process serves the whole test.
struct Target {
    sdk: ModernSdk,
    http: Option<HttpServerProcess>,
}

impl Target {
    fn new(sdk: ModernSdk, transport: Transport) -> Target {
        let http = match transport {
            Transport::Stdio => None,
            Transport::Http => Some(HttpServerProcess::start(&mut sdk.command("http"))),
        };
        Target { sdk, http }
    }

    /// `periscope --era ERA ARGS` against this server (30 s per response at most).
    fn periscope(&self, era: &str, args: &[&str]) -> Output {
        let mut command = Command::new(bin("periscope"));
        command
            .args(["--era", era])
            .args(args)
            .args(["--timeout", "30"]);
        match &self.http {
            Some(server) => {
                command.args(["--url", &server.url]);
            }
            None => {
                command.arg("--").args(self.sdk.argv("stdio"));
            }
        }
        command.output().expect("periscope runs")
    }

    fn ok(&self, era: &str, args: &[&str]) -> String {
        let out = self.periscope(era, args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "periscope --era {era} {args:?} against the {:?} server\nstdout: {}\nstderr: {}",
            self.sdk,
            stdout(&out),
            stderr(&out)
        );
        stdout(&out)
    }
}

/// The first line of a call's text output: the result's text (a tool with an output schema,
/// as the Python SDK gives every tool, is followed by its structuredContent).
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// The lines of a `--record` file, as JSON.
fn record_lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the record was written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("every record line is JSON"))
        .collect()
}

/// The JSON-RPC messages of the record's frames going one way ("out": to the server).
fn messages(lines: &[Value], direction: &str) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["type"] == "frame" && l["direction"] == direction)
        .filter_map(|l| l["bytes"]["text"].as_str())
        .filter_map(|text| serde_json::from_str(text).ok())
        .collect()
}

// --- discover: the era shown ---------------------------------------------------------------

fn discover_lands_in_the_modern_era(sdk: ModernSdk, transport: Transport) {
    let target = Target::new(sdk, transport);
    for era in ["auto", "modern"] {
        let text = target.ok(era, &["info"]);
        assert!(text.contains("era: modern"), "--era {era}: {text}");
        assert!(
            text.contains("protocol version: 2026-07-28"),
            "--era {era}: {text}"
        );
        assert!(text.contains(sdk.server_name()), "--era {era}: {text}");

        let info: Value = serde_json::from_str(&target.ok(era, &["info", "--format", "json"]))
            .expect("info --format json prints JSON");
        assert_eq!(info["era"], "modern", "--era {era}: {info}");
        assert_eq!(
            info["protocol_version"], "2026-07-28",
            "--era {era}: {info}"
        );
        assert_eq!(info["server_info"]["name"], sdk.server_name(), "{info}");
        assert!(
            info["supported_versions"]
                .as_array()
                .is_some_and(|v| v.iter().any(|v| v == "2026-07-28")),
            "the discover result's supportedVersions are shown: {info}"
        );
    }
}

fn a_legacy_pin_still_gets_the_initialize_handshake(sdk: ModernSdk, transport: Transport) {
    let target = Target::new(sdk, transport);
    let text = target.ok("legacy", &["info"]);
    assert!(text.contains("era: legacy"), "{text}");
    assert!(text.contains("protocol version: 2025-11-25"), "{text}");
    assert_eq!(
        first_line(&target.ok(
            "legacy",
            &["tools", "call", "add", "-a", "a=2", "-a", "b=40"]
        )),
        "42"
    );
}

// --- tools, resources, prompts -------------------------------------------------------------

fn lists_and_calls_tools(sdk: ModernSdk, transport: Transport) {
    let target = Target::new(sdk, transport);
    for era in ["auto", "modern"] {
        let tools = ok_json(&target.periscope(era, &["tools", "list", "--format", "json"]));
        let names = names(&tools);
        for expected in ["echo", "add", "book_table", "touch_note"] {
            assert!(names.contains(&expected), "--era {era}: {names:?}");
        }
        assert_eq!(
            first_line(&target.ok(era, &["tools", "call", "add", "-a", "a=2", "-a", "b=40"])),
            "42",
            "--era {era}"
        );
        assert_eq!(
            first_line(&target.ok(
                era,
                &["tools", "call", "echo", "-a", "message=modern hello"]
            )),
            "Echo: modern hello",
            "--era {era}"
        );
    }
}

fn reads_the_resource_and_gets_the_prompt(sdk: ModernSdk, transport: Transport) {
    let target = Target::new(sdk, transport);
    for era in ["auto", "modern"] {
        let text = target.ok(era, &["resources", "read", "note://greeting"]);
        assert!(text.contains(sdk.greeting()), "--era {era}: {text}");
        let text = target.ok(era, &["prompts", "get", "greet", "-a", "name=Ada"]);
        assert!(
            text.contains("user: Please greet Ada warmly."),
            "--era {era}: {text}"
        );
    }
}

// --- the multi round-trip tool -------------------------------------------------------------

/// `book_table` asks for the guest's name, then (a second `input_required`) for a confirmation
/// naming that guest. One `--elicit-accept` object answers both rounds (each server keeps the
/// fields its question asked for).
const BOTH_ANSWERS: &str = r#"{"name": "Ada", "confirm": true}"#;

fn the_two_round_tool_completes_with_elicit_accept(sdk: ModernSdk, transport: Transport) {
    let target = Target::new(sdk, transport);
    for era in ["auto", "modern"] {
        let dir = scratch_dir(&format!("modern-rounds-{sdk:?}-{transport:?}-{era}"));
        let record = dir.join("rounds.jsonl");
        let out = target.periscope(
            era,
            &[
                "tools",
                "call",
                "book_table",
                "-a",
                "party=2",
                "--elicit-accept",
                BOTH_ANSWERS,
                "--record",
                record.to_str().unwrap(),
            ],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "--era {era}: {err}");
        assert_eq!(
            first_line(&stdout(&out)),
            "Booked a table for 2 under Ada.",
            "--era {era}: {err}"
        );
        // Both questions were put to the flags, in order, as a 2025-era elicitation would be.
        let first = err.find("A table for 2: whose name?");
        let second = err.find("Book a table for 2 under Ada?");
        assert!(
            first.is_some() && second.is_some() && first < second,
            "--era {era}: both rounds' questions are shown: {err}"
        );

        let lines = record_lines(&record);
        let sent = messages(&lines, "out");
        let received = messages(&lines, "in");
        assert!(
            sent.iter().all(|m| m["method"] != "initialize"),
            "--era {era}: no initialize in the modern era"
        );
        for m in sent.iter().filter(|m| m.get("id").is_some()) {
            assert_eq!(
                m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28",
                "--era {era}: every request carries the revision in _meta: {m}"
            );
        }
        let calls: Vec<&Value> = sent
            .iter()
            .filter(|m| m["method"] == "tools/call")
            .collect();
        assert_eq!(
            calls.len(),
            3,
            "--era {era}: the call and its two retries: {calls:?}"
        );
        let ids: std::collections::HashSet<String> =
            calls.iter().map(|c| c["id"].to_string()).collect();
        assert_eq!(
            ids.len(),
            3,
            "--era {era}: each retry has a new JSON-RPC id: {calls:?}"
        );
        for call in &calls {
            assert_eq!(call["params"]["name"], "book_table");
            assert_eq!(
                call["params"]["arguments"]["party"], 2,
                "the same arguments: {call}"
            );
        }
        // Each retry answers exactly the questions of the result before it, under the same
        // keys, and carries that result's requestState byte for byte (or none when it had none).
        for (round, retry) in calls.iter().skip(1).enumerate() {
            let asked = received
                .iter()
                .find(|r| r["id"] == calls[round]["id"])
                .unwrap_or_else(|| panic!("--era {era}: no answer to {}", calls[round]));
            let asked = &asked["result"];
            assert_eq!(
                asked["resultType"], "input_required",
                "--era {era}: {asked}"
            );
            let keys = |v: &Value| -> Vec<String> {
                let mut k: Vec<String> = v
                    .as_object()
                    .map(|o| o.keys().cloned().collect())
                    .unwrap_or_default();
                k.sort();
                k
            };
            assert_eq!(
                keys(&retry["params"]["inputResponses"]),
                keys(&asked["inputRequests"]),
                "--era {era}: round {}: {retry}",
                round + 1
            );
            assert_eq!(
                retry["params"].get("requestState"),
                asked.get("requestState"),
                "--era {era}: round {}: requestState goes back unchanged",
                round + 1
            );
        }
    }
}

fn a_declined_question_ends_the_call_as_a_tool_error(sdk: ModernSdk, transport: Transport) {
    let target = Target::new(sdk, transport);
    let out = target.periscope("modern", &["tools", "call", "book_table", "-a", "party=2"]);
    // Both fixtures answer a declined question with an isError result (exit 5), not a loop.
    assert_eq!(out.status.code(), Some(5), "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("declined elicitation"),
        "{}",
        stderr(&out)
    );
}

// --- the HTTP wire of the modern era -------------------------------------------------------

fn every_post_carries_the_modern_headers_and_no_session(sdk: ModernSdk) {
    let target = Target::new(sdk, Transport::Http);
    let dir = scratch_dir(&format!("modern-http-{sdk:?}"));
    let record = dir.join("http.jsonl");
    target.ok(
        "auto",
        &[
            "tools",
            "call",
            "add",
            "-a",
            "a=1",
            "-a",
            "b=1",
            "--record",
            record.to_str().unwrap(),
        ],
    );
    let lines = record_lines(&record);
    let http: Vec<&Value> = lines.iter().filter(|l| l["type"] == "http").collect();
    assert!(!http.is_empty());
    let header = |h: &Value, name: &str| -> Option<String> {
        h["request_headers"].as_array().and_then(|list| {
            list.iter()
                .find(|p| p[0].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
                .and_then(|p| p[1].as_str().map(str::to_string))
        })
    };
    for exchange in &http {
        // No session: nothing to resume with GET, nothing to end with DELETE.
        assert_eq!(exchange["method"], "POST", "{exchange}");
        assert_eq!(header(exchange, "mcp-session-id"), None, "{exchange}");
        assert_eq!(
            header(exchange, "mcp-protocol-version").as_deref(),
            Some("2026-07-28"),
            "{exchange}"
        );
        assert!(header(exchange, "mcp-method").is_some(), "{exchange}");
    }
    let call = http
        .iter()
        .find(|h| header(h, "mcp-method").as_deref() == Some("tools/call"))
        .expect("the call went out with Mcp-Method: tools/call");
    assert_eq!(header(call, "mcp-name").as_deref(), Some("add"), "{call}");
}

// --- each SDK, each transport --------------------------------------------------------------

macro_rules! per_sdk_and_transport {
    ($($check:ident),* $(,)?) => {
        mod python_stdio {
            use super::*;
            $( #[test] fn $check() { super::$check(ModernSdk::Python, Transport::Stdio) } )*
        }
        mod python_http {
            use super::*;
            $( #[test] fn $check() { super::$check(ModernSdk::Python, Transport::Http) } )*
        }
        mod typescript_stdio {
            use super::*;
            $( #[test] fn $check() { super::$check(ModernSdk::TypeScript, Transport::Stdio) } )*
        }
        mod typescript_http {
            use super::*;
            $( #[test] fn $check() { super::$check(ModernSdk::TypeScript, Transport::Http) } )*
        }
    };
}

per_sdk_and_transport!(
    discover_lands_in_the_modern_era,
    a_legacy_pin_still_gets_the_initialize_handshake,
    lists_and_calls_tools,
    reads_the_resource_and_gets_the_prompt,
    the_two_round_tool_completes_with_elicit_accept,
    a_declined_question_ends_the_call_as_a_tool_error,
);

#[test]
fn python_http_posts_carry_the_modern_headers_and_no_session() {
    every_post_carries_the_modern_headers_and_no_session(ModernSdk::Python);
}

#[test]
fn typescript_http_posts_carry_the_modern_headers_and_no_session() {
    every_post_carries_the_modern_headers_and_no_session(ModernSdk::TypeScript);
}
