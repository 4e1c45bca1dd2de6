//! `periscope open FILE --print` and `periscope replay FILE` on sessions the CLI recorded
//! against the demo server: a replay against the same server is the same (exit 0); after the
//! demo's `trigger_list_changed` (a bonus tool for every modern client) the recorded
//! `tools/list` answers differently (exit 1, the difference shown with its JSON Pointer); the
//! handshake is skipped and said so; a file that is not a record exits 2.

use periscope_tests::{bin_str, demo_http, periscope, scratch_dir, stderr, stdout};
use serde_json::Value;

#[test]
fn a_recording_prints_with_its_summary_surface_and_frames() {
    let dir = scratch_dir("cli-open");
    let record = dir.join("echo.jsonl");
    let out = periscope(&[
        "tools",
        "call",
        "echo",
        "-a",
        "message=hello there",
        "--record",
        record.to_str().unwrap(),
        "--",
        &bin_str("periscope-demo-server"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = periscope(&["open", record.to_str().unwrap(), "--print"]);
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    let text = stdout(&printed);
    assert!(text.contains("format 1.2 · written by Periscope"), "{text}");
    assert!(text.contains("target: "), "{text}");
    assert!(text.contains("periscope-demo-server"), "{text}");
    // The stdio demo answers server/discover with -32601: the session fell back to initialize.
    assert!(text.contains("era legacy · protocol 2025-11-25"), "{text}");
    assert!(text.contains("tools: never listed"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains(" → ") && l.contains("tools/call") && l.contains("hello there")),
        "the call's frame, exactly: {text}"
    );

    let json = periscope(&[
        "open",
        record.to_str().unwrap(),
        "--print",
        "--format",
        "json",
    ]);
    let value: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["format_version"], "1.2");
    assert_eq!(value["summary"]["era"], "legacy");
    assert!(value["frames"].as_array().unwrap().len() >= 2);

    std::fs::write(dir.join("bad.jsonl"), "not a record\n").unwrap();
    let bad = periscope(&["open", dir.join("bad.jsonl").to_str().unwrap(), "--print"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("line 1"), "{}", stderr(&bad));
}

#[test]
fn a_replay_is_the_same_against_the_same_server_and_differs_after_its_tools_changed() {
    let server = demo_http();
    let dir = scratch_dir("cli-replay");
    let record = dir.join("session.jsonl");
    let listed = periscope(&[
        "tools",
        "list",
        "--url",
        &server.url,
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    let replay = || {
        periscope(&[
            "replay",
            record.to_str().unwrap(),
            "--url",
            &server.url,
            "--timeout",
            "30",
        ])
    };

    let same = replay();
    let text = stdout(&same);
    assert_eq!(same.status.code(), Some(0), "{text}\n{}", stderr(&same));
    assert!(text.contains("tools/list: same"), "{text}");
    assert!(
        text.contains("skipped #1 server/discover: the handshake"),
        "{text}"
    );

    let toggle = periscope(&[
        "tools",
        "call",
        "trigger_list_changed",
        "--url",
        &server.url,
    ]);
    assert!(toggle.status.success(), "{}", stderr(&toggle));
    let differs = replay();
    let text = stdout(&differs);
    assert_eq!(
        differs.status.code(),
        Some(1),
        "{text}\n{}",
        stderr(&differs)
    );
    assert!(text.contains("tools/list: differs"), "{text}");
    assert!(
        text.contains("/result/tools/"),
        "the changed member: {text}"
    );

    let json = periscope(&[
        "replay",
        record.to_str().unwrap(),
        "--url",
        &server.url,
        "--format",
        "json",
    ]);
    assert_eq!(json.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let step = &report["steps"][0];
    assert_eq!(step["method"], "tools/list");
    assert_eq!(step["outcome"]["kind"], "differs");
    let change = &step["outcome"]["changes"][0];
    assert!(
        change["path"]
            .as_str()
            .unwrap()
            .starts_with("/result/tools/")
    );
    assert_eq!(report["skipped"][0]["reason"], "handshake");

    let bad = periscope(&["replay", "/nonexistent.jsonl", "--url", &server.url]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}
