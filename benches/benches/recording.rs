//! Opening a recording (docs/replay.md): how long a 1 000 000-frame record file takes to read
//! (`export::Recording::read`), to reopen as a read-only `Traffic` (`Recording::to_traffic`), and
//! everything the app does on File → Open (plus the rows and the server's surface), against a
//! bare line reader over the same file as the peer in the same run. Target (issue 11): opening
//! a 1 000 000-frame recording in < 2 s.
//!
//! Run with `cargo bench -p periscope-benches --bench recording`. Prints medians of 3 runs and
//! ratios to the peer. Nothing here asserts a time.

use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::time::Instant;

use periscope_core::diff::{Moment, Surface};
use periscope_core::export::Recording;
use periscope_core::record::{FormatVersion, RecordLine};
use periscope_core::view::RowBuilder;
use periscope_core::wire::{Direction, Frame, classify};
use serde_json::json;

/// A multiple of three (call, log, answer): 1 000 000 rounded up to it.
const FRAMES: u64 = 1_000_002;
const RUNS: usize = 3;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// A session's worth of frames: a handshake, a tools/list, then calls and their answers with
/// a log notification between each.
fn write_file(path: &std::path::Path) -> u64 {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let line = |out: &mut std::io::BufWriter<std::fs::File>, entry: &RecordLine| {
        serde_json::to_writer(&mut *out, entry).unwrap();
        out.write_all(b"\n").unwrap();
    };
    line(
        &mut out,
        &RecordLine::Session {
            format_version: Some(FormatVersion::CURRENT),
            periscope_version: "bench".into(),
            started_wall_us: 1_764_000_000_000_000,
            target: json!({"transport": "stdio", "command": "demo", "args": []}),
        },
    );
    let frame = |seq: u64, direction: Direction, message: serde_json::Value| {
        let bytes = serde_json::to_vec(&message).unwrap();
        RecordLine::Frame(Frame {
            seq,
            direction,
            wall_us: 1_764_000_000_000_000 + seq * 10,
            mono_us: seq * 10,
            verdict: classify(&bytes),
            bytes: Arc::from(bytes),
            truncated_from: None,
            exchange: None,
            app_view: None,
        })
    };
    let mut seq = 0;
    while seq < FRAMES {
        let id = seq;
        seq += 1;
        line(
            &mut out,
            &frame(
                seq,
                Direction::Out,
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"message": format!("call {id}")}}}),
            ),
        );
        seq += 1;
        line(
            &mut out,
            &frame(
                seq,
                Direction::In,
                json!({"jsonrpc": "2.0", "method": "notifications/message",
                    "params": {"level": "info", "data": format!("working on {id}")}}),
            ),
        );
        seq += 1;
        line(
            &mut out,
            &frame(
                seq,
                Direction::In,
                json!({"jsonrpc": "2.0", "id": id, "result": {"content": [
                    {"type": "text", "text": format!("echo: call {id}")}], "isError": false}}),
            ),
        );
    }
    out.flush().unwrap();
    seq
}

// The allocator the hosts use (the app and the CLI): the engine is measured as it ships.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    println!("periscope recording benchmarks");
    let dir = std::env::temp_dir().join(format!("periscope-bench-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("million.jsonl");
    let frames = write_file(&path);
    let size = std::fs::metadata(&path).unwrap().len();
    println!(
        "record file: {frames} frames, {:.0} MB",
        size as f64 / 1_000_000.0
    );

    let mut peer = Vec::new();
    let mut read = Vec::new();
    let mut reopen = Vec::new();
    let mut app_open = Vec::new();
    let mut with_rows = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let lines = BufReader::new(std::fs::File::open(&path).unwrap())
            .split(b'\n')
            .count();
        peer.push(t.elapsed().as_secs_f64());
        assert!(lines as u64 > frames);

        let t = Instant::now();
        let recording = Recording::read(&path).unwrap();
        read.push(t.elapsed().as_secs_f64());
        drop(recording);

        let t = Instant::now();
        let recording = Recording::read(&path).unwrap();
        let traffic = recording.into_traffic();
        reopen.push(t.elapsed().as_secs_f64());
        assert_eq!(traffic.frame_count() as u64, frames);
        drop(traffic);

        // What the app's File → Open does (src-tauri/src/recordings.rs), then the row list the
        // Traffic tab asks for first.
        let t = Instant::now();
        let recording = Recording::read(&path).unwrap();
        let surface = Surface::of(&recording, Moment::Last);
        let traffic = recording.into_traffic();
        app_open.push(t.elapsed().as_secs_f64());
        let mut builder = RowBuilder::default();
        let rows: Vec<_> = traffic
            .frames()
            .iter()
            .map(|f| builder.row_in_call(f, traffic.round_of(f.seq)))
            .collect();
        with_rows.push(t.elapsed().as_secs_f64());
        assert_eq!(rows.len() as u64, frames);
        drop((traffic, rows, surface));
    }
    let peer = median(peer);
    for (what, runs) in [
        ("Recording::read", read),
        ("read + into_traffic (reopened)", reopen),
        ("the app's File → Open (+ surface)", app_open),
        ("… and the Traffic tab's row list", with_rows),
    ] {
        let m = median(runs);
        println!(
            "{what:<42} median {m:>6.2} s  ({:>4.1}× the bare line reader's {peer:.2} s)",
            m / peer
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
