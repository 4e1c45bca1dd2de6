//! The process tree under /proc, shared by the app benches (app, app_flood, load_app): every
//! process as (pid, parent pid, name), the descendants of one (the app's WebKit processes), the
//! newest app with the processes under it, and how much memory they hold.

/// Every process: (pid, parent pid, name).
pub fn processes() -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name = stat[open + 1..close].to_string();
        let ppid = stat[close + 2..]
            .split(' ')
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        out.push((pid, ppid, name));
    }
    out
}

/// The processes under `root`, however deep.
pub fn descendants(root: u32, all: &[(u32, u32, String)]) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for (pid, ppid, name) in all {
            if *ppid == p {
                found.push((*pid, name.clone()));
                frontier.push(*pid);
            }
        }
    }
    found
}

/// The newest `periscope-app` process (the one the bench just started) and every process under it.
pub fn newest_app() -> Option<(u32, Vec<(u32, String)>)> {
    let all = processes();
    let app = all
        .iter()
        .filter(|(_, _, n)| n == "periscope-app")
        .map(|(p, _, _)| *p)
        .max()?;
    Some((app, descendants(app, &all)))
}

/// Resident memory of `pid` in KiB (0 once it is gone).
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// MiB resident in the processes of `procs` whose name starts with `prefix` (e.g. "WebKit").
pub fn rss_mib(procs: &[(u32, String)], prefix: &str) -> f64 {
    procs
        .iter()
        .filter(|(_, n)| n.starts_with(prefix))
        .map(|(p, _)| rss_kib(*p))
        .sum::<u64>() as f64
        / 1024.0
}

/// Bytes a process has written so far (`wchar` of `/proc/PID/io`): when it stops growing, a
/// server has sent all it will.
#[allow(dead_code)] // the benches that watch a server's output (app_flood, app_lists) read it
pub fn written(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/io"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("wchar:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}
