//! Spans and ticks from a window's entries, in record order: each request opens a span that
//! its answer closes; a later round of a multi round-trip call joins its first round's span;
//! progress joins the span whose request gave its token; a cancel marks the span it names.

use std::collections::{HashMap, VecDeque};

use crate::rows::EntryKind;
use crate::traffic::wall_now_us;
use crate::wire::Direction;

use super::entry::{Entry, Extra};
use super::{
    MAX_PROGRESS_MARKS, ProgressMark, SpanOutcome, SpanRound, TickKind, Timeline, TimelineSpan,
    TimelineTick,
};

/// A span being built, with what the builder needs besides what it shows.
struct Open {
    span: TimelineSpan,
    /// Monotonic time of the first request, for the duration.
    start_mono: u64,
    progress: VecDeque<ProgressMark>,
}

#[derive(Default)]
struct Builder {
    spans: Vec<Open>,
    /// (direction the request travelled, id) → span index, while unanswered.
    open: HashMap<(Direction, String), usize>,
    /// (direction the request travelled, progress token) → span index.
    tokens: HashMap<(Direction, String), usize>,
    /// A request frame's seq → span index: where a later round finds its call.
    by_request: HashMap<u64, usize>,
    ticks: Vec<TimelineTick>,
}

/// `entries` oldest first; keeps the newest `max_spans` spans and as many ticks. Also returns
/// how many spans were made from an answer alone (its request was not among the entries).
pub(crate) fn build(entries: Vec<Entry>, max_spans: usize) -> (Timeline, u64) {
    let mut b = Builder::default();
    for entry in entries {
        b.add(entry);
    }
    let answered_alone = b
        .spans
        .iter()
        .filter(|o| o.span.request_seq.is_none())
        .count() as u64;
    let mut spans: Vec<TimelineSpan> = b
        .spans
        .into_iter()
        .map(|mut o| {
            o.span.progress = o.progress.into_iter().collect();
            o.span
        })
        .collect();
    // Spans are made in the order their first frame came; a view wants them by start.
    spans.sort_by_key(|s| (s.start_us, s.request_seq.or(s.response_seq)));
    let omitted_spans = spans.len().saturating_sub(max_spans);
    spans.drain(..omitted_spans);
    let mut ticks = b.ticks;
    let omitted_ticks = ticks.len().saturating_sub(max_spans);
    ticks.drain(..omitted_ticks);
    let timeline = Timeline {
        spans,
        ticks,
        omitted_spans: omitted_spans as u64,
        omitted_ticks: omitted_ticks as u64,
        now_us: wall_now_us(),
    };
    (timeline, answered_alone)
}

fn opposite(direction: Direction) -> Direction {
    direction.reverse()
}

impl Builder {
    fn add(&mut self, e: Entry) {
        match e.kind {
            EntryKind::Request => self.request(e),
            EntryKind::Response | EntryKind::ErrorResponse => self.response(e),
            EntryKind::Notification => self.notification(e),
            EntryKind::Batch => self.tick(&e, TickKind::Batch),
            EntryKind::Malformed => self.tick(&e, TickKind::Malformed),
            EntryKind::HttpExchange | EntryKind::Stderr => {}
        }
    }

    fn request(&mut self, e: Entry) {
        let Some(id) = e.id.clone() else { return };
        let round_of = e
            .call
            .and_then(|c| self.by_request.get(&c.first_seq).map(|i| (*i, c.round)));
        let index = match round_of {
            // A later round: the call's bar goes on, waiting again.
            Some((index, round)) => {
                let open = &mut self.spans[index];
                if open.span.rounds.is_empty() {
                    // Round 1 becomes a segment of its own now that there are more.
                    open.span.rounds.push(SpanRound {
                        round: 1,
                        request_seq: open.span.request_seq.unwrap_or(e.seq),
                        response_seq: open.span.response_seq,
                        start_us: open.span.start_us,
                        end_us: open.span.end_us,
                    });
                }
                open.span.rounds.push(SpanRound {
                    round,
                    request_seq: e.seq,
                    response_seq: None,
                    start_us: e.wall_us,
                    end_us: None,
                });
                open.span.end_us = None;
                open.span.duration_us = None;
                open.span.response_seq = None;
                if open.span.outcome != SpanOutcome::Cancelled {
                    open.span.outcome = SpanOutcome::Pending;
                }
                index
            }
            None => {
                self.spans.push(Open {
                    span: TimelineSpan {
                        request_seq: Some(e.seq),
                        response_seq: None,
                        method: e.method.clone().unwrap_or_default(),
                        id: Some(id.clone()),
                        direction: e.direction,
                        start_us: e.wall_us,
                        end_us: None,
                        duration_us: None,
                        outcome: SpanOutcome::Pending,
                        progress: Vec::new(),
                        progress_count: 0,
                        rounds: Vec::new(),
                    },
                    start_mono: e.mono_us,
                    progress: VecDeque::new(),
                });
                self.spans.len() - 1
            }
        };
        self.by_request.insert(e.seq, index);
        self.open.insert((e.direction, id), index);
        if let Extra::ProgressToken(token) = e.extra {
            self.tokens.insert((e.direction, token), index);
        }
    }

    fn response(&mut self, e: Entry) {
        let asked = opposite(e.direction);
        let found =
            e.id.as_ref()
                .and_then(|id| self.open.remove(&(asked, id.clone())));
        let error = e.kind == EntryKind::ErrorResponse;
        let outcome = if error {
            SpanOutcome::Error
        } else {
            SpanOutcome::Ok
        };
        match found {
            Some(index) => {
                let open = &mut self.spans[index];
                let span = &mut open.span;
                span.response_seq = Some(e.seq);
                span.end_us = Some(e.wall_us);
                span.duration_us = Some(e.mono_us.saturating_sub(open.start_mono));
                if span.outcome != SpanOutcome::Cancelled {
                    span.outcome = outcome;
                }
                if let Some(round) = span.rounds.last_mut() {
                    round.response_seq = Some(e.seq);
                    round.end_us = Some(e.wall_us);
                }
            }
            // Its request is older than the window: the record paired them, so the start is
            // known from the latency.
            None => match (e.latency_us, e.method.clone()) {
                (Some(latency), Some(method)) => self.spans.push(Open {
                    span: TimelineSpan {
                        request_seq: None,
                        response_seq: Some(e.seq),
                        method,
                        id: e.id.clone(),
                        direction: asked,
                        start_us: e.wall_us.saturating_sub(latency),
                        end_us: Some(e.wall_us),
                        duration_us: Some(latency),
                        outcome,
                        progress: Vec::new(),
                        progress_count: 0,
                        rounds: Vec::new(),
                    },
                    start_mono: e.mono_us.saturating_sub(latency),
                    progress: VecDeque::new(),
                }),
                _ => self.tick(&e, TickKind::UnmatchedResponse),
            },
        }
    }

    fn notification(&mut self, e: Entry) {
        match &e.extra {
            Extra::Progress {
                token,
                progress,
                total,
                message,
            } => {
                // Progress travels the other way from the request that asked for it.
                let key = (opposite(e.direction), token.clone());
                if let Some(&index) = self.tokens.get(&key) {
                    let open = &mut self.spans[index];
                    open.span.progress_count = open.span.progress_count.saturating_add(1);
                    if open.progress.len() >= MAX_PROGRESS_MARKS {
                        open.progress.pop_front();
                    }
                    open.progress.push_back(ProgressMark {
                        seq: e.seq,
                        at_us: e.wall_us,
                        progress: *progress,
                        total: *total,
                        message: message.clone(),
                    });
                    return;
                }
            }
            Extra::Cancels(id) => {
                // The sender of a request cancels it, in the request's own direction.
                if let Some(&index) = self.open.get(&(e.direction, id.clone())) {
                    // The bar ends where the sender gave up; a late answer still closes it.
                    let open = &mut self.spans[index];
                    open.span.outcome = SpanOutcome::Cancelled;
                    open.span.end_us = Some(e.wall_us);
                    open.span.duration_us = Some(e.mono_us.saturating_sub(open.start_mono));
                }
            }
            _ => {}
        }
        self.tick(&e, TickKind::Notification);
    }

    fn tick(&mut self, e: &Entry, kind: TickKind) {
        self.ticks.push(TimelineTick {
            seq: e.seq,
            at_us: e.wall_us,
            direction: e.direction,
            kind,
            method: e.method.clone(),
        });
    }
}
