use std::sync::mpsc;
use std::time::Duration;

use super::*;
use crate::wire::classify;

fn frame(seq: u64, direction: Direction, value: Value) -> Frame {
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

fn is_modern(revision: &str) -> bool {
    crate::revision::MODERN_VERSIONS.contains(&revision)
}

/// A checker that has seen the start of a session on `revision` (the handshake, or for the
/// modern era nothing: every request names its revision).
fn after_handshake(revision: &str) -> Checker {
    let mut checker = Checker::new();
    if is_modern(revision) {
        return checker;
    }
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": revision, "capabilities": {},
        "clientInfo": {"name": "periscope", "version": "1"}}});
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {
        "protocolVersion": revision, "capabilities": {"tools": {}},
        "serverInfo": {"name": "s", "version": "1"}}});
    assert_eq!(checker.check(&frame(1, Direction::Out, init)), []);
    assert_eq!(checker.check(&frame(2, Direction::In, answer)), []);
    assert_eq!(checker.revision(), Some(revision));
    checker
}

fn list_tools(revision: &str) -> Value {
    let mut request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}});
    if is_modern(revision) {
        request["params"]["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": revision,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "periscope", "version": "1"},
        });
    }
    request
}

fn tools_answer(revision: &str, tools: Value) -> Value {
    let mut answer = json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": tools}});
    if is_modern(revision) {
        answer["result"]["resultType"] = json!("complete");
        answer["result"]["ttlMs"] = json!(0);
        answer["result"]["cacheScope"] = json!("private");
    }
    answer
}

fn violations(flags: &[Flag]) -> Vec<Violation> {
    flags
        .iter()
        .filter_map(|f| match f {
            Flag::SchemaViolation { violations, .. } => Some(violations.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn every_revision_has_its_schema_and_a_method_map_read_from_it() {
    assert_eq!(revisions().count(), 5);
    for revision in crate::revision::STATEFUL_VERSIONS
        .iter()
        .chain(crate::revision::MODERN_VERSIONS)
    {
        let schema = schema_of(revision).unwrap_or_else(|| panic!("no schema for {revision}"));
        assert_eq!(schema.by_method["tools/call"], "CallToolRequest");
        assert_eq!(
            schema.by_method["notifications/cancelled"],
            "CancelledNotification"
        );
    }
    assert_eq!(
        schema_of("2024-11-05").unwrap().by_method["ping"],
        "PingRequest"
    );
}

#[test]
fn the_published_examples_match_their_definitions() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/examples/2026-07-28");
    let mut checked = 0;
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        for example in std::fs::read_dir(&dir).unwrap() {
            let path = example.unwrap().path();
            let value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let found = check_definition("2026-07-28", &name, &value)
                .unwrap_or_else(|| panic!("no definition {name}"));
            assert_eq!(found, [], "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} examples");
}

#[test]
fn a_broken_example_is_flagged_where_it_breaks() {
    let found = check_definition(
        "2026-07-28",
        "CallToolResult",
        &json!({"resultType": "complete", "content": [{"type": "text"}]}),
    )
    .unwrap();
    assert!(found.iter().any(|v| v.path == "/content/0"), "{found:?}");
}

#[test]
fn a_valid_session_passes_on_every_revision() {
    for revision in revisions() {
        let mut checker = after_handshake(revision);
        let tool = json!({"name": "echo", "inputSchema": {"type": "object"}});
        assert_eq!(
            checker.check(&frame(3, Direction::Out, list_tools(revision))),
            []
        );
        let answer = tools_answer(revision, json!([tool]));
        assert_eq!(
            checker.check(&frame(4, Direction::In, answer)),
            [],
            "{revision}"
        );
    }
}

#[test]
fn a_tool_without_a_name_is_flagged_with_its_path_on_every_revision() {
    for revision in revisions() {
        let mut checker = after_handshake(revision);
        checker.check(&frame(3, Direction::Out, list_tools(revision)));
        let answer = tools_answer(revision, json!([{"inputSchema": {"type": "object"}}]));
        let flags = checker.check(&frame(4, Direction::In, answer));
        let Some(Flag::SchemaViolation { revision: r, .. }) = flags.first() else {
            panic!("{revision}: {flags:?}");
        };
        assert_eq!(r, revision);
        let found = violations(&flags);
        assert!(
            found.iter().any(|v| v.path == "/result/tools/0"
                && v.rule == "required"
                && v.message.contains("name")),
            "{revision}: {found:?}"
        );
    }
}

#[test]
fn a_notification_with_bad_params_is_flagged() {
    let mut checker = after_handshake("2025-06-18");
    let flags = checker.check(&frame(
        3,
        Direction::In,
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": "half"}}),
    ));
    let found = violations(&flags);
    assert!(
        found
            .iter()
            .any(|v| v.path == "/params/progress" && v.rule == "type"),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|v| v.path == "/params" && v.rule == "required"),
        "{found:?}"
    );
}

#[test]
fn an_unknown_method_is_held_to_json_rpc_only() {
    let mut checker = after_handshake("2025-11-25");
    let custom = json!({"jsonrpc": "2.0", "method": "x/custom", "params": {"any": 1}});
    assert_eq!(checker.check(&frame(3, Direction::In, custom)), []);
}

#[test]
fn nothing_is_checked_before_a_revision_is_known() {
    let mut checker = Checker::new();
    let answer = json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": [{}]}});
    assert_eq!(checker.check(&frame(1, Direction::In, answer)), []);
}

#[test]
fn an_id_reused_while_pending_is_flagged_and_free_again_once_answered() {
    let mut checker = after_handshake("2025-06-18");
    let ping = || json!({"jsonrpc": "2.0", "id": "a", "method": "ping"});
    assert_eq!(checker.check(&frame(3, Direction::In, ping())), []);
    assert_eq!(
        checker.check(&frame(4, Direction::In, ping())),
        [Flag::ReusedRequestId {
            id: RequestId::String("a".into()),
            first_seq: 3
        }]
    );
    // The other side may use the same id: ids are per sender.
    assert_eq!(checker.check(&frame(5, Direction::Out, ping())), []);
    let pong = json!({"jsonrpc": "2.0", "id": "a", "result": {}});
    assert_eq!(checker.check(&frame(6, Direction::Out, pong)), []);
}

#[test]
fn a_batch_item_is_flagged_under_its_index() {
    let mut checker = after_handshake("2025-03-26");
    let batch = json!([
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1}},
    ]);
    let found = violations(&checker.check(&frame(3, Direction::In, batch)));
    assert!(found.iter().any(|v| v.path == "/1/params"), "{found:?}");
}

#[test]
fn a_full_queue_counts_frames_as_not_checked_without_waiting() {
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let (flags_tx, flags_rx) = mpsc::channel();
    let gate = std::sync::Mutex::new(Some(gate_rx));
    let feed = Feed::start(move |seq, flag| {
        // The first flag holds the worker until the test has overfilled the queue.
        if let Some(gate) = gate.lock().unwrap().take() {
            gate.recv().unwrap();
        }
        flags_tx.send((seq, flag)).unwrap();
    })
    .unwrap();
    let mut checker_frames = Vec::new();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}}});
    checker_frames.push(Arc::new(frame(1, Direction::Out, init)));
    let extra = 10u64;
    for seq in 2..(QUEUE_FRAMES as u64 + 3 + extra) {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/message"});
        checker_frames.push(Arc::new(frame(seq, Direction::In, note)));
    }
    for f in &checker_frames {
        feed.offer(f);
    }
    // The worker holds one frame, the queue the next QUEUE_FRAMES: the rest were not checked.
    assert!(feed.not_checked() >= extra, "{}", feed.not_checked());
    let last = Arc::new(frame(
        999_999,
        Direction::In,
        json!({"jsonrpc": "2.0", "method": "x"}),
    ));
    gate_tx.send(()).unwrap();
    // Offered once the queue has room again, it carries the count.
    let mut told = None;
    for _ in 0..200 {
        feed.offer(&last);
        if let Ok(found) = wait_for_not_checked(&flags_rx) {
            told = Some(found);
            break;
        }
    }
    let (seq, frames) = told.expect("a NotChecked flag");
    assert_eq!(seq, 999_999);
    assert!(frames >= extra, "{frames}");
}

/// A caller of `settled` is counted while it waits, and no longer once it is done or gave up
/// (the worker leaves its flood budget aside while anyone waits).
#[tokio::test]
async fn a_caller_waiting_for_the_checks_is_counted_while_it_waits() {
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let gate = std::sync::Mutex::new(Some(gate_rx));
    let feed = Feed::start(move |_, _| {
        if let Some(gate) = gate.lock().unwrap().take() {
            gate.recv().unwrap();
        }
    })
    .unwrap();
    // A log message without its params breaks the schema: its flag holds the worker.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}}});
    feed.offer(&Arc::new(frame(1, Direction::Out, init)));
    let bad = json!({"jsonrpc": "2.0", "method": "notifications/message"});
    feed.offer(&Arc::new(frame(2, Direction::In, bad)));
    let waiting = || feed.done.waiting.load(Ordering::Relaxed);
    {
        let far = tokio::time::Instant::now() + Duration::from_secs(600);
        let settling = feed.settled(far);
        tokio::pin!(settling);
        let early = tokio::time::timeout(Duration::from_millis(20), &mut settling).await;
        assert!(early.is_err(), "the worker is held: not settled yet");
        assert_eq!(waiting(), 1);
    }
    assert_eq!(waiting(), 0, "a caller that gave up is no longer counted");
    gate_tx.send(()).unwrap();
    let far = tokio::time::Instant::now() + Duration::from_secs(600);
    assert!(feed.settled(far).await);
    assert_eq!(waiting(), 0);
}

fn wait_for_not_checked(rx: &mpsc::Receiver<(u64, Flag)>) -> Result<(u64, u64), ()> {
    while let Ok((seq, flag)) = rx.recv_timeout(Duration::from_millis(50)) {
        if let Flag::NotChecked { frames } = flag {
            return Ok((seq, frames));
        }
    }
    Err(())
}

#[test]
fn every_shape_of_every_revision_compiles() {
    // A shape whose validator failed to build would check nothing, silently.
    for schema in schemas() {
        let mut shapes = vec![
            schema.shape_of(&Message::Error),
            schema.shape_of(&Message::Result { method: None }),
        ];
        for (method, def) in &schema.by_method {
            if def.ends_with("Notification") {
                shapes.push(schema.shape_of(&Message::Notification { method }));
            } else {
                shapes.push(schema.shape_of(&Message::Request { method }));
                shapes.push(schema.shape_of(&Message::Result {
                    method: Some(method),
                }));
            }
        }
        for shape in shapes {
            assert!(
                shape
                    .0
                    .iter()
                    .all(|p| !matches!(p, Part::Def(n) if n.is_empty())),
                "{}: a generic definition is missing",
                schema.revision
            );
            if let Err(e) = jsonschema::options().build(&schema.compose(&shape)) {
                panic!("{}: {e}", schema.revision);
            }
        }
    }
}

#[test]
fn frames_alike_but_for_their_ids_pass_once_and_a_different_one_is_still_checked() {
    let revision = "2025-11-25";
    let mut checker = after_handshake(revision);
    // The handshake's request and answer.
    let before = checker.passed.len();
    let call = |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "work", "arguments": {"id": id}}});
    let answer = |id: i64| json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "ok"}]}});
    // A hard-to-please answer: `content` is not an array.
    let broken = |id: i64| json!({"jsonrpc": "2.0", "id": id, "result": {"content": "ok"}});
    let mut seq = 10;
    let mut next = |direction, value| {
        seq += 1;
        frame(seq, direction, value)
    };
    for id in 1..=3 {
        assert_eq!(checker.check(&next(Direction::Out, call(id))), []);
        assert_eq!(checker.check(&next(Direction::In, answer(id))), []);
    }
    assert_eq!(
        checker.passed.len() - before,
        2,
        "one shape for the calls, one for the answers"
    );
    // A broken answer is flagged each time: only passes are remembered.
    for id in 4..=5 {
        assert_eq!(checker.check(&next(Direction::Out, call(id))), []);
        let flags = checker.check(&next(Direction::In, broken(id)));
        assert!(
            matches!(flags.as_slice(), [Flag::SchemaViolation { .. }]),
            "{flags:?}"
        );
    }
    assert_eq!(checker.passed.len() - before, 2);
    // A reused id is still found (the pending table is not skipped).
    assert_eq!(checker.check(&next(Direction::Out, call(9))), []);
    let flags = checker.check(&next(Direction::Out, call(9)));
    assert!(
        flags
            .iter()
            .any(|f| matches!(f, Flag::ReusedRequestId { .. })),
        "{flags:?}"
    );
}
