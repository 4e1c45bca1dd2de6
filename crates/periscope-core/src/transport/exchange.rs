//! What both HTTP transports share: one server's HTTP connection (client, target, session id,
//! negotiated version, bearer token), one way to send a request and record the exchange, and
//! one way to record and hand on a frame that came back.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, Response};
use tokio::sync::mpsc;

use super::Inbound;
use crate::config::HttpTarget;
use crate::limits::{Limits, human_duration};
use crate::record::{Cut, Flag, HttpExchange};
use crate::redact;
use crate::traffic::{Traffic, wall_now_us};
use crate::wire::{Direction, Verdict};

pub(super) struct HttpConnection {
    client: reqwest::Client,
    pub(super) target: HttpTarget,
    pub(super) traffic: Arc<Traffic>,
    pub(super) inbound: mpsc::Sender<Inbound>,
    /// `Mcp-Session-Id` as the server gave it (Streamable HTTP).
    pub(super) session_id: Mutex<Option<String>>,
    /// Sent as `MCP-Protocol-Version` once negotiated (Streamable HTTP), or from the first
    /// request on in the modern era.
    pub(super) protocol_version: Mutex<Option<String>>,
    /// The modern era's wire (2026-07-28): no session, no standalone stream, no resumption.
    pub(super) modern: std::sync::atomic::AtomicBool,
    /// The OAuth access token for this server, if signed in.
    pub(super) bearer: Mutex<Option<String>>,
    /// How the token goes on each request (bearer, or DPoP with a proof per request); None:
    /// as a bearer token.
    pub(super) presenter: Mutex<Option<Arc<dyn crate::auth::Authorizer>>>,
    pub(super) limits: Limits,
}

/// Why an HTTP request got no response.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ExchangeError {
    /// It failed (refused, reset, TLS, …); the text says how, `tls` why when it was the
    /// handshake.
    Failed {
        text: String,
        tls: Option<super::failure::TlsProblem>,
    },
    /// No response headers within this time.
    NoHeaders(Duration),
}

impl fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExchangeError::Failed { text, .. } => f.write_str(text),
            ExchangeError::NoHeaders(waited) => {
                write!(f, "no response headers within {}", human_duration(*waited))
            }
        }
    }
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Request headers from fixed names and values.
pub(super) fn headers_of(pairs: &[(HeaderName, &'static str)]) -> HeaderMap {
    pairs
        .iter()
        .map(|(name, value)| (name.clone(), HeaderValue::from_static(value)))
        .collect()
}

impl HttpConnection {
    pub(super) fn new(
        client: reqwest::Client,
        target: HttpTarget,
        traffic: Arc<Traffic>,
        inbound: mpsc::Sender<Inbound>,
        limits: Limits,
    ) -> HttpConnection {
        HttpConnection {
            client,
            target,
            traffic,
            inbound,
            session_id: Mutex::new(None),
            protocol_version: Mutex::new(None),
            modern: Default::default(),
            bearer: Mutex::new(None),
            presenter: Mutex::new(None),
            limits,
        }
    }

    fn headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in &self.target.headers {
            if let (Ok(n), Ok(v)) = (
                reqwest::header::HeaderName::from_bytes(name.as_bytes()),
                reqwest::header::HeaderValue::from_str(value),
            ) {
                headers.insert(n, v);
            }
        }
        if let Some(id) = lock(&self.session_id).as_deref()
            && let Ok(v) = id.parse()
        {
            headers.insert("mcp-session-id", v);
        }
        if let Some(version) = lock(&self.protocol_version).as_deref()
            && let Ok(v) = version.parse()
        {
            headers.insert("mcp-protocol-version", v);
        }
        headers
    }

    /// The headers that carry the token on a request with `method` to `url` (only ever this
    /// server's URL; the record shows them redacted): made per request, as a DPoP proof is.
    fn token_headers(&self, method: &Method, url: &str) -> HeaderMap {
        let Some(token) = lock(&self.bearer).clone() else {
            return HeaderMap::new();
        };
        let presenter = lock(&self.presenter).clone();
        let pairs = match presenter {
            Some(p) => p.present(&token, method.as_str(), url),
            None => vec![crate::auth::bearer(&token)],
        };
        pairs
            .into_iter()
            .filter_map(|(name, value)| {
                Some((
                    HeaderName::from_bytes(name.as_bytes()).ok()?,
                    HeaderValue::from_str(&value).ok()?,
                ))
            })
            .collect()
    }

    /// Sends one HTTP request (to `url`, default the target's) and records the exchange once
    /// the response headers are in, or once `patience` has run out without them.
    pub(super) async fn exchange(
        &self,
        method: Method,
        extra: HeaderMap,
        body: Option<Vec<u8>>,
        sent_frame: Option<u64>,
        url: Option<&str>,
        patience: Duration,
    ) -> (u64, Result<Response, ExchangeError>) {
        let url = url.unwrap_or(&self.target.url).to_string();
        let seq = self.traffic.reserve_seq();
        let mut headers = self.headers();
        // A token, and the static headers configured for the server (API keys), are for that
        // server: never sent to another origin (e.g. a legacy endpoint or a resumption URL
        // elsewhere).
        let same_origin = |a: &str, b: &str| match (reqwest::Url::parse(a), reqwest::Url::parse(b))
        {
            (Ok(a), Ok(b)) => a.origin() == b.origin(),
            _ => false,
        };
        if same_origin(&url, &self.target.url) {
            headers.extend(self.token_headers(&method, &url));
        } else {
            for (name, _) in &self.target.headers {
                headers.remove(name.as_str());
            }
        }
        headers.extend(extra);
        let mut request = self
            .client
            .request(method.clone(), &url)
            .headers(headers.clone());
        if let Some(body) = body {
            request = request.body(body);
        }
        let wall_us = wall_now_us();
        let mono_us = self.traffic.mono_now_us();
        let started = Instant::now();
        let result = match tokio::time::timeout(patience, request.send()).await {
            Ok(Ok(response)) => {
                // RFC 9449 §8, §9: any response may hand out the nonce for the next proof.
                if let Some(nonce) = response
                    .headers()
                    .get("dpop-nonce")
                    .and_then(|v| v.to_str().ok())
                    && let Some(p) = lock(&self.presenter).clone()
                {
                    p.remember_dpop_nonce(&url, nonce);
                }
                Ok(response)
            }
            Ok(Err(e)) => Err(ExchangeError::Failed {
                text: describe(&e),
                tls: super::failure::tls_problem(&e),
            }),
            Err(_) => Err(ExchangeError::NoHeaders(patience)),
        };
        let header_pairs = |h: &HeaderMap| {
            let pairs: Vec<(&str, &str)> = h
                .iter()
                .map(|(k, v)| (k.as_str(), v.to_str().unwrap_or("(not text)")))
                .collect();
            redact::headers(pairs, &self.target.secret_header_values())
        };
        let (status, error, response_headers) = match &result {
            Ok(r) => (Some(r.status().as_u16()), None, header_pairs(r.headers())),
            Err(e) => (None, Some(e.to_string()), Vec::new()),
        };
        self.traffic.append_http_reserved(HttpExchange {
            seq,
            wall_us,
            mono_us,
            method: method.to_string(),
            url: redact::url(&url),
            status,
            error: error.clone(),
            request_headers: header_pairs(&headers),
            response_headers,
            duration_us: started.elapsed().as_micros() as u64,
            sent_frame,
        });
        (seq, result)
    }

    /// Records a frame that came back on `exchange` and hands it on. `truncated_from`: its
    /// full size when the reader kept only part of it; `cut`: why it is incomplete, if it is.
    pub(super) async fn deliver(
        &self,
        bytes: Vec<u8>,
        truncated_from: Option<u64>,
        cut: Option<Cut>,
        exchange: u64,
    ) -> (u64, Verdict) {
        let (bytes, truncated) = match truncated_from {
            Some(total) => (bytes, Some(total)),
            None if bytes.len() > self.limits.max_frame_bytes => {
                let total = bytes.len() as u64;
                (bytes[..self.limits.max_frame_bytes].to_vec(), Some(total))
            }
            None => (bytes, None),
        };
        let frame = self
            .traffic
            .append_frame_via(Direction::In, bytes, truncated, Some(exchange));
        if let Some(cut) = cut {
            self.traffic.flag(frame.seq, Flag::Incomplete { cut });
        }
        let verdict = frame.verdict.clone();
        let seq = frame.seq;
        let _ = self.inbound.send(Inbound::Frame(frame)).await;
        (seq, verdict)
    }
}

pub(super) fn describe(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    // reqwest names the URL, whose query may hold a key.
    redact::urls_in_text(&text)
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// Accepts one request on `listener` and returns its head, lowercased.
    async fn request_head(listener: tokio::net::TcpListener) -> String {
        let (mut stream, _) = listener.accept().await.unwrap();
        let mut buf = vec![0; 8192];
        let mut head = Vec::new();
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            head.extend_from_slice(&buf[..n]);
        }
        let _ = stream
            .write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
            .await;
        String::from_utf8_lossy(&head).to_ascii_lowercase()
    }

    /// Two listeners (the server's origin and another) and a connection to the first.
    struct TwoOrigins {
        server: tokio::net::TcpListener,
        elsewhere: tokio::net::TcpListener,
        server_url: String,
        other_url: String,
        connection: HttpConnection,
        _inbound: mpsc::Receiver<Inbound>,
    }

    async fn two_origins(headers: Vec<(String, String)>) -> TwoOrigins {
        let server = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let elsewhere = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server_url = format!("http://{}/mcp", server.local_addr().unwrap());
        let other_url = format!("http://{}/messages", elsewhere.local_addr().unwrap());
        let (events, _) = tokio::sync::broadcast::channel(16);
        let (inbound, _inbound) = mpsc::channel(16);
        let connection = HttpConnection::new(
            reqwest::Client::new(),
            HttpTarget {
                url: server_url.clone(),
                headers,
                ..HttpTarget::default()
            },
            Arc::new(Traffic::new(events)),
            inbound,
            Limits::default(),
        );
        TwoOrigins {
            server,
            elsewhere,
            server_url,
            other_url,
            connection,
            _inbound,
        }
    }

    #[tokio::test]
    async fn static_headers_and_the_token_go_to_the_server_origin_only() {
        let TwoOrigins {
            server,
            elsewhere,
            server_url: _,
            other_url,
            connection,
            _inbound,
        } = two_origins(vec![("X-Api-Key".into(), "key-for-the-server".into())]).await;
        *lock(&connection.bearer) = Some("token-for-the-server".into());
        let at_server = tokio::spawn(request_head(server));
        let at_other = tokio::spawn(request_head(elsewhere));
        let accept = headers_of(&[(reqwest::header::ACCEPT, "application/json")]);
        let (_, sent) = connection
            .exchange(
                Method::GET,
                accept.clone(),
                None,
                None,
                None,
                Duration::from_secs(5),
            )
            .await;
        sent.unwrap();
        let (_, sent) = connection
            .exchange(
                Method::GET,
                accept,
                None,
                None,
                Some(&other_url),
                Duration::from_secs(5),
            )
            .await;
        sent.unwrap();
        let at_server = at_server.await.unwrap();
        let at_other = at_other.await.unwrap();
        assert!(
            at_server.contains("x-api-key: key-for-the-server"),
            "{at_server}"
        );
        assert!(at_server.contains("authorization: bearer"), "{at_server}");
        assert!(!at_other.contains("key-for-the-server"), "{at_other}");
        assert!(!at_other.contains("authorization"), "{at_other}");
        assert!(at_other.contains("accept: application/json"), "{at_other}");
    }

    /// Presents tokens as DPoP does: a header made for each request's method and URL.
    struct PerRequest(Mutex<Vec<String>>);

    #[async_trait::async_trait]
    impl crate::auth::Authorizer for PerRequest {
        async fn current(&self) -> Option<String> {
            None
        }
        async fn authorize(
            &self,
            _: &crate::auth::Challenge,
        ) -> Result<String, crate::auth::SignInError> {
            Err("no".into())
        }
        fn present(&self, token: &str, method: &str, url: &str) -> Vec<(String, String)> {
            vec![
                ("authorization".into(), format!("DPoP {token}")),
                ("dpop".into(), format!("proof-for-{method}-{url}")),
            ]
        }
        fn remember_dpop_nonce(&self, _url: &str, nonce: &str) {
            lock(&self.0).push(nonce.to_string());
        }
    }

    #[tokio::test]
    async fn a_presenter_makes_the_token_headers_of_each_request_to_the_server_only() {
        let TwoOrigins {
            server,
            elsewhere,
            server_url,
            other_url,
            connection,
            _inbound,
        } = two_origins(Vec::new()).await;
        let presenter = Arc::new(PerRequest(Mutex::new(Vec::new())));
        *lock(&connection.presenter) = Some(presenter.clone());
        *lock(&connection.bearer) = Some("tok".into());
        let at_server = tokio::spawn(async move {
            let (mut stream, _) = server.accept().await.unwrap();
            let mut buf = vec![0; 8192];
            let n = stream.read(&mut buf).await.unwrap();
            let _ = stream
                .write_all(
                    b"HTTP/1.1 204 No Content\r\ndpop-nonce: n-1\r\nconnection: close\r\n\r\n",
                )
                .await;
            String::from_utf8_lossy(&buf[..n]).to_ascii_lowercase()
        });
        let at_other = tokio::spawn(request_head(elsewhere));
        for url in [None, Some(other_url.as_str())] {
            let (_, sent) = connection
                .exchange(
                    Method::POST,
                    HeaderMap::new(),
                    Some(b"{}".to_vec()),
                    None,
                    url,
                    Duration::from_secs(5),
                )
                .await;
            sent.unwrap();
        }
        let at_server = at_server.await.unwrap();
        let at_other = at_other.await.unwrap();
        assert!(at_server.contains("authorization: dpop tok"), "{at_server}");
        let expected = format!("dpop: proof-for-post-{server_url}").to_ascii_lowercase();
        assert!(at_server.contains(&expected), "{at_server}");
        assert!(
            !at_other.contains("authorization") && !at_other.contains("dpop"),
            "{at_other}"
        );
        assert_eq!(*lock(&presenter.0), vec!["n-1".to_string()]);
    }
}
