//! The timeline from a real `Traffic`, in memory and with a store whose memory budget keeps
//! almost nothing (so the store is what is read): both must give the same spans.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::broadcast;

use super::*;
use crate::store::Store;
use crate::wire::RequestId;

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("periscope-timeline-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn traffic() -> Traffic {
    let (tx, _) = broadcast::channel(1024);
    Traffic::new(tx)
}

/// A traffic whose store holds everything and whose memory keeps the newest four frames (a
/// round's request and the answer that asked for it must both be in memory when the round is
/// announced: `Traffic::request_of` asks the store only about frames older than the asking
/// answer's own place).
fn stored(dir: &Dir) -> Traffic {
    let traffic = traffic();
    let store = Arc::new(Store::open(&dir.0.join("session.periscope")).unwrap());
    traffic.attach_store_keeping(store, 4);
    traffic
}

fn out(t: &Traffic, text: &str) -> u64 {
    t.append_frame(Direction::Out, text.as_bytes().to_vec(), None)
        .seq
}

fn inn(t: &Traffic, text: &str) -> u64 {
    t.append_frame(Direction::In, text.as_bytes().to_vec(), None)
        .seq
}

/// Seqs of the frames the assertions name.
struct Seqs {
    slow: u64,
    slow_answer: u64,
    progress: [u64; 2],
    bad: u64,
    pending: u64,
    cancelled: u64,
    asked: u64,
    asked_answer: u64,
    round1: u64,
    round1_answer: u64,
    round2: u64,
    round2_answer: u64,
    log: u64,
    garbage: u64,
}

/// One of everything: a slow call with progress, an error, a call never answered, one
/// cancelled, a server→client request, a call of two rounds, a notification, a malformed frame.
fn session(t: &Traffic) -> Seqs {
    let slow = out(
        t,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_task","_meta":{"progressToken":"p1"}}}"#,
    );
    let p1 = inn(
        t,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":2,"message":"half"}}"#,
    );
    let bad = out(t, r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get"}"#);
    inn(
        t,
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no such prompt"}}"#,
    );
    let asked = inn(t, r#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#);
    let asked_answer = out(t, r#"{"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}"#);
    let p2 = inn(
        t,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":2,"total":2}}"#,
    );
    std::thread::sleep(std::time::Duration::from_millis(2));
    let slow_answer = inn(t, r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    let cancelled = out(t, r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#);
    out(
        t,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
    );
    let round1 = out(t, r#"{"jsonrpc":"2.0","id":4,"method":"tools/call"}"#);
    let round1_answer = inn(
        t,
        r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required"}}"#,
    );
    t.expect_round(&RequestId::Number(5), round1_answer);
    let round2 = out(t, r#"{"jsonrpc":"2.0","id":5,"method":"tools/call"}"#);
    let round2_answer = inn(t, r#"{"jsonrpc":"2.0","id":5,"result":{"content":[]}}"#);
    let log = inn(
        t,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#,
    );
    let garbage = inn(t, "not json at all");
    let pending = out(t, r#"{"jsonrpc":"2.0","id":6,"method":"resources/read"}"#);
    // The store's reads see what its writer committed.
    t.flush().unwrap();
    Seqs {
        slow,
        slow_answer,
        progress: [p1, p2],
        bad,
        pending,
        cancelled,
        asked,
        asked_answer,
        round1,
        round1_answer,
        round2,
        round2_answer,
        log,
        garbage,
    }
}

fn span_of(timeline: &Timeline, request: u64) -> &TimelineSpan {
    timeline
        .spans
        .iter()
        .find(|s| s.request_seq == Some(request))
        .unwrap_or_else(|| panic!("no span for {request}: {:#?}", timeline.spans))
}

fn check(timeline: &Timeline, s: &Seqs) {
    // The later round joined its call: six spans, not seven.
    assert_eq!(timeline.spans.len(), 6, "{:#?}", timeline.spans);
    assert_eq!(timeline.omitted_spans, 0);

    let slow = span_of(timeline, s.slow);
    assert_eq!(slow.method, "tools/call");
    assert_eq!(slow.direction, Direction::Out);
    assert_eq!(slow.outcome, SpanOutcome::Ok);
    assert_eq!(slow.response_seq, Some(s.slow_answer));
    assert!(slow.end_us.unwrap() >= slow.start_us);
    assert!(slow.duration_us.unwrap() >= 2_000);
    assert_eq!(slow.progress_count, 2);
    let marks: Vec<(u64, f64, Option<f64>)> = slow
        .progress
        .iter()
        .map(|m| (m.seq, m.progress, m.total))
        .collect();
    assert_eq!(
        marks,
        [
            (s.progress[0], 1.0, Some(2.0)),
            (s.progress[1], 2.0, Some(2.0))
        ]
    );
    assert_eq!(slow.progress[0].message.as_deref(), Some("half"));

    assert_eq!(span_of(timeline, s.bad).outcome, SpanOutcome::Error);

    let asked = span_of(timeline, s.asked);
    assert_eq!(
        (asked.direction, asked.outcome, asked.response_seq),
        (Direction::In, SpanOutcome::Ok, Some(s.asked_answer))
    );
    assert_eq!(asked.method, "roots/list");

    let cancelled = span_of(timeline, s.cancelled);
    assert_eq!(cancelled.outcome, SpanOutcome::Cancelled);
    assert!(cancelled.end_us.is_some());

    let call = span_of(timeline, s.round1);
    assert_eq!(call.outcome, SpanOutcome::Ok);
    assert_eq!(call.response_seq, Some(s.round2_answer));
    let rounds: Vec<(u32, u64, Option<u64>)> = call
        .rounds
        .iter()
        .map(|r| (r.round, r.request_seq, r.response_seq))
        .collect();
    assert_eq!(
        rounds,
        [
            (1, s.round1, Some(s.round1_answer)),
            (2, s.round2, Some(s.round2_answer))
        ]
    );

    let pending = span_of(timeline, s.pending);
    assert_eq!(
        (pending.outcome, pending.end_us),
        (SpanOutcome::Pending, None)
    );
    assert!(slow.rounds.is_empty());

    // Spans are in start order.
    assert!(
        timeline
            .spans
            .windows(2)
            .all(|w| w[0].start_us <= w[1].start_us)
    );

    // Attached progress is not a tick; the cancel, the log and the garbage are.
    let ticks: Vec<(u64, TickKind)> = timeline.ticks.iter().map(|t| (t.seq, t.kind)).collect();
    assert!(!ticks.iter().any(|(seq, _)| s.progress.contains(seq)));
    assert!(ticks.contains(&(s.log, TickKind::Notification)));
    assert!(ticks.contains(&(s.garbage, TickKind::Malformed)));
    assert_eq!(ticks.len(), 3, "{ticks:?}");
}

/// Spans and ticks, without the instant each was read.
fn shape(t: &Timeline) -> (Vec<TimelineSpan>, Vec<TimelineTick>, u64, u64) {
    (
        t.spans.clone(),
        t.ticks.clone(),
        t.omitted_spans,
        t.omitted_ticks,
    )
}

#[test]
fn spans_from_memory_pair_progress_rounds_cancels_and_server_requests() {
    let t = traffic();
    let seqs = session(&t);
    check(&timeline(&t, &TimelineWindow::default()).unwrap(), &seqs);
}

#[test]
fn with_a_store_the_timeline_is_read_from_it_and_is_the_same() {
    let dir = Dir::new("same");
    let t = stored(&dir);
    let seqs = session(&t);
    // Memory holds four frames of seventeen: only the store can give this.
    assert_eq!(t.frames().len(), 4);
    let from_store = timeline(&t, &TimelineWindow::default()).unwrap();
    check(&from_store, &seqs);
    let m = traffic();
    session(&m);
    let from_memory = timeline(&m, &TimelineWindow::default()).unwrap();
    // Same seqs (both sessions start at 1), same structure; times differ, so compare without.
    let strip = |t: &Timeline| {
        let (spans, ticks, a, b) = shape(t);
        let spans: Vec<_> = spans
            .into_iter()
            .map(|s| {
                (
                    s.request_seq,
                    s.response_seq,
                    s.method,
                    s.outcome,
                    s.progress.iter().map(|p| p.seq).collect::<Vec<_>>(),
                    s.rounds.len(),
                )
            })
            .collect();
        let ticks: Vec<_> = ticks.into_iter().map(|t| (t.seq, t.kind)).collect();
        (spans, ticks, a, b)
    };
    assert_eq!(strip(&from_store), strip(&from_memory));
}

#[test]
fn the_span_budget_keeps_the_newest_and_counts_the_rest_in_both_sources() {
    let dir = Dir::new("budget");
    for t in [traffic(), stored(&dir)] {
        let mut last = 0;
        for id in 1..=50 {
            last = out(
                &t,
                &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
            );
            inn(
                &t,
                &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
            );
        }
        // One more frame, so a read of the newest frames starts with an answer whose
        // request it left out.
        inn(
            &t,
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#,
        );
        t.flush().unwrap();
        let window = TimelineWindow {
            max_spans: Some(10),
            ..TimelineWindow::default()
        };
        let tl = timeline(&t, &window).unwrap();
        assert_eq!(tl.spans.len(), 10);
        assert_eq!(tl.omitted_spans, 40);
        // A read cut between a request and its answer still counts each call once.
        for max in [3, 7] {
            let tl = timeline(
                &t,
                &TimelineWindow {
                    max_spans: Some(max),
                    ..TimelineWindow::default()
                },
            )
            .unwrap();
            assert_eq!(tl.spans.len() as u64 + tl.omitted_spans, 50, "budget {max}");
        }
        assert_eq!(tl.spans.last().unwrap().request_seq, Some(last));
        assert!(tl.spans.iter().all(|s| s.outcome == SpanOutcome::Ok));
    }
}

#[test]
fn a_window_keeps_its_frames_and_an_answer_to_an_older_request_keeps_its_start() {
    let dir = Dir::new("window");
    for t in [traffic(), stored(&dir)] {
        out(&t, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#);
        std::thread::sleep(std::time::Duration::from_millis(3));
        let answer = t.append_frame(
            Direction::In,
            br#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_vec(),
            None,
        );
        t.flush().unwrap();
        let window = TimelineWindow {
            from_wall_us: Some(answer.wall_us),
            ..TimelineWindow::default()
        };
        let tl = timeline(&t, &window).unwrap();
        assert_eq!(tl.spans.len(), 1, "{:#?}", tl.spans);
        let span = &tl.spans[0];
        assert_eq!(
            (span.request_seq, span.response_seq),
            (None, Some(answer.seq))
        );
        assert_eq!(span.method, "tools/call");
        assert!(span.start_us < answer.wall_us && span.duration_us.unwrap() >= 3_000);
        // A window before everything is empty.
        let none = TimelineWindow {
            to_wall_us: Some(1),
            ..TimelineWindow::default()
        };
        assert!(timeline(&t, &none).unwrap().spans.is_empty());
    }
}

#[test]
fn latency_per_method_is_the_same_from_memory_and_from_the_store() {
    let dir = Dir::new("latency");
    let mut reports = Vec::new();
    for t in [traffic(), stored(&dir)] {
        session(&t);
        reports.push(latency(&t).unwrap());
    }
    let methods = |r: &LatencyReport| -> Vec<(String, Direction, u64, u64)> {
        let mut m: Vec<_> = r
            .methods
            .iter()
            .map(|m| (m.method.clone(), m.direction, m.count, m.errors))
            .collect();
        m.sort_by(|a, b| a.0.cmp(&b.0));
        m
    };
    // tools/call: the slow one and both rounds; the cancelled and pending calls have no answer.
    let want = vec![
        ("prompts/get".to_string(), Direction::Out, 1, 1),
        ("roots/list".to_string(), Direction::In, 1, 0),
        ("tools/call".to_string(), Direction::Out, 3, 0),
    ];
    assert_eq!(methods(&reports[0]), want);
    assert_eq!(methods(&reports[1]), want);
    let slow = reports[1]
        .methods
        .iter()
        .find(|m| m.method == "tools/call")
        .unwrap();
    assert!(slow.max_us >= 2_000 && slow.p99_us == slow.max_us);
}

#[test]
fn a_tracker_reads_each_answer_once_and_keeps_up_in_both_sources() {
    let dir = Dir::new("tracker");
    for t in [traffic(), stored(&dir)] {
        let mut tracker = LatencyTracker::default();
        let calls = |r: &LatencyReport| -> u64 { r.methods.iter().map(|m| m.count).sum() };
        assert_eq!(calls(&tracker.update(&t).unwrap()), 0);
        session(&t);
        let first = tracker.update(&t).unwrap();
        assert_eq!(calls(&first), 5);
        // Nothing new: the same report, nothing counted twice.
        assert_eq!(tracker.update(&t).unwrap(), first);
        for id in 100..110 {
            out(
                &t,
                &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
            );
            inn(
                &t,
                &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
            );
        }
        t.flush().unwrap();
        let later = tracker.update(&t).unwrap();
        assert_eq!(calls(&later), 15);
        let ping = later.methods.iter().find(|m| m.method == "ping").unwrap();
        assert_eq!(ping.count, 10);
        // The same as reading the whole session afresh.
        assert_eq!(later, latency(&t).unwrap());
    }
}
