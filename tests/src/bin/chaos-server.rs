//! A stdio MCP server that attacks its client, one way per mode: the chaos suite's fixture
//! (tests/tests/chaos_stdio.rs, docs/chaos.md). Beyond `misbehaving-server`, whose modes break
//! the protocol politely, these try to hang, exhaust or fool the client.
//!
//! Usage: `chaos-server <mode> [args]`. It answers `initialize`, `ping`, `tools/list` and
//! `tools/call` correctly except where its mode says otherwise. Big outputs are generated as
//! they are written, never held. Modes:
//!
//! - `stops-reading`: after `notifications/initialized`, never reads stdin again (and lives on).
//! - `stops-reading-mid-request`: after `notifications/initialized`, reads 256 KiB more of
//!   stdin (the start of the next request), then never reads again.
//! - `ping-flood-no-read N`: after `notifications/initialized`, sends N `ping` requests and
//!   never reads stdin again, so the client's answers fill the pipe.
//! - `stdout-flood BYTES`: answers `tools/list` with BYTES of `x` and no newline, then the
//!   newline and the real answer.
//! - `stderr-flood BYTES`: before answering `tools/list`, writes BYTES of `x` to stderr without
//!   a newline, then the newline.
//! - `elicit-flood N`: after `notifications/initialized`, sends N form elicitations (ids
//!   `e0`…) as fast as it can; answers `tools/list` once every one has an answer. Writes a
//!   summary line to stderr: `elicitations: sent N, answered A (results R, errors E,
//!   duplicates D)`.
//! - `notify-flood RATE SECS`: after `notifications/initialized`, sends RATE log notifications
//!   a second for SECS seconds; `ping` is answered meanwhile, `tools/list` only after the
//!   flood. Writes `notifications: sent N in S s` to stderr.
//! - `early-responses`: before answering `initialize`, sends responses to ids the client has
//!   not used yet (2, "2", 3, and an error with id null).
//! - `string-id`: answers `tools/list` first with the id as a string (a tool `impostor`), then
//!   with the id as it came.
//! - `deep-nesting DEPTH`: before answering `tools/list`, sends a response nested DEPTH arrays
//!   deep under the same id.
//! - `duplicate-keys`: answers `tools/list` with two frames: `"id"` twice (the request's, then
//!   77), then `"result"` twice (a tool `first`, then a tool `second`).
//! - `bad-number TEXT`: before answering `tools/list`, sends the answer with a member whose
//!   value is TEXT as written (`NaN`, `1e400`, …).
//! - `orphans N [exit-on-list]`: at start, leaves N `sleep` processes behind (their parent
//!   shell exits at once), each holding this server's stdout and stderr open; writes `orphan
//!   pid P` for each to stderr. With `exit-on-list`, exits on `tools/list` without answering.
//! - `ignore-sigterm`: ignores SIGTERM and the end of stdin; writes `server pid P` to stderr.
//! - `die-in-handshake`: on `initialize`, writes half an answer (no newline), a last word on
//!   stderr, and aborts (SIGABRT).
//! - `lying-caps`: declares tools, resources (subscribe), prompts and logging; `tools/list`
//!   is answered -32601, `prompts/list` with `"prompts": "none"`.
//! - `endless-pages`: every `tools/list` page holds 100 tools and a fresh `nextCursor`.
//! - `many-tools N PAGE`: N tools (`tool_0`…, each with a title, a description and a small
//!   schema), listed PAGE a page through `nextCursor` (the long-list benchmark, app_lists).
//! - `hold N`: holds every `tools/call` unanswered until N are waiting, then answers them all
//!   (for the load benchmark: N requests truly in flight at once).
//! - `overload LIMIT WORK_MS`: each `tools/call` takes WORK_MS (on a thread of its own); one
//!   that arrives while LIMIT are already being worked on is answered at once with error
//!   -32603 `overloaded` (the load suite's breaking point: it breaks past LIMIT in flight).
//!   Lists `work` (read-only) and `wipe` (destructive), which both do that.
//! - `unreliable EVERY LATE_MS CRASH_AFTER`: the `n`th `tools/call` (from 1) is answered
//!   LATE_MS late when `n` is a multiple of EVERY, twice when it is one past a multiple; past
//!   CRASH_AFTER calls (0: never) the server exits without answering. Lists `work`, like
//!   `overload` (the load lane's timeouts, late and duplicate answers, and a session lost).
//! - `huge-strings BYTES`: before answering `tools/list`, sends a notification whose method is
//!   BYTES long and a response whose string id is BYTES long.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The server's stdout, shared by the threads that write to it.
type Out = Arc<Mutex<std::io::Stdout>>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().cloned().unwrap_or_default();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    let num = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));

    match mode.as_str() {
        "orphans" => leave_orphans(num(1, 3)),
        "ignore-sigterm" => {
            // SAFETY: setting a signal's disposition to "ignore" has no handler to race with.
            unsafe { libc::signal(libc::SIGTERM, libc::SIG_IGN) };
            eprintln!("server pid {}", std::process::id());
        }
        _ => {}
    }

    let mut stdin = BufReader::new(std::io::stdin());
    let mut input = Vec::new();
    // State shared with the flood threads.
    let answered = Arc::new(Mutex::new(Answers::default()));
    let flood_done = Arc::new(AtomicBool::new(false));
    let mut page = 0u64;
    let mut held: Vec<Value> = Vec::new();
    let mut calls = 0u64;
    let working = Arc::new(AtomicU64::new(0));
    loop {
        input.clear();
        match stdin.read_until(b'\n', &mut input) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let Ok(msg) = serde_json::from_slice::<Value>(&input) else {
            continue;
        };
        let id = msg.get("id").cloned();
        let method = msg.get("method").and_then(Value::as_str).unwrap_or("");
        match (method, id) {
            ("initialize", Some(id)) => initialize(&mode, &out, &msg, &id),
            ("notifications/initialized", None) => match mode.as_str() {
                "stops-reading" => sleep_forever(),
                "stops-reading-mid-request" => {
                    let mut start = vec![0u8; 256 * 1024];
                    let _ = stdin.read_exact(&mut start);
                    sleep_forever();
                }
                "ping-flood-no-read" => {
                    for i in 0..num(1, 10_000) {
                        write_json(
                            &out,
                            &json!({"jsonrpc": "2.0", "id": format!("p{i}"), "method": "ping"}),
                        );
                    }
                    sleep_forever();
                }
                "elicit-flood" => {
                    let (out, n) = (out.clone(), num(1, 10_000));
                    answered.lock().unwrap().expected = n;
                    std::thread::spawn(move || elicit_flood(&out, n));
                }
                "notify-flood" => {
                    let (out, done) = (out.clone(), flood_done.clone());
                    let (rate, secs) = (num(1, 50_000), num(2, 60));
                    std::thread::spawn(move || notify_flood(&out, rate, secs, &done));
                }
                _ => {}
            },
            ("ping", Some(id)) => respond(&out, &id, json!({})),
            ("tools/list", Some(id)) => match mode.as_str() {
                "elicit-flood" => {
                    // Answered once every elicitation has its answer (the reader is this
                    // loop, so a thread waits and answers).
                    let (out, answered) = (out.clone(), answered.clone());
                    std::thread::spawn(move || {
                        let deadline = Instant::now() + Duration::from_secs(120);
                        while !answered.lock().unwrap().complete() && Instant::now() < deadline {
                            std::thread::sleep(Duration::from_millis(20));
                        }
                        eprintln!("{}", answered.lock().unwrap().summary());
                        respond(&out, &id, tools(&["noop"]));
                    });
                }
                "notify-flood" => {
                    let (out, done) = (out.clone(), flood_done.clone());
                    std::thread::spawn(move || {
                        while !done.load(Ordering::SeqCst) {
                            std::thread::sleep(Duration::from_millis(20));
                        }
                        respond(&out, &id, tools(&["noop"]));
                    });
                }
                "endless-pages" => {
                    page += 1;
                    let names: Vec<String> = (0..100).map(|i| format!("tool_{page}_{i}")).collect();
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    let mut result = tools(&names);
                    result["nextCursor"] = json!(format!("page-{page}"));
                    respond(&out, &id, result);
                }
                "many-tools" => {
                    let cursor = msg["params"]["cursor"].as_str().unwrap_or("0");
                    let start: u64 = cursor.parse().unwrap_or(0);
                    respond(&out, &id, many_tools(start, num(1, 20_000), num(2, 500)));
                }
                _ if mode == "orphans" && arg(2) == "exit-on-list" => {
                    eprintln!("leaving without answering");
                    std::process::exit(0);
                }
                _ => tools_list(&mode, &out, &id, &arg(1), num(1, 0)),
            },
            ("prompts/list", Some(id)) if mode == "lying-caps" => {
                respond(&out, &id, json!({"prompts": "none"}))
            }
            ("tools/call", Some(id)) if mode == "hold" => {
                held.push(id);
                if held.len() as u64 >= num(1, 10_000) {
                    for id in held.drain(..) {
                        respond(
                            &out,
                            &id,
                            json!({"content": [{"type": "text", "text": "held"}]}),
                        );
                    }
                }
            }
            ("tools/call", Some(id)) if mode == "unreliable" => {
                calls += 1;
                let (every, late_ms, crash_after) = (num(1, 10), num(2, 100), num(3, 0));
                if crash_after > 0 && calls > crash_after {
                    std::process::exit(1);
                }
                let result = json!({"content": [{"type": "text", "text": "called"}]});
                if calls.is_multiple_of(every) {
                    let out = out.clone();
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(late_ms));
                        respond(&out, &id, result);
                    });
                } else {
                    respond(&out, &id, result.clone());
                    if calls % every == 1 {
                        respond(&out, &id, result);
                    }
                }
            }
            ("tools/call", Some(id)) if mode == "overload" => {
                overload_call(&out, id, &working, num(1, 4), num(2, 20))
            }
            ("tools/call", Some(id)) => respond(
                &out,
                &id,
                json!({"content": [{"type": "text", "text": "called"}]}),
            ),
            // Answers to the elicitations.
            ("", Some(id)) if mode == "elicit-flood" => answered.lock().unwrap().note(&id, &msg),
            _ => {}
        }
    }
    if mode == "ignore-sigterm" {
        // Stdin closed: a polite server would exit now. This one waits for SIGKILL.
        sleep_forever();
    }
}

/// `overload`: works on the call for `work_ms` on a thread, or refuses it when `limit` calls
/// are already being worked on.
fn overload_call(out: &Out, id: Value, working: &Arc<AtomicU64>, limit: u64, work_ms: u64) {
    if working.fetch_add(1, Ordering::SeqCst) >= limit {
        working.fetch_sub(1, Ordering::SeqCst);
        write_json(
            out,
            &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": format!("overloaded: the limit is {limit} calls at once")}}),
        );
        return;
    }
    let (out, working) = (out.clone(), working.clone());
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(work_ms));
        working.fetch_sub(1, Ordering::SeqCst);
        respond(
            &out,
            &id,
            json!({"content": [{"type": "text", "text": "worked"}]}),
        );
    });
}

/// One page of `many-tools`: tools `start`… (at most `page`), and the next page's cursor.
fn many_tools(start: u64, total: u64, page: u64) -> Value {
    let end = total.min(start + page.max(1));
    let tools: Vec<Value> = (start..end)
        .map(|i| {
            json!({
                "name": format!("tool_{i}"),
                "title": format!("Tool number {i}"),
                "description": format!("Does thing {i} of {total}, for the long-list benchmark."),
                "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
            })
        })
        .collect();
    let mut result = json!({ "tools": tools });
    if end < total {
        result["nextCursor"] = json!(end.to_string());
    }
    result
}

fn initialize(mode: &str, out: &Out, msg: &Value, id: &Value) {
    if mode == "die-in-handshake" {
        write_raw(out, br#"{"jsonrpc":"2.0","id":1,"result":{"protocolVer"#);
        eprintln!("panic: the handshake went wrong");
        std::process::abort();
    }
    if mode == "early-responses" {
        // Responses to requests the client has not sent (it is waiting for this initialize).
        write_raw(out, b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"premature\",\"inputSchema\":{\"type\":\"object\"}}]}}\n");
        write_raw(out, b"{\"jsonrpc\":\"2.0\",\"id\":\"2\",\"result\":{}}\n");
        write_raw(out, b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n");
        write_raw(
            out,
            b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"nothing asked\"}}\n",
        );
    }
    let capabilities = if mode == "lying-caps" {
        json!({"tools": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true}, "prompts": {}, "logging": {}})
    } else {
        json!({"tools": {}})
    };
    let version = msg
        .pointer("/params/protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("2025-11-25");
    respond(
        out,
        id,
        json!({
            "protocolVersion": version,
            "capabilities": capabilities,
            "serverInfo": {"name": "chaos-server", "version": "1.0.0"},
        }),
    );
}

fn tools_list(mode: &str, out: &Out, id: &Value, text: &str, n: u64) {
    match mode {
        "stdout-flood" => {
            write_repeated(&mut *out.lock().unwrap(), b'x', n);
            write_raw(out, b"\n");
        }
        "stderr-flood" => {
            let mut err = std::io::stderr().lock();
            write_repeated(&mut err, b'x', n);
            let _ = err.write_all(b"\n");
        }
        "string-id" => {
            let string_id = Value::String(id.to_string());
            respond(out, &string_id, tools(&["impostor"]));
        }
        "deep-nesting" => {
            let depth = n as usize;
            let mut frame = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[],"deep":"#);
            frame.push_str(&"[".repeat(depth));
            frame.push_str(&"]".repeat(depth));
            frame.push_str("}}\n");
            write_raw(out, frame.as_bytes());
        }
        "duplicate-keys" => {
            let tool = |name: &str| {
                format!(r#"{{"tools":[{{"name":"{name}","inputSchema":{{"type":"object"}}}}]}}"#)
            };
            write_raw(
                out,
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"id":77,"result":{}}}"#,
                    tool("decoy")
                )
                .as_bytes(),
            );
            write_raw(out, b"\n");
            write_raw(
                out,
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{},"result":{}}}"#,
                    tool("first"),
                    tool("second")
                )
                .as_bytes(),
            );
            write_raw(out, b"\n");
            return;
        }
        "bad-number" => {
            let frame =
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[],"score":{text}}}}}"#);
            write_raw(out, frame.as_bytes());
            write_raw(out, b"\n");
        }
        "lying-caps" => {
            write_json(
                out,
                &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
            );
            return;
        }
        "huge-strings" => {
            let long = "m".repeat(n as usize);
            write_json(out, &json!({"jsonrpc": "2.0", "method": long}));
            write_json(out, &json!({"jsonrpc": "2.0", "id": long, "result": {}}));
        }
        "overload" | "unreliable" => {
            let work = json!({"name": "work", "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true}});
            let wipe = json!({"name": "wipe", "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": false, "destructiveHint": true}});
            respond(out, id, json!({"tools": [work, wipe]}));
            return;
        }
        _ => {}
    }
    respond(out, id, tools(&["noop"]));
}

fn tools(names: &[&str]) -> Value {
    let tools: Vec<Value> = names
        .iter()
        .map(|n| json!({"name": n, "inputSchema": {"type": "object"}}))
        .collect();
    json!({ "tools": tools })
}

/// What came back for the elicitations of `elicit-flood`.
#[derive(Default)]
struct Answers {
    expected: u64,
    ids: std::collections::HashSet<String>,
    results: u64,
    errors: u64,
    duplicates: u64,
}

impl Answers {
    fn note(&mut self, id: &Value, msg: &Value) {
        let id = id.as_str().unwrap_or_default().to_string();
        if !self.ids.insert(id) {
            self.duplicates += 1;
        } else if msg.get("error").is_some() {
            self.errors += 1;
        } else {
            self.results += 1;
        }
    }

    fn complete(&self) -> bool {
        self.ids.len() as u64 >= self.expected
    }

    fn summary(&self) -> String {
        format!(
            "elicitations: sent {}, answered {} (results {}, errors {}, duplicates {})",
            self.expected,
            self.ids.len(),
            self.results,
            self.errors,
            self.duplicates
        )
    }
}

fn elicit_flood(out: &Out, n: u64) {
    for i in 0..n {
        write_json(
            out,
            &json!({"jsonrpc": "2.0", "id": format!("e{i}"), "method": "elicitation/create", "params": {
                "message": format!("Question {i} of {n}: your name?"),
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
            }}),
        );
    }
}

/// Sends `rate` notifications a second for `secs` seconds, paced in 10 ms slices (a slice that
/// falls behind is caught up at once, so the rate holds on average).
fn notify_flood(out: &Out, rate: u64, secs: u64, done: &AtomicBool) {
    let started = Instant::now();
    let total = rate * secs;
    let per_slice = (rate / 100).max(1);
    let mut sent = 0u64;
    let mut batch = Vec::with_capacity(per_slice as usize * 120);
    while sent < total {
        let due = ((started.elapsed().as_secs_f64() * rate as f64) as u64 + per_slice).min(total);
        batch.clear();
        while sent < due {
            batch.extend_from_slice(format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"flood","data":"message {sent}"}}}}"#
            ).as_bytes());
            batch.push(b'\n');
            sent += 1;
        }
        write_raw(out, &batch);
        std::thread::sleep(Duration::from_millis(10));
    }
    eprintln!(
        "notifications: sent {sent} in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    done.store(true, Ordering::SeqCst);
}

/// Starts `n` orphans: each shell backgrounds a `sleep` and exits at once, so the sleep's
/// parent is gone. They inherit this server's stdout and stderr (and its process group).
fn leave_orphans(n: u64) {
    for _ in 0..n {
        let status = std::process::Command::new("sh")
            .args(["-c", "sleep 3600 & echo \"orphan pid $!\" >&2"])
            .status();
        if !matches!(status, Ok(s) if s.success()) {
            eprintln!("could not leave an orphan: {status:?}");
        }
    }
}

fn sleep_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// Writes `n` copies of `byte` from a 1 MiB buffer: a gigabyte costs a megabyte.
fn write_repeated(w: &mut impl Write, byte: u8, n: u64) {
    let chunk = vec![byte; 1 << 20];
    let mut left = n;
    while left > 0 {
        let len = left.min(chunk.len() as u64) as usize;
        if w.write_all(&chunk[..len]).is_err() {
            return;
        }
        left -= len as u64;
    }
    let _ = w.flush();
}

fn respond(out: &Out, id: &Value, result: Value) {
    write_json(out, &json!({"jsonrpc": "2.0", "id": id, "result": result}));
}

fn write_json(out: &Out, value: &Value) {
    let mut line = serde_json::to_vec(value).expect("JSON serializes");
    line.push(b'\n');
    write_raw(out, &line);
}

fn write_raw(out: &Out, bytes: &[u8]) {
    // The client may be gone; a fixture has nobody to tell.
    let mut out = out.lock().unwrap();
    let _ = out.write_all(bytes);
    let _ = out.flush();
}
