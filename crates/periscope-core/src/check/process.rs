//! stdio: what the server writes on stdout, and how its process ends: when its stdin closes,
//! on SIGTERM, and whether it leaves processes behind. The ending rules start processes of
//! their own (not sessions: the check holds the pipes and the signals itself).

use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::{CheckOptions, CheckTarget};
use crate::config::StdioTarget;
use crate::session::Session;
use crate::vocabulary::method::names;
use crate::wire::Direction;

/// How long a server has to exit after its stdin closes, or after SIGTERM.
const EXIT_GRACE: Duration = Duration::from_secs(5);
/// How long what the server started has to follow it out.
const ORPHAN_GRACE: Duration = Duration::from_secs(1);

/// The ending rules (none over HTTP).
pub(crate) async fn ask(target: &CheckTarget, options: &CheckOptions) -> Vec<(Rule, Outcome)> {
    let CheckTarget::Stdio(stdio) = target else {
        return [
            Rule::ExitsOnStdinClose,
            Rule::NoOrphans,
            Rule::ExitsOnSigterm,
        ]
        .into_iter()
        .filter(|r| options.selects(*r))
        .map(|r| {
            (
                r,
                Outcome::skip(NotAsked::OtherTransport, "a rule of stdio servers"),
            )
        })
        .collect();
    };
    let wants_close = options.selects(Rule::ExitsOnStdinClose) || options.selects(Rule::NoOrphans);
    let wants_term = options.selects(Rule::ExitsOnSigterm);
    let close = async {
        if wants_close {
            stdin_close(stdio, options.wait).await
        } else {
            Vec::new()
        }
    };
    let term = async {
        if wants_term {
            vec![(Rule::ExitsOnSigterm, sigterm(stdio, options.wait).await)]
        } else {
            Vec::new()
        }
    };
    let (mut found, term) = tokio::join!(close, term);
    found.extend(term);
    found
}

/// A server started for an ending rule, handshake done (or given up on).
struct Started {
    child: Child,
    pgid: Pid,
    stdin: Option<tokio::process::ChildStdin>,
}

impl Drop for Started {
    fn drop(&mut self) {
        // Whatever the rule saw, nothing it started outlives it.
        let _ = killpg(self.pgid, Signal::SIGKILL);
    }
}

async fn start(target: &StdioTarget, wait: Duration) -> Result<Started, String> {
    let mut cmd = Command::new(&target.command);
    crate::transport::child_env::apply(&mut cmd, target);
    cmd.args(&target.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(cwd) = &target.cwd {
        cmd.current_dir(cwd);
    }
    let mut child = crate::transport::child_lifetime::spawn(cmd)
        .map_err(|e| format!("could not start {}: {e}", target.display()))?;
    let pid = child.id().ok_or("the server exited at once")?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": names::INITIALIZE, "params": {
        "protocolVersion": crate::revision::LATEST_STATEFUL,
        "capabilities": {},
        "clientInfo": {"name": "periscope-check", "version": crate::ENGINE_VERSION},
    }});
    let mut lines = BufReader::new(stdout).lines();
    let _ = stdin.write_all(format!("{initialize}\n").as_bytes()).await;
    // The first line the server writes says it is up (a modern-only server refuses
    // initialize: it is up too).
    let _ = tokio::time::timeout(wait, lines.next_line()).await;
    let initialized = json!({"jsonrpc": "2.0", "method": names::INITIALIZED});
    let _ = stdin.write_all(format!("{initialized}\n").as_bytes()).await;
    // Keep reading: a server blocked on a full pipe would not get to exit.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok(Started {
        child,
        pgid: Pid::from_raw(pid as i32),
        stdin: Some(stdin),
    })
}

async fn exits_within(child: &mut Child, grace: Duration) -> Option<Duration> {
    let start = tokio::time::Instant::now();
    tokio::time::timeout(grace, child.wait())
        .await
        .ok()
        .map(|_| start.elapsed())
}

/// Whether any process is left in the group, after giving them `ORPHAN_GRACE` to go.
async fn group_left(pgid: Pid) -> bool {
    let deadline = tokio::time::Instant::now() + ORPHAN_GRACE;
    loop {
        // Signal 0 tests for existence: ESRCH when the group is empty.
        if killpg(pgid, None).is_err() {
            return false;
        }
        if tokio::time::Instant::now() >= deadline {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn stdin_close(target: &StdioTarget, wait: Duration) -> Vec<(Rule, Outcome)> {
    let mut started = match start(target, wait).await {
        Ok(s) => s,
        Err(why) => {
            return vec![
                (
                    Rule::ExitsOnStdinClose,
                    Outcome::skip(NotAsked::NoSession, why.clone()),
                ),
                (Rule::NoOrphans, Outcome::skip(NotAsked::NoSession, why)),
            ];
        }
    };
    drop(started.stdin.take());
    match exits_within(&mut started.child, EXIT_GRACE).await {
        None => vec![
            (
                Rule::ExitsOnStdinClose,
                Outcome::broken(
                    Vec::new(),
                    format!(
                        "still running {} s after its stdin closed",
                        EXIT_GRACE.as_secs()
                    ),
                ),
            ),
            (
                Rule::NoOrphans,
                Outcome::skip(NotAsked::NothingToAsk, "the server did not exit on its own"),
            ),
        ],
        Some(took) => {
            let orphans = if group_left(started.pgid).await {
                Outcome::broken(
                    Vec::new(),
                    format!(
                        "processes of its group (pgid {}) still ran {} s after it exited",
                        started.pgid,
                        ORPHAN_GRACE.as_secs()
                    ),
                )
            } else {
                Outcome::pass(Vec::new(), "nothing of its process group was left")
            };
            vec![
                (
                    Rule::ExitsOnStdinClose,
                    Outcome::pass(
                        Vec::new(),
                        format!("exited {:.1} s after its stdin closed", took.as_secs_f64()),
                    ),
                ),
                (Rule::NoOrphans, orphans),
            ]
        }
    }
}

async fn sigterm(target: &StdioTarget, wait: Duration) -> Outcome {
    let mut started = match start(target, wait).await {
        Ok(s) => s,
        Err(why) => return Outcome::skip(NotAsked::NoSession, why),
    };
    let pid = Pid::from_raw(started.pgid.as_raw());
    if let Err(e) = kill(pid, Signal::SIGTERM) {
        return Outcome::skip(
            NotAsked::NoSession,
            format!("could not signal the server: {e}"),
        );
    }
    match exits_within(&mut started.child, EXIT_GRACE).await {
        Some(took) => Outcome::pass(
            Vec::new(),
            format!("exited {:.1} s after SIGTERM", took.as_secs_f64()),
        ),
        None => Outcome::broken(
            Vec::new(),
            format!("still running {} s after SIGTERM", EXIT_GRACE.as_secs()),
        ),
    }
}

/// Every line the sessions read from stdout must be JSON-RPC (raw first: the transport keeps
/// a line that is not, as a frame; this names them).
pub(crate) fn stdout_only_json<'a>(
    target: &CheckTarget,
    sessions: impl Iterator<Item = &'a Session>,
) -> Vec<(Rule, Outcome)> {
    if !matches!(target, CheckTarget::Stdio(_)) {
        return vec![(
            Rule::StdoutOnlyJson,
            Outcome::skip(NotAsked::OtherTransport, "a rule of stdio servers"),
        )];
    }
    let mut frames = Vec::new();
    let mut first = None;
    for session in sessions {
        for frame in session.traffic().frames() {
            let not_json = matches!(
                frame.verdict,
                crate::wire::Verdict::NotJson { .. } | crate::wire::Verdict::NotUtf8 { .. }
            );
            if frame.direction == Direction::In && not_json {
                frames.push(frame.seq);
                first.get_or_insert_with(|| super::probe::short(&frame.text_lossy()));
            }
        }
    }
    let outcome = match first {
        None => Outcome::pass(Vec::new(), "every stdout line was JSON"),
        Some(line) => Outcome::broken(
            frames.clone(),
            format!(
                "{} lines on stdout were not JSON; the first: {line:?}",
                frames.len()
            ),
        ),
    };
    vec![(Rule::StdoutOnlyJson, outcome)]
}
