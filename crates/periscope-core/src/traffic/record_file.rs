//! The record file's writer, off the hot path: entries are handed over in record order
//! through a bounded queue, and one thread turns them into JSON Lines and writes them.
//!
//! Under a flood, encoding each frame as JSON under the record's lock cost more than reading
//! it (a 1 000 000-frame flood took 1.9–2.9× a bare line count with `--record`, 1.6×
//! without). Handed over, the encoding runs beside the reading on another core. Nothing is
//! dropped: when the queue is full the recorder waits for room (raw first), and
//! [`RecordFile::flush`] returns once every entry handed over before it is written.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use crate::record::RecordLine;
use crate::wire::Frame;

/// Entries waiting for the writer; past this the recorder waits.
const QUEUE_ENTRIES: usize = 16 * 1024;

enum Job {
    /// A frame: its record line (a copy of the frame) is made by the writer.
    Frame(Arc<Frame>),
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
        let (jobs, queue) = sync_channel(QUEUE_ENTRIES);
        let writer = std::thread::Builder::new()
            .name("periscope-record-file".into())
            .spawn(move || write_all(file, &queue))?;
        Ok(RecordFile {
            jobs: Some(jobs),
            writer: Some(writer),
        })
    }

    pub(super) fn frame(&self, frame: Arc<Frame>) {
        self.hand_over(Job::Frame(frame));
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
    while let Ok(job) = queue.recv() {
        let line = match job {
            Job::Frame(frame) => RecordLine::of_frame((*frame).clone()),
            Job::Line(line) => line,
            Job::Flush(reply) => {
                let result = match (&error, file.as_mut()) {
                    (Some(e), _) => Err(io::Error::new(e.kind(), e.to_string())),
                    (None, Some(f)) => f.flush(),
                    (None, None) => Ok(()),
                };
                let _ = reply.send(result);
                continue;
            }
        };
        let Some(f) = file.as_mut() else { continue };
        let written = serde_json::to_writer(&mut *f, &line)
            .map_err(io::Error::from)
            .and_then(|()| f.write_all(b"\n"));
        if let Err(e) = written {
            error = Some(e);
            file = None;
        }
    }
    if let Some(mut f) = file {
        let _ = f.flush();
    }
}
