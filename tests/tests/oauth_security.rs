//! The security rules of remote connections, each against a server that breaks exactly that
//! rule: the sign-in's against `hostile-oauth`, a raw-socket fixture that logs every request it
//! gets and the Authorization header it carried; the legacy transport's against
//! `misbehaving-http`. The engine's OAuth client runs headless here (it fetches the
//! authorization URL itself and reads the redirect from `Location`), except where the loopback
//! listener is the subject: there the test plays the browser.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use periscope_core::auth::browser::{AuthorizationPrompt, Opener};
use periscope_core::auth::{Browser, HeadlessBrowser, LoopbackBrowser, OAuthClient, OAuthConfig};
use periscope_core::config::HttpTarget;
use periscope_core::net_guard::{AddressClass, Refusal, UrlRole};
use periscope_core::record::Flag;
use periscope_core::session::{Session, SessionOptions};
use periscope_core::transport::http::HttpMode;
use periscope_tests::{HttpServerProcess, bin, http_get, scratch_dir};

const TOKEN: &str = "hostile-access-token-1234567890";
const REFRESH: &str = "hostile-refresh-token-0987654321";

struct Run {
    result: Result<(), String>,
    /// "METHOD PATH AUTHORIZATION" lines, in order.
    log: Vec<String>,
    record: String,
}

async fn sign_in(mode: &str) -> Run {
    sign_in_with(
        mode,
        Arc::new(HeadlessBrowser::new("http://127.0.0.1:4000/callback")),
    )
    .await
}

async fn sign_in_with(mode: &str, browser: Arc<dyn Browser>) -> Run {
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
        browser,
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

#[tokio::test]
async fn an_endless_metadata_answer_is_cut_at_the_limit_with_a_clear_error() {
    let run = sign_in("endless-metadata").await;
    let error = run.result.clone().unwrap_err();
    assert!(error.contains("bigger than 1024 KiB"), "{error}");
    assert!(!reached(&run, "/authorize"));
}

/// The flags in a record file that say a URL was refused: (role, refusal).
fn refusals(record: &str) -> Vec<(UrlRole, Refusal)> {
    record
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "flag")
        .filter_map(|v| serde_json::from_value::<Flag>(v["flag"].clone()).ok())
        .filter_map(|f| match f {
            Flag::UrlRefused { refused } => Some((refused.role, refused.refusal)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_resource_metadata_url_at_the_cloud_metadata_service_is_refused_before_any_fetch() {
    let run = sign_in("metadata-ssrf").await;
    let error = run.result.clone().unwrap_err();
    assert!(
        error.contains("refusing the protected resource metadata URL https://169.254.169.254/"),
        "{error}"
    );
    assert!(error.contains("a cloud metadata service"), "{error}");
    // Refused outright: no fallback to the well-known locations, no sign-in.
    assert!(!reached(&run, "/.well-known/oauth-protected-resource/mcp"));
    assert!(!reached(&run, "/authorize"));
    assert_eq!(
        refusals(&run.record),
        vec![(
            UrlRole::ResourceMetadata,
            Refusal::Address {
                host: "169.254.169.254".into(),
                address: None,
                class: AddressClass::MetadataService,
            }
        )],
        "the record flags the refusal"
    );
}

#[tokio::test]
async fn authorization_server_metadata_for_another_issuer_is_refused() {
    let run = sign_in("issuer-mismatch").await;
    let error = run.result.clone().unwrap_err();
    assert!(error.contains("\"https://evil.example\""), "{error}");
    assert!(error.contains("RFC 8414"), "{error}");
    assert!(reached(&run, "/.well-known/oauth-authorization-server"));
    assert!(!reached(&run, "/register"), "went on with the metadata");
    assert!(!reached(&run, "/authorize"), "went on with the metadata");
    let flagged = refusals(&run.record);
    assert!(
        matches!(
            flagged.as_slice(),
            [(UrlRole::AuthorizationServerMetadata, Refusal::IssuerMismatch { document: Some(d), .. })] if d == "https://evil.example"
        ),
        "{flagged:?}"
    );
}

/// Plays the user's browser for a [`LoopbackBrowser`]: first a request to the listener without
/// the sign-in's state (a forged redirect from another local program, which must be ignored),
/// then the real round trip through the authorization endpoint. Returns what the forged
/// request got.
fn browser_with_a_forged_redirect_first()
-> (Arc<LoopbackBrowser>, Arc<std::sync::Mutex<Option<u16>>>) {
    let forged_status = Arc::new(std::sync::Mutex::new(None));
    let seen = forged_status.clone();
    let opener: Opener = Arc::new(move |prompt: AuthorizationPrompt| {
        let seen = seen.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let url = url_query(&prompt.url, "redirect_uri").expect("a redirect_uri");
                let (status, _, _) = http_get(&format!("{url}?code=forged-code"));
                *seen.lock().unwrap() = Some(status);
                let (_, location, _) = http_get(&prompt.url);
                http_get(&location.expect("the authorization endpoint redirects"));
            });
            Ok(())
        })
    });
    (
        Arc::new(LoopbackBrowser::new(opener, Duration::from_secs(30))),
        forged_status,
    )
}

fn url_query(url: &str, key: &str) -> Option<String> {
    let (_, query) = url.split_once('?')?;
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then(|| v.replace("%3A", ":").replace("%2F", "/"))
    })
}

#[tokio::test]
async fn the_redirect_listener_ignores_a_request_without_the_state_and_signs_in_with_the_real_one()
{
    let (browser, forged) = browser_with_a_forged_redirect_first();
    let run = sign_in_with("good", browser).await;
    run.result.expect("signed in with the real redirect");
    assert_eq!(
        *forged.lock().unwrap(),
        Some(400),
        "the state-less request got an error page"
    );
    let tokens = run
        .log
        .iter()
        .filter(|l| l.starts_with("POST /token "))
        .count();
    assert_eq!(tokens, 1, "only the real code was redeemed: {:?}", run.log);
}

#[tokio::test]
async fn a_legacy_endpoint_on_another_origin_is_refused_and_gets_nothing_not_even_the_api_key() {
    let elsewhere = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    elsewhere.set_nonblocking(true).unwrap();
    let other = format!("http://{}/messages", elsewhere.local_addr().unwrap());
    let server = HttpServerProcess::start(
        Command::new(bin("misbehaving-http")).args(["legacy-elsewhere", &other]),
    );
    let target = HttpTarget {
        url: server.url.clone(),
        headers: vec![("X-Api-Key".into(), "api-key-for-the-server".into())],
        ..HttpTarget::default()
    };
    let session = Session::connect_http(
        &target,
        HttpMode::LegacySse,
        SessionOptions::default(),
        None,
    )
    .unwrap();
    let error = session.initialize().await.unwrap_err().to_string();
    assert!(
        error.contains(&format!("refusing the legacy HTTP+SSE endpoint {other}")),
        "{error}"
    );
    assert!(
        error.contains("another origin (http://127.0.0.1:"),
        "{error}"
    );
    let flags = session.traffic().flags();
    assert!(
        flags.iter().any(|f| matches!(
            &f.flag,
            Flag::UrlRefused { refused } if refused.role == UrlRole::LegacyEndpoint
        )),
        "{flags:?}"
    );
    let posts: Vec<_> = session
        .traffic()
        .exchanges()
        .iter()
        .filter(|e| e.method == "POST")
        .map(|e| e.url.clone())
        .collect();
    assert!(posts.is_empty(), "a request was sent: {posts:?}");
    session.close().await;
    assert!(
        matches!(elsewhere.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "the other origin was contacted"
    );
}
