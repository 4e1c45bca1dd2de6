//! The process tree under /proc, shared by the app benches (app, app_flood, load_app): every
//! process as (pid, parent pid, name), and the descendants of one (the app's WebKit processes).

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
