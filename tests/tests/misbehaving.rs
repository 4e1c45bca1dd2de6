//! The engine against a server that breaks the rules: every frame is recorded, the error names
//! what the server did, and the session keeps working where the case allows.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use periscope_core::config::StdioTarget;
use periscope_core::event::{Event, ServerNotification};
use periscope_core::record::{Flag, GaveUp};
use periscope_core::session::{
    HostHandler, RequestError, RpcError, ServerRequest, Session, SessionOptions,
};
use periscope_core::wire::{Direction, Frame, Verdict};
use periscope_tests::bin_str;
use serde_json::{Value, json};

fn target(mode: &str) -> StdioTarget {
    StdioTarget::new(bin_str("misbehaving-server"), [mode])
}

async fn ready(mode: &str, options: SessionOptions) -> Session {
    let session = Session::spawn_stdio(&target(mode), options).expect("fixture starts");
    session.initialize().await.expect("fixture initializes");
    session
}

fn inbound(session: &Session) -> Vec<Arc<Frame>> {
    session
        .traffic()
        .frames()
        .into_iter()
        .filter(|f| f.direction == Direction::In)
        .collect()
}

#[tokio::test]
async fn a_banner_on_stdout_is_recorded_as_not_json_and_the_session_goes_on() {
    let session = ready("banner", SessionOptions::default()).await;
    let frames = inbound(&session);
    assert_eq!(
        &*frames[0].bytes,
        b"misbehaving-server v1.0 starting up... ready!"
    );
    assert!(matches!(frames[0].verdict, Verdict::NotJson { .. }));
    assert_eq!(session.list_tools().await.unwrap().len(), 1);
}

#[tokio::test]
async fn broken_json_is_recorded_exactly_and_the_real_answer_still_pairs() {
    let session = ready("broken-json", SessionOptions::default()).await;
    let tools = session.list_tools().await.unwrap();
    assert_eq!(tools[0]["name"], "noop");
    let broken = inbound(&session)
        .into_iter()
        .find(|f| matches!(f.verdict, Verdict::NotJson { .. }))
        .expect("the broken line is in the record");
    assert_eq!(
        &*broken.bytes,
        br#"{"jsonrpc":"2.0","id":2,"result":{"tools":["#
    );
    assert!(broken.verdict.summary().starts_with("not JSON: EOF"));
}

#[tokio::test]
async fn invalid_utf8_is_recorded_byte_for_byte() {
    let session = ready("invalid-utf8", SessionOptions::default()).await;
    session.list_tools().await.unwrap();
    let bad = inbound(&session)
        .into_iter()
        .find(|f| matches!(f.verdict, Verdict::NotUtf8 { .. }))
        .expect("the bad line is in the record");
    assert_eq!(&*bad.bytes, b"{\"jsonrpc\":\"2.0\",\"method\":\"caf\xe9\"}");
    assert_eq!(bad.verdict, Verdict::NotUtf8 { valid_up_to: 30 });
}

#[tokio::test]
async fn a_20_mb_frame_is_recorded_whole_and_parsed() {
    let session = ready("huge-frame", SessionOptions::default()).await;
    let tools = session.list_tools().await.unwrap();
    assert_eq!(
        tools[0]["description"].as_str().unwrap().len(),
        20 * 1024 * 1024
    );
    let big = inbound(&session)
        .into_iter()
        .max_by_key(|f| f.size())
        .unwrap();
    assert!(big.size() > 20 * 1024 * 1024);
    assert_eq!(big.truncated_from, None);
    session.ping().await.unwrap();
}

#[tokio::test]
async fn a_frame_over_the_limit_is_kept_in_part_flagged_and_the_request_times_out() {
    let mut options = SessionOptions {
        request_timeout: Duration::from_secs(5),
        ..SessionOptions::default()
    };
    options.limits.max_frame_bytes = 1024 * 1024;
    let session = ready("huge-frame", options).await;
    let err = session.list_tools().await.unwrap_err();
    assert!(matches!(err, RequestError::TimedOut { .. }), "{err}");
    let big = inbound(&session)
        .into_iter()
        .max_by_key(|f| f.size())
        .unwrap();
    assert_eq!(big.bytes.len(), 1024 * 1024);
    assert!(big.truncated_from.unwrap() > 20 * 1024 * 1024);
    assert_eq!(
        session.traffic().flags_of(big.seq),
        vec![Flag::Oversized { limit: 1024 * 1024 }]
    );
    session.ping().await.expect("the session still works");
}

#[tokio::test]
async fn a_response_to_an_unknown_id_is_flagged() {
    let session = ready("unknown-id", SessionOptions::default()).await;
    session.list_tools().await.unwrap();
    let stray = inbound(&session)
        .into_iter()
        .find(|f| f.bytes.windows(4).any(|w| w == b"9999"))
        .unwrap();
    assert_eq!(
        session.traffic().flags_of(stray.seq),
        vec![Flag::UnknownResponseId {
            id: Some(periscope_core::wire::RequestId::Number(9999))
        }]
    );
}

/// The flags on frame `seq` once the protocol checks have been through it (they run on a
/// worker, after the frame is recorded).
async fn checked_flags(session: &Session, seq: u64) -> Vec<Flag> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let flags = session.traffic().flags_of(seq);
        if flags
            .iter()
            .any(|f| matches!(f, Flag::SchemaViolation { .. }))
            || tokio::time::Instant::now() > deadline
        {
            return flags;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_tool_list_off_the_schema_is_flagged_with_each_path_and_rule() {
    let session = ready("off-spec", SessionOptions::default()).await;
    // The engine takes the answer as it is: showing it is the point, repairing it is not.
    assert_eq!(session.list_tools().await.unwrap().len(), 2);
    let answer = inbound(&session)
        .into_iter()
        .rfind(|f| matches!(f.verdict, Verdict::Response { .. }))
        .unwrap();
    let flags = checked_flags(&session, answer.seq).await;
    let [
        Flag::SchemaViolation {
            revision,
            violations,
        },
    ] = &flags[..]
    else {
        panic!("{flags:?}");
    };
    assert_eq!(revision, periscope_core::revision::LATEST_STATEFUL);
    let found: Vec<(&str, &str)> = violations
        .iter()
        .map(|v| (v.path.as_str(), v.rule.as_str()))
        .collect();
    assert!(
        found.contains(&("/result/tools/0", "required")),
        "{violations:?}"
    );
    assert!(
        violations
            .iter()
            .any(|v| v.path == "/result/tools/0" && v.message.contains("\"name\""))
    );
    assert!(
        found.contains(&("/result/tools/1/inputSchema/type", "const")),
        "{violations:?}"
    );
    // Periscope's own frames and the handshake are on-spec.
    for frame in session.traffic().frames() {
        if frame.seq != answer.seq {
            assert_eq!(
                session.traffic().flags_of(frame.seq),
                [],
                "frame {}",
                frame.seq
            );
        }
    }
    assert_eq!(session.traffic().not_checked(), 0);
}

#[tokio::test]
async fn a_duplicate_response_is_flagged_and_the_first_one_wins() {
    let session = ready("duplicate-response", SessionOptions::default()).await;
    assert_eq!(session.list_tools().await.unwrap().len(), 1);
    session.ping().await.unwrap(); // the duplicate has arrived by the time ping is answered
    let flags = session.traffic().flags();
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert!(matches!(flags[0].flag, Flag::DuplicateResponse { .. }));
}

#[tokio::test]
async fn a_late_response_is_flagged_as_late_after_the_timeout() {
    let options = SessionOptions {
        request_timeout: Duration::from_millis(300),
        ..SessionOptions::default()
    };
    let session = ready("late-response", options).await;
    let err = session.list_tools().await.unwrap_err();
    assert!(err.to_string().contains("no answer within"), "{err}");
    // The server answers 1.5 s after the request; wait for that frame.
    let mut events = session.subscribe();
    let flag = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Ok(Event::FrameFlagged(f)) = events.recv().await {
                return f;
            }
        }
    })
    .await
    .expect("the late answer arrives and is flagged");
    assert!(matches!(
        flag.flag,
        Flag::LateResponse {
            gave_up: GaveUp::TimedOut,
            ..
        }
    ));
    // We told the server we gave up.
    let cancelled = session.traffic().frames().into_iter().any(|f| {
        f.verdict
            == Verdict::Notification {
                method: "notifications/cancelled".into(),
            }
    });
    assert!(cancelled);
}

#[tokio::test]
async fn a_server_that_exits_mid_request_is_reported_with_its_status_and_last_words() {
    let session = ready("exit-mid-request", SessionOptions::default()).await;
    let err = session.list_tools().await.unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, RequestError::Closed { .. }));
    assert!(
        text.contains("server exited with status 3 before answering tools/list"),
        "{text}"
    );
    assert!(
        text.contains("fatal: out of cheese while listing tools"),
        "{text}"
    );
    // Later calls fail the same clear way instead of hanging.
    let again = session.ping().await.unwrap_err();
    assert!(
        again.to_string().contains("exited with status 3"),
        "{again}"
    );
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_cancels_and_keeps_working() {
    let options = SessionOptions {
        request_timeout: Duration::from_millis(500),
        ..SessionOptions::default()
    };
    let session = ready("never-answers", options).await;
    let err = session.list_tools().await.unwrap_err();
    assert!(matches!(err, RequestError::TimedOut { .. }));
    let last_out = session
        .traffic()
        .frames()
        .into_iter()
        .rfind(|f| f.direction == Direction::Out)
        .unwrap();
    let cancel: Value = serde_json::from_slice(&last_out.bytes).unwrap();
    assert_eq!(cancel["method"], "notifications/cancelled");
    assert_eq!(cancel["params"]["requestId"], 2);
    session.ping().await.expect("ping still works");
}

#[tokio::test]
async fn a_flood_of_stderr_is_all_recorded_and_does_not_stall_the_session() {
    let session = ready("stderr-flood", SessionOptions::default()).await;
    assert_eq!(session.list_tools().await.unwrap().len(), 1);
    let report = session.close().await;
    let stderr = session.traffic().stderr();
    assert_eq!(stderr.len(), 100_000);
    assert_eq!(
        stderr[99_999].text,
        "flood line 99999: the quick brown fox jumps over the lazy dog"
    );
    assert_eq!(report.exit_code, Some(0));
}

#[tokio::test]
async fn an_unsupported_protocol_version_is_a_warning_not_an_abort() {
    let session = Session::spawn_stdio(&target("bad-version"), SessionOptions::default()).unwrap();
    let identity = session.initialize().await.unwrap();
    assert_eq!(identity.protocol_version, "1999-01-01");
    assert!(
        matches!(&identity.warnings[0], periscope_core::vocabulary::Problem::VersionNotSpoken { version, .. } if version == "1999-01-01"),
        "{:?}",
        identity.warnings
    );
    assert!(identity.warnings[0].to_string().contains("does not speak"));
    assert!(matches!(
        session.traffic().flags()[0].flag,
        Flag::UnsupportedProtocolVersion { .. }
    ));
    session.ping().await.unwrap();
}

struct Scripted;

#[async_trait]
impl HostHandler for Scripted {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        match request.method.as_str() {
            "roots/list" => Ok(json!({"roots": [{"uri": "file:///tmp", "name": "tmp"}]})),
            "elicitation/create" => Ok(json!({"action": "accept", "content": {"name": "Ada"}})),
            _ => Err(RpcError::new(-1, "no sampling here")),
        }
    }
}

#[tokio::test]
async fn server_requests_are_answered_by_ping_the_host_or_method_not_found_and_batches_in_batches()
{
    let options = SessionOptions {
        handler: Arc::new(Scripted),
        ..SessionOptions::default()
    };
    let session = Session::spawn_stdio(&target("server-requests"), options).unwrap();
    let mut events = session.subscribe();
    session.initialize().await.unwrap();
    // Five answers go out: one batch (ping, roots, unknown) and two singles.
    let answered = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let outs: Vec<Arc<Frame>> = session
                .traffic()
                .frames()
                .into_iter()
                .filter(|f| f.direction == Direction::Out)
                .filter(|f| {
                    !matches!(
                        f.verdict,
                        Verdict::Request { .. } | Verdict::Notification { .. }
                    )
                })
                .collect();
            if outs.len() == 3 {
                return outs;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("all server requests are answered");
    let batch: Value = serde_json::from_slice(&answered[0].bytes).unwrap();
    assert_eq!(
        batch[0],
        json!({"jsonrpc": "2.0", "id": "s1", "result": {}})
    );
    assert_eq!(batch[1]["result"]["roots"][0]["uri"], "file:///tmp");
    assert_eq!(batch[2]["error"]["code"], -32601);
    let rest: Vec<Value> = answered[1..]
        .iter()
        .map(|f| serde_json::from_slice(&f.bytes).unwrap())
        .collect();
    assert!(rest.contains(&json!({"jsonrpc": "2.0", "id": "s4", "result": {"action": "accept", "content": {"name": "Ada"}}})));
    assert!(rest.contains(
        &json!({"jsonrpc": "2.0", "id": "s5", "error": {"code": -1, "message": "no sampling here"}})
    ));

    let mut saw_log = false;
    let mut host_asks = 0;
    while let Ok(event) = events.try_recv() {
        match event {
            Event::Notification(n) => {
                if let ServerNotification::Log { data, .. } = &*n {
                    saw_log = *data == json!("in a batch")
                }
            }
            Event::HostInputNeeded { .. } => host_asks += 1,
            _ => {}
        }
    }
    assert!(saw_log, "the notification inside the batch is delivered");
    assert_eq!(
        host_asks, 3,
        "roots, elicitation and sampling reach the host"
    );
}

#[tokio::test]
async fn elicitations_outside_what_we_declared_or_allow_are_refused_with_32602_and_said_why() {
    // Form only: URL mode is not declared here.
    let options = SessionOptions {
        handler: Arc::new(Scripted),
        capabilities: json!({"elicitation": {"form": {}}}),
        ..SessionOptions::default()
    };
    let session = Session::spawn_stdio(&target("bad-elicitations"), options).unwrap();
    let mut events = session.subscribe();
    session.initialize().await.unwrap();
    let answers = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let answers: Vec<Value> = session
                .traffic()
                .frames()
                .into_iter()
                .filter(|f| f.direction == Direction::Out)
                .filter_map(|f| serde_json::from_slice::<Value>(&f.bytes).ok())
                .filter(|v| v.get("method").is_none())
                .collect();
            if answers.len() == 4 {
                return answers;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("every elicitation is answered");
    let by_id = |id: &str| answers.iter().find(|a| a["id"] == id).unwrap().clone();

    let nested = by_id("e1");
    assert_eq!(nested["error"]["code"], -32602, "{nested}");
    let why = nested["error"]["message"].as_str().unwrap();
    assert!(why.contains("address"), "names the field: {why}");
    let url = by_id("e2");
    assert_eq!(url["error"]["code"], -32602);
    assert!(
        url["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"url\"")
    );
    let unknown = by_id("e3");
    assert_eq!(unknown["error"]["code"], -32602);
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("telepathy")
    );
    // The valid form reaches the host, which accepts it.
    assert_eq!(by_id("e4")["result"]["action"], "accept");

    // The user hears why, and the undeclared mode is flagged on its frame.
    let mut warnings = Vec::new();
    let mut host_asks = 0;
    while let Ok(event) = events.try_recv() {
        match event {
            Event::Warning(w) => warnings.push(w),
            Event::HostInputNeeded { .. } => host_asks += 1,
            _ => {}
        }
    }
    assert_eq!(host_asks, 1, "only the valid form reaches the host");
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings.iter().all(|w| matches!(w, periscope_core::vocabulary::Problem::ServerRequestRefused { method, .. } if method == "elicitation/create")),
        "{warnings:?}"
    );
    assert!(
        warnings[0]
            .to_string()
            .contains("refused elicitation/create"),
        "{warnings:?}"
    );
    assert!(
        session
            .traffic()
            .flags()
            .iter()
            .any(|f| matches!(&f.flag, Flag::UndeclaredCapability { method } if method == "elicitation/create"))
    );
}
