//! Runs a command and reports its peak memory, exactly: the chaos suite's meter
//! (tests/src/chaos.rs).
//!
//! Usage: `peak-rss REPORT DEADLINE_MS CEILING_KIB -- COMMAND [ARGS]...`. The command inherits
//! stdin, stdout and stderr. When it ends, REPORT gets one JSON line: `max_rss_kib` (the
//! kernel's `ru_maxrss` from `wait4`, the largest resident set the command reached, or any
//! child it reaped), `exit_code` or `signal`, `elapsed_ms`, and `killed` (`"deadline"` or
//! `"ceiling"` when this meter had to stop it).
//!
//! Why a process of its own: Linux starts a child's peak from its parent's size at `exec`
//! (the old address space's high-water mark is carried over), so a child of the big test
//! process would report the test's size. This meter is small, so the figure is the command's.
//!
//! While the command runs, its resident size is read every 5 ms: over CEILING_KIB (a runaway,
//! far past any budget) or past DEADLINE_MS (a hang), it is killed with its descendants, so a
//! failing case fails fast instead of taking the machine or the test run with it.

use std::io::Write;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(report), Some(deadline), Some(ceiling)) = (args.first(), args.get(1), args.get(2))
    else {
        eprintln!("usage: peak-rss REPORT DEADLINE_MS CEILING_KIB -- COMMAND [ARGS]...");
        std::process::exit(2);
    };
    let deadline = Duration::from_millis(deadline.parse().expect("DEADLINE_MS is a number"));
    let ceiling: u64 = ceiling.parse().expect("CEILING_KIB is a number");
    let command = &args[args
        .iter()
        .position(|a| a == "--")
        .expect("`--` before the command")
        + 1..];

    let started = Instant::now();
    #[expect(
        clippy::zombie_processes,
        reason = "wait4 below reaps it and yields its rusage"
    )]
    let child = std::process::Command::new(&command[0])
        .args(&command[1..])
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", command[0]));
    let pid = child.id() as i32;
    let mut killed: Option<&str> = None;
    let mut seen_rss = 0u64;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our own child, reaped exactly once here; both pointers are valid.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break (status, usage);
        }
        if killed.is_none() {
            seen_rss = seen_rss.max(rss_kib(pid));
            if seen_rss > ceiling {
                killed = Some("ceiling");
            } else if started.elapsed() > deadline {
                killed = Some("deadline");
            }
            if killed.is_some() {
                kill_tree(pid);
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (exit_code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else {
        (None, Some(libc::WTERMSIG(status)))
    };
    let line = serde_json::json!({
        "max_rss_kib": usage.ru_maxrss,
        "exit_code": exit_code,
        "signal": signal,
        "elapsed_ms": started.elapsed().as_millis() as u64,
        "killed": killed,
    });
    let mut file = std::fs::File::create(report).expect("the report file can be written");
    writeln!(file, "{line}").expect("the report is written");
}

/// Resident memory of `pid` in KiB (0 once it is gone).
fn rss_kib(pid: i32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// SIGKILLs `pid` and every process under it (the command's server runs in a process group
/// of its own, so killing the command's group would miss it).
fn kill_tree(pid: i32) {
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`: comm may hold spaces, so read after the last ')'.
        if let Some(ppid) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok())
        {
            parents.push((child, ppid));
        }
    }
    let mut tree = vec![pid];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    for p in tree {
        // SAFETY: kill has no memory effects; a pid that is already gone gives ESRCH.
        unsafe { libc::kill(p, libc::SIGKILL) };
    }
}
