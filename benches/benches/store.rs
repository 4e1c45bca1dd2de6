//! The traffic store (crates/periscope-core/src/store, docs/store.md), each figure beside a peer
//! measured in the same run. Run with `benches/run.sh store` (it builds the release fixture).
//! Prints medians and ratios; nothing here asserts a time.
//!
//! 1. `ingest`: 1 000 000 varied frames appended to a `Traffic` in-process, with the store
//!    attached (time to record them, then until the store committed them all) against the same
//!    `Traffic` with no store (memory only, as before the store).
//! 2. `flood`: 1 000 000 notifications from a real server through a `Session` with the store
//!    attached, against the official TypeScript SDK client consuming the same flood (every
//!    notification handed to a handler), and a bare line reader.
//! 3. `queries`: count, filter by method, filter by text, full-text search, a window at the end,
//!    the position of a frame, over the 1 000 000-frame store from 1.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use periscope_core::config::StdioTarget;
use periscope_core::session::{Session, SessionOptions};
use periscope_core::store::{EntryKind, Store, TrafficFilter};
use periscope_core::traffic::Traffic;
use periscope_core::wire::Direction;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const FRAMES: usize = 1_000_000;
const INGEST_RUNS: usize = 3;
const FLOOD_RUNS: usize = 3;
const QUERY_RUNS: usize = 7;

// The allocator the hosts use (the app and the CLI): the engine is measured as it ships.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    let scratch =
        std::env::temp_dir().join(format!("periscope-store-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let store_path = scratch.join("ingest.periscope");
    if wanted("ingest") || wanted("queries") {
        ingest(&scratch, &store_path);
    }
    if wanted("queries") {
        queries(&store_path);
    }
    if wanted("flood") {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(flood(&scratch));
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    assert!(
        dir.join("misbehaving-server").exists(),
        "misbehaving-server missing: run benches/run.sh store, which builds it first"
    );
    dir
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// A session's worth of varied traffic: calls with their answers, progress and log
/// notifications, now and then a malformed line.
fn frames() -> Vec<(Direction, Vec<u8>)> {
    (0..FRAMES)
        .map(|i| match i % 10 {
            _ if i % 10_000 == 9_999 => (Direction::In, format!("oops {i} not json").into_bytes()),
            0 => (
                Direction::Out,
                format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"search","arguments":{{"query":"word{}"}}}}}}"#, i % 1000).into_bytes(),
            ),
            1 => (
                Direction::In,
                format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":[{{"type":"text","text":"found {} results for word{}"}}]}}}}"#, i - 1, i % 777, (i - 1) % 1000).into_bytes(),
            ),
            2 | 3 => (
                Direction::In,
                format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{},"progress":{}}}}}"#, i / 10, i % 100).into_bytes(),
            ),
            _ => (
                Direction::In,
                format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"flood","data":"message {i}"}}}}"#).into_bytes(),
            ),
        })
        .collect()
}

fn ingest(scratch: &Path, keep: &Path) {
    let frames = frames();
    let mut memory_rates = Vec::new();
    let mut recorded_rates = Vec::new();
    let mut committed_rates = Vec::new();
    let mut listed_rates = Vec::new();
    let mut waits = Vec::new();
    let mut writer_cpu = Vec::new();
    let mut checkpoint_cpu = Vec::new();
    for run in 0..INGEST_RUNS {
        // Peer: the record in memory only.
        let (tx, _) = tokio::sync::broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let t = Instant::now();
        for (direction, bytes) in &frames {
            traffic.append_frame(*direction, bytes.clone(), None);
        }
        memory_rates.push(FRAMES as f64 / t.elapsed().as_secs_f64());
        drop(traffic);

        let path = scratch.join(format!("ingest-{run}.periscope"));
        let (tx, _) = tokio::sync::broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let store = Arc::new(Store::open(&path).unwrap());
        traffic.attach_store(store.clone());
        let t = Instant::now();
        for (direction, bytes) in &frames {
            traffic.append_frame(*direction, bytes.clone(), None);
        }
        recorded_rates.push(FRAMES as f64 / t.elapsed().as_secs_f64());
        while store.committed_to() < FRAMES as u64 {
            std::thread::sleep(Duration::from_millis(1));
        }
        listed_rates.push(FRAMES as f64 / t.elapsed().as_secs_f64());
        traffic.flush().unwrap();
        committed_rates.push(FRAMES as f64 / t.elapsed().as_secs_f64());
        let stats = store.stats();
        waits.push(stats.waited_us as f64 / 1000.0);
        // CPU time, not wall time: what a frame costs the writer whatever else the machine runs.
        writer_cpu.push(thread_cpu_seconds("periscope-store") * 1e6 / FRAMES as f64);
        checkpoint_cpu.push(thread_cpu_seconds("periscope-ckpt") * 1e6 / FRAMES as f64);
        drop(traffic);
        drop(store);
        if run == 0 {
            std::fs::rename(&path, keep).unwrap();
        } else {
            let _ = std::fs::remove_file(&path);
        }
        let _ = std::fs::remove_file(path.with_extension("periscope-wal"));
        let _ = std::fs::remove_file(path.with_extension("periscope-shm"));
    }
    let size = std::fs::metadata(keep).map_or(0, |m| m.len());
    let (memory, recorded, committed) = (
        median(memory_rates),
        median(recorded_rates),
        median(committed_rates),
    );
    println!("\n[ingest] {FRAMES} varied frames through Traffic, median of {INGEST_RUNS} runs");
    println!("  store attached, recorded:   {recorded:>10.0} frames/s (producer side)");
    println!(
        "  store attached, listed:     {:>10.0} frames/s (until all committed)",
        median(listed_rates)
    );
    println!(
        "  store attached, synced:     {committed:>10.0} frames/s (flush returned; listed is searchable)"
    );
    println!("  memory only (no store):     {memory:>10.0} frames/s");
    println!(
        "  producers waited for the writer: median {:.0} ms in all",
        median(waits)
    );
    println!(
        "  the writer's CPU time per frame: median {:.2} µs (entries and pages: listed and searchable)",
        median(writer_cpu)
    );
    println!(
        "  the checkpointer's CPU time per frame (WAL copied back, its own thread): median {:.2} µs",
        median(checkpoint_cpu)
    );
    println!("  ratio committed / memory only: {:.2}", committed / memory);
    println!("  store file: {:.1} MiB", size as f64 / 1048576.0);
}

fn timed<T>(what: &str, f: impl FnMut() -> T) -> T {
    timed_after(what, || {}, f)
}

/// A text query, each run from a cold start: the store keeps the last text's matches (a list
/// asks the count, then rows, with the same text), so another text is asked first, untimed.
fn timed_text<T>(store: &Store, what: &str, f: impl FnMut() -> T) -> T {
    timed_after(
        what,
        || {
            store.search_count("periscope bench: another text").unwrap();
        },
        f,
    )
}

fn timed_after<T>(what: &str, mut before: impl FnMut(), mut f: impl FnMut() -> T) -> T {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..QUERY_RUNS {
        before();
        let t = Instant::now();
        last = Some(f());
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let worst = times.iter().cloned().fold(0.0, f64::max);
    println!(
        "  {what:<44} median {:>7.1} ms (worst {worst:.1})",
        median(times)
    );
    last.unwrap()
}

fn queries(path: &Path) {
    let store = Store::open(path).unwrap();
    println!("\n[queries] over the {FRAMES}-frame store, median of {QUERY_RUNS} runs");
    let all = TrafficFilter::default();
    let n = timed("count, no filter", || store.count(&all).unwrap());
    assert_eq!(n, FRAMES as u64);
    let calls = TrafficFilter {
        method: Some("tools/call".into()),
        ..TrafficFilter::default()
    };
    let n = timed("count, method = tools/call", || {
        store.count(&calls).unwrap()
    });
    timed("rows 50 at the middle, method = tools/call", || {
        store.rows(&calls, n / 2, 50).unwrap()
    });
    timed("rows 50 at the end, no filter", || {
        store.rows(&all, FRAMES as u64 - 50, 50).unwrap()
    });
    let requests_in = TrafficFilter {
        kinds: vec![EntryKind::Malformed],
        ..TrafficFilter::default()
    };
    timed("count, kind = malformed", || {
        store.count(&requests_in).unwrap()
    });
    let text = TrafficFilter {
        text: Some("word120".into()),
        ..TrafficFilter::default()
    };
    let hits = timed_text(&store, "count, text = word120", || {
        store.count(&text).unwrap()
    });
    assert!(hits > 0);
    timed_text(&store, "rows 50 at the end, text = word120", || {
        store.rows(&text, hits.saturating_sub(50), 50).unwrap()
    });
    let common = TrafficFilter {
        text: Some("results".into()),
        ..TrafficFilter::default()
    };
    timed_text(&store, "count, text = results (1 frame in 10)", || {
        store.count(&common).unwrap()
    });
    let message = TrafficFilter {
        text: Some("message".into()),
        ..TrafficFilter::default()
    };
    timed_text(&store, "count, text = message (7 in 10)", || {
        store.count(&message).unwrap()
    });
    // The list's default (every frame) with a text, and a method with a text.
    let every_frame = EntryKind::frame_kinds();
    let frames_text = TrafficFilter {
        kinds: every_frame,
        text: Some("message".into()),
        ..TrafficFilter::default()
    };
    let n_text = timed_text(
        &store,
        "count, every frame + text = message (7 in 10)",
        || store.count(&frames_text).unwrap(),
    );
    timed_text(
        &store,
        "rows 50 at the middle, every frame + text = message",
        || store.rows(&frames_text, n_text / 2, 50).unwrap(),
    );
    let calls_text = TrafficFilter {
        method: Some("tools/call".into()),
        text: Some("word120".into()),
        ..TrafficFilter::default()
    };
    timed_text(
        &store,
        "count, method = tools/call + text = word120",
        || store.count(&calls_text).unwrap(),
    );
    let direction_text = TrafficFilter {
        direction: Some(Direction::In),
        text: Some("results".into()),
        ..TrafficFilter::default()
    };
    timed_text(&store, "count, direction = in + text = results", || {
        store.count(&direction_text).unwrap()
    });
    timed("search \"found 42\" first 100 hits", || {
        store.search("\"found 42\"", 0, 100).unwrap()
    });
    timed_text(&store, "search_count word12*", || {
        store.search_count("word12*").unwrap()
    });
    timed_text(&store, "search_count message (7 frames in 10)", || {
        store.search_count("message").unwrap()
    });
    timed("search \"word999\" after the middle, first 100", || {
        store.search("word999", FRAMES as u64 / 2, 100).unwrap()
    });
    // Frame i has seq i + 1; frame 999 990 is the last call (its response is the last row).
    let last_call = FRAMES as u64 - 9;
    let at = timed("position of the last call, method = tools/call", || {
        store.position(last_call, &calls).unwrap()
    });
    assert_eq!(
        at,
        Some(n - 2),
        "its response, also under tools/call, comes after it"
    );
    timed("position of the last call, no filter", || {
        store.position(last_call, &all).unwrap()
    });
    timed("frame by seq (bytes, verdict)", || {
        store.frame(FRAMES as u64 / 3).unwrap()
    });
}

async fn flood(scratch: &Path) {
    let bins = release_dir();
    let fixture = bins.join("misbehaving-server");
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/interop/node_modules/@modelcontextprotocol/sdk");
    let peer = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/sdk-flood.mjs");
    let has_sdk = sdk.join("package.json").exists();
    let mut engine_rates = Vec::new();
    let mut committed_rates = Vec::new();
    let mut sdk_rates = Vec::new();
    let mut raw_rates = Vec::new();
    let mut bare_rates = Vec::new();
    let mut store_peak_mib = 0.0;
    let mut bare_peak_mib = 0.0;
    let want = FRAMES + 1; // the initialize response, then the flood
    for run in 0..FLOOD_RUNS {
        let target = StdioTarget::new(
            fixture.to_string_lossy(),
            ["flood".to_string(), FRAMES.to_string()],
        );
        let before = peak_rss_mib();
        let session = Session::spawn_stdio(&target, SessionOptions::default()).unwrap();
        let path = scratch.join(format!("flood-{run}.periscope"));
        let store = Arc::new(Store::open(&path).unwrap());
        session.traffic().attach_store(store.clone());
        let t = Instant::now();
        session.initialize().await.unwrap();
        loop {
            let inbound = session.traffic().frame_count() - 2;
            if inbound >= want {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        engine_rates.push(want as f64 / t.elapsed().as_secs_f64());
        session.traffic().flush().unwrap();
        committed_rates.push(want as f64 / t.elapsed().as_secs_f64());
        session.close().await;
        drop(session);
        drop(store);
        if run == 0 {
            store_peak_mib = peak_rss_mib() - before;
        }

        // The same session with no store: everything in memory, as before the store.
        let before = peak_rss_mib();
        let session = Session::spawn_stdio(&target, SessionOptions::default()).unwrap();
        let t = Instant::now();
        session.initialize().await.unwrap();
        while session.traffic().frame_count() - 2 < want {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        bare_rates.push(want as f64 / t.elapsed().as_secs_f64());
        session.close().await;
        drop(session);
        if run == 0 {
            bare_peak_mib = peak_rss_mib() - before;
        }
        for ext in ["periscope", "periscope-wal", "periscope-shm"] {
            let _ = std::fs::remove_file(path.with_extension(ext));
        }

        if has_sdk {
            let out = tokio::process::Command::new("node")
                .arg(&peer)
                .arg(&sdk)
                .arg(&fixture)
                .arg(FRAMES.to_string())
                .output()
                .await
                .unwrap();
            let seconds: f64 = String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("peer said {:?}", String::from_utf8_lossy(&out.stderr)));
            sdk_rates.push(want as f64 / seconds);
        }

        let mut child = tokio::process::Command::new(&fixture)
            .args(["flood", &FRAMES.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let t = Instant::now();
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
            .await
            .unwrap();
        let mut buf = Vec::new();
        for _ in 0..want {
            buf.clear();
            stdout.read_until(b'\n', &mut buf).await.unwrap();
        }
        raw_rates.push(want as f64 / t.elapsed().as_secs_f64());
        drop(stdin);
        let _ = child.wait().await;
    }
    let (engine, committed, raw) = (
        median(engine_rates),
        median(committed_rates),
        median(raw_rates),
    );
    println!("\n[flood] {FRAMES} notifications from a real server, median of {FLOOD_RUNS} runs");
    println!("  periscope session + store, recorded:  {engine:>10.0} frames/s");
    println!("  periscope session + store, committed: {committed:>10.0} frames/s");
    if has_sdk {
        let sdk = median(sdk_rates);
        println!("  TypeScript SDK client (node):         {sdk:>10.0} frames/s");
        println!("  ratio periscope committed / SDK: {:.1}×", committed / sdk);
    } else {
        println!(
            "  (SDK peer skipped: tests/interop/node_modules has no @modelcontextprotocol/sdk)"
        );
    }
    println!(
        "  periscope session, no store:          {:>10.0} frames/s",
        median(bare_rates)
    );
    println!("  raw line reader, no record:           {raw:>10.0} frames/s");
    println!(
        "  peak memory growth of this process, first run: {store_peak_mib:.0} MiB with the store, \
         then {bare_peak_mib:.0} MiB more with no store"
    );
    println!("  ratio periscope committed / raw: {:.2}", committed / raw);
}

/// CPU time (user + system) the threads of this process named `name` have used, in seconds.
fn thread_cpu_seconds(name: &str) -> f64 {
    let ticks = 100.0; // USER_HZ on Linux
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    tasks
        .flatten()
        .filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim() == name))
        .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
        .map(|stat| {
            // Fields after the command's closing parenthesis: utime and stime are the 12th and
            // 13th of them.
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let field = |i: usize| {
                fields
                    .get(i)
                    .and_then(|v| v.parse::<f64>().ok())
                    .unwrap_or(0.0)
            };
            (field(11) + field(12)) / ticks
        })
        .sum()
}

/// This process's peak resident size so far (VmHWM), in MiB.
fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}
