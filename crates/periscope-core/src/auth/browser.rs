//! How the authorization request reaches the user and the redirect comes back.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

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
    /// The sign-in is over, however it ended: stop waiting for redirects (a loopback listener
    /// closes). Not async, so that a guard's `Drop` can call it when a sign-in is cancelled.
    fn end(&self) {}
}

/// Calls [`Browser::end`] when dropped: a sign-in holds one from `redirect_uri` on, so the
/// listener closes on success, failure, timeout and cancellation alike.
pub(super) struct EndsSignIn<'a>(pub(super) &'a dyn Browser);

impl Drop for EndsSignIn<'_> {
    fn drop(&mut self) {
        self.0.end();
    }
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
/// the host's opener shows the prompt and opens the system browser. Any local program can
/// connect to it, so it serves connections side by side (one that never sends a request holds
/// up nothing), answers only the redirect that carries this sign-in's `state` and ignores
/// every other request (an error page, and it keeps waiting).
pub struct LoopbackBrowser {
    opener: Opener,
    wait: Duration,
    listener: Mutex<Option<TcpListener>>,
}

impl LoopbackBrowser {
    pub fn new(opener: Opener, wait: Duration) -> LoopbackBrowser {
        LoopbackBrowser {
            opener,
            wait,
            listener: Mutex::new(None),
        }
    }

    fn listener(&self) -> std::sync::MutexGuard<'_, Option<TcpListener>> {
        self.listener.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Connections served at once; more are closed unanswered (a browser needs one or two).
const MAX_CONNECTIONS: usize = 32;
/// How long a connection may take to send its request line and headers.
const REQUEST_WAIT: Duration = Duration::from_secs(5);
/// The most of a request read (the request line and headers; no body is expected).
const REQUEST_LIMIT: usize = 16 * 1024;

fn page(title: &str, text: &str) -> String {
    format!(
        "<!doctype html><meta charset=utf-8><title>Periscope</title><body style=\"font-family:system-ui;margin:3em\"><h1>{title}</h1><p>{text}</p>"
    )
}

async fn respond(stream: &mut TcpStream, status: &str, body: &str) {
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// Serves one connection: the redirect with `state` goes to `found`, anything else gets an
/// error page.
async fn answer(mut stream: TcpStream, state: String, found: mpsc::Sender<Vec<(String, String)>>) {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    let read_head = async {
        while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < REQUEST_LIMIT {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
    };
    if tokio::time::timeout(REQUEST_WAIT, read_head).await.is_err() {
        return;
    }
    let head = String::from_utf8_lossy(&buf);
    let target = head
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("GET "))
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or("");
    let url = match url::Url::parse(&format!("http://127.0.0.1{target}")) {
        Ok(url) if target.starts_with('/') && url.path() == "/callback" => url,
        _ => {
            let body = page(
                "Not found",
                "This address only takes Periscope's sign-in redirect.",
            );
            return respond(&mut stream, "404 Not Found", &body).await;
        }
    };
    let query: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    let get = |k: &str| {
        query
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    if get("state") != Some(state.as_str()) {
        let body = page(
            "Not this sign-in",
            "This redirect does not carry the state of the sign-in Periscope is waiting for, so it was ignored.",
        );
        return respond(&mut stream, "400 Bad Request", &body).await;
    }
    let body = if get("error").is_some() {
        page(
            "Sign-in refused",
            "The authorization server refused the sign-in. Go back to Periscope to see why.",
        )
    } else {
        page(
            "Signed in",
            "You can close this tab and go back to Periscope.",
        )
    };
    respond(&mut stream, "200 OK", &body).await;
    let _ = found.send(query).await;
}

#[async_trait]
impl Browser for LoopbackBrowser {
    async fn redirect_uri(&self) -> Result<String, String> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| format!("could not listen on 127.0.0.1 for the redirect: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        *self.listener() = Some(listener);
        Ok(format!("http://127.0.0.1:{port}/callback"))
    }

    async fn visit(&self, prompt: &AuthorizationPrompt) -> Result<Vec<(String, String)>, String> {
        let listener = self
            .listener()
            .take()
            .ok_or("no redirect listener: redirect_uri() first")?;
        let state = url::Url::parse(&prompt.url)
            .ok()
            .and_then(|u| {
                u.query_pairs()
                    .find(|(k, _)| k == "state")
                    .map(|(_, v)| v.into_owned())
            })
            .ok_or("the authorization URL carries no state")?;
        (self.opener)(prompt.clone()).await?;
        let (found_tx, mut found_rx) = mpsc::channel(1);
        // Dropped with this future (on return, timeout or cancellation): every connection
        // still being served is aborted, and the listener closes with it.
        let mut connections = JoinSet::new();
        let serve = async {
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let (stream, _) = accepted.map_err(|e| format!("the redirect listener failed: {e}"))?;
                        while connections.try_join_next().is_some() {}
                        if connections.len() < MAX_CONNECTIONS {
                            connections.spawn(answer(stream, state.clone(), found_tx.clone()));
                        }
                    }
                    Some(query) = found_rx.recv() => return Ok(query),
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

    fn end(&self) {
        self.listener().take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loopback browser whose opener does nothing (the test plays the browser), and the
    /// redirect URI it listens on.
    async fn listening(wait: Duration) -> (Arc<LoopbackBrowser>, String) {
        let opener: Opener = Arc::new(|_| Box::pin(async { Ok(()) }));
        let browser = Arc::new(LoopbackBrowser::new(opener, wait));
        let uri = browser.redirect_uri().await.unwrap();
        (browser, uri)
    }

    fn prompt(state: &str) -> AuthorizationPrompt {
        AuthorizationPrompt {
            auth_server_host: "as.example".into(),
            scopes: None,
            url: format!("https://as.example/authorize?state={state}&code_challenge=x"),
        }
    }

    /// Sends a GET and returns the status line.
    async fn get(uri: &str, path_and_query: &str) -> String {
        let addr = url::Url::parse(uri).unwrap();
        let mut stream = TcpStream::connect((addr.host_str().unwrap(), addr.port().unwrap()))
            .await
            .unwrap();
        stream
            .write_all(format!("GET {path_and_query} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        answer.lines().next().unwrap_or("").to_string()
    }

    #[tokio::test]
    async fn the_listener_ignores_other_requests_and_a_silent_connection_and_takes_the_redirect_with_the_state()
     {
        let (browser, uri) = listening(Duration::from_secs(30)).await;
        let visiting = {
            let browser = browser.clone();
            tokio::spawn(async move { browser.visit(&prompt("s3cret")).await })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        // A connection that never sends a request holds up nothing.
        let port = url::Url::parse(&uri).unwrap().port().unwrap();
        let _silent = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        assert!(get(&uri, "/callback?code=forged").await.contains("400"));
        assert!(
            get(&uri, "/callback?code=forged&state=other")
                .await
                .contains("400")
        );
        assert!(get(&uri, "/elsewhere").await.contains("404"));
        assert!(
            !visiting.is_finished(),
            "a request without the state ended the wait"
        );
        assert!(
            get(&uri, "/callback?code=real&state=s3cret")
                .await
                .contains("200")
        );
        let query = visiting.await.unwrap().unwrap();
        assert!(query.contains(&("code".into(), "real".into())));
    }

    #[tokio::test]
    async fn the_listener_closes_when_the_sign_in_ends_even_without_a_visit_or_on_timeout() {
        // A sign-in that failed before the browser step.
        let (browser, uri) = listening(Duration::from_secs(30)).await;
        let port = url::Url::parse(&uri).unwrap().port().unwrap();
        drop(EndsSignIn(browser.as_ref()));
        assert!(TcpStream::connect(("127.0.0.1", port)).await.is_err());
        // A visit that timed out.
        let (browser, uri) = listening(Duration::from_millis(200)).await;
        let port = url::Url::parse(&uri).unwrap().port().unwrap();
        let error = browser.visit(&prompt("s")).await.unwrap_err();
        assert!(error.contains("no redirect came back"), "{error}");
        assert!(TcpStream::connect(("127.0.0.1", port)).await.is_err());
        // A visit that was cancelled (its future dropped).
        let (browser, uri) = listening(Duration::from_secs(30)).await;
        let port = url::Url::parse(&uri).unwrap().port().unwrap();
        let cancelled = {
            let browser = browser.clone();
            tokio::spawn(async move { browser.visit(&prompt("s")).await })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancelled.abort();
        let _ = cancelled.await;
        assert!(TcpStream::connect(("127.0.0.1", port)).await.is_err());
    }
}
