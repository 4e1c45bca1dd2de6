//! The hostile-app fixture (`hostile-app-server`) itself, through the engine's session: it
//! opens like a legacy server, lists its two probe tools and the control's linked to their
//! `ui://` pages, and reads each page as an MCP App (only the control declaring a CSP). What the pages do in a sandbox is the end-to-end test's
//! business (`e2e_app_sandbox.rs`); this checks the fixture serves them.

use periscope_core::config::StdioTarget;
use periscope_core::era::{Era, EraChoice};
use periscope_core::session::{CallOptions, Session, SessionOptions};
use periscope_tests::{HOSTILE_APP_PROBES as PROBES, bin_str};
use serde_json::{Map, json};

const APP_MIME: &str = "text/html;profile=mcp-app";

async fn fixture() -> Session {
    let target = StdioTarget::new(bin_str("hostile-app-server"), Vec::<String>::new());
    let session = Session::spawn_stdio(
        &target,
        SessionOptions {
            era: EraChoice::Legacy,
            ..SessionOptions::default()
        },
    )
    .expect("the fixture starts");
    let identity = session.handshake().await.expect("the fixture initializes");
    assert_eq!(identity.era, Era::Legacy);
    session
}

#[tokio::test]
async fn the_hostile_app_fixture_serves_two_probe_pages_and_a_control_as_mcp_apps() {
    let session = fixture().await;
    let tools = session.list_tools().await.unwrap();
    let links: Vec<(&str, &str)> = tools
        .iter()
        .map(|tool| {
            (
                tool["name"].as_str().unwrap(),
                tool["_meta"]["ui"]["resourceUri"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        links,
        [
            ("probe_a", "ui://probe/a"),
            ("probe_b", "ui://probe/b"),
            ("probe_control", "ui://probe/control")
        ]
    );
    assert!(tools[0]["inputSchema"]["properties"]["tripwire"].is_object());

    let listed = session.list_resources().await.unwrap();
    assert_eq!(listed.len(), 3);
    assert!(
        listed.iter().all(|r| r["mimeType"] == APP_MIME),
        "{listed:?}"
    );

    let a = page(&session, "ui://probe/a").await;
    for probe in PROBES {
        assert!(a.contains(&format!("\"{probe}\"")), "page A lacks {probe}");
    }
    for needed in [
        "data-testid=\"probe-report\"",
        "ui/initialize",
        "ui/notifications/initialized",
        "notifications/message",
        "dataset.done",
    ] {
        assert!(a.contains(needed), "page A lacks {needed}");
    }
    let b = page(&session, "ui://probe/b").await;
    assert!(b.contains("storage_read") && b.contains("data-testid=\"probe-report\""));
    let control = page(&session, "ui://probe/control").await;
    assert!(control.contains("control_fetch") && control.contains("/control"));
    // The control alone may reach the loopback tripwire; A and B keep the host's default.
    let csp_of = |uri: &str| {
        listed.iter().find(|r| r["uri"] == uri).unwrap()["_meta"]["ui"]["csp"]["connectDomains"]
            .clone()
    };
    assert_eq!(csp_of("ui://probe/control"), json!(["http://127.0.0.1:*"]));
    assert!(csp_of("ui://probe/a").is_null() && csp_of("ui://probe/b").is_null());
    let read = session.read_resource("ui://probe/control").await.unwrap();
    assert_eq!(
        read["contents"][0]["_meta"]["ui"]["csp"]["connectDomains"],
        json!(["http://127.0.0.1:*"])
    );

    let called = session
        .call_tool("probe_a", Map::new(), CallOptions::default())
        .await
        .unwrap();
    assert_eq!(called["content"][0]["text"], "ui://probe/a runs its probes");
    let unknown = session
        .request(
            "resources/read",
            Some(json!({"uri": "ui://probe/c"})),
            CallOptions::default(),
        )
        .await;
    assert!(unknown.is_err(), "{unknown:?}");
}

async fn page(session: &Session, uri: &str) -> String {
    let read = session.read_resource(uri).await.unwrap();
    let contents = read["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 1);
    assert_eq!(contents[0]["uri"], uri);
    assert_eq!(contents[0]["mimeType"], APP_MIME);
    let html = contents[0]["text"].as_str().unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    html.to_string()
}
