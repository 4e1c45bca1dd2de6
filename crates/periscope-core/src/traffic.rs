//! The append-only record of one session: frames, stderr lines, HTTP exchanges, flags on frames
//! and decisions (their shapes are in [`record`](crate::record)).
//!
//! Transports append here first, before anything interprets a frame. With a record file the
//! same entries go to disk as JSON Lines in the same order (format: docs/engine.md).

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use tokio::sync::broadcast;

use crate::event::Event;
use crate::protocol_check::Feed;
mod reopen;

use crate::record::{
    AuthStep, CallRound, Decision, Flag, FlagRecord, HttpExchange, RecordLine, RoundFrames,
    RoundRecord, StderrLine,
};
use crate::store::{Entry, Store};
use crate::wire::{Direction, Frame, RequestId, Verdict, classify};

/// Rounds announced for requests not yet sent that the record remembers; a request whose send
/// failed before its frame was recorded leaves its announcement behind, so past this they go.
const MAX_AWAITED_ROUNDS: usize = 1024;

/// With a store attached, how many of the newest frames (and as many stderr lines, flags and
/// HTTP exchanges) stay in memory; older ones are read back from the store.
pub const MEMORY_BUDGET: usize = 10_000;

/// Sign-in steps kept in memory (the record file gets every one).
const MAX_AUTH_STEPS: usize = 1000;

/// The record of one session. Cheap to share; all methods take `&self`.
pub struct Traffic {
    started: Instant,
    inner: Mutex<Inner>,
    events: broadcast::Sender<Event>,
    /// The protocol checks, once started: each frame is offered to them after it is recorded.
    checks: OnceLock<Feed>,
}

#[derive(Default)]
struct Inner {
    next_seq: u64,
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
    file: Option<BufWriter<File>>,
    file_error: Option<String>,
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
    match truncated_from {
        Some(total) => crate::store::truncated_verdict(total, bytes.len()),
        None => classify(bytes),
    }
}

impl Traffic {
    pub fn new(events: broadcast::Sender<Event>) -> Traffic {
        Traffic {
            started: Instant::now(),
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
        let deadline = tokio::time::Instant::now() + limit;
        while !checks.idle() {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        true
    }

    /// Starts writing every entry, from now on, to `path` as JSON Lines. `target` describes the
    /// server (without secrets) for the header line. The file is owner-only (0600): it holds
    /// everything the server and the user sent.
    pub fn record_to(&self, path: &Path, target: serde_json::Value) -> io::Result<()> {
        let mut file = BufWriter::new(crate::private_file::create(path)?);
        let header = RecordLine::Session {
            format_version: Some(crate::record::FormatVersion::CURRENT),
            periscope_version: env!("CARGO_PKG_VERSION").to_string(),
            started_wall_us: wall_now_us() - self.started.elapsed().as_micros() as u64,
            target,
        };
        serde_json::to_writer(&mut file, &header)?;
        file.write_all(b"\n")?;
        file.flush()?;
        self.lock().file = Some(file);
        Ok(())
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

    /// The attached store, if any and still working: what a host's window queries go to.
    pub fn store(&self) -> Option<Arc<Store>> {
        self.lock().store.clone()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere must not cost the record: take the data even if poisoned.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
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
    ) -> Vec<Arc<Frame>> {
        let verdicts: Vec<Verdict> = lines
            .iter()
            .map(|(bytes, truncated_from)| verdict_of(bytes, *truncated_from))
            .collect();
        let stamp = (wall_now_us(), self.mono_now_us());
        let mut inner = self.lock();
        let frames: Vec<Arc<Frame>> = lines
            .into_iter()
            .zip(verdicts)
            .map(|((bytes, truncated_from), verdict)| {
                inner.record_frame(direction, stamp, bytes, truncated_from, None, verdict)
            })
            .collect();
        drop(inner);
        for frame in &frames {
            self.announce(frame);
        }
        frames
    }

    /// What follows a frame's recording, out of the lock: its event, its protocol check, and
    /// the flag of a frame cut short.
    fn announce(&self, frame: &Arc<Frame>) {
        let _ = self.events.send(Event::FrameAppended(frame.clone()));
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
        let _ = self.events.send(Event::FrameAppended(frame.clone()));
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
        inner.write(&RecordLine::Http((*exchange).clone()));
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
        inner.write(&RecordLine::Stderr((*line).clone()));
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
        inner.write(&RecordLine::Flag(record.clone()));
        inner.store_send(Entry::Flag(record.clone()));
        drop(inner);
        let _ = self.events.send(Event::FrameFlagged(record));
    }

    /// Keeps a user's decision about a server request in the record.
    pub fn decide(&self, decision: Decision) {
        let mut inner = self.lock();
        inner.write(&RecordLine::Decision(decision.clone()));
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
        inner.write(&RecordLine::AuthStep(step.clone()));
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

    /// The seq of the request we sent that `frame` is (an outgoing request) or answers (an
    /// incoming response), looked for in the store too when memory has not got it.
    fn request_of(&self, frame: &Frame) -> Option<u64> {
        // Memory was searched back from the frame: when anything left memory, the request may
        // be among what left, even when the frame itself is still in memory.
        let (found, store) = {
            let inner = self.lock();
            (inner.request_of(frame), inner.store_if_evicted())
        };
        if found.is_some() {
            return found;
        }
        let (Verdict::Response { id: Some(id), .. }, Direction::In) =
            (&frame.verdict, frame.direction)
        else {
            return None;
        };
        let store = store?;
        store.sync().ok()?;
        store
            .request_before(frame.seq, Direction::Out, &crate::rows::row_id(id))
            .ok()
            .flatten()
    }

    /// The seq of the first response to our request frame `request_seq`, once it came; looked
    /// for in the store too when the request left memory.
    fn response_of(&self, request_seq: u64) -> Option<u64> {
        let (found, store) = {
            let inner = self.lock();
            (
                inner.response_of(request_seq),
                inner.store_before(request_seq),
            )
        };
        if found.is_some() {
            return found;
        }
        let store = store?;
        let request = self.frame(request_seq)?;
        let Verdict::Request { id, .. } = &request.verdict else {
            return None;
        };
        store
            .response_after(request_seq, Direction::In, &crate::rows::row_id(id))
            .ok()
            .flatten()
    }

    /// The other half of a request we sent and its response: for our request frame, its
    /// response once it came; for a response from the server, the request it answers. From the
    /// store when they left memory.
    pub fn partner_of(&self, seq: u64) -> Option<u64> {
        let frame = self.frame(seq)?;
        match (&frame.verdict, frame.direction) {
            (Verdict::Request { .. }, Direction::Out) => self.response_of(seq),
            (Verdict::Response { .. }, Direction::In) => self.request_of(&frame),
            _ => None,
        }
    }

    /// Says that the request about to go out with `id` answers the inputs the response frame
    /// `asked_by` asked for: it becomes the next round of that response's call. Called before
    /// the send, so the frame is linked the moment it is recorded (a host building rows from
    /// the record never sees it unlinked).
    pub fn expect_round(&self, id: &RequestId, asked_by: u64) {
        let Some(request_seq) = self.frame(asked_by).and_then(|f| self.request_of(&f)) else {
            return;
        };
        let mut inner = self.lock();
        let call = match inner.rounds.get(&request_seq) {
            Some(previous) => CallRound {
                first_seq: previous.first_seq,
                round: previous.round + 1,
                asked_by,
            },
            None => CallRound {
                first_seq: request_seq,
                round: 2,
                asked_by,
            },
        };
        if inner.awaited_rounds.len() >= MAX_AWAITED_ROUNDS {
            inner.awaited_rounds.clear();
        }
        inner.awaited_rounds.insert(id.clone(), call);
    }

    /// Which round of which call the request frame `seq` is, when it is a later round (the
    /// first request of a call is not linked: it was sent before anyone knew).
    pub fn round_of(&self, seq: u64) -> Option<CallRound> {
        self.lock().rounds.get(&seq).copied()
    }

    /// Every round of the multi round-trip call frame `seq` (a request or its response) belongs
    /// to, in order; empty when it belongs to none. It scans the record for the last round's
    /// response, so it is for a detail view, not for every row.
    pub fn call_of(&self, seq: u64) -> Vec<RoundFrames> {
        let Some(frame) = self.frame(seq) else {
            return Vec::new();
        };
        let Some(request_seq) = self.request_of(&frame) else {
            return Vec::new();
        };
        let inner = self.lock();
        let first_seq = inner
            .rounds
            .get(&request_seq)
            .map_or(request_seq, |c| c.first_seq);
        let mut later: Vec<(u64, CallRound)> = inner
            .rounds
            .iter()
            .filter(|(_, c)| c.first_seq == first_seq)
            .map(|(s, c)| (*s, *c))
            .collect();
        if later.is_empty() {
            return Vec::new();
        }
        later.sort_by_key(|(_, c)| c.round);
        let mut rounds = vec![RoundFrames {
            round: 1,
            request_seq: first_seq,
            response_seq: None,
        }];
        for (request_seq, call) in later {
            // The response that asked for this round's inputs answered the round before.
            if let Some(previous) = rounds.last_mut() {
                previous.response_seq = Some(call.asked_by);
            }
            rounds.push(RoundFrames {
                round: call.round,
                request_seq,
                response_seq: None,
            });
        }
        drop(inner);
        if let Some(last) = rounds.last_mut() {
            last.response_seq = self.response_of(last.request_seq);
        }
        rounds
    }

    pub fn stderr_from(&self, index: usize) -> Vec<Arc<StderrLine>> {
        self.lock().stderr.from(index)
    }

    pub fn flags_from(&self, index: usize) -> Vec<FlagRecord> {
        self.lock().flags.from(index)
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

    /// The last seq handed out (0 before the first entry).
    pub fn last_seq(&self) -> u64 {
        self.lock().next_seq - 1
    }

    /// Every later round of a multi round-trip call, by its request's seq (kept whole in
    /// memory: a call's rounds are few).
    pub(crate) fn rounds_snapshot(&self) -> Vec<(u64, CallRound)> {
        self.lock().rounds.iter().map(|(s, c)| (*s, *c)).collect()
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
        if let Some(err) = inner.file_error.take() {
            return Err(io::Error::other(err));
        }
        if let Some(err) = inner.store_error.take() {
            return Err(io::Error::other(err));
        }
        match inner.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
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

/// The newest entries of one kind, and how many older ones left memory.
struct Window<T> {
    entries: VecDeque<T>,
    evicted: usize,
}

impl<T> Default for Window<T> {
    fn default() -> Self {
        Window {
            entries: VecDeque::new(),
            evicted: 0,
        }
    }
}

impl<T: Clone> Window<T> {
    /// Appends; past `budget`, the oldest entry leaves memory and is returned.
    fn push(&mut self, entry: T, budget: Option<usize>) -> Option<T> {
        self.entries.push_back(entry);
        match budget {
            Some(budget) if self.entries.len() > budget => {
                self.evicted += 1;
                self.entries.pop_front()
            }
            _ => None,
        }
    }

    /// Lets the oldest entries past `budget` leave memory; returns the last that left.
    fn trim(&mut self, budget: usize) -> Option<T> {
        let mut gone = None;
        while self.entries.len() > budget {
            self.evicted += 1;
            gone = self.entries.pop_front();
        }
        gone
    }

    /// Entries from position `index` (counted from the first ever) on, as far as memory has them.
    fn from(&self, index: usize) -> Vec<T> {
        let start = index.saturating_sub(self.evicted);
        if start >= self.entries.len() {
            return Vec::new();
        }
        self.entries.range(start..).cloned().collect()
    }

    fn all(&self) -> Vec<T> {
        self.entries.iter().cloned().collect()
    }

    fn count(&self) -> usize {
        self.evicted + self.entries.len()
    }
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

    /// The seq of the request we sent that `frame` is (an outgoing request) or answers (an
    /// incoming response), if it is in the record.
    fn request_of(&self, frame: &Frame) -> Option<u64> {
        match (&frame.verdict, frame.direction) {
            (Verdict::Request { .. }, Direction::Out) => Some(frame.seq),
            (Verdict::Response { id: Some(id), .. }, Direction::In) => {
                let frames = &self.frames.entries;
                let end = frames.partition_point(|f| f.seq < frame.seq);
                frames
                    .range(..end)
                    .rev()
                    .find(|f| {
                        f.direction == Direction::Out
                            && matches!(&f.verdict, Verdict::Request { id: i, .. } if i == id)
                    })
                    .map(|f| f.seq)
            }
            _ => None,
        }
    }

    /// The seq of the first response to our request frame `request_seq`, once it came.
    fn response_of(&self, request_seq: u64) -> Option<u64> {
        let request = self.frame_at(request_seq)?;
        let Verdict::Request { id, .. } = &request.verdict else {
            return None;
        };
        let frames = &self.frames.entries;
        let start = frames.partition_point(|f| f.seq <= request_seq);
        frames
            .range(start..)
            .find(|f| {
                f.direction == Direction::In
                    && matches!(&f.verdict, Verdict::Response { id: Some(i), .. } if i == id)
            })
            .map(|f| f.seq)
    }

    /// Links an outgoing request to the round announced for its id, and records the link.
    fn link_round(&mut self, frame: &Frame) {
        let (Direction::Out, Verdict::Request { id, .. }) = (frame.direction, &frame.verdict)
        else {
            return;
        };
        let Some(call) = self.awaited_rounds.remove(id) else {
            return;
        };
        self.rounds.insert(frame.seq, call);
        self.write(&RecordLine::Round(RoundRecord {
            seq: frame.seq,
            call,
        }));
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
        if self.store.is_some() {
            let call = self.rounds.get(&frame.seq).copied();
            self.store_send(Entry::Frame(frame.clone(), call));
        }
        frame
    }

    /// The next sequence number: frames, stderr lines and exchanges share one sequence.
    /// Gives `frame` the next seq, keeps it in memory and writes it to the record file.
    fn push_frame(&mut self, mut frame: Frame) -> Arc<Frame> {
        frame.seq = self.take_seq();
        let frame = Arc::new(frame);
        let budget = self.budget;
        self.frames.push(frame.clone(), budget);
        // The record line owns a copy of the frame: made only when there is a file to write.
        if self.file.is_some() {
            self.write(&RecordLine::of_frame((*frame).clone()));
        }
        frame
    }

    fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Queues an entry for the store, in record order (the lock is held). A store that failed
    /// is let go: the record goes on in memory and the failure is told at flush.
    fn store_send(&mut self, entry: Entry) {
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

    fn write(&mut self, line: &RecordLine) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let result = serde_json::to_writer(&mut *file, line)
            .map_err(io::Error::from)
            .and_then(|()| file.write_all(b"\n"));
        if let Err(e) = result {
            // Keep recording in memory; tell the user once, at flush.
            self.file_error.get_or_insert(e.to_string());
            self.file = None;
        }
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
        let frames = traffic.append_frames(Direction::In, lines);
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
        let announced: Vec<u64> = (0..3)
            .map(|_| match rx.try_recv().unwrap() {
                Event::FrameAppended(frame) => frame.seq,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(announced, seqs);
        let flags = traffic.flags();
        assert_eq!(flags.len(), 1);
        assert_eq!(flags[0].seq, 4);
        assert!(matches!(flags[0].flag, Flag::Oversized { limit: 10 }));
        assert_eq!(traffic.frame_count(), 3);
    }

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
        assert!(matches!(rx.try_recv().unwrap(), Event::FrameAppended(_)));

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

    #[test]
    fn a_request_announced_as_a_round_is_linked_and_the_link_is_recorded() {
        let (tx, _rx) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let dir = std::env::temp_dir().join(format!("periscope-rounds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        traffic
            .record_to(&path, serde_json::json!({"command": "x"}))
            .unwrap();
        let out = |t: &str| traffic.append_frame(Direction::Out, t.as_bytes().to_vec(), None);
        let first = out(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#);
        let asking = traffic.append_frame(
            Direction::In,
            br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#.to_vec(),
            None,
        );
        traffic.expect_round(&RequestId::Number(2), asking.seq);
        let again = out(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#);
        let call = traffic.round_of(again.seq).unwrap();
        assert_eq!(
            call,
            CallRound {
                first_seq: first.seq,
                round: 2,
                asked_by: asking.seq
            }
        );
        assert_eq!(traffic.call_of(first.seq).len(), 2);
        traffic.flush().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(
            last,
            serde_json::json!({"type": "round", "seq": again.seq, "first_seq": first.seq,
                "round": 2, "asked_by": asking.seq})
        );
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
