//! `periscope recording har|jsonl|markdown` on a record the CLI wrote against the demo server
//! over Streamable HTTP (with a secret header that must stay redacted): a HAR 1.2 document
//! whose entries carry the exact request and response bodies, one JSON line per frame, and a
//! Markdown report of chosen frames.

use periscope_tests::{demo_http, periscope, scratch_dir, stderr, stdout};
use serde_json::Value;

#[test]
fn a_recorded_http_session_exports_as_har_jsonl_and_markdown() {
    let server = demo_http();
    let dir = scratch_dir("cli-recording");
    let record = dir.join("session.jsonl");
    let record_arg = record.to_str().unwrap();
    let call = periscope(&[
        "tools",
        "call",
        "add",
        "-a",
        "a=2",
        "-a",
        "b=40",
        "--url",
        &server.url,
        "--header",
        "Authorization: Bearer sk-very-secret-token",
        "--record",
        record_arg,
    ]);
    assert!(call.status.success(), "{}", stderr(&call));

    // HAR: every exchange, the call's body exactly as sent, the answer as received.
    let har = periscope(&["recording", "har", record_arg]);
    assert!(har.status.success(), "{}", stderr(&har));
    let text = stdout(&har);
    assert!(
        !text.contains("sk-very-secret-token"),
        "the token stays out"
    );
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["log"]["version"], "1.2");
    let entries = doc["log"]["entries"].as_array().unwrap();
    let call_entry = entries
        .iter()
        .find(|e| {
            e["request"]["postData"]["text"]
                .as_str()
                .is_some_and(|t| t.contains(r#""method":"tools/call""#))
        })
        .expect("the tools/call exchange is in the HAR");
    assert_eq!(call_entry["request"]["method"], "POST");
    assert_eq!(call_entry["request"]["url"], server.url.as_str());
    assert_eq!(call_entry["response"]["status"], 200);
    assert!(
        call_entry["response"]["content"]["text"]
            .as_str()
            .unwrap()
            .contains(r#""sum":42"#),
        "{call_entry}"
    );
    let auth = call_entry["request"]["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| {
            h["name"]
                .as_str()
                .unwrap()
                .eq_ignore_ascii_case("authorization")
        })
        .expect("the header is listed");
    assert_ne!(auth["value"], "Bearer sk-very-secret-token");

    // JSONL to a file: one line per frame, the call's message parsed.
    let jsonl_path = dir.join("frames.jsonl");
    let jsonl = periscope(&[
        "recording",
        "jsonl",
        record_arg,
        "-o",
        jsonl_path.to_str().unwrap(),
    ]);
    assert!(jsonl.status.success(), "{}", stderr(&jsonl));
    let lines: Vec<Value> = std::fs::read_to_string(&jsonl_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let recorded_frames = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .filter(|l| l.contains(r#""type":"frame""#))
        .count();
    assert_eq!(lines.len(), recorded_frames);
    let call_line = lines
        .iter()
        .find(|l| l["message"]["method"] == "tools/call")
        .expect("the call is a line");
    assert_eq!(call_line["direction"], "out");
    assert_eq!(call_line["message"]["params"]["arguments"]["b"], 40);

    // Markdown of the call and its answer only.
    let seq = call_line["seq"].as_u64().unwrap();
    let answer = lines
        .iter()
        .find(|l| l["direction"] == "in" && l["message"]["id"] == call_line["message"]["id"])
        .expect("the answer is a line");
    let frames = format!("{seq},{}", answer["seq"]);
    let md = periscope(&[
        "recording",
        "markdown",
        record_arg,
        "--frames",
        &frames,
        "--title",
        "add is fine",
    ]);
    assert!(md.status.success(), "{}", stderr(&md));
    let text = stdout(&md);
    assert!(text.starts_with("# add is fine\n"), "{text}");
    assert!(
        text.contains(&format!("## #{seq} → sent · request tools/call")),
        "{text}"
    );
    assert_eq!(text.matches("\n## #").count(), 2, "{text}");

    // A file that is not a record is refused with the line, exit 2.
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "hello\n").unwrap();
    let out = periscope(&["recording", "har", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 1: not a record line"),
        "{}",
        stderr(&out)
    );
}
