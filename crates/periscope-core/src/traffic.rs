//! The append-only record of one session: frames, stderr lines, HTTP exchanges, flags on frames
//! and decisions (their shapes are in [`record`](crate::record)).
//!
//! Transports append here first, before anything interprets a frame. With a record file the
//! same entries go to disk as JSON Lines in the same order (format: docs/engine.md).

use std::collections::{HashMap, VecDeque};
use std::io;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use tokio::sync::broadcast;

use crate::event::Event;
use crate::protocol_check::Feed;
use crate::record::{
    AuthStep, CallRound, Decision, Flag, FlagRecord, HttpExchange, RecordLine, StderrLine,
};
use crate::store::{Entry, Store};
use crate::wire::{Arrived, Direction, Frame, ParamsAt, RequestId, Verdict, classify_read};

mod frame_line;
mod json_escape;
mod pairing;
mod record_file;
mod reopen;
mod storage;
mod window;

use record_file::RecordFile;
use window::Window;

/// With a store attached, how many of the newest frames (and as many stderr lines, flags and
/// HTTP exchanges) stay in memory; older ones are read back from the store.
pub const MEMORY_BUDGET: usize = 10_000;

/// Sign-in steps kept in memory (the record file gets every one).
const MAX_AUTH_STEPS: usize = 1000;

/// The record of one session. Cheap to share; all methods take `&self`.
pub struct Traffic {
    started: Instant,
    /// When the record began (wall clock, µs since the epoch): which record a seq belongs to,
    /// for a host that keeps seqs past the session (an eval run's links to its frames).
    started_wall_us: u64,
    inner: Mutex<Inner>,
    events: broadcast::Sender<Event>,
    /// The protocol checks, once started: each frame is offered to them after it is recorded.
    checks: OnceLock<Feed>,
}

#[derive(Default)]
struct Inner {
    next_seq: u64,
    /// Frames the server sent, ever (memory may hold fewer).
    inbound_frames: u64,
    /// The newest frames (all of them without a store); `frames.evicted` older ones went.
    frames: Window<Arc<Frame>>,
    stderr: Window<Arc<StderrLine>>,
    flags: Window<FlagRecord>,
    /// The highest seq a flag that left memory was on: flags of frames up to it are asked of
    /// the store.
    flags_evicted_to: u64,
    exchanges: Window<Arc<HttpExchange>>,
    decisions: Vec<Decision>,
    /// The sign-ins' steps (redacted), the newest [`MAX_AUTH_STEPS`].
    auth_steps: VecDeque<AuthStep>,
    /// How many entries of each kind stay in memory; `None`: all (no store, or it failed).
    budget: Option<usize>,
    /// Announced rounds, by the id their request will carry (see [`Traffic::expect_round`]).
    awaited_rounds: HashMap<RequestId, CallRound>,
    /// Requests that are a later round of a multi round-trip call, by their frame's seq.
    rounds: HashMap<u64, CallRound>,
    /// The record file, written by its own thread (record_file.rs).
    file: Option<RecordFile>,
    /// Frames of a batch being recorded, for the file; handed over together when the batch
    /// ends, or before any other line the file is given meanwhile (record order).
    file_batch: Option<Vec<Arc<Frame>>>,
    /// The on-disk store every entry also goes to (store/); dropped when it fails, the failure
    /// kept for [`Traffic::flush`].
    store: Option<Arc<Store>>,
    store_error: Option<String>,
}

/// Microseconds since the Unix epoch.
pub fn wall_now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// A frame's verdict: an oversized frame was cut short, so its bytes cannot parse, and it does
/// not pretend they might.
fn verdict_of(bytes: &[u8], truncated_from: Option<u64>) -> Verdict {
    read_verdict(bytes, truncated_from).0
}

/// [`verdict_of`], and where classifying found the params.
fn read_verdict(bytes: &[u8], truncated_from: Option<u64>) -> (Verdict, ParamsAt) {
    match truncated_from {
        Some(total) => (
            crate::store::truncated_verdict(total, bytes.len()),
            ParamsAt::Unread,
        ),
        None => classify_read(bytes),
    }
}

impl Traffic {
    pub fn new(events: broadcast::Sender<Event>) -> Traffic {
        Traffic {
            started: Instant::now(),
            started_wall_us: wall_now_us(),
            inner: Mutex::new(Inner {
                next_seq: 1,
                ..Inner::default()
            }),
            events,
            checks: OnceLock::new(),
        }
    }

    /// Checks every frame recorded from now on against its revision's schema, on a worker
    /// (`protocol_check`); findings come back as flags. Recording never waits for it.
    pub fn check_protocol(self: &Arc<Self>) -> io::Result<()> {
        let traffic = Arc::downgrade(self);
        let feed = Feed::start(move |seq, flag| {
            if let Some(traffic) = traffic.upgrade() {
                traffic.flag(seq, flag);
            }
        })?;
        let _ = self.checks.set(feed);
        Ok(())
    }

    /// Frames recorded but not checked because the checks were behind (0 when they are off).
    pub fn not_checked(&self) -> u64 {
        self.checks.get().map_or(0, Feed::not_checked)
    }

    /// Waits, at most `limit`, for the protocol checks to finish the frames recorded so far
    /// (a host about to close shows their findings, and the record file gets them); true when
    /// they did.
    pub async fn checks_settled(&self, limit: std::time::Duration) -> bool {
        let Some(checks) = self.checks.get() else {
            return true;
        };
        checks.settled(tokio::time::Instant::now() + limit).await
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere must not cost the record: take the data even if poisoned.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// When this record began: seqs kept from it are seqs of this record only while this is
    /// the same.
    pub fn started_wall_us(&self) -> u64 {
        self.started_wall_us
    }

    pub fn mono_now_us(&self) -> u64 {
        self.started.elapsed().as_micros() as u64
    }

    /// Records a frame and classifies it (wire::classify).
    pub fn append_frame(
        &self,
        direction: Direction,
        bytes: impl Into<Arc<[u8]>>,
        truncated_from: Option<u64>,
    ) -> Arc<Frame> {
        self.append_frame_via(direction, bytes, truncated_from, None)
    }

    /// Like [`Traffic::append_frame`], for a frame that arrived on HTTP exchange `exchange`.
    pub fn append_frame_via(
        &self,
        direction: Direction,
        bytes: impl Into<Arc<[u8]>>,
        truncated_from: Option<u64>,
        exchange: Option<u64>,
    ) -> Arc<Frame> {
        let bytes: Arc<[u8]> = bytes.into();
        let verdict = verdict_of(&bytes, truncated_from);
        let stamp = (wall_now_us(), self.mono_now_us());
        let mut inner = self.lock();
        let frame = inner.record_frame(direction, stamp, bytes, truncated_from, exchange, verdict);
        drop(inner);
        self.announce(&frame);
        frame
    }

    /// Records frames that arrived together (the lines one read of a pipe brought), in order,
    /// under one lock and with the one time they were read at. In a flood, the lock and the
    /// clock per frame cost more than the frame itself.
    pub fn append_frames(
        &self,
        direction: Direction,
        lines: Vec<(Arc<[u8]>, Option<u64>)>,
    ) -> Vec<Arrived> {
        let (verdicts, params): (Vec<Verdict>, Vec<ParamsAt>) = lines
            .iter()
            .map(|(bytes, truncated_from)| read_verdict(bytes, *truncated_from))
            .unzip();
        let stamp = (wall_now_us(), self.mono_now_us());
        let mut inner = self.lock();
        if inner.file.is_some() {
            inner.file_batch = Some(Vec::with_capacity(lines.len()));
        }
        let frames: Vec<Arc<Frame>> = lines
            .into_iter()
            .zip(verdicts)
            .map(|((bytes, truncated_from), verdict)| {
                inner.record_frame(direction, stamp, bytes, truncated_from, None, verdict)
            })
            .collect();
        inner.end_file_batch();
        drop(inner);
        for frame in &frames {
            self.announce(frame);
        }
        frames
            .into_iter()
            .zip(params)
            .map(|(frame, params)| Arrived { frame, params })
            .collect()
    }

    /// What follows a frame's recording, out of the lock: the event of a malformed one, its
    /// protocol check, and the flag of a frame cut short.
    fn announce(&self, frame: &Arc<Frame>) {
        if !frame.verdict.is_valid() {
            let _ = self.events.send(Event::MalformedFrame(frame.clone()));
        }
        if let Some(checks) = self.checks.get() {
            checks.offer(frame);
        }
        if frame.truncated_from.is_some() {
            let limit = frame.bytes.len() as u64;
            self.flag(frame.seq, Flag::Oversized { limit });
        }
    }

    /// Records a message between Periscope and MCP App view `view` (`direction` is
    /// `FromApp` or `ToApp`), its exact bytes cut at `limit` (flagged oversized). An app frame
    /// shares the record's seqs and list but is never dispatched, checked against MCP's
    /// schemas, paired with the server's frames, replayed or put on the timeline. Returns
    /// its seq (problems the bridge finds are flagged on it: [`Flag::AppProblem`]).
    pub fn append_app_frame(
        &self,
        view: u32,
        direction: Direction,
        bytes: &[u8],
        limit: usize,
    ) -> u64 {
        debug_assert!(direction.is_app(), "an app frame goes from or to an app");
        let truncated_from = (bytes.len() > limit).then_some(bytes.len() as u64);
        let kept = &bytes[..bytes.len().min(limit)];
        let verdict = verdict_of(kept, truncated_from);
        let wall_us = wall_now_us();
        let mono_us = self.mono_now_us();
        let mut inner = self.lock();
        let frame = inner.push_frame(Frame {
            seq: 0,
            direction,
            wall_us,
            mono_us,
            bytes: Arc::from(kept),
            truncated_from,
            exchange: None,
            app_view: Some(view),
            verdict,
        });
        inner.store_send(Entry::Frame(frame.clone(), None));
        drop(inner);
        if !frame.verdict.is_valid() {
            let _ = self.events.send(Event::MalformedFrame(frame.clone()));
        }
        if truncated_from.is_some() {
            self.flag(
                frame.seq,
                Flag::Oversized {
                    limit: limit as u64,
                },
            );
        }
        frame.seq
    }

    pub fn exchanges_from(&self, index: usize) -> Vec<Arc<HttpExchange>> {
        self.lock().exchanges.from(index)
    }

    /// The exchanges in memory (with a store, the newest [`MEMORY_BUDGET`]).
    pub fn exchanges(&self) -> Vec<Arc<HttpExchange>> {
        self.lock().exchanges.all()
    }

    /// Reserves a seq for an exchange whose response has not arrived yet, so frames it carries
    /// can name it. The exchange is appended later with [`Traffic::append_http_reserved`].
    pub fn reserve_seq(&self) -> u64 {
        self.lock().take_seq()
    }

    pub fn append_http_reserved(&self, exchange: HttpExchange) -> Arc<HttpExchange> {
        let exchange = Arc::new(exchange);
        let mut inner = self.lock();
        let budget = inner.budget;
        inner.exchanges.push(exchange.clone(), budget);
        inner.write(RecordLine::Http((*exchange).clone()));
        inner.store_send(Entry::Http(exchange.clone()));
        exchange
    }

    pub fn append_stderr(&self, text: String) -> Arc<StderrLine> {
        let wall_us = wall_now_us();
        let mono_us = self.mono_now_us();
        let mut inner = self.lock();
        let line = Arc::new(StderrLine {
            seq: inner.take_seq(),
            wall_us,
            mono_us,
            text,
        });
        let budget = inner.budget;
        inner.stderr.push(line.clone(), budget);
        inner.write(RecordLine::Stderr((*line).clone()));
        inner.store_send(Entry::Stderr(line.clone()));
        line
    }

    pub fn flag(&self, seq: u64, flag: Flag) {
        let record = FlagRecord { seq, flag };
        let mut inner = self.lock();
        let budget = inner.budget;
        if let Some(gone) = inner.flags.push(record.clone(), budget) {
            inner.flags_evicted_to = inner.flags_evicted_to.max(gone.seq);
        }
        inner.write(RecordLine::Flag(record.clone()));
        inner.store_send(Entry::Flag(record.clone()));
        drop(inner);
        let _ = self.events.send(Event::FrameFlagged(record));
    }

    /// Keeps a user's decision about a server request in the record.
    pub fn decide(&self, decision: Decision) {
        let mut inner = self.lock();
        inner.write(RecordLine::Decision(decision.clone()));
        inner.store_send(Entry::Decision(decision.clone()));
        inner.decisions.push(decision);
    }

    pub fn decisions(&self) -> Vec<Decision> {
        self.lock().decisions.clone()
    }

    /// Keeps a step of a sign-in in the record, redacted (URLs lose their codes and tokens).
    pub fn auth_step(&self, step: &AuthStep) {
        let step = step.redacted();
        let mut inner = self.lock();
        inner.write(RecordLine::AuthStep(step.clone()));
        if inner.auth_steps.len() == MAX_AUTH_STEPS {
            inner.auth_steps.pop_front();
        }
        inner.auth_steps.push_back(step);
    }

    /// The sign-ins' steps in the record (the newest [`MAX_AUTH_STEPS`]).
    pub fn auth_steps(&self) -> Vec<AuthStep> {
        self.lock().auth_steps.iter().cloned().collect()
    }

    /// The frames in memory: all of them without a store, the newest [`MEMORY_BUDGET`] with
    /// one (the store has every frame: [`Traffic::store`]).
    pub fn frames(&self) -> Vec<Arc<Frame>> {
        self.lock().frames.all()
    }

    /// Frames from position `index` (0-based, counted from the session's first frame) on: how
    /// a host catches up after a lagged feed. Frames that already left memory are not in it:
    /// take the next index from [`Traffic::frame_count`], and older frames from the store.
    pub fn frames_from(&self, index: usize) -> Vec<Arc<Frame>> {
        self.lock().frames.from(index)
    }

    /// The frame with sequence number `seq`, if it is a frame (not a stderr line); from the
    /// store when it left memory.
    pub fn frame(&self, seq: u64) -> Option<Arc<Frame>> {
        let (found, store) = {
            let inner = self.lock();
            (inner.frame_at(seq), inner.store_before(seq))
        };
        found.or_else(|| {
            let store = store?;
            store.sync().ok()?;
            store.frame(seq).ok().flatten()
        })
    }

    pub fn stderr_from(&self, index: usize) -> Vec<Arc<StderrLine>> {
        self.lock().stderr.from(index)
    }

    /// Frames recorded since the session began (in memory or not).
    pub fn frame_count(&self) -> usize {
        self.lock().frames.count()
    }

    /// Frames flagged off their schema, counted in memory (without a store it holds them all).
    pub(crate) fn schema_violations_in_memory(&self) -> u64 {
        let inner = self.lock();
        let mut seqs: Vec<u64> = inner
            .flags
            .entries
            .iter()
            .filter(|f| matches!(f.flag, Flag::SchemaViolation { .. }))
            .map(|f| f.seq)
            .collect();
        seqs.sort_unstable();
        seqs.dedup();
        seqs.len() as u64
    }

    /// How often the server has shown it is alive: the frames and stderr lines it sent, ever.
    pub fn signs_of_life(&self) -> u64 {
        let inner = self.lock();
        inner.inbound_frames + inner.stderr.count() as u64
    }

    /// The last seq handed out (0 before the first entry).
    pub fn last_seq(&self) -> u64 {
        self.lock().next_seq - 1
    }

    /// What memory holds, for a window over it when there is no store.
    pub(crate) fn memory_snapshot(&self) -> MemorySnapshot {
        let inner = self.lock();
        MemorySnapshot {
            frames: inner.frames.all(),
            stderr: inner.stderr.all(),
            exchanges: inner.exchanges.all(),
            flags: inner.flags.all(),
            rounds: inner.rounds.clone(),
        }
    }

    /// The stderr lines in memory (with a store, the newest [`MEMORY_BUDGET`]).
    pub fn stderr(&self) -> Vec<Arc<StderrLine>> {
        self.lock().stderr.all()
    }

    /// The last `n` stderr lines, oldest first.
    pub fn stderr_tail(&self, n: usize) -> Vec<String> {
        let inner = self.lock();
        let start = inner.stderr.entries.len().saturating_sub(n);
        inner
            .stderr
            .entries
            .range(start..)
            .map(|l| l.text.clone())
            .collect()
    }

    /// The flags in memory (with a store, the newest [`MEMORY_BUDGET`]).
    pub fn flags(&self) -> Vec<FlagRecord> {
        self.lock().flags.all()
    }

    /// Flags raised on one frame (from the store when some of them left memory).
    pub fn flags_of(&self, seq: u64) -> Vec<Flag> {
        let inner = self.lock();
        if seq <= inner.flags_evicted_to
            && let Some(store) = inner.store.clone()
        {
            drop(inner);
            if let Some(flags) = store.sync().ok().and_then(|()| store.flags_of(seq).ok()) {
                return flags;
            }
            return self.flags_in_memory(seq);
        }
        drop(inner);
        self.flags_in_memory(seq)
    }

    fn flags_in_memory(&self, seq: u64) -> Vec<Flag> {
        self.lock()
            .flags
            .entries
            .iter()
            .filter(|f| f.seq == seq)
            .map(|f| f.flag.clone())
            .collect()
    }
}

/// Everything memory holds, at one moment.
pub(crate) struct MemorySnapshot {
    pub frames: Vec<Arc<Frame>>,
    pub stderr: Vec<Arc<StderrLine>>,
    pub exchanges: Vec<Arc<HttpExchange>>,
    pub flags: Vec<FlagRecord>,
    pub rounds: HashMap<u64, CallRound>,
}

impl Inner {
    fn frame_at(&self, seq: u64) -> Option<Arc<Frame>> {
        // seq grows with position, so a binary search finds it.
        let frames = &self.frames.entries;
        let i = frames.binary_search_by_key(&seq, |f| f.seq).ok()?;
        Some(frames[i].clone())
    }

    /// The store, when entry `seq` may have left memory for it.
    fn store_before(&self, seq: u64) -> Option<Arc<Store>> {
        let store = self.store.as_ref()?;
        let oldest = self.frames.entries.front().map_or(u64::MAX, |f| f.seq);
        (self.frames.evicted > 0 && seq < oldest).then(|| store.clone())
    }

    /// The store, when some frames left memory for it.
    fn store_if_evicted(&self) -> Option<Arc<Store>> {
        let store = self.store.as_ref()?;
        (self.frames.evicted > 0).then(|| store.clone())
    }

    /// Records one frame of the server's or Periscope's (the lock is held): its seq, memory, the
    /// record file, its round of a multi round-trip call, and the store.
    fn record_frame(
        &mut self,
        direction: Direction,
        (wall_us, mono_us): (u64, u64),
        bytes: Arc<[u8]>,
        truncated_from: Option<u64>,
        exchange: Option<u64>,
        verdict: Verdict,
    ) -> Arc<Frame> {
        let frame = self.push_frame(Frame {
            seq: 0,
            direction,
            wall_us,
            mono_us,
            bytes,
            truncated_from,
            exchange,
            app_view: None,
            verdict,
        });
        self.link_round(&frame);
        if direction == Direction::In {
            self.inbound_frames += 1;
        }
        if self.store.is_some() {
            let call = self.rounds.get(&frame.seq).copied();
            self.store_send(Entry::Frame(frame.clone(), call));
        }
        frame
    }

    /// Gives `frame` the next seq, keeps it in memory and writes it to the record file.
    fn push_frame(&mut self, mut frame: Frame) -> Arc<Frame> {
        frame.seq = self.take_seq();
        let frame = Arc::new(frame);
        let budget = self.budget;
        self.frames.push(frame.clone(), budget);
        // The frame's line is made by the file's writer, off this path.
        if let Some(file) = &self.file {
            match &mut self.file_batch {
                Some(batch) => batch.push(frame.clone()),
                None => file.frames(vec![frame.clone()]),
            }
        }
        frame
    }

    /// The next sequence number: frames, stderr lines and exchanges share one sequence.
    fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines read together get consecutive seqs in their order, one time, their events in
    /// order, and a line cut at the limit its oversized flag, as one by one.
    #[test]
    fn frames_read_together_are_recorded_in_order_with_one_time() {
        let (tx, mut rx) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        traffic.append_stderr("before".into());
        let lines: Vec<(Arc<[u8]>, Option<u64>)> = vec![
            (
                Arc::from(&b"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}"[..]),
                None,
            ),
            (Arc::from(&b"not json"[..]), None),
            (Arc::from(&b"{\"jsonrpc\""[..]), Some(4000)),
        ];
        let arrived = traffic.append_frames(Direction::In, lines);
        let params: Vec<ParamsAt> = arrived.iter().map(|a| a.params.clone()).collect();
        assert_eq!(
            params,
            [ParamsAt::Absent, ParamsAt::Unread, ParamsAt::Unread],
            "the envelope classifying read is kept; the others are read again by whoever acts"
        );
        let frames: Vec<Arc<Frame>> = arrived.into_iter().map(|a| a.frame).collect();
        let seqs: Vec<u64> = frames.iter().map(|f| f.seq).collect();
        assert_eq!(seqs, [2, 3, 4]);
        assert!(
            frames
                .iter()
                .all(|f| (f.wall_us, f.mono_us) == (frames[0].wall_us, frames[0].mono_us))
        );
        assert!(matches!(frames[0].verdict, Verdict::Notification { ref method } if method == "a"));
        assert!(matches!(frames[1].verdict, Verdict::NotJson { .. }));
        assert!(matches!(frames[2].verdict, Verdict::NotJson { .. }));
        // Only the malformed ones are announced, in order.
        let announced: Vec<u64> = std::iter::from_fn(|| match rx.try_recv() {
            Ok(Event::MalformedFrame(frame)) => Some(frame.seq),
            Ok(Event::FrameFlagged(_)) => Some(0),
            Ok(other) => panic!("{other:?}"),
            Err(_) => None,
        })
        .filter(|seq| *seq != 0)
        .collect();
        assert_eq!(announced, seqs[1..]);
        let flags = traffic.flags();
        assert_eq!(flags.len(), 1);
        assert_eq!(flags[0].seq, 4);
        assert!(matches!(flags[0].flag, Flag::Oversized { limit: 10 }));
        assert_eq!(traffic.frame_count(), 3);
    }
}
