//! A 2026-07-28 response stream that breaks before its answer (Streamable HTTP; such streams
//! are never resumed), against the demo server's `break_next_stream`: a request that only reads
//! goes again once as a new request with a new id; a `tools/call` does not, and says why.

use std::process::{Command, Stdio};

use periscope_core::config::{HttpMode, HttpTarget};
use periscope_core::era::{Era, EraChoice};
use periscope_core::event::Event;
use periscope_core::record::Flag;
use periscope_core::session::{CallOptions, NotReissued, RequestError, Session, SessionOptions};
use periscope_core::wire::{Direction, RequestId};
use periscope_tests::{HttpServerProcess, bin};
use serde_json::{Value, json};

fn demo() -> HttpServerProcess {
    HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0", "--eras", "dual"])
            .stderr(Stdio::null()),
    )
}

async fn modern_session(server: &HttpServerProcess) -> Session {
    let target = HttpTarget {
        url: server.url.clone(),
        ..HttpTarget::default()
    };
    let options = SessionOptions {
        era: EraChoice::Modern,
        ..SessionOptions::default()
    };
    let session = Session::connect_http(&target, HttpMode::Auto, options, None).unwrap();
    assert_eq!(session.handshake().await.unwrap().era, Era::Modern);
    session
}

/// Arms the demo: the next request for `method` gets a stream cut before its answer.
async fn break_next(session: &Session, method: &str) {
    let args = json!({"method": method}).as_object().unwrap().clone();
    let result = session
        .call_tool("break_next_stream", args, CallOptions::default())
        .await
        .unwrap();
    assert_ne!(result["isError"], json!(true), "{result}");
}

/// The ids of the outgoing requests for `method`, in order.
fn sent_ids(session: &Session, method: &str) -> Vec<(RequestId, u64)> {
    session
        .traffic()
        .frames()
        .iter()
        .filter(|f| f.direction == Direction::Out)
        .filter_map(|f| {
            let v: Value = serde_json::from_slice(&f.bytes).ok()?;
            (v["method"] == method).then(|| (RequestId::from_value(&v["id"]).unwrap(), f.seq))
        })
        .collect()
}

fn warnings(events: &mut tokio::sync::broadcast::Receiver<Event>) -> Vec<String> {
    let mut said = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let Event::Warning(text) = event {
            said.push(text.to_string());
        }
    }
    said
}

#[tokio::test]
async fn a_list_whose_stream_breaks_is_reissued_once_with_a_new_id_and_succeeds() {
    let server = demo();
    let session = modern_session(&server).await;
    let mut events = session.subscribe();
    break_next(&session, "tools/list").await;

    let tools = session.list_tools().await.unwrap();
    assert!(tools.iter().any(|t| t["name"] == "break_next_stream"));

    let sent = sent_ids(&session, "tools/list");
    assert_eq!(
        sent.len(),
        2,
        "the broken request and its re-issue: {sent:?}"
    );
    let ((first, first_seq), (second, second_seq)) = (&sent[0], &sent[1]);
    assert_ne!(first, second);
    assert_eq!(
        session.traffic().flags_of(*first_seq),
        [Flag::StreamBroke {
            reissued_as: Some(second.clone())
        }]
    );
    assert!(session.traffic().flags_of(*second_seq).is_empty());
    // The answer came for the second id.
    let answered: Vec<Value> = session
        .traffic()
        .frames()
        .iter()
        .filter(|f| f.direction == Direction::In)
        .filter_map(|f| serde_json::from_slice::<Value>(&f.bytes).ok())
        .filter(|v| v.get("result").is_some_and(|r| r.get("tools").is_some()))
        .map(|v| v["id"].clone())
        .collect();
    assert_eq!(answered, [second.to_value()]);
    let said = warnings(&mut events);
    assert!(
        said.iter().any(|w| w
            .starts_with("tools/list: the server closed the response stream before answering")
            && w.ends_with(&format!("re-issued as a new request (id {second})"))),
        "{said:?}"
    );
    session.close().await;
}

#[tokio::test]
async fn a_read_that_breaks_twice_is_reissued_only_once() {
    let server = demo();
    let session = modern_session(&server).await;
    break_next(&session, "resources/read").await;
    break_next(&session, "resources/read").await;

    let err = session.read_resource("demo://text/1").await.unwrap_err();
    assert!(
        matches!(
            &err,
            RequestError::StreamBroke {
                not_reissued: Some(NotReissued::AlreadyReissued),
                ..
            }
        ),
        "{err}"
    );
    let sent = sent_ids(&session, "resources/read");
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(
        session.traffic().flags_of(sent[1].1),
        [Flag::StreamBroke { reissued_as: None }]
    );
    // The next read is whole again.
    session.read_resource("demo://text/1").await.unwrap();
    session.close().await;
}

#[tokio::test]
async fn a_tool_call_whose_stream_breaks_fails_with_the_reason_and_is_sent_once() {
    let server = demo();
    let session = modern_session(&server).await;
    break_next(&session, "tools/call").await;
    let before = sent_ids(&session, "tools/call").len();

    let err = session
        .call_tool(
            "echo",
            json!({"message": "once"}).as_object().unwrap().clone(),
            CallOptions::default(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(
            &err,
            RequestError::StreamBroke {
                not_reissued: Some(NotReissued::MayRepeatEffect),
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "tools/call: the server closed the response stream before answering (2026-07-28 streams \
         are not resumed); not re-issued: sending it again could repeat its effect"
    );
    let sent = sent_ids(&session, "tools/call");
    assert_eq!(sent.len(), before + 1, "sent once: {sent:?}");
    assert_eq!(
        session.traffic().flags_of(sent.last().unwrap().1),
        [Flag::StreamBroke { reissued_as: None }]
    );
    // Nothing else is armed: the same call now answers.
    let ok = session
        .call_tool(
            "echo",
            json!({"message": "twice"}).as_object().unwrap().clone(),
            CallOptions::default(),
        )
        .await;
    assert!(ok.is_ok(), "{ok:?}");
    session.close().await;
}
