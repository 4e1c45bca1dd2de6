//! The `periscope` CLI against a server nobody here wrote: the official
//! `@modelcontextprotocol/server-everything`, over stdio.

use std::process::{Command, Output};

use periscope_core::record::RecordLine;
use periscope_core::wire::{Direction, Verdict};
use periscope_tests::{bin, scratch_dir, server_everything};
use serde_json::Value;

fn periscope(args: &[&str]) -> Output {
    let everything = server_everything();
    Command::new(bin("periscope"))
        .args(args)
        .args(["--quiet", "--timeout", "30", "--"])
        .arg(everything)
        .arg("stdio")
        .output()
        .expect("periscope runs")
}

fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("--format json prints JSON")
}

fn names(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| t[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn lists_and_calls_the_tools_of_server_everything() {
    let tools = stdout_json(&periscope(&["tools", "list", "--format", "json"]));
    let names = names(&tools, "name");
    for expected in [
        "echo",
        "get-sum",
        "get-tiny-image",
        "trigger-sampling-request",
    ] {
        assert!(names.contains(&expected.to_string()), "{names:?}");
    }

    let echo = periscope(&["tools", "call", "echo", "-a", "message=hello interop"]);
    assert!(echo.status.success());
    assert_eq!(
        String::from_utf8_lossy(&echo.stdout).trim(),
        "Echo: hello interop"
    );

    let sum = stdout_json(&periscope(&[
        "tools",
        "call",
        "get-sum",
        "--args",
        r#"{"a": 2, "b": 40}"#,
        "--format",
        "json",
    ]));
    assert!(
        sum["content"][0]["text"].as_str().unwrap().contains("42"),
        "{sum}"
    );

    let image = stdout_json(&periscope(&[
        "tools",
        "call",
        "get-tiny-image",
        "--format",
        "json",
    ]));
    let kinds: Vec<&str> = image["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"image"), "{kinds:?}");
}

#[test]
fn answers_sampling_elicitation_and_roots_from_flags() {
    let sampled = periscope(&[
        "tools",
        "call",
        "trigger-sampling-request",
        "-a",
        "prompt=hi",
        "--sampling-reply",
        "a reply from the interop test",
    ]);
    assert!(sampled.status.success());
    assert!(String::from_utf8_lossy(&sampled.stdout).contains("a reply from the interop test"));

    let elicited = periscope(&[
        "tools",
        "call",
        "trigger-elicitation-request",
        "--elicit-accept",
        r#"{"name": "Ada"}"#,
    ]);
    assert!(elicited.status.success());
    assert!(String::from_utf8_lossy(&elicited.stdout).contains("Ada"));

    let declined = periscope(&["tools", "call", "trigger-elicitation-request"]);
    assert!(String::from_utf8_lossy(&declined.stderr).contains("declined elicitation"));

    let dir = scratch_dir("roots");
    let roots = periscope(&[
        "tools",
        "call",
        "get-roots-list",
        "--root",
        dir.to_str().unwrap(),
    ]);
    assert!(roots.status.success());
    assert!(String::from_utf8_lossy(&roots.stdout).contains(&format!("file://{}", dir.display())));
}

#[test]
fn reads_resources_and_gets_prompts() {
    let resources = stdout_json(&periscope(&["resources", "list", "--format", "json"]));
    let uris = names(&resources, "uri");
    assert!(!uris.is_empty());
    let read = stdout_json(&periscope(&[
        "resources",
        "read",
        &uris[0],
        "--format",
        "json",
    ]));
    assert_eq!(read["contents"][0]["uri"], uris[0].as_str());

    let templates = stdout_json(&periscope(&["resources", "templates", "--format", "json"]));
    assert!(!templates.as_array().unwrap().is_empty());

    let prompts = stdout_json(&periscope(&["prompts", "list", "--format", "json"]));
    assert!(names(&prompts, "name").contains(&"args-prompt".to_string()));
    let prompt = periscope(&["prompts", "get", "args-prompt", "-a", "city=Lisbon"]);
    assert!(prompt.status.success());
    assert!(String::from_utf8_lossy(&prompt.stdout).contains("Lisbon"));
}

#[test]
fn the_record_holds_every_frame_of_the_session_in_order() {
    let dir = scratch_dir("interop-record");
    let record = dir.join("everything.jsonl");
    let out = periscope(&["tools", "list", "--record", record.to_str().unwrap()]);
    assert!(out.status.success());
    let lines: Vec<RecordLine> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is a record line"))
        .collect();
    assert!(matches!(lines[0], RecordLine::Session { .. }));
    let frames: Vec<_> = lines
        .iter()
        .filter_map(|l| match l {
            RecordLine::Frame(f) => Some(f),
            _ => None,
        })
        .collect();
    // Auto (the default) probes with server/discover first; server-everything is a legacy
    // server, refuses it with an error, and the handshake follows.
    let first: Value = serde_json::from_slice(&frames[0].bytes).unwrap();
    assert_eq!(first["method"], "server/discover");
    assert_eq!(frames[0].direction, Direction::Out);
    assert!(matches!(
        frames[1].verdict,
        Verdict::Response { is_error: true, .. }
    ));
    let third: Value = serde_json::from_slice(&frames[2].bytes).unwrap();
    assert_eq!(third["method"], "initialize");
    assert!(frames.iter().any(|f| f.verdict
        == Verdict::Notification {
            method: "notifications/initialized".into()
        }));
    assert!(frames.iter().any(|f| f.direction == Direction::In
        && matches!(
            &f.verdict,
            Verdict::Response {
                is_error: false,
                ..
            }
        )
        && f.bytes.windows(7).any(|w| w == b"\"tools\"")));
    assert!(
        frames.iter().all(|f| f.verdict.is_valid()),
        "server-everything speaks valid JSON-RPC"
    );
    let seqs: Vec<u64> = frames.iter().map(|f| f.seq).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]));
}
