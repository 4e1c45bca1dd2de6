//! The chaos suite's harness (tests/tests/chaos_*.rs, docs/chaos.md): runs the real `periscope`
//! CLI against a hostile fixture the way a user would, with `--record`, under the `peak-rss`
//! meter, and gives the test what it needs to judge the case: the exit, the output, the
//! peak memory, and the record read back.
//!
//! Every run has an outer deadline (the meter kills the CLI and everything under it when it
//! passes: the test then fails as "hung") and a memory ceiling far above the case's budget
//! (a runaway is killed before it takes the machine: the test then fails as "over the
//! ceiling"). Neither is a speed claim: they only turn a hang or a leak into a failure.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::{bin, scratch_dir};

/// The engine's default limit on one frame (`StdioOptions::max_frame_bytes`, and the lead's
/// `Limits::max_frame_bytes`): what a cut frame keeps.
pub const FRAME_LIMIT_MIB: u64 = 64;

/// Peak-memory budgets of the `periscope` process, in MiB, measured by `peak-rss` (the
/// kernel's high-water mark, exact). The debug CLI on a small session peaks at about 18 MiB;
/// each budget says what else it allows for and why.
pub mod budget {
    use super::FRAME_LIMIT_MIB;

    /// A session of small frames, whatever the server does with them (stalls, lies, odd ids,
    /// slow drips, resets): the runtime, one record, a few hundred frames. Four times the
    /// measured ~18 MiB: growth here means a buffer that should not exist. Also the budget of a
    /// gigabyte on stderr: a stderr line is capped far below a frame (64 KiB), so it costs
    /// nothing a small session would notice.
    pub const SMALL_SESSION: u64 = 64;

    /// Small frames plus one request of a few megabytes (the 3 MB `--args-file` argument):
    /// the arguments are held as JSON, as the request's bytes, and as the recorded frame.
    pub const BIG_REQUEST: u64 = SMALL_SESSION + 32;

    /// One frame (or stderr line, or HTTP body, or SSE event) cut at the frame limit: the
    /// kept part exists two or three times at its peak (the read buffer while it doubles, the
    /// recorded frame; the CLI's warning copies only the frame's start), on top of a small
    /// session. A gigabyte from the server must cost this, not a gigabyte.
    pub const ONE_CUT_FRAME: u64 = SMALL_SESSION + 4 * FRAME_LIMIT_MIB;

    /// 10 000 server requests (elicitations, pings) and their 10 000 answers: 20 000 frames
    /// of ~200 bytes (measured: ~26 MiB in all), each kept in the in-memory record (until the
    /// traffic store of the traffic-inspector issue moves it to disk) with its verdict and
    /// flags; the answers queued for a server that stopped reading are bounded too.
    pub const SERVER_REQUEST_FLOOD: u64 = SMALL_SESSION + 32;

    /// The notification flood (300 000 frames at 50 000 a second offered): the CLI keeps only
    /// the newest 10 000 frames in memory (the record file gets every one, written by its own
    /// thread through a bounded queue), so a flood may cost a small session plus that window
    /// and the queues, never memory in proportion to its length. Before the window, every frame
    /// stayed in memory: ~118 MiB more for this flood, well over this budget.
    pub const NOTIFY_FLOOD: u64 = SMALL_SESSION + 24;

    /// 1000 pages of 100 tools (the engine's page limit): 100 000 tool objects collected as
    /// JSON values, and 1000 frames of ~10 KB recorded (measured: ~119 MiB in all).
    pub const ENDLESS_PAGES: u64 = SMALL_SESSION + 128;
}

/// How long a case may take before the harness calls it a hang, at most. Each case names its
/// own, from the `--timeout` it gives the CLI plus room for closing (2 s + 2 s of shutdown
/// escalation) and a slow, shared machine.
pub fn deadline(timeout_s: u64) -> Duration {
    Duration::from_secs(timeout_s * 3 + 30)
}

/// What the CLI talks to.
pub enum Server<'a> {
    /// `-- chaos-server ARGS…` (or another fixture: `Stdio(bin, args)`).
    Stdio(&'a str, &'a [&'a str]),
    /// `--url URL`.
    Url(&'a str),
}

/// One run of the CLI, as a user would type it.
pub struct Case<'a> {
    /// Names the run's scratch folder and its line in the test output.
    pub name: &'a str,
    /// The action and options, e.g. `["tools", "list", "--timeout", "5"]`.
    pub args: &'a [&'a str],
    pub server: Server<'a>,
    /// Extra environment for the CLI.
    pub env: &'a [(&'a str, &'a str)],
    /// The budget the case is held to, in MiB (see [`budget`]).
    pub budget_mib: u64,
    pub deadline: Duration,
}

/// What came of a run.
pub struct Run {
    pub name: String,
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub peak_mib: f64,
    pub budget_mib: u64,
    pub elapsed: Duration,
    /// Set when the meter had to stop the CLI: "deadline" or "ceiling".
    pub killed: Option<String>,
    pub record: Record,
    /// The run's scratch folder (the record, the meter's report, fixture logs).
    pub dir: PathBuf,
}

impl Case<'_> {
    /// Runs the case to its end (or its deadline) and reads its record.
    pub fn run(&self) -> Run {
        self.run_in(&scratch_dir(&format!("chaos-{}", self.name)))
    }

    /// Like [`Case::run`], in a folder the test prepared (fixture logs, argument files).
    pub fn run_in(&self, dir: &Path) -> Run {
        self.run_watching(dir, |_| {})
    }

    /// Like [`Case::run_in`], calling `on_stderr` with each line the CLI writes to stderr as
    /// it comes (to play the browser of a sign-in, say).
    pub fn run_watching(&self, dir: &Path, on_stderr: impl FnMut(&str) + Send + 'static) -> Run {
        let record = dir.join("record.jsonl");
        let report = dir.join("peak.json");
        let _ = std::fs::remove_file(&report);
        // A record left by an earlier run in a prepared folder would pass for this run's.
        let _ = std::fs::remove_file(&record);
        // A runaway is stopped well past the budget, not at it: the budget is asserted exactly
        // after the run, from the kernel's figure.
        let ceiling_kib = (self.budget_mib * 2).max(256) * 1024;
        let mut command = Command::new(bin("peak-rss"));
        command
            .arg(&report)
            .arg(self.deadline.as_millis().to_string())
            .arg(ceiling_kib.to_string())
            .arg("--")
            .arg(bin("periscope"))
            .args(self.args)
            // The fixtures are legacy servers scripted from initialize on: what they test is
            // the transport and its limits, not the era probe (engine_eras.rs does that).
            .args(["--era", "legacy"])
            .arg("--record")
            .arg(&record)
            .envs(self.env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match &self.server {
            Server::Url(url) => {
                command.args(["--url", url]);
            }
            Server::Stdio(fixture, args) => {
                command.arg("--").arg(bin(fixture)).args(*args);
            }
        }
        let mut meter = command.spawn().expect("the peak-rss meter starts");
        let stdout = collect(meter.stdout.take().unwrap(), |_| {});
        let stderr = collect(meter.stderr.take().unwrap(), on_stderr);
        // The meter enforces the deadline; this wait only guards against the meter itself.
        let status = wait_at_most(&mut meter, self.deadline + Duration::from_secs(30));
        assert!(
            status,
            "{}: the peak-rss meter itself did not end",
            self.name
        );
        // Output pipes close when the CLI is gone; a grandchild that kept them would only cost
        // this short wait.
        std::thread::sleep(Duration::from_millis(50));
        let text =
            |buf: &Arc<Mutex<Vec<u8>>>| String::from_utf8_lossy(&buf.lock().unwrap()).into_owned();
        let meter_report: Value = serde_json::from_str(
            &std::fs::read_to_string(&report).expect("the meter wrote its report"),
        )
        .expect("the report is JSON");
        let run = Run {
            name: self.name.to_string(),
            code: meter_report["exit_code"].as_i64().map(|c| c as i32),
            signal: meter_report["signal"].as_i64().map(|s| s as i32),
            stdout: text(&stdout),
            stderr: text(&stderr),
            peak_mib: meter_report["max_rss_kib"].as_f64().unwrap_or(0.0) / 1024.0,
            budget_mib: self.budget_mib,
            elapsed: Duration::from_millis(meter_report["elapsed_ms"].as_u64().unwrap_or(0)),
            killed: meter_report["killed"].as_str().map(str::to_string),
            record: Record::read(&record),
            dir: dir.to_path_buf(),
        };
        // The figures of every case, for docs/chaos.md and the closing note (`--nocapture`).
        println!(
            "chaos case {}: exit {:?}{} in {:.1} s, peak {:.1} MiB (budget {} MiB)",
            run.name,
            run.code,
            run.killed
                .as_deref()
                .map(|k| format!(", killed at the {k}"))
                .unwrap_or_default(),
            run.elapsed.as_secs_f64(),
            run.peak_mib,
            run.budget_mib
        );
        run
    }
}

/// Reads a pipe to its end on a thread, handing each complete line to `on_line`; the bytes so
/// far are always readable.
fn collect(
    pipe: impl Read + Send + 'static,
    mut on_line: impl FnMut(&str) + Send + 'static,
) -> Arc<Mutex<Vec<u8>>> {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let shared = buf.clone();
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(64 * 1024, pipe);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            on_line(&String::from_utf8_lossy(&line));
            shared.lock().unwrap().extend_from_slice(&line);
        }
    });
    buf
}

fn wait_at_most(child: &mut std::process::Child, within: Duration) -> bool {
    let until = std::time::Instant::now() + within;
    while std::time::Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    false
}

impl Run {
    /// The CLI ended by itself: not killed at the deadline (a hang) or the ceiling (a runaway),
    /// and not by a signal (a crash).
    pub fn ended_by_itself(&self) -> &Self {
        assert_eq!(
            self.killed,
            None,
            "{}: stopped at the {} after {:.1} s (peak {:.0} MiB); stderr ends:\n{}",
            self.name,
            self.killed.as_deref().unwrap_or(""),
            self.elapsed.as_secs_f64(),
            self.peak_mib,
            tail(&self.stderr)
        );
        assert_eq!(
            self.signal,
            None,
            "{}: the CLI crashed (signal {:?}); stderr ends:\n{}",
            self.name,
            self.signal,
            tail(&self.stderr)
        );
        self
    }

    /// The exit code is one of `codes` (docs: 0 ok, 3 connect, 4 protocol, 5 tool error,
    /// 6 timeout).
    pub fn exits(&self, codes: &[i32]) -> &Self {
        self.ended_by_itself();
        let code = self.code.unwrap_or(-1);
        assert!(
            codes.contains(&code),
            "{}: exit {code}, expected one of {codes:?}; stderr ends:\n{}",
            self.name,
            tail(&self.stderr)
        );
        self
    }

    /// The peak memory stayed within the case's budget.
    pub fn within_budget(&self) -> &Self {
        assert!(
            self.peak_mib <= self.budget_mib as f64,
            "{}: peak memory {:.1} MiB is over the budget of {} MiB",
            self.name,
            self.peak_mib,
            self.budget_mib
        );
        self
    }

    /// Stderr holds `text` (the error or warning a user reads).
    pub fn says(&self, text: &str) -> &Self {
        assert!(
            self.stderr.contains(text),
            "{}: stderr does not say {text:?}; it ends:\n{}",
            self.name,
            tail(&self.stderr)
        );
        self
    }

    /// Stdout holds `text`.
    pub fn prints(&self, text: &str) -> &Self {
        assert!(
            self.stdout.contains(text),
            "{}: stdout does not hold {text:?}: {}",
            self.name,
            tail(&self.stdout)
        );
        self
    }

    /// Ended within `limit` (a generous bound that proves "did not hang", not a speed).
    pub fn within(&self, limit: Duration) -> &Self {
        assert!(
            self.elapsed <= limit,
            "{}: took {:.1} s, more than {:?}",
            self.name,
            self.elapsed.as_secs_f64(),
            limit
        );
        self
    }
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(15);
    lines[from..]
        .iter()
        .map(|l| l.chars().take(400).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A frame as the record file has it, compact: long bytes are counted, and kept only in
/// part, so a record of a gigabyte-sized attack reads back in little memory.
#[derive(Debug, Clone)]
pub struct RecordedFrame {
    pub seq: u64,
    pub inbound: bool,
    /// The bytes kept (the cut part, for a cut frame).
    pub len: u64,
    pub truncated_from: Option<u64>,
    /// `verdict.kind`: request, notification, response, not_json, …
    pub kind: String,
    pub method: Option<String>,
    pub id: Option<Value>,
    /// The verdict's error or reason, for frames that are not messages.
    pub problem: Option<String>,
    /// The text, when short (at most 64 KiB) and UTF-8.
    pub text: Option<String>,
    pub exchange: Option<u64>,
}

/// An HTTP exchange of the record.
#[derive(Debug, Clone)]
pub struct RecordedExchange {
    pub seq: u64,
    pub method: String,
    pub url: String,
    pub status: Option<u64>,
    pub error: Option<String>,
    /// Request header names (values may be redacted).
    pub request_headers: Vec<String>,
}

/// A `--record` file read back (format: docs/engine.md).
#[derive(Debug, Default)]
pub struct Record {
    pub frames: Vec<RecordedFrame>,
    /// (seq, the flag as JSON: `{"kind": …}`).
    pub flags: Vec<(u64, Value)>,
    /// The server's stderr lines (at most 64 KiB of each is kept here).
    pub stderr: Vec<String>,
    /// The full length of each stderr line as recorded, in bytes.
    pub stderr_lens: Vec<u64>,
    pub exchanges: Vec<RecordedExchange>,
    /// Lines that did not parse: a record must never have any.
    pub unreadable: usize,
    /// The file as given to `--record`.
    pub path: PathBuf,
    /// Why the file could not be read (or read to its end): missing, not a file, an I/O
    /// error, not UTF-8. A record must always be read whole, so [`Record::is_whole`] fails
    /// on it: an absent record is never taken for an empty one.
    pub problem: Option<String>,
    /// The first line, when it is the `session` line every record starts with
    /// (docs/recording-format.md).
    pub session: Option<Value>,
}

/// Longest frame text kept whole when reading a record back.
const KEEP_TEXT: usize = 64 * 1024;

impl Record {
    /// Reads the record at `path`. Never fails itself: what went wrong is kept in
    /// [`Record::problem`] (and [`Record::unreadable`]) for [`Record::is_whole`] to judge, so a
    /// case that ended badly still shows its exit and output first.
    pub fn read(path: &Path) -> Record {
        let mut record = Record {
            path: path.to_path_buf(),
            ..Record::default()
        };
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) => {
                record.problem = Some(format!("cannot open it: {e}"));
                return record;
            }
        };
        let mut reader = BufReader::new(file);
        let mut line = String::new();
        let mut first = true;
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    // Not the end: the rest of the record would go unread.
                    record.problem = Some(format!(
                        "reading it failed after {} entries: {e}",
                        record.entries()
                    ));
                    break;
                }
            }
            if !line.ends_with('\n') {
                // The last line was cut (the process was killed mid-write): not an entry.
                record.unreadable += 1;
                break;
            }
            let Ok(entry) = serde_json::from_str::<Value>(&line) else {
                record.unreadable += 1;
                first = false;
                continue;
            };
            if std::mem::take(&mut first) && entry["type"] == "session" {
                record.session = Some(entry);
                continue;
            }
            record.add(entry);
        }
        record
    }

    /// The entries read after the session line (frames, flags, stderr lines, exchanges).
    pub fn entries(&self) -> usize {
        self.frames.len() + self.flags.len() + self.stderr.len() + self.exchanges.len()
    }

    fn add(&mut self, entry: Value) {
        let seq = entry["seq"].as_u64().unwrap_or(0);
        match entry["type"].as_str() {
            Some("frame") => {
                let verdict = &entry["verdict"];
                let (len, text) = match (&entry["bytes"]["text"], &entry["bytes"]["base64"]) {
                    (Value::String(t), _) => {
                        (t.len() as u64, (t.len() <= KEEP_TEXT).then(|| t.clone()))
                    }
                    (_, Value::String(b)) => ((b.len() as u64 / 4) * 3, None),
                    _ => (0, None),
                };
                let problem = verdict["error"]
                    .as_str()
                    .or_else(|| verdict["reason"].as_str())
                    .map(|p| p.chars().take(KEEP_TEXT).collect());
                self.frames.push(RecordedFrame {
                    seq,
                    inbound: entry["direction"] == "in",
                    len,
                    truncated_from: entry["truncated_from"].as_u64(),
                    kind: verdict["kind"].as_str().unwrap_or("").to_string(),
                    method: verdict["method"]
                        .as_str()
                        .map(|m| m.chars().take(KEEP_TEXT).collect()),
                    id: (!verdict["id"].is_null()).then(|| verdict["id"].clone()),
                    problem,
                    text,
                    exchange: entry["exchange"].as_u64(),
                });
            }
            Some("flag") => self.flags.push((seq, entry["flag"].clone())),
            Some("stderr") => {
                let text = entry["text"].as_str().unwrap_or("");
                self.stderr_lens.push(text.len() as u64);
                self.stderr.push(text.chars().take(KEEP_TEXT).collect());
            }
            Some("http") => self.exchanges.push(RecordedExchange {
                seq,
                method: entry["method"].as_str().unwrap_or("").to_string(),
                url: entry["url"].as_str().unwrap_or("").to_string(),
                status: entry["status"].as_u64(),
                error: entry["error"].as_str().map(str::to_string),
                request_headers: entry["request_headers"]
                    .as_array()
                    .map(|h| {
                        h.iter()
                            .filter_map(|pair| pair[0].as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default(),
            }),
            _ => {}
        }
    }

    pub fn inbound(&self) -> impl Iterator<Item = &RecordedFrame> {
        self.frames.iter().filter(|f| f.inbound)
    }

    pub fn outbound(&self) -> impl Iterator<Item = &RecordedFrame> {
        self.frames.iter().filter(|f| !f.inbound)
    }

    /// The kinds of the flags on frame `seq`.
    pub fn flags_of(&self, seq: u64) -> Vec<String> {
        self.flags
            .iter()
            .filter(|(s, _)| *s == seq)
            .map(|(_, f)| f["kind"].as_str().unwrap_or("").to_string())
            .collect()
    }

    /// Every flag of `kind`.
    pub fn flagged(&self, kind: &str) -> Vec<&Value> {
        self.flags
            .iter()
            .filter(|(_, f)| f["kind"] == kind)
            .map(|(_, f)| f)
            .collect()
    }

    /// Every cut frame carries its true size and an `oversized` flag: "kept in part and
    /// flagged", never silently shortened.
    pub fn cut_frames_are_flagged(&self) {
        for f in self.frames.iter().filter(|f| f.truncated_from.is_some()) {
            assert!(
                f.truncated_from.unwrap() > f.len,
                "frame {} is marked cut but kept {} of {:?} bytes",
                f.seq,
                f.len,
                f.truncated_from
            );
            assert!(
                self.flags_of(f.seq).iter().any(|k| k == "oversized"),
                "cut frame {} has no oversized flag: {:?}",
                f.seq,
                self.flags_of(f.seq)
            );
        }
    }

    /// The record file is whole: it exists and was read to its end, it starts with its
    /// session line, and every line parses. A missing record fails here (it is never read as
    /// an empty one), so every case that calls this checks its record.
    pub fn is_whole(&self) -> &Self {
        if let Some(problem) = &self.problem {
            panic!(
                "the record {} is not there to check: {problem}",
                self.path.display()
            );
        }
        assert!(
            self.session.is_some(),
            "the record {} does not start with its session line ({} entries, {} unreadable lines)",
            self.path.display(),
            self.entries(),
            self.unreadable
        );
        assert_eq!(
            self.unreadable,
            0,
            "the record {} has unreadable lines",
            self.path.display()
        );
        self
    }
}

/// Whether process `pid` still exists (a zombie waiting for its reaper counts as gone).
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Waits up to `within` for every pid in `pids` to be gone; returns those still alive.
pub fn still_alive_after(pids: &[u32], within: Duration) -> Vec<u32> {
    let until = std::time::Instant::now() + within;
    loop {
        let alive: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if alive.is_empty() || std::time::Instant::now() > until {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Pids a fixture announced on its stderr (`orphan pid 123`, `server pid 45`), from the record.
pub fn announced_pids(record: &Record, prefix: &str) -> Vec<u32> {
    record
        .stderr
        .iter()
        .filter_map(|l| l.strip_prefix(prefix))
        .filter_map(|p| p.trim().parse().ok())
        .collect()
}

/// Kills leftover pids a failed case announced, so one failure does not leak into the next run.
pub fn kill_all(pids: &[u32]) {
    for pid in pids {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
}
