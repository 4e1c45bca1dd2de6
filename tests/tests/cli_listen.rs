//! `periscope listen` against the demo server's modern era over HTTP: the stream is
//! acknowledged, and a list change another client triggers is printed as it arrives.

use std::process::{Command, Stdio};
use std::time::Duration;

use periscope_tests::{HttpServerProcess, bin, periscope_at, stderr, stdout};

#[test]
fn listen_prints_notifications_as_they_arrive_until_the_duration() {
    let server = HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0", "--eras", "dual"])
            .stderr(Stdio::null()),
    );
    let listener = Command::new(bin("periscope"))
        .args([
            "listen",
            "--tools",
            "--resource",
            "demo://text/5",
            "--for",
            "6",
        ])
        .args(["--url", &server.url, "--timeout", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Modern requests share the demo's state: a second client's call reaches the stream.
    std::thread::sleep(Duration::from_secs(3));
    let call = periscope_at(&server.url, &["tools", "call", "trigger_list_changed"]);
    assert!(call.status.success(), "{}", stderr(&call));
    let touch = periscope_at(
        &server.url,
        &["tools", "call", "touch_resource", "-a", "uri=demo://text/5"],
    );
    assert!(touch.status.success(), "{}", stderr(&touch));
    let out = listener.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    assert!(
        printed.contains("notifications/tools/list_changed\n"),
        "{printed}"
    );
    assert!(
        printed.contains("notifications/resources/updated demo://text/5\n"),
        "{printed}"
    );
    // Only the kinds asked for.
    assert!(!printed.contains("prompts/list_changed"), "{printed}");
    assert!(
        stderr(&out).contains("listening for tools list changes; 1 resource"),
        "{}",
        stderr(&out)
    );
}
