//! End-to-end tests of the HTTP transports: the real server on an ephemeral
//! port in this process, driven with plain HTTP requests (reqwest) and a
//! minimal SSE parser.

use std::time::{Duration, Instant};

use reqwest::{RequestBuilder, StatusCode, header::CONTENT_TYPE};
use serde_json::{Value, json};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::http::{HttpMode, HttpServer};

pub(crate) const TIMEOUT: Duration = Duration::from_secs(10);
const SESSION_HEADER: &str = "mcp-session-id";

/// A server running on `127.0.0.1:0` until [`Running::stop`].
pub(crate) struct Running {
    pub(crate) url: String,
    shutdown: CancellationToken,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    async fn start(mode: HttpMode) -> Self {
        Self::start_with(HttpServer::bind("127.0.0.1:0", mode).await.unwrap(), mode)
    }

    /// Runs `server`, bound on `127.0.0.1:0` for `mode`.
    pub(crate) fn start_with(server: HttpServer, mode: HttpMode) -> Self {
        let url = server.url();
        let expected_path = mode.path();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with(expected_path),
            "{url}"
        );
        assert!(!url.contains(":0/"), "port 0 not resolved: {url}");
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(server.run(shutdown.clone().cancelled_owned()));
        Self {
            url,
            shutdown,
            task,
        }
    }

    /// The URL without its path, e.g. `http://127.0.0.1:1234`.
    fn base(&self) -> &str {
        let path_start = self.url["http://".len()..].find('/').unwrap() + "http://".len();
        &self.url[..path_start]
    }

    /// Signals shutdown and waits for the server to finish cleanly.
    pub(crate) async fn stop(self) {
        self.shutdown.cancel();
        let result = tokio::time::timeout(TIMEOUT, self.task)
            .await
            .expect("server did not stop")
            .unwrap();
        result.unwrap();
    }
}

pub(crate) fn http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

#[derive(Debug)]
pub(crate) struct SseEvent {
    pub(crate) event: String,
    pub(crate) data: String,
}

impl SseEvent {
    fn json(&self) -> Value {
        serde_json::from_str(&self.data)
            .unwrap_or_else(|error| panic!("bad event data {:?}: {error}", self.data))
    }
}

/// Reads server-sent events from a streaming response body.
pub(crate) struct SseReader {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl SseReader {
    pub(crate) fn new(response: reqwest::Response) -> Self {
        let content_type = response.headers()[CONTENT_TYPE].to_str().unwrap();
        assert!(
            content_type.starts_with("text/event-stream"),
            "{content_type}"
        );
        Self {
            response,
            buffer: Vec::new(),
        }
    }

    /// The next event (comments skipped), or `None` when the stream ends.
    pub(crate) async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|pair| pair == b"\n\n") {
                let block: Vec<u8> = self.buffer.drain(..end + 2).collect();
                if let Some(event) = parse_event(&String::from_utf8(block).unwrap()) {
                    return Some(event);
                }
                continue;
            }
            let chunk = tokio::time::timeout(TIMEOUT, self.response.chunk())
                .await
                .expect("timed out waiting for an SSE event")
                .unwrap()?;
            self.buffer
                .extend(chunk.iter().copied().filter(|&byte| byte != b'\r'));
        }
    }

    /// The next event carrying a JSON-RPC message (skips priming events).
    pub(crate) async fn next_message(&mut self) -> Value {
        loop {
            let event = self.next().await.expect("SSE stream ended");
            if !event.data.is_empty() {
                assert_eq!(event.event, "message");
                return event.json();
            }
        }
    }
}

fn parse_event(block: &str) -> Option<SseEvent> {
    let mut event = None;
    let mut data: Option<String> = None;
    for line in block.lines() {
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => event = Some(value.to_string()),
            "data" => match &mut data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => data = Some(value.to_string()),
            },
            _ => {} // comments (""), id, retry
        }
    }
    if event.is_none() && data.is_none() {
        return None;
    }
    Some(SseEvent {
        event: event.unwrap_or_else(|| "message".to_string()),
        data: data.unwrap_or_default(),
    })
}

// ---------------------------------------------------------------------------
// Streamable HTTP
// ---------------------------------------------------------------------------

/// A Streamable HTTP client session.
struct Streamable {
    http: reqwest::Client,
    url: String,
    session: Option<String>,
}

impl Streamable {
    fn new(server: &Running) -> Self {
        Self {
            http: http(),
            url: server.url.clone(),
            session: None,
        }
    }

    /// Initializes a session; returns the `initialize` result.
    async fn initialize(&mut self, capabilities: Value) -> Value {
        let response = self
            .post(json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": capabilities,
                    "clientInfo": { "name": "http-tests", "version": "0" }
                }
            }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let session = response.headers()[SESSION_HEADER].to_str().unwrap();
        assert!(!session.is_empty());
        self.session = Some(session.to_string());
        let message = single_answer(response).await;
        assert_eq!(message["id"], 0);
        let accepted = self
            .post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .send()
            .await
            .unwrap();
        assert_eq!(accepted.status(), StatusCode::ACCEPTED);
        message["result"].clone()
    }

    fn post(&self, body: Value) -> RequestBuilder {
        let mut request = self
            .http
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_string());
        if let Some(session) = &self.session {
            request = request
                .header(SESSION_HEADER, session)
                .header("mcp-protocol-version", "2025-06-18");
        }
        request
    }

    /// Sends request `id` and returns its SSE response stream.
    async fn start_request(&self, id: i64, method: &str, params: Value) -> SseReader {
        let response = self
            .post(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        SseReader::new(response)
    }

    /// Sends request `id` and returns its response message.
    async fn request(&self, id: i64, method: &str, params: Value) -> Value {
        let mut stream = self.start_request(id, method, params).await;
        loop {
            let message = stream.next_message().await;
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }
}

/// The one JSON-RPC message of a POST answer, whether JSON or SSE.
async fn single_answer(response: reqwest::Response) -> Value {
    let content_type = response.headers()[CONTENT_TYPE].to_str().unwrap();
    if content_type.starts_with("application/json") {
        serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
    } else {
        SseReader::new(response).next_message().await
    }
}

#[tokio::test]
async fn streamable_http_session_lifecycle() {
    let server = Running::start(HttpMode::Streamable).await;
    let mut client = Streamable::new(&server);
    let result = client.initialize(json!({})).await;
    assert_eq!(result["protocolVersion"], "2025-06-18");
    assert_eq!(result["serverInfo"]["name"], "periscope-demo-server");

    let add = client
        .request(
            1,
            "tools/call",
            json!({ "name": "add", "arguments": { "a": 2, "b": 3 } }),
        )
        .await;
    assert_eq!(add["result"]["structuredContent"], json!({ "sum": 5 }));

    let deleted = client
        .http
        .delete(&server.url)
        .header(SESSION_HEADER, client.session.as_deref().unwrap())
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    let after = client
        .post(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }))
        .send()
        .await
        .unwrap();
    assert_eq!(after.status(), StatusCode::NOT_FOUND);

    client.session = Some("no-such-session".to_string());
    let unknown = client
        .post(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" }))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    server.stop().await;
}

#[tokio::test]
async fn streamable_http_streams_slow_task_progress() {
    let server = Running::start(HttpMode::Streamable).await;
    let mut client = Streamable::new(&server);
    client.initialize(json!({})).await;
    let step = Duration::from_millis(200);
    let mut stream = client
        .start_request(
            1,
            "tools/call",
            json!({
                "name": "slow_task",
                "arguments": { "steps": 3, "step_ms": step.as_millis() as u64 },
                "_meta": { "progressToken": "tok" }
            }),
        )
        .await;
    let mut progress = Vec::new();
    let result = loop {
        let message = stream.next_message().await;
        if message["method"] == "notifications/progress" {
            assert_eq!(message["params"]["progressToken"], "tok");
            progress.push((message["params"]["progress"].as_f64(), Instant::now()));
        } else {
            break (message, Instant::now());
        }
    };
    assert_eq!(result.0["id"], 1);
    assert_eq!(
        result.0["result"]["content"][0]["text"],
        "completed 3 steps"
    );
    let steps: Vec<_> = progress.iter().map(|(value, _)| *value).collect();
    assert_eq!(steps, [Some(1.0), Some(2.0), Some(3.0)]);
    // Streamed as they happen, not buffered until the result.
    let (_, first_progress) = progress[0];
    assert!(
        result.1 - first_progress >= step / 2,
        "progress arrived in a burst with the result"
    );
    server.stop().await;
}

#[tokio::test]
async fn streamable_http_standalone_stream_and_server_requests() {
    let server = Running::start(HttpMode::Streamable).await;
    let mut client = Streamable::new(&server);
    client.initialize(json!({ "roots": {} })).await;

    // The standalone GET stream carries notifications not tied to a request.
    let get = client
        .http
        .get(&server.url)
        .header("accept", "text/event-stream")
        .header(SESSION_HEADER, client.session.as_deref().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), StatusCode::OK);
    let mut standalone = SseReader::new(get);
    let toggled = client
        .request(1, "tools/call", json!({ "name": "trigger_list_changed" }))
        .await;
    assert!(toggled.get("result").is_some(), "{toggled}");
    let mut notified = Vec::new();
    while notified.len() < 3 {
        notified.push(standalone.next_message().await["method"].clone());
    }
    assert!(notified.contains(&json!("notifications/tools/list_changed")));

    // A server-to-client request arrives on the request's stream; the client
    // answers it with a POST.
    let mut call = client
        .start_request(2, "tools/call", json!({ "name": "list_roots" }))
        .await;
    let roots_request = call.next_message().await;
    assert_eq!(roots_request["method"], "roots/list");
    let answer = client
        .post(json!({
            "jsonrpc": "2.0",
            "id": roots_request["id"],
            "result": { "roots": [{ "uri": "file:///work", "name": "work" }] }
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::ACCEPTED);
    let result = call.next_message().await;
    assert_eq!(result["id"], 2);
    assert_eq!(
        result["result"]["content"][0]["text"],
        "file:///work (work)"
    );
    server.stop().await;
}

#[tokio::test]
async fn streamable_http_shutdown_closes_open_streams() {
    let server = Running::start(HttpMode::Streamable).await;
    let mut client = Streamable::new(&server);
    client.initialize(json!({})).await;
    let get = client
        .http
        .get(&server.url)
        .header("accept", "text/event-stream")
        .header(SESSION_HEADER, client.session.as_deref().unwrap())
        .send()
        .await
        .unwrap();
    let mut standalone = SseReader::new(get);
    server.stop().await;
    while let Some(event) = standalone.next().await {
        assert!(event.data.is_empty(), "unexpected event {event:?}");
    }
}

// ---------------------------------------------------------------------------
// Legacy HTTP+SSE
// ---------------------------------------------------------------------------

/// A legacy HTTP+SSE client session: the GET stream and the POST endpoint.
struct Legacy {
    http: reqwest::Client,
    events: SseReader,
    endpoint: String,
}

impl Legacy {
    async fn connect(server: &Running) -> Self {
        let http = http();
        let response = http
            .get(&server.url)
            .header("accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let mut events = SseReader::new(response);
        let first = events.next().await.expect("no endpoint event");
        assert_eq!(first.event, "endpoint");
        assert!(
            first.data.starts_with("/message?sessionId="),
            "{}",
            first.data
        );
        let endpoint = format!("{}{}", server.base(), first.data);
        Self {
            http,
            events,
            endpoint,
        }
    }

    async fn post(&self, body: Value) -> StatusCode {
        self.http
            .post(&self.endpoint)
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap()
            .status()
    }

    async fn initialize(&mut self, capabilities: Value) -> Value {
        let status = self
            .post(json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": "2024-11-05",
                    "capabilities": capabilities,
                    "clientInfo": { "name": "http-tests", "version": "0" }
                }
            }))
            .await;
        assert_eq!(status, StatusCode::ACCEPTED);
        let response = self.events.next_message().await;
        assert_eq!(response["id"], 0);
        let status = self
            .post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        assert_eq!(status, StatusCode::ACCEPTED);
        response["result"].clone()
    }
}

#[tokio::test]
async fn legacy_sse_session_round_trip() {
    let server = Running::start(HttpMode::LegacySse).await;
    let mut client = Legacy::connect(&server).await;
    let result = client.initialize(json!({})).await;
    assert_eq!(result["protocolVersion"], "2024-11-05");
    assert_eq!(result["serverInfo"]["name"], "periscope-demo-server");

    let status = client
        .post(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "add", "arguments": { "a": 2, "b": 3 } }
        }))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let add = client.events.next_message().await;
    assert_eq!(add["id"], 1);
    assert_eq!(add["result"]["structuredContent"], json!({ "sum": 5 }));

    let status = client
        .post(json!({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {
                "name": "slow_task",
                "arguments": { "steps": 2, "step_ms": 50 },
                "_meta": { "progressToken": 9 }
            }
        }))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let mut progress = 0;
    let done = loop {
        let message = client.events.next_message().await;
        if message["method"] == "notifications/progress" {
            progress += 1;
        } else {
            break message;
        }
    };
    assert_eq!(progress, 2);
    assert_eq!(done["id"], 2);
    server.stop().await;
}

#[tokio::test]
async fn legacy_sse_server_requests_round_trip() {
    let server = Running::start(HttpMode::LegacySse).await;
    let mut client = Legacy::connect(&server).await;
    client.initialize(json!({ "roots": {} })).await;
    let status = client
        .post(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "list_roots" }
        }))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let roots_request = client.events.next_message().await;
    assert_eq!(roots_request["method"], "roots/list");
    let status = client
        .post(json!({
            "jsonrpc": "2.0",
            "id": roots_request["id"],
            "result": { "roots": [{ "uri": "file:///tmp" }] }
        }))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let result = client.events.next_message().await;
    assert_eq!(result["id"], 1);
    assert_eq!(result["result"]["content"][0]["text"], "file:///tmp");
    server.stop().await;
}

#[tokio::test]
async fn legacy_sse_unknown_or_closed_session_gets_404() {
    let server = Running::start(HttpMode::LegacySse).await;
    let http = http();
    let ping =
        json!({ "jsonrpc": "2.0", "method": "notifications/roots/list_changed" }).to_string();
    let unknown = http
        .post(format!("{}/message?sessionId=nope", server.base()))
        .header(CONTENT_TYPE, "application/json")
        .body(ping.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);

    let mut client = Legacy::connect(&server).await;
    client.initialize(json!({})).await;
    let invalid = client
        .http
        .post(&client.endpoint)
        .body("not json")
        .send()
        .await
        .unwrap();
    assert_eq!(invalid.status(), StatusCode::BAD_REQUEST);

    // Closing the GET stream ends the session.
    let Legacy {
        events, endpoint, ..
    } = client;
    drop(events);
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let status = http
            .post(&endpoint)
            .header(CONTENT_TYPE, "application/json")
            .body(ping.clone())
            .send()
            .await
            .unwrap()
            .status();
        if status == StatusCode::NOT_FOUND {
            break;
        }
        assert_eq!(status, StatusCode::ACCEPTED);
        assert!(Instant::now() < deadline, "session outlived its stream");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.stop().await;
}

#[tokio::test]
async fn legacy_sse_shutdown_closes_open_streams() {
    let server = Running::start(HttpMode::LegacySse).await;
    let mut client = Legacy::connect(&server).await;
    client.initialize(json!({})).await;
    server.stop().await;
    assert!(client.events.next().await.is_none());
}
