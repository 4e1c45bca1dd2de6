//! How the authorization request reaches the user and the redirect comes back.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the user is asked to approve before the browser opens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AuthorizationPrompt {
    /// The authorization server's host, as the user should check it.
    pub auth_server_host: String,
    /// The scopes asked, space-separated; None when none are asked.
    pub scopes: Option<String>,
    /// The full authorization URL that will open.
    pub url: String,
}

/// Sends the user to the authorization URL and brings back the redirect's query.
#[async_trait]
pub trait Browser: Send + Sync {
    /// Gets ready to receive the redirect (a loopback listener binds here); returns the
    /// redirect URI to register and send.
    async fn redirect_uri(&self) -> Result<String, String>;
    /// Sends the user to `prompt.url` and waits for the redirect; returns its query pairs.
    async fn visit(&self, prompt: &AuthorizationPrompt) -> Result<Vec<(String, String)>, String>;
}

fn same_endpoint(a: &url::Url, b: &url::Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
        && a.path() == b.path()
}

/// For the conformance suite and tests: fetches the authorization URL without following
/// redirects and reads the code from `Location`, which must point at the redirect URI (same
/// scheme, host, port and path) or the redirect is refused.
pub struct HeadlessBrowser {
    redirect_uri: String,
    client: reqwest::Client,
}

impl HeadlessBrowser {
    pub fn new(redirect_uri: impl Into<String>) -> HeadlessBrowser {
        HeadlessBrowser {
            redirect_uri: redirect_uri.into(),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(30))
                .build()
                .expect("an HTTP client builds"),
        }
    }
}

#[async_trait]
impl Browser for HeadlessBrowser {
    async fn redirect_uri(&self) -> Result<String, String> {
        Ok(self.redirect_uri.clone())
    }

    async fn visit(&self, prompt: &AuthorizationPrompt) -> Result<Vec<(String, String)>, String> {
        let response = self
            .client
            .get(&prompt.url)
            .send()
            .await
            .map_err(|e| format!("GET of the authorization URL failed: {e}"))?;
        let status = response.status();
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| {
                format!("the authorization endpoint answered HTTP {status} without a redirect")
            })?;
        let base = url::Url::parse(&prompt.url).map_err(|e| e.to_string())?;
        let target = base
            .join(location)
            .map_err(|e| format!("the redirect is not a URL: {e}"))?;
        let expected = url::Url::parse(&self.redirect_uri).map_err(|e| e.to_string())?;
        if !same_endpoint(&target, &expected) {
            return Err(format!(
                "refused a redirect to {}://{}{}: it is not the redirect URI this sign-in registered",
                target.scheme(),
                target.host_str().unwrap_or(""),
                target
                    .port()
                    .map(|p| format!(":{p}{}", target.path()))
                    .unwrap_or_else(|| target.path().to_string()),
            ));
        }
        Ok(target.query_pairs().into_owned().collect())
    }
}

/// Opens the URL after the host's consent (a dialog, or a printed line for the CLI).
pub type Opener =
    Arc<dyn Fn(AuthorizationPrompt) -> BoxFuture<'static, Result<(), String>> + Send + Sync>;

/// For people: a listener on `127.0.0.1` with a random port, alive only during one sign-in;
/// the host's opener shows the prompt and opens the system browser.
pub struct LoopbackBrowser {
    opener: Opener,
    wait: Duration,
    listener: tokio::sync::Mutex<Option<TcpListener>>,
    uri: Mutex<Option<String>>,
}

impl LoopbackBrowser {
    pub fn new(opener: Opener, wait: Duration) -> LoopbackBrowser {
        LoopbackBrowser {
            opener,
            wait,
            listener: tokio::sync::Mutex::new(None),
            uri: Mutex::new(None),
        }
    }
}

const PAGE_DONE: &str = "<!doctype html><meta charset=utf-8><title>Periscope</title><body style=\"font-family:system-ui;margin:3em\"><h1>Signed in</h1><p>You can close this tab and go back to Periscope.</p>";

#[async_trait]
impl Browser for LoopbackBrowser {
    async fn redirect_uri(&self) -> Result<String, String> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| format!("could not listen on 127.0.0.1 for the redirect: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let uri = format!("http://127.0.0.1:{port}/callback");
        *self.listener.lock().await = Some(listener);
        *self.uri.lock().unwrap_or_else(|p| p.into_inner()) = Some(uri.clone());
        Ok(uri)
    }

    async fn visit(&self, prompt: &AuthorizationPrompt) -> Result<Vec<(String, String)>, String> {
        let listener = self
            .listener
            .lock()
            .await
            .take()
            .ok_or("no redirect listener: redirect_uri() first")?;
        (self.opener)(prompt.clone()).await?;
        let serve = async {
            loop {
                let (mut stream, _) = listener.accept().await.map_err(|e| e.to_string())?;
                let mut buf = Vec::with_capacity(1024);
                let mut chunk = [0u8; 1024];
                // The request line and headers; a body is not expected.
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 16 * 1024 {
                    match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk))
                        .await
                    {
                        Ok(Ok(0)) | Err(_) | Ok(Err(_)) => break,
                        Ok(Ok(n)) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&buf);
                let target = head
                    .lines()
                    .next()
                    .and_then(|line| line.strip_prefix("GET "))
                    .and_then(|rest| rest.split(' ').next())
                    .unwrap_or("");
                let parsed = url::Url::parse(&format!("http://127.0.0.1{target}")).ok();
                match parsed {
                    Some(url) if url.path() == "/callback" => {
                        let response = format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{PAGE_DONE}",
                            PAGE_DONE.len()
                        );
                        let _ = stream.write_all(response.as_bytes()).await;
                        return Ok(url.query_pairs().into_owned().collect());
                    }
                    _ => {
                        let _ = stream
                            .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                            .await;
                    }
                }
            }
        };
        tokio::time::timeout(self.wait, serve).await.map_err(|_| {
            format!(
                "no redirect came back within {} s (was the sign-in finished in the browser?)",
                self.wait.as_secs()
            )
        })?
    }
}
