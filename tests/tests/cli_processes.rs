//! The server processes Periscope starts: what they inherit, and that they never outlive it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use periscope_tests::{bin, scratch_dir, stderr};

/// A server that tells, on stderr, what it sees of three variables, then exits 7: the CLI
/// quotes its last words.
fn report_env(extra: &[&str]) -> String {
    let out = Command::new(bin("periscope"))
        .args(["tools", "list", "--env", "ENTRY_VAR=from the entry"])
        .args(extra)
        .args(["--", "sh", "-c"])
        .arg(r#"echo "key=[$OPENAI_API_KEY] entry=[$ENTRY_VAR] path=[${PATH:+set}] lang=[$LANG]" >&2; exit 7"#)
        .env("OPENAI_API_KEY", "sk-from-the-terminal")
        .env("LANG", "C.UTF-8")
        .output()
        .expect("periscope runs");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    stderr(&out)
}

#[test]
fn a_server_inherits_only_what_a_program_needs_unless_asked_for_everything() {
    let minimal = report_env(&[]);
    assert!(
        minimal.contains("key=[] entry=[from the entry] path=[set] lang=[C.UTF-8]"),
        "{minimal}"
    );
    let everything = report_env(&["--inherit-env"]);
    assert!(
        everything.contains("key=[sk-from-the-terminal] entry=[from the entry]"),
        "{everything}"
    );
}

/// Whether process `pid` is gone (a zombie waiting for a reaper counts as gone: it runs no
/// more code).
fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // "pid (comm) S …": the state follows the last ')'.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_server_dies_when_periscope_is_killed() {
    let dir = scratch_dir("killed-parent");
    let pid_file = dir.join("server.pid");
    // The server writes its pid, then becomes `sleep`, which neither answers nor reads stdin:
    // only the parent-death signal can stop it when Periscope dies without closing it.
    let mut periscope = Command::new(bin("periscope"))
        .args(["tools", "list", "--timeout", "120", "--", "sh", "-c"])
        .arg(format!("echo $$ > {}; exec sleep 600", pid_file.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("periscope starts");

    let deadline = Instant::now() + Duration::from_secs(30);
    let pid: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(Instant::now() < deadline, "the server never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    // `exec` happened once `sleep` is what runs under that pid.
    while std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() != "sleep") {
        assert!(Instant::now() < deadline, "the server never became sleep");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!is_gone(pid), "the server runs while Periscope does");

    periscope.kill().expect("SIGKILL reaches periscope");
    periscope.wait().unwrap();

    let deadline = Instant::now() + Duration::from_secs(10);
    while !is_gone(pid) {
        if Instant::now() > deadline {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("the server (pid {pid}) outlived a killed Periscope");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
