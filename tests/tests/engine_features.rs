//! The engine's typed feature calls against the demo server: one page of a list at a time,
//! completion for template variables and prompt arguments, resource subscriptions.

use std::time::Duration;

use periscope_core::config::StdioTarget;
use periscope_core::event::{Event, ServerNotification};
use periscope_core::features::{CompletionRef, ListPage};
use periscope_core::session::{CallOptions, RequestError, Session, SessionOptions};
use periscope_tests::bin_str;
use serde_json::{Map, Value, json};

async fn demo() -> Session {
    let target = StdioTarget::new(bin_str("periscope-demo-server"), Vec::<String>::new());
    let session = Session::spawn_stdio(&target, SessionOptions::default()).unwrap();
    session.initialize().await.unwrap();
    session
}

fn uris(page: &ListPage) -> Vec<String> {
    page.items
        .iter()
        .map(|r| r["uri"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn list_page_walks_the_resources_ten_at_a_time_with_opaque_cursors() {
    let session = demo().await;
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = session
            .list_page("resources/list", "resources", cursor.as_deref())
            .await
            .unwrap();
        pages.push(uris(&page));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
        assert!(pages.len() < 10, "the demo pages end");
    }
    let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![10, 10, 7]);
    let all: Vec<String> = pages.concat();
    assert_eq!(all[0], "demo://text/1");
    assert_eq!(all[24], "demo://text/25");
    assert_eq!(all[25], "demo://blob/logo.png");
    assert_eq!(all[26], "ui://periscope-demo/calculator.html");
    // The same as following every cursor at once.
    let listed: Vec<Value> = session.list_resources().await.unwrap();
    assert_eq!(listed.len(), all.len());

    // The templates fit one page, with no cursor.
    let templates = session
        .list_page("resources/templates/list", "resourceTemplates", None)
        .await
        .unwrap();
    assert_eq!(templates.next_cursor, None);
    assert_eq!(
        templates.items[0]["uriTemplate"],
        "demo://items/{category}/{id}"
    );

    // A cursor the server never gave is the server's to refuse.
    let bad = session
        .list_page("resources/list", "resources", Some("not-a-cursor"))
        .await;
    assert!(matches!(bad, Err(RequestError::Rpc { .. })), "{bad:?}");
    // A wrong key is a protocol problem, named.
    let wrong = session
        .list_page("resources/list", "tools", None)
        .await
        .unwrap_err();
    assert!(wrong.to_string().contains("\"tools\""), "{wrong}");
}

#[tokio::test]
async fn complete_suggests_template_variables_and_prompt_arguments() {
    let session = demo().await;
    let template = CompletionRef::Resource {
        uri: "demo://items/{category}/{id}".into(),
    };
    let games = session
        .complete(&template, "category", "g", None)
        .await
        .unwrap();
    assert_eq!(games.values, vec!["games", "garden"]);
    assert_eq!(games.total, Some(2));
    assert!(!games.has_more);
    let everything = session
        .complete(&template, "category", "", None)
        .await
        .unwrap();
    assert_eq!(everything.values.len(), 5);

    let mut context = Map::new();
    context.insert("name".into(), json!("Ada"));
    let style = session
        .complete(
            &CompletionRef::Prompt {
                name: "greeting".into(),
            },
            "style",
            "P",
            Some(context),
        )
        .await
        .unwrap();
    assert_eq!(style.values, vec!["pirate"]);
    let none = session
        .complete(
            &CompletionRef::Prompt {
                name: "greeting".into(),
            },
            "name",
            "a",
            None,
        )
        .await
        .unwrap();
    assert!(none.values.is_empty());

    // The request as sent: ref, argument and context, by the spec's names.
    let sent = serde_json::to_value(CompletionRef::Prompt { name: "x".into() }).unwrap();
    assert_eq!(sent, json!({"type": "ref/prompt", "name": "x"}));
}

#[tokio::test]
async fn a_subscribed_resource_reports_updates_until_unsubscribed() {
    let session = demo().await;
    let mut events = session.subscribe();
    session.subscribe_resource("demo://text/7").await.unwrap();
    let touch = |uri: &str| {
        let mut args = Map::new();
        args.insert("uri".into(), json!(uri));
        session.call_tool("touch_resource", args, CallOptions::default())
    };
    touch("demo://text/7").await.unwrap();
    session.ping().await.unwrap();
    let updated = ServerNotification::ResourceUpdated {
        uri: "demo://text/7".into(),
    };
    let mut seen = 0;
    tokio::time::sleep(Duration::from_millis(100)).await;
    while let Ok(e) = events.try_recv() {
        if matches!(&e, Event::Notification(n) if **n == updated) {
            seen += 1;
        }
    }
    assert_eq!(seen, 1);

    session.unsubscribe_resource("demo://text/7").await.unwrap();
    touch("demo://text/7").await.unwrap();
    session.ping().await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    while let Ok(e) = events.try_recv() {
        assert!(
            !matches!(&e, Event::Notification(n) if **n == updated),
            "no update after unsubscribing"
        );
    }
    let unknown = session.subscribe_resource("demo://nope").await;
    assert!(unknown.is_err());
}
