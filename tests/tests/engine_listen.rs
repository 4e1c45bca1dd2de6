//! The modern era's listen stream (`subscriptions/listen`) against the demo server
//! (`--eras dual`) over stdio and HTTP: acknowledged kinds, tagged notifications delivered as
//! events, resource subscriptions mapped onto the filter (the stream re-opened with it).

use std::process::{Command, Stdio};
use std::time::Duration;

use periscope_core::config::{HttpMode, HttpTarget, StdioTarget};
use periscope_core::era::{Era, EraChoice};
use periscope_core::event::{Event, ServerNotification};
use periscope_core::session::{Session, SessionOptions};
use periscope_core::subscription::{ListenFilter, ListenState};
use periscope_core::wire::Direction;
use periscope_tests::{HttpServerProcess, bin, bin_str};
use serde_json::{Map, Value, json};
use tokio::sync::broadcast;

const URI: &str = "demo://text/5";

fn options() -> SessionOptions {
    SessionOptions {
        era: EraChoice::Auto,
        ..SessionOptions::default()
    }
}

/// Waits (10 s at most) for a notification `want` accepts.
async fn notification(
    events: &mut broadcast::Receiver<Event>,
    want: impl Fn(&ServerNotification) -> bool,
) -> ServerNotification {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let event = tokio::time::timeout_at(deadline, events.recv())
            .await
            .expect("the notification came in time")
            .unwrap();
        if let Event::Notification(n) = event
            && want(&n)
        {
            return std::sync::Arc::unwrap_or_clone(n);
        }
    }
}

async fn call(session: &Session, tool: &str, args: Value) -> String {
    let args: Map<String, Value> = args.as_object().unwrap().clone();
    let result = session
        .call_tool(tool, args, Default::default())
        .await
        .unwrap();
    result.to_string()
}

/// The inbound notifications' `_meta` subscription ids, by method.
fn tags(session: &Session, method: &str) -> Vec<Value> {
    session
        .traffic()
        .frames()
        .iter()
        .filter(|f| f.direction == Direction::In)
        .filter_map(|f| serde_json::from_slice::<Value>(&f.bytes).ok())
        .filter(|m| m["method"] == method)
        .map(|m| m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone())
        .collect()
}

/// The demo server (`--eras dual`) over HTTP, and the target that reaches it.
fn dual_http_demo() -> (HttpServerProcess, HttpTarget) {
    let server = HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0", "--eras", "dual"])
            .stderr(Stdio::null()),
    );
    let target = HttpTarget {
        url: server.url.clone(),
        ..HttpTarget::default()
    };
    (server, target)
}

async fn listen_end_to_end(session: Session) {
    let identity = session.handshake().await.unwrap();
    assert_eq!(identity.era, Era::Modern);
    let mut events = session.subscribe();
    let acknowledged = session.listen(ListenFilter::list_changes()).await.unwrap();
    assert_eq!(acknowledged, ListenFilter::list_changes());
    let ListenState::Open { id, .. } = session.listen_state() else {
        panic!("not open: {:?}", session.listen_state())
    };
    let text = call(&session, "trigger_list_changed", json!({})).await;
    assert!(text.contains("sent to 1 listen stream(s)"), "{text}");
    let mut seen = Vec::new();
    for _ in 0..3 {
        let kinds = [
            ServerNotification::ToolsListChanged,
            ServerNotification::PromptsListChanged,
            ServerNotification::ResourcesListChanged,
        ];
        seen.push(notification(&mut events, |n| kinds.contains(n)).await);
    }
    assert!(
        seen.contains(&ServerNotification::ToolsListChanged),
        "{seen:?}"
    );
    assert!(
        seen.contains(&ServerNotification::PromptsListChanged),
        "{seen:?}"
    );
    assert!(
        seen.contains(&ServerNotification::ResourcesListChanged),
        "{seen:?}"
    );
    assert_eq!(
        tags(&session, "notifications/tools/list_changed"),
        [id.to_value()]
    );
    assert_eq!(
        tags(&session, "notifications/subscriptions/acknowledged"),
        [id.to_value()]
    );

    // Subscribe maps onto the filter: the stream is re-opened with the URI.
    session.subscribe_resource(URI).await.unwrap();
    assert!(session.listen_filter().resource_subscriptions.contains(URI));
    let ListenState::Open {
        id: second,
        acknowledged,
        ..
    } = session.listen_state()
    else {
        panic!("not open: {:?}", session.listen_state())
    };
    assert_ne!(second, id);
    assert!(acknowledged.resource_subscriptions.contains(URI));
    call(&session, "touch_resource", json!({"uri": URI})).await;
    let updated = notification(&mut events, |n| {
        matches!(n, ServerNotification::ResourceUpdated { .. })
    })
    .await;
    assert_eq!(
        updated,
        ServerNotification::ResourceUpdated { uri: URI.into() }
    );

    session.unsubscribe_resource(URI).await.unwrap();
    assert!(session.listen_filter().resource_subscriptions.is_empty());
    assert!(matches!(session.listen_state(), ListenState::Open { .. }));
    let flags = session.traffic().flags();
    assert!(flags.is_empty(), "{flags:?}");
    session.stop_listening().await.unwrap();
    assert_eq!(session.listen_state(), ListenState::Off);
    session.close().await;
}

#[tokio::test]
async fn listen_over_stdio() {
    let target = StdioTarget::new(bin_str("periscope-demo-server"), ["--eras", "dual"]);
    listen_end_to_end(Session::spawn_stdio(&target, options()).unwrap()).await;
}

#[tokio::test]
async fn listen_over_http() {
    // Bound, not dropped: the server lives to the end of the test.
    let (_server, target) = dual_http_demo();
    let session = Session::connect_http(&target, HttpMode::Auto, options(), None).unwrap();
    listen_end_to_end(session).await;
}

/// The HTTP server goes away: the stream is re-opened (with backoff) and, when it cannot be,
/// Periscope gives up and says so.
#[tokio::test]
async fn a_broken_stream_is_reopened_then_given_up() {
    let (mut server, target) = dual_http_demo();
    let session = Session::connect_http(&target, HttpMode::Auto, options(), None).unwrap();
    session.handshake().await.unwrap();
    let mut events = session.subscribe();
    session.listen(ListenFilter::list_changes()).await.unwrap();
    let _ = server.child.kill();
    let _ = server.child.wait();
    let mut states = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !matches!(states.last(), Some(ListenState::GaveUp { .. })) {
        let event = tokio::time::timeout_at(deadline, events.recv())
            .await
            .expect("gave up in time")
            .unwrap();
        if let Event::Listen(state) = event {
            states.push(state);
        }
    }
    assert!(
        states
            .iter()
            .any(|s| matches!(s, ListenState::Reopening { .. })),
        "{states:?}"
    );
    session.close().await;
}

/// A listen stream may be silent for as long as nothing changes: over HTTP it outlives the
/// request timeout (no idle limit, no re-opening), and still delivers afterwards.
#[tokio::test]
async fn a_silent_http_listen_stream_outlives_the_request_timeout() {
    // Bound, not dropped: the server lives to the end of the test.
    let (_server, target) = dual_http_demo();
    let options = SessionOptions {
        request_timeout: Duration::from_secs(1),
        ..options()
    };
    let session = Session::connect_http(&target, HttpMode::Auto, options, None).unwrap();
    session.handshake().await.unwrap();
    let mut events = session.subscribe();
    session.listen(ListenFilter::list_changes()).await.unwrap();
    let ListenState::Open { id, .. } = session.listen_state() else {
        panic!("not open: {:?}", session.listen_state())
    };
    // Three request timeouts of silence.
    tokio::time::sleep(Duration::from_secs(3)).await;
    match session.listen_state() {
        ListenState::Open { id: now, .. } => assert_eq!(now, id, "the same stream"),
        other => panic!("the stream did not stay open: {other:?}"),
    }
    let text = call(&session, "trigger_list_changed", json!({})).await;
    assert!(text.contains("sent to 1 listen stream(s)"), "{text}");
    notification(&mut events, |n| *n == ServerNotification::ToolsListChanged).await;
    while let Ok(event) = events.try_recv() {
        assert!(
            !matches!(event, Event::Listen(ListenState::Reopening { .. })),
            "the stream was re-opened: {event:?}"
        );
    }
    session.close().await;
}
