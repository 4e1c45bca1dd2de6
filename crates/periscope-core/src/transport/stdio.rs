//! stdio: the server is a child process; one JSON-RPC message (or batch) per line.
//!
//! The child gets its own process group, so shutting down takes its whole tree with it.
//! Shutdown follows the spec: close stdin, wait, SIGTERM, wait, SIGKILL.

use std::io;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, Command};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use super::{
    CloseCause, CloseReport, Delivery, Inbound, ProcessEnd, SendError, ShutdownStep, Stall,
    Transport, child_env, child_lifetime,
};
use crate::config::StdioTarget;
use crate::limits::{Limits, human_bytes};
use crate::traffic::Traffic;
use crate::wire::{Direction, Frame};

/// The read buffer on the server's stdout: a pipe holds 64 KiB, so one read takes what a
/// flooding server wrote since the last one (hundreds of frames), not 8 KiB of it.
const READ_BUFFER_BYTES: usize = 64 * 1024;
/// The most lines recorded and handed on together: the session's inbound queue holds 1 024
/// hand-offs, so this bounds how many frames wait there for a dispatcher that fell behind (a
/// read of 64 KiB of empty lines would otherwise make one hand-off of 65 536 frames).
const MAX_LINES_TOGETHER: usize = 128;
/// The room asked for in the pipe from the server's stdout (Linux's default limit for a
/// process without privileges; the default pipe holds 64 KiB).
const PIPE_BYTES: i32 = 1024 * 1024;
/// Reads of a flood handed on before the reader lets the other tasks of its thread run: at
/// most about a thousand frames, well within the session's event channel (8 192).
const READS_BETWEEN_TURNS: u64 = 8;
/// How many stderr lines a close report quotes.
const STDERR_TAIL: usize = 5;

#[derive(Debug, Clone)]
pub struct StdioOptions {
    /// How long to wait after closing stdin, and again after SIGTERM.
    pub shutdown_grace: Duration,
}

impl Default for StdioOptions {
    fn default() -> Self {
        StdioOptions {
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
    /// Frames for the writer task, in order; `None` once shutdown began.
    queue: Mutex<Option<mpsc::Sender<Outgoing>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    writing: Arc<Writing>,
    max_queued_frames: usize,
    pgid: Pid,
    exit: watch::Receiver<Option<ExitStatus>>,
    stderr_done: watch::Receiver<bool>,
    traffic: Arc<Traffic>,
    options: StdioOptions,
}

/// Frames waiting for the writer (one, or a lane's batch written together), and who to tell
/// when they are written.
struct Outgoing {
    frames: Batch,
    done: oneshot::Sender<io::Result<()>>,
}

enum Batch {
    One(Arc<Frame>),
    Many(Vec<Arc<Frame>>),
}

impl Batch {
    fn frames(&self) -> &[Arc<Frame>] {
        match self {
            Batch::One(frame) => std::slice::from_ref(frame),
            Batch::Many(frames) => frames,
        }
    }
}

/// What the writer is doing, for the error of a send that ran out of time.
#[derive(Default)]
struct Writing {
    /// The seq of the frame being written (0: none).
    seq: AtomicU64,
    /// Bytes of it (with its newline) handed to the pipe so far.
    written: AtomicU64,
}

impl StdioTransport {
    /// Starts the server. Inbound frames are recorded in `traffic`, then sent to `inbound`.
    pub fn spawn(
        target: &StdioTarget,
        options: StdioOptions,
        limits: &Limits,
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
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        widen_pipe(&stdout);
        let stderr = child.stderr.take().expect("stderr is piped");

        let (exit_tx, exit_rx) = watch::channel(None);
        tokio::spawn(async move {
            let status = child.wait().await.ok();
            let _ = exit_tx.send(status);
        });

        let (stderr_tx, stderr_rx) = watch::channel(false);
        let stderr_traffic = traffic.clone();
        let max_stderr = limits.max_stderr_line_bytes;
        tokio::spawn(async move {
            let mut reader = BufReader::new(stderr);
            while let Ok(Some((bytes, cut_from))) = read_line_bounded(&mut reader, max_stderr).await
            {
                let text = String::from_utf8_lossy(&bytes);
                let mut text = text.trim_end_matches('\r').to_string();
                if let Some(total) = cut_from {
                    text.push_str(&format!(" [line cut: {} in all]", human_bytes(total)));
                }
                stderr_traffic.append_stderr(text);
            }
            let _ = stderr_tx.send(true);
        });

        let (queue_tx, queue_rx) = mpsc::channel(limits.max_queued_frames.max(1));
        let writing = Arc::new(Writing::default());
        let writer = tokio::spawn(write_frames(stdin, queue_rx, writing.clone()));
        let max = limits.max_frame_bytes;
        let transport = StdioTransport {
            queue: Mutex::new(Some(queue_tx)),
            writer: Mutex::new(Some(writer)),
            writing,
            max_queued_frames: limits.max_queued_frames,
            pgid,
            exit: exit_rx,
            stderr_done: stderr_rx,
            traffic: traffic.clone(),
            options,
        };
        let (exit, stderr_done) = (transport.exit.clone(), transport.stderr_done.clone());
        tokio::spawn(async move {
            let mut reader = BufReader::with_capacity(READ_BUFFER_BYTES, stdout);
            let mut reads: u64 = 0;
            let read_error = loop {
                match read_frames_bounded(&mut reader, max).await {
                    // One read of the pipe, recorded and handed on together: a flood's frames
                    // cost one lock and one hand-off per read, not per frame.
                    Ok(Some(lines)) => {
                        let frames = traffic.append_frames(Direction::In, lines);
                        if inbound.send(Inbound::Frames(frames)).await.is_err() {
                            return; // the session is gone; the record is complete
                        }
                        // The dispatcher's and the event printer's turn every few reads: with
                        // a megabyte in the pipe (`widen_pipe`) a flood never runs it dry, and
                        // the CLI's one thread read thousands of frames before their events
                        // were printed, so the first were dropped as lagged. (A turn after
                        // every read measured slightly slower on a recorded flood.)
                        reads += 1;
                        if reads.is_multiple_of(READS_BETWEEN_TURNS) {
                            tokio::task::yield_now().await;
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

    /// Queues frames for the writer; the delivery ends when they are written, or within
    /// `patience` with what held them up (`total`: their bytes with newlines).
    fn queue_frames(&self, frames: Batch, total: u64, patience: Duration) -> Delivery {
        let queue = lock(&self.queue).clone();
        let (done_tx, done_rx) = oneshot::channel();
        let seq = frames.frames().first().map_or(0, |f| f.seq);
        let queued = match queue {
            None => Err(SendError::Closed),
            Some(q) => q
                .try_send(Outgoing {
                    frames,
                    done: done_tx,
                })
                .map_err(|e| match e {
                    mpsc::error::TrySendError::Full(_) => SendError::Stalled(Stall::QueueFull {
                        limit: self.max_queued_frames,
                    }),
                    mpsc::error::TrySendError::Closed(_) => SendError::Closed,
                }),
        };
        let writing = self.writing.clone();
        Box::pin(async move {
            queued?;
            match tokio::time::timeout(patience, done_rx).await {
                Ok(Ok(Ok(()))) => Ok(()),
                Ok(Ok(Err(e))) if e.kind() == io::ErrorKind::BrokenPipe => Err(SendError::Closed),
                Ok(Ok(Err(e))) => Err(SendError::Io(e)),
                // The writer is gone: the connection is closing.
                Ok(Err(_)) => Err(SendError::Closed),
                Err(_) => Err(SendError::Stalled(
                    if writing.seq.load(Ordering::SeqCst) == seq {
                        Stall::InputNotRead {
                            unsent: total.saturating_sub(writing.written.load(Ordering::SeqCst)),
                            total,
                            waited: patience,
                        }
                    } else {
                        Stall::QueuedBehind { waited: patience }
                    },
                )),
            }
        })
    }

    fn signal_group(&self, signal: Signal) {
        // ESRCH (nothing left in the group) is the normal case once the server has exited.
        let _ = killpg(self.pgid, signal);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Writes queued frames to the server's stdin, one line each, in order. A frame whose sender
/// stopped waiting before it was started is skipped (it never left, and its flag says so); one
/// already started is finished, since a line cut short would corrupt every later frame.
async fn write_frames(
    mut stdin: ChildStdin,
    mut queue: mpsc::Receiver<Outgoing>,
    writing: Arc<Writing>,
) {
    let mut joined = Vec::new();
    while let Some(Outgoing { frames, done }) = queue.recv().await {
        if done.is_closed() {
            continue;
        }
        let frames = frames.frames();
        let Some(first) = frames.first() else {
            let _ = done.send(Ok(()));
            continue;
        };
        writing.written.store(0, Ordering::SeqCst);
        writing.seq.store(first.seq, Ordering::SeqCst);
        // A batch goes in one write: its lines joined (a lane's requests, a few dozen bytes
        // each, would otherwise cost two system calls apiece).
        let parts: [&[u8]; 2] = if frames.len() == 1 {
            [&first.bytes[..], b"\n"]
        } else {
            joined.clear();
            for frame in frames {
                joined.extend_from_slice(&frame.bytes);
                joined.push(b'\n');
            }
            [&joined[..], b""]
        };
        let result = async {
            // Written piece by piece, as the pipe takes it, so a stalled write can say exactly
            // how much of its frame is left.
            for part in parts {
                let mut rest = part;
                while !rest.is_empty() {
                    let n = stdin.write(rest).await?;
                    if n == 0 {
                        return Err(io::ErrorKind::WriteZero.into());
                    }
                    rest = &rest[n..];
                    writing.written.fetch_add(n as u64, Ordering::SeqCst);
                }
            }
            stdin.flush().await
        }
        .await;
        writing.seq.store(0, Ordering::SeqCst);
        let _ = done.send(result);
    }
}

#[async_trait]
impl Transport for StdioTransport {
    fn process_id(&self) -> Option<u32> {
        u32::try_from(self.pgid.as_raw()).ok()
    }

    fn send(&self, frame: Arc<Frame>, patience: Duration) -> Delivery {
        let total = frame.bytes.len() as u64 + 1;
        self.queue_frames(Batch::One(frame), total, patience)
    }

    fn send_batch(&self, frames: Vec<Arc<Frame>>, patience: Duration) -> Option<Delivery> {
        let total = frames.iter().map(|f| f.bytes.len() as u64 + 1).sum();
        Some(self.queue_frames(Batch::Many(frames), total, patience))
    }

    fn sends_batches(&self) -> bool {
        true
    }

    fn reports_close(&self) -> bool {
        true
    }

    async fn shutdown(&self) -> CloseReport {
        // Closing stdin: the queue ends, and the writer ends with it once it has written what
        // was queued; a writer stuck on a server that does not read is stopped, which closes
        // the pipe all the same.
        drop(lock(&self.queue).take());
        let writer = lock(&self.writer).take();
        let grace = self.options.shutdown_grace;
        if let Some(mut writer) = writer {
            // A write in progress means a server not reading: don't wait on it.
            let stuck = self.writing.seq.load(Ordering::SeqCst) != 0;
            if stuck || tokio::time::timeout(grace, &mut writer).await.is_err() {
                writer.abort();
            }
        }
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
        if let Some(writer) = lock(&self.writer).take() {
            writer.abort();
        }
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
            detail: e.to_string(),
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

/// Gives the pipe from the server's stdout [`PIPE_BYTES`] of room, where the system allows it.
///
/// With 64 KiB (about 600 of a flood's frames) a flooding server kept blocking on a full pipe
/// while Periscope worked through what it had read, and a core stood idle for a fifth of a
/// recorded flood on two cores: the server, the session and the record's writer waited on each
/// other in turn. With a megabyte the server writes on while Periscope records: the recorded
/// 1 000 000-frame flood went from about 1.5 s to 1.2 s (docs/cli-cost.md). Refused (the user's
/// pipes already hold what the system allows them, or another system), the pipe stays as it
/// was: only slower.
fn widen_pipe(stdout: &tokio::process::ChildStdout) {
    #[cfg(target_os = "linux")]
    {
        let _ = nix::fcntl::fcntl(stdout, nix::fcntl::FcntlArg::F_SETPIPE_SZ(PIPE_BYTES));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = stdout;
}

/// A line as a frame keeps it, with the full length of one that was cut.
pub type Line = (Arc<[u8]>, Option<u64>);

/// Like [`read_line_bounded`], the complete lines the reader's buffer holds (at least one, at
/// most [`MAX_LINES_TOGETHER`]), each as the `Arc<[u8]>` a frame keeps. Lines that lie whole in
/// the buffer (nearly every line of a flood) are copied once, straight into it, with no growing
/// `Vec` between; a line across refills or past `max` is read alone, by `read_line_bounded`.
/// `None` at the end of input.
pub async fn read_frames_bounded<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> io::Result<Option<Vec<Line>>> {
    let chunk = reader.fill_buf().await?;
    let mut lines = Vec::new();
    let mut used = 0;
    for end in memchr::memchr_iter(b'\n', chunk) {
        if end - used > max || lines.len() == MAX_LINES_TOGETHER {
            break;
        }
        lines.push((Arc::<[u8]>::from(&chunk[used..end]), None));
        used = end + 1;
    }
    if !lines.is_empty() {
        reader.consume(used);
        return Ok(Some(lines));
    }
    Ok(read_line_bounded(reader, max)
        .await?
        .map(|(line, cut_from)| vec![(Arc::from(line), cut_from)]))
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
        let (part, used, done) = match memchr::memchr(b'\n', chunk) {
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

    /// The pipe from a server's stdout gets a megabyte of room (the default is 64 KiB).
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_pipe_from_the_server_is_widened() {
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let size = |out| nix::fcntl::fcntl(out, nix::fcntl::FcntlArg::F_GETPIPE_SZ).unwrap();
        assert!(
            size(&stdout) < PIPE_BYTES,
            "a new pipe has the default room"
        );
        widen_pipe(&stdout);
        assert_eq!(size(&stdout), PIPE_BYTES);
    }

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

    /// A buffer full of short lines is handed on in parts of at most `MAX_LINES_TOGETHER`.
    #[tokio::test]
    async fn lines_together_are_bounded() {
        let data = "{}\n".repeat(300);
        let mut r = BufReader::with_capacity(64 * 1024, data.as_bytes());
        let mut sizes = Vec::new();
        while let Some(lines) = read_frames_bounded(&mut r, 10).await.unwrap() {
            sizes.push(lines.len());
        }
        assert_eq!(sizes, vec![MAX_LINES_TOGETHER, MAX_LINES_TOGETHER, 44]);
    }

    /// The fast path (the lines whole in the buffer) and the slow one (a line across refills, a
    /// line past the limit) give the same lines as `read_line_bounded`, whatever the buffer size.
    #[tokio::test]
    async fn frame_lines_match_the_plain_reader_at_every_buffer_size() {
        let data: &[u8] = b"one\r\n\ntwo\n0123456789abcdef\n{\"a\":1}\nlast";
        for capacity in [1, 3, 4, 8, 64] {
            let mut plain = BufReader::with_capacity(capacity, data);
            let mut framed = BufReader::with_capacity(capacity, data);
            let mut want = Vec::new();
            while let Some(line) = read_line_bounded(&mut plain, 10).await.unwrap() {
                want.push(line);
            }
            let mut got = Vec::new();
            while let Some(lines) = read_frames_bounded(&mut framed, 10).await.unwrap() {
                assert!(
                    !lines.is_empty(),
                    "buffer of {capacity}: a read gives a line or more"
                );
                got.extend(lines.into_iter().map(|(l, c)| (l.to_vec(), c)));
            }
            assert_eq!(got, want, "buffer of {capacity}");
        }
    }
}
