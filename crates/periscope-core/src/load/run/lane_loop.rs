//! The closed loop on a session's lane (`session::Lane`): one task keeps the session's
//! `in_flight` requests out, sending what the answers freed in one batch, reading the answers
//! a batch at a time. Per call it does what the general request path does per call (records
//! the frames, times the call, gives up on it after the plan's timeout and tells the server,
//! counts its failure), without a task, a timer and a channel each: what lets a run of one
//! session outpace the server it measures.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use super::{Phase, Run, SAMPLE_REQUESTS};
use crate::load::failure::FailureKind;
use crate::record::GaveUp;
use crate::session::{Lane, LaneOutcome, LaneTemplate, Session, lane_id, lane_outcome};
use crate::transport::SendError;
use crate::vocabulary::method::names;

/// A session's lane with the workload's requests serialized for it.
pub(super) struct LaneSet {
    pub lane: Lane,
    /// By workload index.
    pub templates: Vec<LaneTemplate>,
}

impl LaneSet {
    /// The lane of `session` for `workload`, when it has one and every request can go on it
    /// (otherwise the general path carries the run).
    pub async fn open(
        session: &Session,
        workload: &[crate::load::workload::LoadRequest],
    ) -> Option<LaneSet> {
        let lane = session.lane().ok()?;
        let mut templates = Vec::with_capacity(workload.len());
        for request in workload {
            templates.push(
                session
                    .lane_template(&request.method, request.params.clone())
                    .await
                    .ok()?,
            );
        }
        Some(LaneSet { lane, templates })
    }
}

/// A request out on the lane: its workload index and when it left.
struct Waiting {
    index: usize,
    sent: Instant,
}

/// A finished request: its workload index, latency and failure.
type Done = (usize, Duration, Option<FailureKind>);

/// The loop's calls: those out, by id and in send order (for timeouts: the plan's one timeout
/// makes it deadline order too), and those finished and not yet booked.
#[derive(Default)]
struct Calls {
    waiting: HashMap<i64, Waiting>,
    order: VecDeque<(i64, Instant)>,
    done: Vec<Done>,
}

impl Run {
    /// Client `c`'s closed loop on session `s`'s lane for one phase; gives the lane back.
    pub(super) async fn lane_loop(
        self: &Arc<Self>,
        s: usize,
        mut set: LaneSet,
        phase: Phase,
        out_of_budget: &AtomicBool,
    ) -> LaneSet {
        let timeout = self.plan.timeout();
        let in_flight = phase.in_flight as usize;
        let until = phase.until.map(tokio::time::Instant::from_std);
        let mut calls = Calls::default();
        // Requests a modern server asked input for: the general path asks again and answers.
        let mut general: JoinSet<Option<Done>> = JoinSet::new();
        let mut answers = Vec::new();
        let mut sending = true;
        loop {
            if sending {
                sending = self
                    .fill(
                        s,
                        &mut set,
                        (in_flight, phase.until),
                        general.len(),
                        &mut calls,
                        out_of_budget,
                    )
                    .await;
            }
            self.book(&mut calls.done);
            if calls.waiting.is_empty() && general.is_empty() {
                if !sending || self.lost(s) {
                    break;
                }
                continue;
            }
            while let Some((id, _)) = calls.order.front() {
                if calls.waiting.contains_key(id) {
                    break;
                }
                calls.order.pop_front();
            }
            let deadline = calls
                .order
                .front()
                .map(|(_, at)| tokio::time::Instant::from_std(*at + timeout));
            tokio::select! {
                more = set.lane.answers(&mut answers) => {
                    if !more {
                        // The session closed: what was out is lost with it.
                        self.lost[s].store(true, Ordering::Relaxed);
                        let now = Instant::now();
                        calls.done.extend(calls.waiting.drain().map(|(_, w)| {
                            (w.index, now - w.sent, Some(FailureKind::SessionLost))
                        }));
                        calls.order.clear();
                        sending = false;
                    }
                }
                Some(finished) = general.join_next(), if !general.is_empty() => {
                    if let Ok(Some(finished)) = finished {
                        calls.done.push(finished);
                    }
                }
                () = sleep_until(deadline), if deadline.is_some() => {
                    let now = Instant::now();
                    let mut expired = Vec::new();
                    while let Some((id, at)) = calls.order.front().copied() {
                        if at + timeout > now {
                            break;
                        }
                        calls.order.pop_front();
                        if let Some(w) = calls.waiting.remove(&id) {
                            expired.push(id);
                            calls.done.push((w.index, now - w.sent, Some(FailureKind::Timeout)));
                        }
                    }
                    set.lane.give_up(&expired, GaveUp::TimedOut, timeout).await;
                }
                () = self.stop.cancelled() => {
                    // Stopped: what is out is not the server's failure, and not counted.
                    let ids: Vec<i64> = calls.waiting.drain().map(|(id, _)| id).collect();
                    set.lane.give_up(&ids, GaveUp::Cancelled, timeout).await;
                    general.abort_all();
                    self.book(&mut calls.done);
                    return set;
                }
                () = sleep_until(until), if sending && until.is_some() => sending = false,
            }
            let now = Instant::now();
            for frame in answers.drain(..) {
                let Some(w) = lane_id(&frame).and_then(|id| calls.waiting.remove(&id)) else {
                    set.lane.unexpected(&frame);
                    continue;
                };
                let method = set.templates[w.index].method();
                let failure = match lane_outcome(&frame.bytes) {
                    LaneOutcome::Result {
                        needs_input: true, ..
                    } if crate::era::may_require_input(method) => {
                        general.spawn(self.ask_in_general(s, w));
                        continue;
                    }
                    LaneOutcome::Result { is_error, .. } => {
                        (is_error && method == names::TOOLS_CALL).then_some(FailureKind::ToolError)
                    }
                    LaneOutcome::Error { code } => Some(FailureKind::Rpc { code }),
                    LaneOutcome::Malformed => Some(FailureKind::Protocol),
                };
                calls.done.push((w.index, now - w.sent, failure));
            }
        }
        self.book(&mut calls.done);
        set
    }

    /// Sends what the in-flight places free (one batch; the sample's end cuts it in two):
    /// false once this phase sends no more.
    async fn fill(
        &self,
        s: usize,
        set: &mut LaneSet,
        (in_flight, until): (usize, Option<Instant>),
        elsewhere: usize,
        calls: &mut Calls,
        out_of_budget: &AtomicBool,
    ) -> bool {
        let mut going = true;
        let mut lines = Vec::new();
        let mut batch = Vec::new();
        while calls.waiting.len() + elsewhere + batch.len() < in_flight {
            if self.stop.is_cancelled()
                || self.lost(s)
                || until.is_some_and(|u| Instant::now() >= u)
            {
                going = false;
                break;
            }
            if !self.ticket() {
                out_of_budget.store(true, Ordering::Relaxed);
                going = false;
                break;
            }
            let index = self.next_index();
            // The sample ends before this request: what came before it goes first.
            if s == 0 && self.first_sent.fetch_add(1, Ordering::Relaxed) == SAMPLE_REQUESTS {
                self.send_batch(
                    s,
                    set,
                    std::mem::take(&mut lines),
                    std::mem::take(&mut batch),
                    calls,
                )
                .await;
                let _ = self.sessions[s].traffic().stop_recording();
            }
            let (id, bytes) = set.lane.request(&set.templates[index]);
            lines.push(bytes);
            batch.push((id, index));
        }
        self.send_batch(s, set, lines, batch, calls).await;
        going
    }

    /// Sends one batch and waits for it: a request that could not go fails at once.
    async fn send_batch(
        &self,
        s: usize,
        set: &mut LaneSet,
        lines: Vec<Vec<u8>>,
        batch: Vec<(i64, usize)>,
        calls: &mut Calls,
    ) {
        if batch.is_empty() {
            return;
        }
        let sent = Instant::now();
        for (id, index) in &batch {
            calls.waiting.insert(
                *id,
                Waiting {
                    index: *index,
                    sent,
                },
            );
            calls.order.push_back((*id, sent));
        }
        if let Err(e) = set.lane.send(lines, self.plan.timeout()).await {
            let kind = match e {
                SendError::Closed => {
                    self.lost[s].store(true, Ordering::Relaxed);
                    FailureKind::SessionLost
                }
                _ => FailureKind::Transport,
            };
            for (id, _) in batch {
                if let Some(w) = calls.waiting.remove(&id) {
                    calls.done.push((w.index, w.sent.elapsed(), Some(kind)));
                }
            }
        }
    }

    /// A request the server asked input for, asked again on the general path (which answers
    /// the input as the session's host does); its latency counts from the lane's send.
    fn ask_in_general(
        &self,
        s: usize,
        w: Waiting,
    ) -> impl Future<Output = Option<Done>> + Send + 'static {
        let session = self.sessions[s].clone();
        let workload = self.workload.clone();
        let options = self.call_options();
        async move {
            let request = &workload[w.index];
            let answer = session
                .request(&request.method, request.params.clone(), options)
                .await;
            let failure = match &answer {
                Ok(result) => FailureKind::of_result(&request.method, result),
                // Cancelled by Stop: not counted.
                Err(e) => Some(FailureKind::of(e)?),
            };
            Some((w.index, w.sent.elapsed(), failure))
        }
    }

    /// Counts finished requests, all under one lock.
    fn book(&self, done: &mut Vec<Done>) {
        if done.is_empty() {
            return;
        }
        let mut b = self.books.lock().unwrap_or_else(|p| p.into_inner());
        let at = self.clock.elapsed();
        for (index, latency, failure) in done.drain(..) {
            b.run.record(index, at, latency, failure);
            b.step.record(index, at, latency, failure);
        }
    }
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
