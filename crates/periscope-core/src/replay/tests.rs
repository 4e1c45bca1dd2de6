use serde_json::json;

use super::*;
use crate::export::tests::frame;
use crate::session::test_support::sh_session;
use crate::wire::Direction;

fn recording() -> Recording {
    let lines = [
        (
            Direction::Out,
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        ),
        (
            Direction::In,
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}"#,
        ),
        (
            Direction::Out,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        (
            Direction::Out,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}}"#,
        ),
        (
            Direction::In,
            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"a"}],"at":1}}"#,
        ),
        (
            Direction::Out,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"b"}}}"#,
        ),
        (
            Direction::In,
            r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"b"}],"at":2}}"#,
        ),
        (
            Direction::Out,
            r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
        ),
    ];
    Recording {
        frames: lines
            .iter()
            .enumerate()
            .map(|(i, (d, t))| frame(i as u64 + 1, *d, t, None))
            .collect(),
        ..Recording::default()
    }
}

#[test]
fn the_plan_skips_the_handshake_and_pairs_each_request_with_its_recorded_response() {
    let (planned, skipped) = plan(&recording());
    let methods: Vec<&str> = planned.iter().map(|p| p.method.as_str()).collect();
    assert_eq!(
        methods,
        [
            "tools/call",
            "tools/call",
            "notifications/roots/list_changed"
        ]
    );
    assert_eq!(
        planned[0].recorded_response.as_ref().unwrap()["result"]["at"],
        1
    );
    assert!(planned[2].recorded_response.is_none());
    let reasons: Vec<SkipReason> = skipped.iter().map(|s| s.reason).collect();
    assert_eq!(reasons, [SkipReason::Handshake, SkipReason::Handshake]);
    let sent: Value = serde_json::from_slice(&planned[0].bytes_with_id("replay-1")).unwrap();
    assert_eq!(sent["id"], "replay-1");
    assert_eq!(sent["params"]["arguments"]["text"], "a");
}

#[test]
fn comparing_leaves_out_the_id_and_the_ignored_members() {
    let recorded =
        json!({"jsonrpc": "2.0", "id": 2, "result": {"at": 1, "items": [{"t": 1, "x": "a"}]}});
    let live = json!({"jsonrpc": "2.0", "id": "replay-1", "result": {"at": 9, "items": [{"t": 5, "x": "a"}]}});
    assert_eq!(
        compare(
            &recorded,
            &live,
            &["/result/at".into(), "/result/items/*/t".into()]
        ),
        ReplayOutcome::Same
    );
    let ReplayOutcome::Differs { changes } = compare(&recorded, &live, &[]) else {
        panic!("the same without ignoring")
    };
    let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["/result/at", "/result/items/0/t"]);
}

/// A live server (a shell script) that answers the first call as recorded and the second
/// differently; the notification needs no answer.
#[tokio::test]
async fn a_replay_against_a_live_session_reports_same_differs_and_sent() {
    let session = sh_session(
        r#"read a; printf '%s\n' '{"jsonrpc":"2.0","id":"replay-1","result":{"content":[{"type":"text","text":"a"}],"at":7}}'
read b; printf '%s\n' '{"jsonrpc":"2.0","id":"replay-2","result":{"content":[{"type":"text","text":"B!"}],"at":8}}'
cat >/dev/null"#,
    );
    let options = ReplayOptions {
        wait: Duration::from_secs(5),
        ignore: vec!["/result/at".into()],
    };
    let report = replay(&session, &recording(), &options).await;
    let outcomes: Vec<&ReplayOutcome> = report.steps.iter().map(|s| &s.outcome).collect();
    assert_eq!(outcomes[0], &ReplayOutcome::Same);
    let ReplayOutcome::Differs { changes } = outcomes[1] else {
        panic!("{outcomes:?}")
    };
    assert_eq!(changes[0].path, "/result/content/0/text");
    assert_eq!(changes[0].before, Some(json!("b")));
    assert_eq!(changes[0].after, Some(json!("B!")));
    assert_eq!(outcomes[2], &ReplayOutcome::Sent);
    assert!(!report.is_same());
    assert_eq!(report.counts(), (2, 1, 0));
    assert_eq!(report.skipped.len(), 2);
    let text = to_text(&report);
    assert!(
        text.contains(r#"/result/content/0/text: "b" → "B!""#),
        "{text}"
    );
    assert!(
        text.contains("skipped #1 initialize: the handshake"),
        "{text}"
    );
    // Every replayed message is in the live session's record.
    assert!(report.steps.iter().all(|s| s.live_seq.is_some()));
    session.close().await;
}
