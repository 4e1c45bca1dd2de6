//! What the server and Periscope cost while a load runs, read from `/proc` (Linux): a stdio
//! server's CPU and resident memory, summed over its process group (a server started through
//! `npx` or a shell does its work in a child), Periscope's own CPU beside it, and for HTTP the
//! TCP connections Periscope holds to the server.

use std::collections::HashSet;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// One sample, taken about once a second.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ResourceSample {
    /// Seconds since the run started.
    pub t_s: f64,
    /// The servers' CPU since the last sample, in percent of one core (200 = two cores busy).
    pub server_cpu_pct: Option<f64>,
    /// The servers' resident memory, in bytes.
    pub server_rss_bytes: Option<u64>,
    /// Periscope's own CPU since the last sample, in percent of one core.
    pub own_cpu_pct: f64,
    /// Established TCP connections from Periscope to the server's port (HTTP).
    pub connections: Option<u32>,
}

/// Where CPU time went over a whole run (or step).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CpuSplit {
    pub own_cpu_s: f64,
    /// None when no server process was watched (HTTP).
    pub server_cpu_s: Option<f64>,
    /// Periscope's CPU over the server's, when both are known and the server used any.
    pub own_over_server: Option<f64>,
}

/// CPU seconds read at one moment: Periscope's and the watched servers'.
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuReading {
    pub own_s: f64,
    pub servers_s: Option<f64>,
}

impl CpuReading {
    /// The split between two readings.
    pub fn since(self, before: CpuReading) -> CpuSplit {
        let own = (self.own_s - before.own_s).max(0.0);
        let server = match (self.servers_s, before.servers_s) {
            (Some(a), Some(b)) => Some((a - b).max(0.0)),
            _ => None,
        };
        CpuSplit {
            own_cpu_s: own,
            server_cpu_s: server,
            own_over_server: server.filter(|s| *s > 0.0).map(|s| own / s),
        }
    }
}

/// What a sampler watches: the server process groups (stdio) and the server's TCP port (HTTP).
#[derive(Debug, Clone, Default)]
pub struct Watched {
    pub process_groups: Vec<u32>,
    pub port: Option<u16>,
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

fn page_bytes() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 { p as u64 } else { 4096 }
}

/// A `/proc/<pid>/stat` line's fields after the command (which may hold spaces and parens):
/// index 0 is the state (field 3 of proc(5)).
fn stat_fields(line: &str) -> Option<Vec<&str>> {
    let rest = &line[line.rfind(')')? + 1..];
    Some(rest.split_whitespace().collect())
}

/// (CPU ticks, resident pages) of one `stat` line.
fn usage(fields: &[&str]) -> Option<(u64, u64)> {
    // proc(5): utime 14, stime 15, rss 24; here shifted by the 3 fields before the state.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    let rss: u64 = fields.get(21)?.parse().ok()?;
    Some((utime + stime, rss))
}

/// Periscope's own CPU seconds.
pub fn own_cpu_s() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|l| usage(&stat_fields(&l)?))
        .map_or(0.0, |(ticks, _)| ticks as f64 / clock_ticks())
}

/// CPU seconds and resident bytes of every process in `groups` (None when none is alive).
pub fn groups_usage(groups: &[u32]) -> Option<(f64, u64)> {
    if groups.is_empty() {
        return None;
    }
    let mut ticks = 0;
    let mut pages = 0;
    let mut found = false;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(line) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(fields) = stat_fields(&line) else {
            continue;
        };
        // proc(5) field 5, the process group.
        let in_group = fields
            .get(2)
            .and_then(|g| g.parse::<u32>().ok())
            .is_some_and(|g| groups.contains(&g));
        if let (true, Some((t, p))) = (in_group, usage(&fields)) {
            found = true;
            ticks += t;
            pages += p;
        }
    }
    found.then(|| (ticks as f64 / clock_ticks(), pages * page_bytes()))
}

/// Established TCP connections from this process to `port` (any address).
pub fn connections_to(port: u16) -> u32 {
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
        return 0;
    };
    let sockets: HashSet<u64> = fds
        .flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter_map(|link| {
            let link = link.to_string_lossy().into_owned();
            link.strip_prefix("socket:[")?
                .strip_suffix(']')?
                .parse()
                .ok()
        })
        .collect();
    let mut n = 0;
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for row in text.lines().skip(1) {
            let cols: Vec<&str> = row.split_whitespace().collect();
            let (Some(remote), Some(state), Some(inode)) = (cols.get(2), cols.get(3), cols.get(9))
            else {
                continue;
            };
            let remote_port = remote
                .rsplit(':')
                .next()
                .and_then(|p| u16::from_str_radix(p, 16).ok());
            // State 01 is ESTABLISHED.
            if *state == "01"
                && remote_port == Some(port)
                && inode.parse().is_ok_and(|i: u64| sockets.contains(&i))
            {
                n += 1;
            }
        }
    }
    n
}

/// Periscope's and the watched servers' CPU seconds now, and the servers' resident bytes.
pub fn reading(watched: &Watched) -> (CpuReading, Option<u64>) {
    let servers = groups_usage(&watched.process_groups);
    (
        CpuReading {
            own_s: own_cpu_s(),
            servers_s: servers.map(|(s, _)| s),
        },
        servers.map(|(_, rss)| rss),
    )
}

/// Takes samples against the previous one.
pub struct Sampler {
    watched: Watched,
    last: CpuReading,
    last_at: Duration,
}

impl Sampler {
    pub fn new(watched: Watched, at: Duration) -> Sampler {
        let mut sampler = Sampler {
            watched,
            last: CpuReading::default(),
            last_at: at,
        };
        sampler.last = reading(&sampler.watched).0;
        sampler
    }

    /// A sample at `at` (since the run started).
    pub fn sample(&mut self, at: Duration) -> ResourceSample {
        let (now, rss) = reading(&self.watched);
        let span = (at - self.last_at).as_secs_f64().max(1e-3);
        let split = now.since(self.last);
        self.last = now;
        self.last_at = at;
        ResourceSample {
            t_s: at.as_secs_f64(),
            server_cpu_pct: split.server_cpu_s.map(|s| s * 100.0 / span),
            server_rss_bytes: rss,
            own_cpu_pct: split.own_cpu_s * 100.0 / span,
            connections: self.watched.port.map(connections_to),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_is_read_past_a_command_with_spaces_and_parens() {
        let line = "42 (my (odd) server) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 1000000 300 18446744073709551615";
        let fields = stat_fields(line).unwrap();
        assert_eq!(fields[0], "S");
        assert_eq!(fields[2], "42");
        assert_eq!(usage(&fields), Some((300, 300)));
    }

    #[test]
    fn a_child_process_group_is_watched_and_this_process_is_counted() {
        use std::os::unix::process::CommandExt as _;
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .process_group(0)
            .spawn()
            .unwrap();
        // Just spawned, it may still be inside exec (no pages yet): found is what counts.
        let (cpu, _) = groups_usage(&[child.id()]).expect("the group is alive");
        assert!(cpu >= 0.0);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(groups_usage(&[child.id()]), None);
        assert_eq!(groups_usage(&[]), None);
    }

    #[test]
    fn a_connection_to_a_port_is_counted() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        assert_eq!(connections_to(port), 0);
        let _a = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let _b = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        assert_eq!(connections_to(port), 2);
    }

    #[test]
    fn the_split_says_periscope_over_the_server() {
        let before = CpuReading {
            own_s: 1.0,
            servers_s: Some(2.0),
        };
        let after = CpuReading {
            own_s: 1.5,
            servers_s: Some(4.0),
        };
        let split = after.since(before);
        assert_eq!(split.own_over_server, Some(0.25));
        let http = CpuReading {
            own_s: 2.0,
            servers_s: None,
        }
        .since(before);
        assert_eq!((http.server_cpu_s, http.own_over_server), (None, None));
    }
}
