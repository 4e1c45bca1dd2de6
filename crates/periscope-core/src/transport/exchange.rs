//! What both HTTP transports share: one server's HTTP connection (client, target, session id,
//! negotiated version, bearer token), one way to send a request and record the exchange, and
//! one way to record and hand on a frame that came back.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, Response};
use tokio::sync::mpsc;

use super::Inbound;
use crate::config::HttpTarget;
use crate::record::HttpExchange;
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
    /// Sent as `MCP-Protocol-Version` once negotiated (Streamable HTTP).
    pub(super) protocol_version: Mutex<Option<String>>,
    /// The OAuth access token for this server, if signed in.
    pub(super) bearer: Mutex<Option<String>>,
    max_frame_bytes: usize,
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
        max_frame_bytes: usize,
    ) -> HttpConnection {
        HttpConnection {
            client,
            target,
            traffic,
            inbound,
            session_id: Mutex::new(None),
            protocol_version: Mutex::new(None),
            bearer: Mutex::new(None),
            max_frame_bytes,
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
        // Only ever to this server's URL (the record shows it redacted).
        if let Some(token) = lock(&self.bearer).as_deref()
            && let Ok(v) = format!("Bearer {token}").parse()
        {
            headers.insert(reqwest::header::AUTHORIZATION, v);
        }
        headers
    }

    /// Sends one HTTP request (to `url`, default the target's) and records the exchange once
    /// the response headers are in.
    pub(super) async fn exchange(
        &self,
        method: Method,
        extra: HeaderMap,
        body: Option<Vec<u8>>,
        sent_frame: Option<u64>,
        url: Option<&str>,
    ) -> (u64, Result<Response, String>) {
        let url = url.unwrap_or(&self.target.url).to_string();
        let seq = self.traffic.reserve_seq();
        let mut headers = self.headers();
        headers.extend(extra);
        // A token is for the server it was issued for: never sent to another origin (e.g. a
        // legacy endpoint or a resumption URL elsewhere).
        let same_origin = |a: &str, b: &str| match (reqwest::Url::parse(a), reqwest::Url::parse(b))
        {
            (Ok(a), Ok(b)) => a.origin() == b.origin(),
            _ => false,
        };
        if !same_origin(&url, &self.target.url) {
            headers.remove(reqwest::header::AUTHORIZATION);
        }
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
        let result = request.send().await;
        let header_pairs = |h: &HeaderMap| {
            let pairs: Vec<(&str, &str)> = h
                .iter()
                .map(|(k, v)| (k.as_str(), v.to_str().unwrap_or("(not text)")))
                .collect();
            redact::headers(pairs, &self.target.secret_header_values())
        };
        let (status, error, response_headers) = match &result {
            Ok(r) => (Some(r.status().as_u16()), None, header_pairs(r.headers())),
            Err(e) => (None, Some(describe(e)), Vec::new()),
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
        (seq, result.map_err(|e| describe(&e)))
    }

    pub(super) async fn deliver(&self, bytes: Vec<u8>, exchange: u64) -> (u64, Verdict) {
        let (bytes, truncated) = if bytes.len() > self.max_frame_bytes {
            let total = bytes.len() as u64;
            (bytes[..self.max_frame_bytes].to_vec(), Some(total))
        } else {
            (bytes, None)
        };
        let (frame, value) =
            self.traffic
                .append_frame_via(Direction::In, bytes, truncated, Some(exchange));
        let verdict = frame.verdict.clone();
        let seq = frame.seq;
        let _ = self.inbound.send(Inbound::Frame(frame, value)).await;
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
