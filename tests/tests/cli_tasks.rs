//! `periscope tools call NAME --task` against the demo server (`--eras dual`): status changes
//! on stderr, the result on stdout, the task's questions answered from the usual flags, and
//! Ctrl-C cancelling the task on the server.

use std::process::{Command, Stdio};
use std::time::Duration;

use periscope_tests::{bin, stderr, stdout};

fn task_call(args: &[&str]) -> Command {
    let mut command = Command::new(bin("periscope"));
    command
        .args(["tools", "call", "long_job", "--task"])
        .args(args)
        .arg("--")
        .arg(bin("periscope-demo-server"))
        .args(["--eras", "dual"]);
    command
}

#[test]
fn a_task_prints_its_progress_on_stderr_and_its_result_on_stdout() {
    let out = task_call(&["-a", "steps=3", "-a", "step_ms=200"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "long_job finished all 3 steps");
    let err = stderr(&out);
    assert!(err.contains(": working: step 0 of 3 (0%)"), "{err}");
    assert!(err.contains(": completed: step 3 of 3 (100%)"), "{err}");
}

#[test]
fn a_task_asking_for_input_is_answered_from_the_elicit_flag() {
    let out = task_call(&[
        "-a",
        "steps=2",
        "-a",
        "step_ms=100",
        "-a",
        "ask=true",
        "--elicit-accept",
        r#"{"continue": true}"#,
    ])
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "long_job finished all 2 steps");
    assert!(stderr(&out).contains(": input_required: waiting for confirmation"));
}

#[test]
fn ctrl_c_cancels_the_task_on_the_server() {
    let child = task_call(&["-a", "steps=100", "-a", "step_ms=200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("cancelled (tasks/cancel sent)"), "{err}");
    assert!(stdout(&out).is_empty());
}
