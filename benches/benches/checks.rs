//! Protocol checks (docs/protocol-checks.md): what they cost recording, and how fast they go.
//!
//! Run with `cargo bench -p periscope-benches --bench checks`. In process, no servers: the
//! record (`Traffic`) is fed a flood of frames as fast as one thread can append them, with the
//! checks on and, as the peer in the same run, off. Prints medians and ratios, and how many
//! frames the checks got to (the rest are counted as not checked: by design, recording never
//! waits for them). Nothing here asserts a time.
//!
//! 1. Recording a flood of `notifications/message`, checks off vs on.
//! 2. The checker alone on a session's worth of typical frames (a `tools/list` answer with 20
//!    tools, log notifications): frames checked per second.

use std::sync::Arc;
use std::time::{Duration, Instant};

use periscope_core::protocol_check::Checker;
use periscope_core::traffic::Traffic;
use periscope_core::wire::{Direction, Frame, classify};
use serde_json::json;

const FLOOD: usize = 200_000;
const RUNS: usize = 5;
const CHECKED: usize = 20_000;

// The allocator the hosts use (the app and the CLI): the engine is measured as it ships.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    println!("periscope protocol checks benchmarks");
    recording();
    checker_alone();
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

fn note(i: usize) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": format!("line {i}: the quick brown fox")}}))
    .unwrap()
}

/// Frames per second one thread appends to a fresh record; with checks, also how many of them
/// the checks got to once they caught up.
fn record_flood(checks: bool) -> (f64, u64, usize) {
    let (events, _keep) = tokio::sync::broadcast::channel(1024);
    let traffic = Arc::new(Traffic::new(events));
    if checks {
        traffic.check_protocol().unwrap();
    }
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}});
    traffic.append_frame(Direction::Out, serde_json::to_vec(&init).unwrap(), None);
    let lines: Vec<Vec<u8>> = (0..FLOOD).map(note).collect();
    let t = Instant::now();
    for line in lines {
        traffic.append_frame(Direction::In, line, None);
    }
    let rate = FLOOD as f64 / t.elapsed().as_secs_f64();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    rt.block_on(traffic.checks_settled(Duration::from_secs(60)));
    (rate, traffic.not_checked(), traffic.flags().len())
}

fn recording() {
    let mut off = Vec::new();
    let mut on = Vec::new();
    let mut skipped = Vec::new();
    let mut gaps = Vec::new();
    for _ in 0..RUNS {
        off.push(record_flood(false).0);
        let (rate, not_checked, flags) = record_flood(true);
        on.push(rate);
        skipped.push(not_checked as f64);
        gaps.push(flags as f64);
    }
    let (off, on, skipped, gaps) = (median(off), median(on), median(skipped), median(gaps));
    println!(
        "\n[recording] {FLOOD} notifications/message frames appended by one thread, median of {RUNS} runs"
    );
    println!("  checks off (peer): {off:>10.0} frames/s");
    println!("  checks on:         {on:>10.0} frames/s");
    println!("  ratio on / off:    {:.2}", on / off);
    println!(
        "  checked during the flood: {:.1} % ({skipped:.0} counted as not checked)",
        100.0 * (FLOOD as f64 - skipped) / FLOOD as f64
    );
    println!("  gaps (not_checked flags raised): {gaps:.0}");
}

fn frame(seq: u64, direction: Direction, value: serde_json::Value) -> Frame {
    let bytes = serde_json::to_vec(&value).unwrap();
    let verdict = classify(&bytes);
    Frame {
        seq,
        direction,
        wall_us: 0,
        mono_us: 0,
        bytes: Arc::from(bytes),
        truncated_from: None,
        exchange: None,
        app_view: None,
        verdict,
    }
}

fn checker_alone() {
    let tools: Vec<_> = (0..20)
        .map(|i| {
            json!({"name": format!("tool_{i}"), "description": "does a thing",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}})
        })
        .collect();
    let mut frames = vec![frame(
        1,
        Direction::Out,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}}),
    )];
    let mut seq = 2;
    for i in 0..CHECKED / 3 {
        let id = i as i64 + 1;
        frames.push(frame(
            seq,
            Direction::Out,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}),
        ));
        frames.push(frame(
            seq + 1,
            Direction::In,
            json!({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}}),
        ));
        frames.push(frame(
            seq + 2,
            Direction::In,
            serde_json::from_slice(&note(i)).unwrap(),
        ));
        seq += 3;
    }
    let mut rates = Vec::new();
    for _ in 0..RUNS {
        let mut checker = Checker::new();
        let t = Instant::now();
        let mut flags = 0;
        for f in &frames {
            flags += checker.check(f).len();
        }
        assert_eq!(flags, 0, "the bench's frames are on-spec");
        rates.push(frames.len() as f64 / t.elapsed().as_secs_f64());
    }
    println!(
        "\n[checker alone] {} frames (tools/list with 20 tools, its answer, a log notification), median of {RUNS} runs",
        frames.len()
    );
    println!("  checked: {:>10.0} frames/s", median(rates));
}
