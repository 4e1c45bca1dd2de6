//! The record file's writer, off the hot path: entries are handed over in record order
//! through a bounded queue, and one thread turns them into JSON Lines and writes them.
//!
//! Under a flood, encoding each frame as JSON under the record's lock cost more than reading
//! it (a 1 000 000-frame flood took 1.9–2.9× a bare line count with `--record`, 1.6×
//! without). Handed over, the encoding runs beside the reading on another core. Nothing is
//! dropped: when the queue is full the recorder waits for room (raw first), and
//! [`RecordFile::flush`] returns once every entry handed over before it is written.
//!
//! Frames read together (a batch of a flood) are handed over together, one wake-up of the
//! writer for the batch rather than one a frame, and each is written from the frame itself,
//! with no copy made for its line (`frame_line`: by hand, as serde would write it).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use crate::record::RecordLine;
use crate::wire::Frame;

/// Jobs waiting for the writer (a job is a line, or a batch of frames); past this the
/// recorder waits. The stdio reader hands over at most 128 lines at once, so about 16 384
/// frames at most wait, as when each frame was its own job.
const QUEUE_JOBS: usize = 128;
/// The file's buffer: a flood writes hundreds of megabytes, and an 8 KiB buffer made a
/// system call every few dozen lines.
pub(super) const BUFFER_BYTES: usize = 256 * 1024;

enum Job {
    /// Frames in record order; each line is written from the frame, as [`RecordLine`] would.
    Frames(Vec<Arc<Frame>>),
    Line(RecordLine),
    /// Everything before is written and the file flushed: say how it went.
    Flush(SyncSender<io::Result<()>>),
}

/// A record file being written by its own thread.
pub(super) struct RecordFile {
    jobs: Option<SyncSender<Job>>,
    writer: Option<JoinHandle<()>>,
}

impl RecordFile {
    /// Starts the writer over `file` (its header line already written).
    pub(super) fn start(file: BufWriter<File>) -> io::Result<RecordFile> {
        let (jobs, queue) = sync_channel(QUEUE_JOBS);
        let writer = std::thread::Builder::new()
            .name("periscope-record-file".into())
            .spawn(move || write_all(file, &queue))?;
        Ok(RecordFile {
            jobs: Some(jobs),
            writer: Some(writer),
        })
    }

    /// Frames to write, in record order (a batch read together, or one).
    pub(super) fn frames(&self, frames: Vec<Arc<Frame>>) {
        self.hand_over(Job::Frames(frames));
    }

    pub(super) fn line(&self, line: RecordLine) {
        self.hand_over(Job::Line(line));
    }

    fn hand_over(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // The writer only stops when this side is dropped; a send cannot fail before.
            let _ = jobs.send(job);
        }
    }

    /// Waits until every entry handed over so far is in the file; the first write error, if
    /// any (the writer stops writing at the first one and the record goes on in memory).
    pub(super) fn flush(&self) -> io::Result<()> {
        let (reply, answer) = sync_channel(1);
        self.hand_over(Job::Flush(reply));
        answer
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the record file's writer stopped")))
    }
}

impl Drop for RecordFile {
    /// What was handed over still reaches the file: the writer drains its queue, then ends.
    fn drop(&mut self) {
        drop(self.jobs.take());
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

fn write_all(file: BufWriter<File>, queue: &Receiver<Job>) {
    let mut file = Some(file);
    let mut error: Option<io::Error> = None;
    // Frames' lines are encoded here, and handed to the file once there are enough of them to
    // pass the file's buffer by (a write at least its size goes straight to the file): the
    // encoder writes a line in dozens of small pieces, each only a push on a `Vec`, and the
    // lines are copied once, not again into the buffer.
    let mut encoded = Vec::with_capacity(2 * BUFFER_BYTES);
    while let Ok(job) = queue.recv() {
        let written = match (job, file.as_mut()) {
            (Job::Flush(reply), f) => {
                let result = match (&error, f) {
                    (Some(e), _) => Err(io::Error::new(e.kind(), e.to_string())),
                    (None, Some(f)) => write_out(f, &mut encoded).and_then(|()| f.flush()),
                    (None, None) => Ok(()),
                };
                let _ = reply.send(result);
                continue;
            }
            // After a write error the record goes on in memory only: nothing more to encode.
            (_, None) => continue,
            (Job::Frames(frames), Some(f)) => {
                encode_frames(f, &mut encoded, &frames).and_then(|()| {
                    if encoded.len() >= BUFFER_BYTES {
                        write_out(f, &mut encoded)
                    } else {
                        Ok(())
                    }
                })
            }
            // Rare (stderr, exchanges, flags): written as they come, after the lines before.
            (Job::Line(line), Some(f)) => write_out(f, &mut encoded)
                .and_then(|()| serde_json::to_writer(&mut *f, &line).map_err(io::Error::from))
                .and_then(|()| f.write_all(b"\n")),
        };
        if let Err(e) = written {
            error = Some(e);
            file = None;
        }
    }
    if let Some(mut f) = file {
        let _ = write_out(&mut f, &mut encoded).and_then(|()| f.flush());
    }
}

/// Hands the lines encoded so far to the file.
fn write_out(file: &mut BufWriter<File>, encoded: &mut Vec<u8>) -> io::Result<()> {
    let written = file.write_all(encoded);
    encoded.clear();
    written
}

/// A frame this large goes to the file as it is encoded, never held whole in the batch's
/// buffer: a server's 64 MiB frame would otherwise cost its line again (or twice, while the
/// buffer doubles), and the buffer would keep that size for the rest of the session.
const STREAMED_FRAME_BYTES: usize = BUFFER_BYTES / 4;

/// Appends the lines of `frames` to `encoded`; a large frame's goes to the file a part at a
/// time, after what `encoded` held.
fn encode_frames(
    file: &mut BufWriter<File>,
    encoded: &mut Vec<u8>,
    frames: &[Arc<Frame>],
) -> io::Result<()> {
    for frame in frames {
        if frame.bytes.len() >= STREAMED_FRAME_BYTES {
            super::frame_line::encode_large(encoded, frame, file)?;
        } else {
            super::frame_line::encode(encoded, frame);
        }
    }
    Ok(())
}
