//! End-to-end: the real app signs in to the demo server's OAuth mode. The app asks first (a
//! dialog naming the authorization server and the scopes), opens nothing before the click,
//! then "the browser" — this test, through the opener seam — follows the authorization URL and
//! delivers the redirect to the app's loopback listener. The app ends connected, lists tools,
//! and the OAuth view shows every step and the token, masked.

use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME, WAIT};
use periscope_tests::{HttpServerProcess, bin, http_get};

#[tokio::test(flavor = "multi_thread")]
async fn the_app_signs_in_to_the_protected_demo_server_and_shows_the_oauth_view() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let demo = HttpServerProcess::start(
        std::process::Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0", "--oauth"])
            .stderr(std::process::Stdio::null()),
    );
    let seeded = demo.url.clone();
    let mut h = Harness::start_with("oauth", move |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [
            {"id": "protected", "name": "Protected demo", "target": {"transport": "http", "url": seeded, "headers": [], "mode": "auto"}},
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;

    h.click(r#"[data-testid="server-item"][data-server-id="protected"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(r#"[data-testid="ask-dialog"][data-kind="sign_in"]"#)
        .await;
    let host = h.text(r#"[data-testid="sign-in-host"]"#).await;
    assert_eq!(host, "127.0.0.1");
    let scopes = h.text(r#"[data-testid="sign-in-scopes"]"#).await;
    assert!(
        scopes.contains("mcp:read") && scopes.contains("mcp:write"),
        "{scopes}"
    );
    h.shot("sign-in-asked").await;
    assert!(h.opened_urls().is_empty(), "nothing opens before the click");

    h.click(r#"[data-testid="sign-in-open"]"#).await;
    let deadline = Instant::now() + WAIT;
    let url = loop {
        if let Some(url) = h.opened_urls().into_iter().next() {
            break url;
        }
        assert!(Instant::now() < deadline, "the browser was never opened");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        url.starts_with(&demo.url.replace("/mcp", "/authorize?")),
        "{url}"
    );
    // Play the browser: the demo's authorization server approves at once and redirects to
    // the app's loopback listener.
    let (status, location, _) = tokio::task::spawn_blocking(move || http_get(&url))
        .await
        .unwrap();
    assert_eq!(status, 302);
    let location = location.unwrap();
    assert!(location.starts_with("http://127.0.0.1:"), "{location}");
    let (status, _, page) = tokio::task::spawn_blocking(move || http_get(&location))
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(page.contains("Signed in"));

    h.find(r#"[data-testid="server-item"][data-server-id="protected"][data-status="ready"]"#)
        .await;
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.find(r#"[data-testid="tool-item"][data-tool-name="add"]"#)
        .await;

    // The OAuth view: every step, the token masked, where it is kept.
    h.click(r#"[data-testid="tab-oauth"]"#).await;
    let token = h.text(r#"[data-testid="oauth-token"]"#).await;
    assert!(token.contains("mcp:read mcp:write"), "{token}");
    assert!(token.contains("dynamic registration"), "{token}");
    let masked = h.text(r#"[data-testid="oauth-token-value"]"#).await;
    assert!(masked.contains('…'), "masked: {masked}");
    let steps = h.count(r#"[data-testid="oauth-step"]"#).await;
    assert!(steps >= 8, "every step is listed ({steps})");
    assert_eq!(
        h.count(r#"[data-testid="oauth-step"][data-outcome="failed"]"#)
            .await,
        0
    );
    let store = h.find(r#"[data-testid="oauth-store"]"#).await;
    assert_eq!(
        store.attr("data-backend").await.unwrap().as_deref(),
        Some("file")
    );
    h.shot("oauth-view").await;

    // The real token is in the 0600 file, and nowhere on the page.
    let file = h.data.join("data/dev.periscope.app/credentials.json");
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let real = stored["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|e| e["access_token"].as_str())
        .unwrap()
        .to_string();
    let page = h.text("body").await;
    assert!(!page.contains(&real), "the token reached the screen");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    // Sign out: the tokens go, the connection ends.
    h.click(r#"[data-testid="oauth-sign-out"]"#).await;
    h.find(r#"[data-testid="oauth-no-token"]"#).await;
    h.find(
        r#"[data-testid="server-item"][data-server-id="protected"][data-status="disconnected"]"#,
    )
    .await;
    h.stop().await;
    drop(demo);
}
