//! Where a record goes besides memory: the JSON Lines record file (owner-only, written by its
//! own thread: record_file.rs) and the session's store, each handed entries in record order
//! under the record's lock. A file or store that fails is let go and the failure told at
//! [`Traffic::flush`].

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use crate::record::{FlagRecord, RecordLine};
use crate::store::{Entry, Store};

use super::{Inner, MEMORY_BUDGET, RecordFile, Traffic, record_file, wall_now_us};

impl Traffic {
    /// Starts writing every entry, from now on, to `path` as JSON Lines. `target` describes the
    /// server (without secrets) for the header line. The file is owner-only (0600): it holds
    /// everything the server and the user sent.
    pub fn record_to(&self, path: &Path, target: serde_json::Value) -> io::Result<()> {
        let mut file = BufWriter::with_capacity(
            record_file::BUFFER_BYTES,
            crate::private_file::create(path)?,
        );
        let header = RecordLine::Session {
            format_version: Some(crate::record::FormatVersion::CURRENT),
            periscope_version: env!("CARGO_PKG_VERSION").to_string(),
            started_wall_us: wall_now_us() - self.started.elapsed().as_micros() as u64,
            target,
        };
        serde_json::to_writer(&mut file, &header)?;
        file.write_all(b"\n")?;
        file.flush()?;
        self.lock().file = Some(RecordFile::start(file)?);
        Ok(())
    }

    /// Stops writing the record file, once every entry handed to it is written: the record
    /// goes on in memory (and the store). For a sample of a long session (a load run's first
    /// session records its first requests, not all of them).
    pub fn stop_recording(&self) -> io::Result<()> {
        let file = self.lock().file.take();
        // Dropped outside the lock: the writer drains its queue first.
        match file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }

    /// Sends every entry, from now on, to `store` too (through its bounded queue: see
    /// docs/store.md for what happens when its writer falls behind).
    pub fn attach_store(&self, store: Arc<Store>) {
        self.attach_store_keeping(store, MEMORY_BUDGET);
    }

    /// Like [`Traffic::attach_store`], keeping `budget` entries of each kind in memory.
    /// What memory already holds goes to the store first, in seq order (raw first: a host
    /// attaches right after the session started, and a server may have written before).
    pub fn attach_store_keeping(&self, store: Arc<Store>, budget: usize) {
        let mut inner = self.lock();
        inner.store = Some(store);
        inner.budget = Some(budget.max(1));
        inner.backfill_store();
    }

    /// Keeps only the newest `budget` entries of each kind in memory, with no store behind
    /// them: older ones are gone from memory (the record file, when there is one, still gets
    /// every entry). For a host that never asks for the past, such as the CLI, whose session
    /// would otherwise grow with every frame for as long as it runs.
    pub fn keep_newest(&self, budget: usize) {
        let mut inner = self.lock();
        if inner.store.is_some() {
            return;
        }
        let budget = budget.max(1);
        inner.budget = Some(budget);
        inner.frames.trim(budget);
        inner.stderr.trim(budget);
        inner.exchanges.trim(budget);
        if let Some(gone) = inner.flags.trim(budget) {
            inner.flags_evicted_to = inner.flags_evicted_to.max(gone.seq);
        }
    }

    /// The attached store, if any and still working: what a host's window queries go to.
    pub fn store(&self) -> Option<Arc<Store>> {
        self.lock().store.clone()
    }

    /// Flushes the record file and waits for the store to commit what it was sent; the first
    /// write error of either, if any, is reported here.
    pub fn flush(&self) -> io::Result<()> {
        let store = self.lock().store.clone();
        if let Some(store) = store
            && let Err(e) = store.sync()
        {
            let mut inner = self.lock();
            inner.store_error.get_or_insert(e.to_string());
            inner.let_store_go();
        }
        let mut inner = self.lock();
        if let Some(err) = inner.store_error.take() {
            return Err(io::Error::other(err));
        }
        // Under the lock, so the flush comes after every entry recorded before this call.
        match inner.file.as_ref() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Inner {
    /// Queues an entry for the store, in record order (the lock is held). A store that failed
    /// is let go: the record goes on in memory and the failure is told at flush.
    pub(super) fn store_send(&mut self, entry: Entry) {
        let Some(store) = self.store.as_ref() else {
            return;
        };
        if let Err(e) = store.send(entry) {
            self.store_error.get_or_insert(e.to_string());
            self.let_store_go();
        }
    }

    /// Sends what memory holds to a store just attached: frames, stderr lines and exchanges in
    /// seq order, then flags and decisions. Past the budget, the oldest leave memory now.
    fn backfill_store(&mut self) {
        let mut entries: Vec<(u64, Entry)> = Vec::new();
        for frame in &self.frames.entries {
            let call = self.rounds.get(&frame.seq).copied();
            entries.push((frame.seq, Entry::Frame(frame.clone(), call)));
        }
        for line in &self.stderr.entries {
            entries.push((line.seq, Entry::Stderr(line.clone())));
        }
        for exchange in &self.exchanges.entries {
            entries.push((exchange.seq, Entry::Http(exchange.clone())));
        }
        entries.sort_by_key(|(seq, _)| *seq);
        let flags: Vec<FlagRecord> = self.flags.entries.iter().cloned().collect();
        let decisions = self.decisions.clone();
        for (_, entry) in entries {
            self.store_send(entry);
        }
        for flag in flags {
            self.store_send(Entry::Flag(flag));
        }
        for decision in decisions {
            self.store_send(Entry::Decision(decision));
        }
        if let Some(budget) = self.budget {
            self.frames.trim(budget);
            self.stderr.trim(budget);
            self.exchanges.trim(budget);
            let leaving = self.flags.entries.len().saturating_sub(budget);
            if let Some(max) = self.flags.entries.iter().take(leaving).map(|f| f.seq).max() {
                self.flags_evicted_to = self.flags_evicted_to.max(max);
            }
            self.flags.trim(budget);
        }
    }

    /// A failed store is let go, and memory keeps everything from then on (raw first: what
    /// the store did not take must not leave memory too).
    fn let_store_go(&mut self) {
        self.store = None;
        self.budget = None;
    }

    /// Hands a record line to the file's writer, when there is a file (after the frames of a
    /// batch recorded before it).
    pub(super) fn write(&mut self, line: RecordLine) {
        self.hand_over_file_batch();
        if let Some(file) = &self.file {
            file.line(line);
        }
    }

    /// A batch of frames is recorded: its frames go to the file's writer together.
    pub(super) fn end_file_batch(&mut self) {
        self.hand_over_file_batch();
        self.file_batch = None;
    }

    fn hand_over_file_batch(&mut self) {
        if let (Some(file), Some(batch)) = (&self.file, &mut self.file_batch)
            && !batch.is_empty()
        {
            file.frames(std::mem::take(batch));
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::broadcast;

    use super::*;
    use crate::event::Event;
    use crate::record::Flag;
    use crate::wire::Direction;

    #[test]
    fn frames_and_stderr_share_one_sequence_and_reach_the_file_in_order() {
        let (tx, mut rx) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let dir = std::env::temp_dir().join(format!("periscope-traffic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        traffic
            .record_to(&path, serde_json::json!({"command": "x"}))
            .unwrap();
        let f1 = traffic.append_frame(
            Direction::Out,
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".to_vec(),
            None,
        );
        traffic.append_stderr("hello".into());
        let f2 = traffic.append_frame(Direction::In, b"\xffbanner".to_vec(), None);
        traffic.flag(f2.seq, Flag::UnknownResponseId { id: None });
        traffic.flush().unwrap();
        assert_eq!((f1.seq, f2.seq), (1, 3));
        // The well-formed ping is not announced; the banner that is not UTF-8 is.
        assert!(matches!(rx.try_recv().unwrap(), Event::MalformedFrame(f) if f.seq == f2.seq));

        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5);
        let kinds: Vec<String> = lines
            .iter()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(kinds, ["session", "frame", "stderr", "frame", "flag"]);
        let RecordLine::Frame(back) = serde_json::from_str(lines[3]).unwrap() else {
            panic!()
        };
        assert_eq!(&*back.bytes, b"\xffbanner");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Keeping the newest entries bounds memory without a store, and the record file still
    /// gets every entry, in order, once flushed.
    #[test]
    fn keeping_the_newest_bounds_memory_and_the_file_gets_everything() {
        let (tx, _rx) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let dir = std::env::temp_dir().join(format!("periscope-ring-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        traffic
            .record_to(&path, serde_json::json!({"command": "x"}))
            .unwrap();
        traffic.append_frame(Direction::Out, b"{}".to_vec(), None);
        traffic.keep_newest(3);
        for i in 0..100 {
            let line = format!("{{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{{\"i\":{i}}}}}");
            traffic.append_frame(Direction::In, line.into_bytes(), None);
            traffic.append_stderr(format!("line {i}"));
        }
        let seqs: Vec<u64> = traffic.frames().iter().map(|f| f.seq).collect();
        assert_eq!(seqs, [196, 198, 200], "only the newest three frames stay");
        assert_eq!(traffic.stderr().len(), 3);
        assert_eq!(
            traffic.frame_count(),
            101,
            "positions still count every frame"
        );
        assert_eq!(traffic.frames_from(99).len(), 2);
        assert!(
            traffic.frame(2).is_none(),
            "a frame that left memory is gone"
        );
        assert_eq!(
            traffic.signs_of_life(),
            200,
            "100 frames in, 100 stderr lines"
        );
        traffic.flush().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.lines().count(),
            1 + 201,
            "the header, then every entry"
        );
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(last["text"], "line 99");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_record_file_is_owner_only_even_over_a_looser_file() {
        use std::os::unix::fs::PermissionsExt;
        let (tx, _rx) = broadcast::channel(16);
        let dir = std::env::temp_dir().join(format!("periscope-rec-mode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        std::fs::write(&path, "someone else's").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        Traffic::new(tx)
            .record_to(&path, serde_json::json!({"command": "x"}))
            .unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
