//! `periscope diff` on two sessions the CLI recorded against the demo server over HTTP, its
//! tool list changed in between (the demo's `trigger_list_changed` adds a bonus tool for every
//! client of the modern era): exit 1 and the added tool named; a session against itself is the
//! same (exit 0); with `--fail-on breaking` the added tool passes and its removal (the files the
//! other way round) fails; a file that is not a record exits 2.

use periscope_tests::{demo_http, periscope, scratch_dir, stderr, stdout};
use serde_json::Value;

#[test]
fn a_changed_tool_list_is_a_difference_with_the_tool_named() {
    let server = demo_http();
    let dir = scratch_dir("cli-diff");
    let before = dir.join("before.jsonl");
    let after = dir.join("after.jsonl");
    let list = |record: &std::path::Path| {
        let out = periscope(&[
            "tools",
            "list",
            "--url",
            &server.url,
            "--record",
            record.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let first = list(&before);
    let toggle = periscope(&[
        "tools",
        "call",
        "trigger_list_changed",
        "--url",
        &server.url,
    ]);
    assert!(toggle.status.success(), "{}", stderr(&toggle));
    let second = list(&after);
    let new_tools: Vec<&str> = second
        .lines()
        .filter(|l| !first.lines().any(|f| f == *l))
        .collect();
    assert!(!new_tools.is_empty(), "the demo's list changed:\n{second}");

    let same = periscope(&["diff", before.to_str().unwrap(), before.to_str().unwrap()]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(stdout(&same).starts_with("same"), "{}", stdout(&same));

    let diff = periscope(&["diff", before.to_str().unwrap(), after.to_str().unwrap()]);
    assert_eq!(diff.status.code(), Some(1), "{}", stderr(&diff));
    let text = stdout(&diff);
    assert!(text.contains("tools:\n  + "), "{text}");

    // An added tool breaks no client; the same change the other way round removes it.
    let (a, b) = (before.to_str().unwrap(), after.to_str().unwrap());
    let added = periscope(&["diff", a, b, "--fail-on", "breaking"]);
    assert_eq!(added.status.code(), Some(0), "{}", stdout(&added));
    assert!(!stdout(&added).contains("breaking:"), "{}", stdout(&added));
    let removed = periscope(&["diff", b, a, "--fail-on", "breaking"]);
    assert_eq!(removed.status.code(), Some(1), "{}", stderr(&removed));
    let text = stdout(&removed);
    assert!(text.contains("breaking:\n  ! tools "), "{text}");
    assert!(text.contains(": removed"), "{text}");

    let json = periscope(&[
        "diff",
        before.to_str().unwrap(),
        after.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(json.status.code(), Some(1));
    let value: Value = serde_json::from_str(&stdout(&json)).unwrap();
    let tools = value["lists"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "tools")
        .unwrap();
    let added: Vec<&str> = tools["added"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(!added.is_empty(), "{tools}");
    // Each tool is a line "name(args) — description".
    let listed = |out: &str, name: &str| out.lines().any(|l| l.starts_with(&format!("{name}(")));
    for name in &added {
        assert!(listed(&second, name) && !listed(&first, name), "{name}");
    }

    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{}\n").unwrap();
    let out = periscope(&["diff", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
