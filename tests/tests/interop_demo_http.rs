//! The `periscope` CLI against the demo server's own HTTP modes: Streamable HTTP at /mcp and
//! the legacy HTTP+SSE transport at /sse (found by auto-detection).

use std::process::{Command, Stdio};

use periscope_tests::{HttpServerProcess, bin, periscope_at, stdout_of_success};

fn demo(extra: &[&str]) -> HttpServerProcess {
    HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0"])
            .args(extra)
            .stderr(Stdio::null()),
    )
}

#[test]
fn streamable_http_carries_calls_progress_and_server_requests() {
    let server = demo(&[]);
    assert!(
        stdout_of_success(&periscope_at(&server.url, &["tools", "list"])).contains("create_order(")
    );
    let sum = periscope_at(
        &server.url,
        &["tools", "call", "add", "-a", "a=20", "-a", "b=22"],
    );
    assert!(stdout_of_success(&sum).contains("\"sum\": 42"));
    let slow = periscope_at(
        &server.url,
        &[
            "tools",
            "call",
            "slow_task",
            "-a",
            "steps=3",
            "-a",
            "step_ms=50",
        ],
    );
    assert!(stdout_of_success(&slow).contains("completed 3 steps"));
    assert!(String::from_utf8_lossy(&slow.stderr).contains("[progress 3/3: step 3 of 3]"));
    let sampled = periscope_at(
        &server.url,
        &[
            "tools",
            "call",
            "sample",
            "-a",
            "prompt=hi",
            "--sampling-reply",
            "over http",
        ],
    );
    assert!(stdout_of_success(&sampled).contains("replied: over http"));
}

#[test]
fn the_legacy_sse_mode_is_detected_and_works() {
    let server = demo(&["--sse"]);
    assert!(server.url.ends_with("/sse"), "{}", server.url);
    let sum = periscope_at(
        &server.url,
        &["tools", "call", "add", "-a", "a=1", "-a", "b=2"],
    );
    assert!(stdout_of_success(&sum).contains("\"sum\": 3"));
    let roots = periscope_at(
        &server.url,
        &["tools", "call", "list_roots", "--root", "/tmp"],
    );
    assert!(stdout_of_success(&roots).contains("file:///tmp"));
}
