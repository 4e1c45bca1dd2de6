//! The engine's listen stream (`subscriptions/listen`, 2026-07-28) against servers nobody here
//! wrote: the official Python SDK (`mcp` 2.3.0) and TypeScript SDK v2
//! (`@modelcontextprotocol/server` 2.4.0), serving tests/interop's fixture over stdio and
//! Streamable HTTP. The fixture's `touch_note` changes the tool list; the notification must
//! arrive on the stream, tagged with the listen request's id, and reach the host as an event.

use std::time::Duration;

use periscope_core::config::{HttpMode, HttpTarget, StdioTarget};
use periscope_core::era::{Era, EraChoice};
use periscope_core::event::{Event, ServerNotification};
use periscope_core::session::{Session, SessionOptions};
use periscope_core::subscription::{ListenFilter, ListenState};
use periscope_core::wire::Direction;
use periscope_tests::HttpServerProcess;
use periscope_tests::modern::ModernSdk;
use serde_json::{Map, Value};

#[derive(Copy, Clone, Debug)]
enum Transport {
    Stdio,
    Http,
}

fn options() -> SessionOptions {
    SessionOptions {
        era: EraChoice::Modern,
        ..SessionOptions::default()
    }
}

/// A modern session with the fixture (and, over HTTP, the server process it talks to).
fn open(sdk: ModernSdk, transport: Transport) -> (Session, Option<HttpServerProcess>) {
    match transport {
        Transport::Stdio => {
            let argv = sdk.argv("stdio");
            let target = StdioTarget::new(argv[0].clone(), argv[1..].to_vec());
            (Session::spawn_stdio(&target, options()).unwrap(), None)
        }
        Transport::Http => {
            let server = HttpServerProcess::start(&mut sdk.command("http"));
            let target = HttpTarget {
                url: server.url.clone(),
                ..HttpTarget::default()
            };
            let session = Session::connect_http(&target, HttpMode::Auto, options(), None).unwrap();
            (session, Some(server))
        }
    }
}

/// The inbound frames of `method`, as JSON.
fn received(session: &Session, method: &str) -> Vec<Value> {
    session
        .traffic()
        .frames()
        .iter()
        .filter(|f| f.direction == Direction::In)
        .filter_map(|f| serde_json::from_slice::<Value>(&f.bytes).ok())
        .filter(|m| m["method"] == method)
        .collect()
}

async fn a_tool_list_change_arrives_tagged_on_the_listen_stream(
    sdk: ModernSdk,
    transport: Transport,
) {
    let (session, _server) = open(sdk, transport);
    assert_eq!(session.handshake().await.unwrap().era, Era::Modern);
    let mut events = session.subscribe();
    let acknowledged = tokio::time::timeout(
        Duration::from_secs(20),
        session.listen(ListenFilter::list_changes()),
    )
    .await
    .expect("the listen stream was acknowledged in time")
    .unwrap();
    assert!(acknowledged.tools_list_changed, "{acknowledged:?}");
    let ListenState::Open { id, .. } = session.listen_state() else {
        panic!("not open: {:?}", session.listen_state())
    };

    session
        .call_tool("touch_note", Map::new(), Default::default())
        .await
        .unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let event = tokio::time::timeout_at(deadline, events.recv())
            .await
            .expect("notifications/tools/list_changed came in time")
            .unwrap();
        if matches!(
            event,
            Event::Notification(n) if *n == ServerNotification::ToolsListChanged
        ) {
            break;
        }
    }
    let changes = received(&session, "notifications/tools/list_changed");
    assert!(!changes.is_empty());
    for change in &changes {
        assert_eq!(
            change["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            id.to_value(),
            "tagged with the listen request's id: {change}"
        );
    }
    assert!(
        session.traffic().flags().is_empty(),
        "{:?}",
        session.traffic().flags()
    );
    session.close().await;
}

macro_rules! per_sdk_and_transport {
    ($($name:ident: $sdk:expr, $transport:expr;)*) => {
        $(
            #[tokio::test]
            async fn $name() {
                a_tool_list_change_arrives_tagged_on_the_listen_stream($sdk, $transport).await
            }
        )*
    };
}

per_sdk_and_transport! {
    python_stdio_tool_list_change_arrives_tagged_on_the_listen_stream: ModernSdk::Python, Transport::Stdio;
    python_http_tool_list_change_arrives_tagged_on_the_listen_stream: ModernSdk::Python, Transport::Http;
    typescript_stdio_tool_list_change_arrives_tagged_on_the_listen_stream: ModernSdk::TypeScript, Transport::Stdio;
    typescript_http_tool_list_change_arrives_tagged_on_the_listen_stream: ModernSdk::TypeScript, Transport::Http;
}
