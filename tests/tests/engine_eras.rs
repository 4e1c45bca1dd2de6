//! The engine's two eras against the demo server's (`--eras legacy|modern|dual`): choosing the
//! era (auto, pinned), the modern request metadata and mirrored HTTP headers, refused tools
//! and removed methods, multi round-trip requests answered through the host, and -32022.

use std::process::{Command, Stdio};
use std::sync::Arc;

use async_trait::async_trait;
use periscope_core::config::{HttpMode, HttpTarget, StdioTarget};
use periscope_core::era::{Era, EraChoice, EraReason};
use periscope_core::session::{
    CallOptions, HostHandler, RequestError, RpcError, ServerRequest, Session, SessionOptions,
};
use periscope_core::wire::Direction;
use periscope_tests::{HttpServerProcess, bin, bin_str};
use serde_json::{Map, Value, json};

fn args(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn options(era: EraChoice) -> SessionOptions {
    SessionOptions {
        era,
        ..SessionOptions::default()
    }
}

fn stdio(eras: &str, options: SessionOptions) -> Session {
    let target = StdioTarget::new(bin_str("periscope-demo-server"), ["--eras", eras]);
    Session::spawn_stdio(&target, options).unwrap()
}

fn http_demo(eras: &str) -> HttpServerProcess {
    HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0", "--eras", eras])
            .stderr(Stdio::null()),
    )
}

fn http(server: &HttpServerProcess, options: SessionOptions) -> Session {
    let target = HttpTarget {
        url: server.url.clone(),
        ..HttpTarget::default()
    };
    Session::connect_http(&target, HttpMode::Auto, options, None).unwrap()
}

/// The outgoing frames' JSON, in order.
fn sent(session: &Session) -> Vec<Value> {
    session
        .traffic()
        .frames()
        .iter()
        .filter(|f| f.direction == Direction::Out)
        .map(|f| serde_json::from_slice(&f.bytes).unwrap())
        .collect()
}

#[tokio::test]
async fn auto_finds_a_modern_server_by_server_discover_and_sends_no_handshake() {
    let session = stdio("dual", options(EraChoice::Auto));
    let identity = session.handshake().await.unwrap();
    assert_eq!(identity.era, Era::Modern);
    assert_eq!(identity.era_reason, EraReason::Discovered);
    assert_eq!(identity.protocol_version, "2026-07-28");
    assert!(
        identity
            .supported_versions
            .contains(&"2025-11-25".to_string())
    );
    assert_eq!(identity.server_info["name"], "periscope-demo-server");
    session.list_tools().await.unwrap();
    let frames = sent(&session);
    let methods: Vec<&str> = frames.iter().filter_map(|f| f["method"].as_str()).collect();
    assert_eq!(methods, ["server/discover", "tools/list"]);
    // Every request declares the version, the capabilities and who is asking.
    for frame in &frames {
        let meta = &frame["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert!(meta["io.modelcontextprotocol/clientCapabilities"]["elicitation"].is_object());
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"],
            "periscope"
        );
    }
    session.close().await;
}

#[tokio::test]
async fn auto_falls_back_to_initialize_for_a_legacy_server_and_says_why() {
    let session = stdio("legacy", options(EraChoice::Auto));
    let identity = session.handshake().await.unwrap();
    assert_eq!(identity.era, Era::Legacy);
    let EraReason::ProbeFailed { answer } = &identity.era_reason else {
        panic!("{:?}", identity.era_reason)
    };
    assert!(
        matches!(
            answer,
            periscope_core::era::ProbeAnswer::Error { code: -32601, .. }
        ),
        "{answer:?}"
    );
    assert_eq!(identity.protocol_version, "2025-11-25");
    let frames = sent(&session);
    let methods: Vec<&str> = frames.iter().filter_map(|f| f["method"].as_str()).collect();
    assert_eq!(
        methods,
        ["server/discover", "initialize", "notifications/initialized"]
    );
    // After the fall back, requests are the legacy era's: no modern metadata.
    session.list_tools().await.unwrap();
    let last = sent(&session).pop().unwrap();
    assert!(last["params"].get("_meta").is_none(), "{last}");
    session.close().await;
}

#[tokio::test]
async fn pinned_eras_do_what_they_say() {
    let legacy = stdio("dual", options(EraChoice::Legacy));
    let identity = legacy.handshake().await.unwrap();
    assert_eq!(
        (identity.era, identity.era_reason),
        (Era::Legacy, EraReason::Pinned)
    );
    assert_eq!(sent(&legacy)[0]["method"], "initialize");
    legacy.close().await;

    let modern = stdio("legacy", options(EraChoice::Modern));
    let err = modern.handshake().await.unwrap_err();
    assert!(
        matches!(&err, RequestError::Rpc { method, error } if method == "server/discover" && error.code == -32601),
        "{err}"
    );
    // The code is named as the spec names it.
    assert!(
        err.to_string().contains("error -32601 (MethodNotFound)"),
        "{err}"
    );
    modern.close().await;
}

#[tokio::test]
async fn removed_methods_are_refused_with_the_reason_without_being_sent() {
    let session = stdio("dual", options(EraChoice::Modern));
    session.handshake().await.unwrap();
    let before = sent(&session).len();
    let err = session.ping().await.unwrap_err();
    assert!(
        matches!(err, RequestError::Refused { .. }) && err.to_string().contains("removed ping"),
        "{err}"
    );
    // (`subscribe_resource` maps onto the listen stream in this era: engine_listen.rs.)
    let err = session
        .request(
            "resources/subscribe",
            Some(json!({"uri": "demo://text/1"})),
            CallOptions::default(),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("subscriptions/listen"), "{err}");
    assert_eq!(sent(&session).len(), before, "nothing went to the server");
    session.close().await;
}

/// Answers every form with fixed content, and records what it was asked.
struct Answers {
    asked: std::sync::Mutex<Vec<String>>,
}

#[async_trait]
impl HostHandler for Answers {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        self.asked.lock().unwrap().push(request.method.clone());
        match request.method.as_str() {
            "elicitation/create" => Ok(json!({
                "action": "accept",
                "content": {"city": "Oslo", "confirm": true, "name": "Ada"}
            })),
            "sampling/createMessage" => Ok(json!({
                "role": "assistant",
                "content": {"type": "text", "text": "Hello, Ada"},
                "model": "test-model"
            })),
            _ => periscope_core::session::handler::decline(&request),
        }
    }
}

#[tokio::test]
async fn multi_round_trip_requests_are_answered_through_the_host_and_retried() {
    let answers = Arc::new(Answers {
        asked: Default::default(),
    });
    let session = stdio(
        "dual",
        SessionOptions {
            handler: answers.clone(),
            ..options(EraChoice::Auto)
        },
    );
    session.handshake().await.unwrap();
    // Two rounds, the second depending on the first through the server's requestState.
    let result = session
        .call_tool("mrtr_two_rounds", Map::new(), CallOptions::default())
        .await
        .unwrap();
    assert_eq!(
        result["content"][0]["text"],
        "booked a trip to Oslo after 2 rounds"
    );
    let calls: Vec<Value> = sent(&session)
        .into_iter()
        .filter(|f| f["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 3, "{calls:?}");
    assert!(calls[0]["params"].get("requestState").is_none());
    assert!(calls[1]["params"]["requestState"].is_string());
    assert_eq!(
        calls[1]["params"]["inputResponses"]["city"]["action"],
        "accept"
    );
    assert_ne!(
        calls[1]["params"]["requestState"],
        calls[2]["params"]["requestState"]
    );
    let ids: std::collections::HashSet<String> =
        calls.iter().map(|c| c["id"].to_string()).collect();
    assert_eq!(ids.len(), 3, "each round is a new request id");
    // Two inputs in one round: an elicitation and a sampling request.
    let result = session
        .call_tool("mrtr_two_inputs", Map::new(), CallOptions::default())
        .await
        .unwrap();
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("Ada") && text.contains("Hello, Ada"),
        "{text}"
    );
    let asked = answers.asked.lock().unwrap().clone();
    assert!(
        asked.contains(&"sampling/createMessage".to_string()),
        "{asked:?}"
    );
    session.close().await;
}

#[tokio::test]
async fn the_record_links_the_rounds_of_a_multi_round_trip_call() {
    use periscope_core::view::{FrameDetail, RowBuilder};
    let session = stdio(
        "dual",
        SessionOptions {
            handler: Arc::new(Answers {
                asked: Default::default(),
            }),
            ..options(EraChoice::Auto)
        },
    );
    session.handshake().await.unwrap();
    session
        .call_tool("mrtr_two_rounds", Map::new(), CallOptions::default())
        .await
        .unwrap();
    let traffic = session.traffic();
    let frames = traffic.frames();
    let calls: Vec<u64> = frames
        .iter()
        .filter(|f| {
            f.direction == Direction::Out
                && serde_json::from_slice::<Value>(&f.bytes).unwrap()["method"] == "tools/call"
        })
        .map(|f| f.seq)
        .collect();
    assert_eq!(calls.len(), 3, "three sendings");
    // The first request is the call; the two sent again are its rounds 2 and 3, each naming
    // the input_required response it answers.
    assert_eq!(traffic.round_of(calls[0]), None);
    let second = traffic.round_of(calls[1]).expect("round 2 is linked");
    let third = traffic.round_of(calls[2]).expect("round 3 is linked");
    assert_eq!((second.first_seq, second.round), (calls[0], 2));
    assert_eq!((third.first_seq, third.round), (calls[0], 3));
    assert!(calls[0] < second.asked_by && second.asked_by < calls[1]);
    assert!(calls[1] < third.asked_by && third.asked_by < calls[2]);
    // Any frame of the call lists all rounds, each with its request and response.
    let rounds = traffic.call_of(second.asked_by);
    assert_eq!(rounds.len(), 3, "{rounds:?}");
    assert_eq!(traffic.call_of(calls[2]), rounds);
    let requests: Vec<u64> = rounds.iter().map(|r| r.request_seq).collect();
    assert_eq!(requests, calls);
    assert_eq!(rounds[0].response_seq, Some(second.asked_by));
    assert_eq!(rounds[1].response_seq, Some(third.asked_by));
    let last = rounds[2].response_seq.expect("the last round was answered");
    assert_eq!(traffic.call_of(last), rounds);
    let detail = FrameDetail::of(&traffic.frame(last).unwrap(), vec![], traffic.call_of(last));
    assert_eq!(detail.rounds, rounds);
    // Rows: a later round's request and its response carry the link; the raw bytes are as sent.
    let mut builder = RowBuilder::default();
    let rows: Vec<_> = frames
        .iter()
        .map(|f| builder.row_in_call(f, traffic.round_of(f.seq)))
        .collect();
    let linked: Vec<(u64, u32)> = rows
        .iter()
        .filter_map(|r| r.call.map(|c| (r.seq, c.round)))
        .collect();
    assert_eq!(
        linked,
        [(calls[1], 2), (third.asked_by, 2), (calls[2], 3), (last, 3)]
    );
    // Unrelated requests belong to no call.
    assert!(traffic.call_of(frames[0].seq).is_empty());
    session.close().await;
}

#[tokio::test]
async fn a_declined_input_goes_back_as_declined() {
    // DeclineAll: the form is declined, and the server says so in its result.
    let session = stdio("dual", options(EraChoice::Modern));
    session.handshake().await.unwrap();
    let result = session
        .call_tool("mrtr_form", Map::new(), CallOptions::default())
        .await
        .unwrap();
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("decline"), "{text}");
    session.close().await;
}

#[tokio::test]
async fn over_http_requests_mirror_their_names_and_arguments_into_headers() {
    let server = http_demo("dual");
    let session = http(&server, options(EraChoice::Auto));
    let identity = session.handshake().await.unwrap();
    assert_eq!(identity.era, Era::Modern);
    session.list_tools().await.unwrap();
    let result = session
        .call_tool(
            "regional_lookup",
            args(json!({"region": "Zürich", "tenant": 42, "dry_run": true, "query": "q"})),
            CallOptions::default(),
        )
        .await
        .unwrap();
    // The server lists the Mcp-Param-* headers it received (and validated against the body).
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("mcp-param-tenant: 42"), "{text}");
    assert!(text.contains("mcp-param-dryrun: true"), "{text}");
    assert!(text.contains("mcp-param-region: =?base64?"), "{text}");
    // No session: the server gave none, and Periscope never opened a GET stream.
    let exchanges = session.traffic().exchanges();
    assert!(
        exchanges.iter().all(|e| e.method == "POST"),
        "{exchanges:?}"
    );
    // The record keeps the headers each POST carried.
    let header = |e: &periscope_core::record::HttpExchange, name: &str| {
        e.request_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let call = exchanges
        .iter()
        .find(|e| header(e, "mcp-method").as_deref() == Some("tools/call"))
        .expect("the tools/call POST is recorded");
    assert_eq!(header(call, "mcp-name").as_deref(), Some("regional_lookup"));
    assert_eq!(
        header(call, "mcp-protocol-version").as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(header(call, "mcp-param-tenant").as_deref(), Some("42"));
    // A tool with broken x-mcp-header annotations is refused, not sent.
    let err = session
        .call_tool("broken_headers", Map::new(), CallOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(err, RequestError::Refused { .. }), "{err}");
    assert_eq!(session.refused_tools().len(), 1);
    session.close().await;
}

#[tokio::test]
async fn over_http_auto_falls_back_to_a_legacy_session() {
    let server = http_demo("legacy");
    let session = http(&server, options(EraChoice::Auto));
    let identity = session.handshake().await.unwrap();
    assert_eq!(identity.era, Era::Legacy);
    let result = session
        .call_tool("add", args(json!({"a": 1, "b": 2})), CallOptions::default())
        .await
        .unwrap();
    assert_eq!(result["structuredContent"]["sum"], 3);
    session.close().await;
}

#[tokio::test]
async fn the_log_level_goes_with_each_request_in_the_modern_era() {
    let session = stdio("dual", options(EraChoice::Modern));
    session.handshake().await.unwrap();
    let none = session
        .call_tool("emit_logs", Map::new(), CallOptions::default())
        .await
        .unwrap();
    assert!(
        none["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("sent 0 log messages"),
        "{none}"
    );
    session
        .set_log_level(periscope_core::features::LogLevel::Warning)
        .await
        .unwrap();
    session
        .call_tool("emit_logs", Map::new(), CallOptions::default())
        .await
        .unwrap();
    let last = sent(&session).pop().unwrap();
    assert_eq!(
        last["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "warning"
    );
    assert!(
        sent(&session)
            .iter()
            .all(|f| f["method"] != "logging/setLevel"),
        "no logging/setLevel in this era"
    );
    session.close().await;
}

#[tokio::test]
async fn a_fresh_result_is_reused_until_a_notification_or_the_caller_says_otherwise() {
    use periscope_core::event::{Event, ServerNotification};
    use periscope_core::subscription::ListenFilter;
    let session = stdio("dual", options(EraChoice::Modern));
    session.handshake().await.unwrap();
    let mut events = session.subscribe();
    let lists = |s: &Session| {
        sent(s)
            .iter()
            .filter(|f| f["method"] == "tools/list")
            .count()
    };
    // The demo says its tools list stays fresh for 60 s (public): the second list is not sent.
    session.list_tools().await.unwrap();
    session.list_tools().await.unwrap();
    assert_eq!(lists(&session), 1);
    let mut said = false;
    while let Ok(e) = events.try_recv() {
        if let Event::FromCache {
            method, left_ms, ..
        } = e
        {
            assert_eq!(method, "tools/list");
            assert!(left_ms > 50_000 && left_ms <= 60_000, "{left_ms}");
            said = true;
        }
    }
    assert!(said, "a reuse is said");
    // The caller may insist.
    session
        .request(
            "tools/list",
            None,
            CallOptions {
                fresh: true,
                ..CallOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(lists(&session), 2);
    // A list change makes the cached list stale at once.
    session.listen(ListenFilter::list_changes()).await.unwrap();
    session
        .call_tool("trigger_list_changed", Map::new(), CallOptions::default())
        .await
        .unwrap();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, events.recv()).await {
            Ok(Ok(Event::Notification(n))) if *n == ServerNotification::ToolsListChanged => break,
            Ok(_) => {}
            Err(_) => panic!("no tools list change"),
        }
    }
    let tools = session.list_tools().await.unwrap();
    assert_eq!(lists(&session), 3);
    assert!(tools.iter().any(|t| t["name"] == "bonus"), "the new list");
    session.close().await;
}

#[tokio::test]
async fn lists_and_reads_come_with_their_caching_hints_and_say_when_they_were_reused() {
    use periscope_core::cache_hint::CacheScope;
    let session = stdio("dual", options(EraChoice::Modern));
    session.handshake().await.unwrap();
    let first = session
        .list_all_cached("tools/list", "tools")
        .await
        .unwrap();
    let hint = first.cache.expect("the demo's tools list carries hints");
    assert_eq!(
        (hint.ttl_ms, hint.scope, hint.reused),
        (60_000, Some(CacheScope::Public), None)
    );
    let again = session
        .list_all_cached("tools/list", "tools")
        .await
        .unwrap();
    assert_eq!(again.items, first.items);
    let reused = again
        .cache
        .unwrap()
        .reused
        .expect("the second list is the cached one");
    assert!(
        reused.left_ms <= 60_000 && reused.left_ms > 50_000,
        "{reused:?}"
    );
    let read = session.read_resource_cached("demo://text/1").await.unwrap();
    let hint = read.cache.unwrap();
    assert_eq!(
        (hint.ttl_ms, hint.scope),
        (300_000, Some(CacheScope::Public))
    );
    assert!(read.result["contents"].is_array());
    let page = session
        .list_page("resources/list", "resources", None)
        .await
        .unwrap();
    assert_eq!(page.cache.map(|h| h.ttl_ms), Some(30_000));
    session.close().await;
}
