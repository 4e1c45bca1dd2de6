//! stdio: the server is a child process; one JSON-RPC message (or batch) per line.
//!
//! The child gets its own process group, so shutting down takes its whole tree with it.
//! Shutdown follows the spec: close stdin, wait, SIGTERM, wait, SIGKILL.

use std::io;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, Command};
use tokio::sync::{Mutex, mpsc, watch};

use super::{
    CloseCause, CloseReport, Inbound, ProcessEnd, SendError, ShutdownStep, Transport, child_env,
    child_lifetime,
};
use crate::config::StdioTarget;
use crate::traffic::Traffic;
use crate::wire::{Direction, Frame};

/// How many stderr lines a close report quotes.
const STDERR_TAIL: usize = 5;

#[derive(Debug, Clone)]
pub struct StdioOptions {
    /// Frames longer than this are recorded cut short and flagged.
    pub max_frame_bytes: usize,
    /// How long to wait after closing stdin, and again after SIGTERM.
    pub shutdown_grace: Duration,
}

impl Default for StdioOptions {
    fn default() -> Self {
        StdioOptions {
            max_frame_bytes: 64 * 1024 * 1024,
            shutdown_grace: Duration::from_secs(2),
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("could not start `{command}`: {source}")]
pub struct SpawnError {
    pub command: String,
    #[source]
    pub source: io::Error,
}

pub struct StdioTransport {
    stdin: Mutex<Option<ChildStdin>>,
    pgid: Pid,
    exit: watch::Receiver<Option<ExitStatus>>,
    stderr_done: watch::Receiver<bool>,
    traffic: Arc<Traffic>,
    options: StdioOptions,
}

impl StdioTransport {
    /// Starts the server. Inbound frames are recorded in `traffic`, then sent to `inbound`.
    pub fn spawn(
        target: &StdioTarget,
        options: StdioOptions,
        traffic: Arc<Traffic>,
        inbound: mpsc::Sender<Inbound>,
    ) -> Result<StdioTransport, SpawnError> {
        let mut cmd = Command::new(&target.command);
        // A minimal inherited environment unless the entry asks for all of it (child_env.rs).
        child_env::apply(&mut cmd, target);
        cmd.args(&target.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        if let Some(cwd) = &target.cwd {
            cmd.current_dir(cwd);
        }
        // Forked so that it dies with Periscope, even a killed one (child_lifetime.rs).
        let mut child = child_lifetime::spawn(cmd).map_err(|source| SpawnError {
            command: target.display(),
            source,
        })?;
        let pid = child.id().expect("a child that was just spawned has a pid");
        let pgid = Pid::from_raw(pid as i32);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");

        let (exit_tx, exit_rx) = watch::channel(None);
        tokio::spawn(async move {
            let status = child.wait().await.ok();
            let _ = exit_tx.send(status);
        });

        let (stderr_tx, stderr_rx) = watch::channel(false);
        let stderr_traffic = traffic.clone();
        let max = options.max_frame_bytes;
        tokio::spawn(async move {
            let mut reader = BufReader::new(stderr);
            while let Ok(Some((bytes, _))) = read_line_bounded(&mut reader, max).await {
                let text = String::from_utf8_lossy(&bytes);
                stderr_traffic.append_stderr(text.trim_end_matches('\r').to_string());
            }
            let _ = stderr_tx.send(true);
        });

        let transport = StdioTransport {
            stdin: Mutex::new(stdin),
            pgid,
            exit: exit_rx,
            stderr_done: stderr_rx,
            traffic: traffic.clone(),
            options,
        };
        let (exit, stderr_done) = (transport.exit.clone(), transport.stderr_done.clone());
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout);
            let read_error = loop {
                match read_line_bounded(&mut reader, max).await {
                    Ok(Some((bytes, truncated_from))) => {
                        let (frame, value) =
                            traffic.append_frame(Direction::In, bytes, truncated_from);
                        if inbound.send(Inbound::Frame(frame, value)).await.is_err() {
                            return; // the session is gone; the record is complete
                        }
                    }
                    Ok(None) => break None,
                    Err(e) => break Some(e),
                }
            };
            let report = closed_report(exit, stderr_done, &traffic, read_error).await;
            let _ = inbound.send(Inbound::Closed(report)).await;
        });
        Ok(transport)
    }

    async fn wait_exit(&self, within: Duration) -> Option<ExitStatus> {
        let mut exit = self.exit.clone();
        tokio::time::timeout(within, exit.wait_for(Option::is_some))
            .await
            .ok()
            .and_then(|r| r.ok().and_then(|s| *s))
    }

    fn signal_group(&self, signal: Signal) {
        // ESRCH (nothing left in the group) is the normal case once the server has exited.
        let _ = killpg(self.pgid, signal);
    }
}

#[async_trait]
impl Transport for StdioTransport {
    async fn send(&self, frame: &Frame) -> Result<(), SendError> {
        let bytes = &frame.bytes;
        let mut guard = self.stdin.lock().await;
        let stdin = guard.as_mut().ok_or(SendError::Closed)?;
        let mut line = Vec::with_capacity(bytes.len() + 1);
        line.extend_from_slice(bytes);
        line.push(b'\n');
        let result = async {
            stdin.write_all(&line).await?;
            stdin.flush().await
        }
        .await;
        result.map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                SendError::Closed
            } else {
                SendError::Io(e)
            }
        })
    }

    fn reports_close(&self) -> bool {
        true
    }

    async fn shutdown(&self) -> CloseReport {
        drop(self.stdin.lock().await.take());
        let grace = self.options.shutdown_grace;
        let mut step = ShutdownStep::ClosedStdin;
        let mut status = self.wait_exit(grace).await;
        if status.is_none() {
            self.signal_group(Signal::SIGTERM);
            step = ShutdownStep::SentSigterm;
            status = self.wait_exit(grace).await;
        }
        if status.is_none() {
            step = ShutdownStep::SentSigkill;
            self.signal_group(Signal::SIGKILL);
            status = self.wait_exit(grace).await;
        } else {
            // The server is gone; anything it started in its group goes too.
            self.signal_group(Signal::SIGKILL);
        }
        let cause = CloseCause::Process {
            end: process_end(status),
            shutdown: Some(step),
        };
        CloseReport::new(cause, self.traffic.stderr_tail(STDERR_TAIL))
    }
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        if self.exit.borrow().is_none() {
            self.signal_group(Signal::SIGKILL);
        }
    }
}

async fn closed_report(
    mut exit: watch::Receiver<Option<ExitStatus>>,
    mut stderr_done: watch::Receiver<bool>,
    traffic: &Traffic,
    read_error: Option<io::Error>,
) -> CloseReport {
    // stdout closed; give the process a moment to exit and stderr to drain, so the report
    // carries the exit status and the server's last words.
    let wait = Duration::from_secs(2);
    let status = tokio::time::timeout(wait, exit.wait_for(Option::is_some))
        .await
        .ok()
        .and_then(|r| r.ok().and_then(|s| *s));
    let _ = tokio::time::timeout(wait, stderr_done.wait_for(|done| *done)).await;
    let cause = match (read_error, status) {
        (Some(e), status) => CloseCause::StdoutReadFailed {
            error: e.to_string(),
            end: status.map(|s| process_end(Some(s))),
        },
        (None, None) => CloseCause::StdoutClosedStillRunning,
        (None, Some(s)) => CloseCause::Process {
            end: process_end(Some(s)),
            shutdown: None,
        },
    };
    CloseReport::new(cause, traffic.stderr_tail(STDERR_TAIL))
}

fn process_end(status: Option<ExitStatus>) -> ProcessEnd {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(s) => match s.code() {
            Some(code) => ProcessEnd::Exited { code },
            None => ProcessEnd::Killed {
                signal: s.signal().unwrap_or_default(),
            },
        },
        None => ProcessEnd::DidNotExit,
    }
}

/// Reads one `\n`-terminated line without the `\n`. Keeps at most `max` bytes and reports the
/// full length when it had to cut. A last line without `\n` before EOF is still a line.
pub async fn read_line_bounded<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> io::Result<Option<(Vec<u8>, Option<u64>)>> {
    let mut line = Vec::new();
    let mut total: u64 = 0;
    let mut saw_any = false;
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        total += part.len() as u64;
        reader.consume(used);
        if done {
            break;
        }
    }
    let truncated = (total > line.len() as u64).then_some(total);
    Ok(Some((line, truncated)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_split_exactly_and_long_ones_are_cut_with_their_size_kept() {
        let data: &[u8] = b"one\r\n\ntwo\n0123456789abcdef\nlast";
        let mut r = BufReader::with_capacity(4, data);
        let mut got = Vec::new();
        while let Some(line) = read_line_bounded(&mut r, 10).await.unwrap() {
            got.push(line);
        }
        assert_eq!(
            got,
            vec![
                (b"one\r".to_vec(), None),
                (Vec::new(), None),
                (b"two".to_vec(), None),
                (b"0123456789".to_vec(), Some(16)),
                (b"last".to_vec(), None),
            ]
        );
    }
}
