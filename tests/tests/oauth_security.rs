//! The sign-in's security rules, each against a server that breaks exactly that rule
//! (`hostile-oauth`, a raw-socket fixture that logs every request it gets and the
//! Authorization header it carried). The engine's OAuth client runs headless here: it fetches
//! the authorization URL itself and reads the redirect from `Location`.

use std::process::Command;
use std::sync::Arc;

use periscope_core::auth::{HeadlessBrowser, OAuthClient, OAuthConfig};
use periscope_core::config::HttpTarget;
use periscope_core::session::{Session, SessionOptions};
use periscope_core::transport::http::HttpMode;
use periscope_tests::{HttpServerProcess, bin, scratch_dir};

const TOKEN: &str = "hostile-access-token-1234567890";
const REFRESH: &str = "hostile-refresh-token-0987654321";

struct Run {
    result: Result<(), String>,
    /// "METHOD PATH AUTHORIZATION" lines, in order.
    log: Vec<String>,
    record: String,
}

async fn sign_in(mode: &str) -> Run {
    let dir = scratch_dir(&format!("oauth-{mode}"));
    let log = dir.join("requests.log");
    let record = dir.join("record.jsonl");
    let server = HttpServerProcess::start(
        Command::new(bin("hostile-oauth")).args([mode, log.to_str().unwrap()]),
    );
    let client = OAuthClient::new(
        OAuthConfig {
            server_url: server.url.clone(),
            client_name: "test".into(),
            ..OAuthConfig::default()
        },
        Arc::new(HeadlessBrowser::new("http://127.0.0.1:4000/callback")),
        None,
    );
    let options = SessionOptions {
        authorizer: Some(Arc::new(client)),
        ..SessionOptions::default()
    };
    let target = HttpTarget {
        url: server.url.clone(),
        ..HttpTarget::default()
    };
    let session =
        Session::connect_http(&target, HttpMode::Streamable, options, Some(&record)).unwrap();
    let result = async {
        session.initialize().await.map_err(|e| e.to_string())?;
        session.list_tools().await.map_err(|e| e.to_string())?;
        Ok(())
    }
    .await;
    session.close().await;
    Run {
        result,
        log: std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect(),
        record: std::fs::read_to_string(&record).unwrap_or_default(),
    }
}

fn reached(run: &Run, path: &str) -> bool {
    run.log.iter().any(|l| l.split(' ').nth(1) == Some(path))
}

#[tokio::test]
async fn a_correct_flow_signs_in_and_the_token_goes_only_to_the_mcp_server_and_never_into_the_record()
 {
    let run = sign_in("good").await;
    run.result.expect("signed in and listed tools");
    let bearer = format!("Bearer {TOKEN}");
    assert!(
        run.log
            .iter()
            .any(|l| l.starts_with("POST /mcp ") && l.ends_with(&bearer))
    );
    for line in &run.log {
        if !line.contains(" /mcp ") {
            assert!(!line.contains(TOKEN), "the token went elsewhere: {line}");
        }
    }
    assert!(!run.record.contains(TOKEN), "the record holds the token");
    assert!(
        !run.record.contains(REFRESH),
        "the record holds the refresh token"
    );
    assert!(
        !run.record.contains("hostile-code"),
        "the record holds the code"
    );
    assert!(
        run.record.contains("[redacted]"),
        "the Authorization header is recorded redacted"
    );
}

#[tokio::test]
async fn a_redirect_with_another_state_is_refused_and_the_code_never_redeemed() {
    let run = sign_in("wrong-state").await;
    let error = run.result.clone().unwrap_err();
    assert!(error.contains("state does not match"), "{error}");
    assert!(reached(&run, "/authorize"));
    assert!(
        !reached(&run, "/token"),
        "the code was redeemed: {:?}",
        run.log
    );
}

#[tokio::test]
async fn an_iss_of_another_issuer_is_refused_before_the_code_is_redeemed() {
    let run = sign_in("wrong-iss").await;
    let error = run.result.clone().unwrap_err();
    assert!(error.contains("iss"), "{error}");
    assert!(error.contains("mix-up"), "{error}");
    assert!(
        !reached(&run, "/token"),
        "the code was redeemed: {:?}",
        run.log
    );
}

#[tokio::test]
async fn resource_metadata_for_another_server_is_refused() {
    let run = sign_in("resource-mismatch").await;
    let error = run.result.clone().unwrap_err();
    assert!(error.contains("https://evil.example.com/mcp"), "{error}");
    assert!(!reached(&run, "/.well-known/oauth-authorization-server"));
    assert!(!reached(&run, "/authorize"));
}

#[tokio::test]
async fn a_plain_http_authorization_server_off_loopback_is_refused() {
    let run = sign_in("http-as").await;
    let error = run.result.clone().unwrap_err();
    assert!(
        error.contains("plain http is allowed only for loopback"),
        "{error}"
    );
}

#[tokio::test]
async fn a_redirect_to_another_port_or_path_is_refused() {
    for mode in ["redirect-elsewhere", "redirect-other-path"] {
        let run = sign_in(mode).await;
        let error = run.result.clone().unwrap_err();
        assert!(error.contains("refused a redirect"), "{mode}: {error}");
        assert!(!reached(&run, "/token"), "{mode}: the code was redeemed");
    }
}

#[tokio::test]
async fn an_authorization_server_without_s256_is_refused() {
    let run = sign_in("no-s256").await;
    let error = run.result.clone().unwrap_err();
    assert!(error.contains("S256"), "{error}");
    assert!(!reached(&run, "/authorize"));
}
