//! The engine against an HTTP server that breaks the rules (`misbehaving-http`): each case
//! ends in a clear error or a flag, the record keeps what arrived, and the session goes on
//! where the case allows.

use std::process::Command;
use std::time::{Duration, Instant};

use periscope_core::config::HttpTarget;
use periscope_core::record::{Cut, Flag};
use periscope_core::session::{RequestError, Session, SessionOptions};
use periscope_core::transport::http::HttpMode;
use periscope_core::wire::{Direction, Verdict};
use periscope_tests::{HttpServerProcess, bin};

fn start(mode: &str) -> HttpServerProcess {
    HttpServerProcess::start(Command::new(bin("misbehaving-http")).arg(mode))
}

async fn session(server: &HttpServerProcess, timeout: Duration) -> Session {
    let options = SessionOptions {
        request_timeout: timeout,
        ..SessionOptions::default()
    };
    let target = HttpTarget {
        url: server.url.clone(),
        ..HttpTarget::default()
    };
    let session = Session::connect_http(&target, HttpMode::Streamable, options, None).unwrap();
    session.initialize().await.expect("the fixture initializes");
    session
}

fn transport_error(err: RequestError) -> String {
    match err {
        RequestError::Transport { reason, .. } => reason,
        other => panic!("expected a transport error, got {other:?}"),
    }
}

#[tokio::test]
async fn an_html_page_instead_of_json_is_recorded_and_named() {
    let server = start("html");
    let s = session(&server, Duration::from_secs(10)).await;
    let why = transport_error(s.list_tools().await.unwrap_err());
    assert!(why.contains("text/html"), "{why}");
    assert!(why.contains("not JSON"), "{why}");
    let page = s
        .traffic()
        .frames()
        .into_iter()
        .find(|f| matches!(f.verdict, Verdict::NotJson { .. }))
        .expect("the page is in the record");
    assert!(page.bytes.starts_with(b"<!doctype html>"));
    assert!(page.exchange.is_some(), "the frame names its exchange");
    s.ping().await.expect("the session goes on");
}

#[tokio::test]
async fn a_json_answer_with_the_wrong_content_type_works_and_is_flagged() {
    let server = start("wrong-content-type");
    let s = session(&server, Duration::from_secs(10)).await;
    assert_eq!(s.list_tools().await.unwrap().len(), 1);
    assert!(s.traffic().flags().iter().any(|f| matches!(
        &f.flag,
        Flag::UnexpectedContentType { content_type } if content_type == "text/plain"
    )));
}

#[tokio::test]
async fn malformed_sse_framing_ends_in_a_clear_error() {
    let server = start("malformed-sse");
    let s = session(&server, Duration::from_secs(10)).await;
    let why = transport_error(s.list_tools().await.unwrap_err());
    assert!(why.contains("event stream"), "{why}");
    s.ping().await.expect("the session goes on");
}

#[tokio::test]
async fn a_20_mb_sse_event_is_recorded_whole() {
    let server = start("huge-sse");
    let s = session(&server, Duration::from_secs(30)).await;
    let tools = s.list_tools().await.unwrap();
    assert_eq!(
        tools[0]["description"].as_str().unwrap().len(),
        20 * 1024 * 1024
    );
    let big = s
        .traffic()
        .frames()
        .into_iter()
        .max_by_key(|f| f.size())
        .unwrap();
    assert!(big.size() > 20 * 1024 * 1024);
}

#[tokio::test]
async fn a_500_is_an_error_quoting_the_body() {
    let server = start("error-500");
    let s = session(&server, Duration::from_secs(10)).await;
    let why = transport_error(s.list_tools().await.unwrap_err());
    assert!(why.contains("HTTP 500"), "{why}");
    assert!(why.contains("database is down"), "{why}");
    let exchanges = s.traffic().exchanges();
    assert_eq!(exchanges.last().unwrap().status, Some(500));
}

#[tokio::test]
async fn a_connection_cut_mid_stream_is_an_error_and_the_partial_event_is_kept_flagged_incomplete()
{
    let server = start("reset");
    let s = session(&server, Duration::from_secs(10)).await;
    let why = transport_error(s.list_tools().await.unwrap_err());
    assert!(why.contains("event stream"), "{why}");
    let inbound: Vec<_> = s
        .traffic()
        .frames()
        .into_iter()
        .filter(|f| f.direction == Direction::In)
        .collect();
    assert_eq!(
        inbound.len(),
        2,
        "the initialize response, then the cut event"
    );
    // Raw first: the bytes that came are kept, as what they are (not JSON), and flagged; no
    // response is made up from them.
    let cut = &inbound[1];
    assert!(
        matches!(cut.verdict, Verdict::NotJson { .. }),
        "{:?}",
        cut.verdict
    );
    assert_eq!(
        s.traffic().flags_of(cut.seq),
        [Flag::Incomplete {
            cut: Cut::StreamEnded
        }]
    );
    s.ping().await.expect("the session goes on");
}

#[tokio::test]
async fn an_endless_stream_times_out_and_cancels() {
    let server = start("endless");
    let s = session(&server, Duration::from_millis(700)).await;
    let err = s.list_tools().await.unwrap_err();
    assert!(matches!(err, RequestError::TimedOut { .. }), "{err}");
    assert!(s.traffic().frames().iter().any(|f| f.verdict
        == Verdict::Notification {
            method: "notifications/cancelled".into()
        }));
}

#[tokio::test]
async fn a_server_that_ignores_delete_does_not_hold_up_closing() {
    let server = start("ignore-delete");
    let s = session(&server, Duration::from_secs(10)).await;
    assert_eq!(s.list_tools().await.unwrap().len(), 1);
    let started = Instant::now();
    let report = s.close().await;
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "closing took {:?}",
        started.elapsed()
    );
    assert!(report.reason.contains("did not answer DELETE"), "{report}");
}

#[tokio::test]
async fn a_forgotten_session_is_replaced_by_a_new_handshake_and_the_call_goes_through() {
    let server = start("expire-session");
    let s = session(&server, Duration::from_secs(10)).await;
    let mut events = s.subscribe();
    assert_eq!(s.list_tools().await.unwrap().len(), 1);
    let initializes = s
        .traffic()
        .frames()
        .iter()
        .filter(|f| matches!(&f.verdict, Verdict::Request { method, .. } if method == "initialize"))
        .count();
    assert_eq!(initializes, 2, "a second handshake started the new session");
    let flagged = s
        .traffic()
        .flags()
        .into_iter()
        .find(|f| f.flag == Flag::SessionExpired)
        .expect("the 404 is flagged");
    let exchange = s
        .traffic()
        .exchanges()
        .into_iter()
        .find(|e| e.seq == flagged.seq)
        .unwrap();
    assert_eq!(exchange.status, Some(404));
    let mut warned = false;
    while let Ok(e) = events.try_recv() {
        warned |= matches!(
            e,
            periscope_core::event::Event::Warning(
                periscope_core::vocabulary::Problem::SessionRenewed { .. }
            )
        );
    }
    assert!(warned, "the user is told");
}
