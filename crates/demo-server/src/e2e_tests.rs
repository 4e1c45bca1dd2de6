//! End-to-end tests: the real handler behind the real stdio transport, driven
//! with raw JSON-RPC lines over an in-memory pipe.

use std::time::Duration;

use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf},
    task::JoinHandle,
};
use tokio_util::sync::CancellationToken;

use crate::{server::DemoServer, stdio};

const TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) struct Client {
    write: Option<WriteHalf<DuplexStream>>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    /// Messages read while looking for something else.
    backlog: Vec<Value>,
    server: JoinHandle<()>,
}

impl Client {
    async fn start() -> Self {
        Self::start_with(DemoServer::new())
    }

    /// `server` behind the real stdio transport (the modern-era tests pass
    /// one started with `--eras`).
    pub(crate) fn start_with(server: DemoServer) -> Self {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        let (client_read, client_write) = tokio::io::split(client_end);
        let abort = CancellationToken::new();
        let transport = stdio::transport(
            server_read,
            server_write,
            server.client_gone_token(),
            abort.clone(),
        );
        let server = tokio::spawn(async move {
            if let Ok(service) = server.serve_with_ct(transport, abort).await {
                let _ = service.waiting().await;
            }
        });
        Self {
            write: Some(client_write),
            lines: BufReader::new(client_read).lines(),
            backlog: Vec::new(),
            server,
        }
    }

    async fn initialized(version: &str, capabilities: Value) -> (Self, Value) {
        let mut client = Self::start().await;
        let result = client
            .request(
                0,
                "initialize",
                json!({
                    "protocolVersion": version,
                    "capabilities": capabilities,
                    "clientInfo": { "name": "e2e", "version": "0" }
                }),
            )
            .await;
        client
            .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        (client, result)
    }

    pub(crate) async fn send(&mut self, message: Value) {
        let write = self.write.as_mut().expect("stdin already closed");
        let mut line = message.to_string();
        line.push('\n');
        write.write_all(line.as_bytes()).await.unwrap();
        write.flush().await.unwrap();
    }

    pub(crate) async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        self.response(id).await
    }

    /// The full response message (result or error) to request `id`.
    pub(crate) async fn response(&mut self, id: i64) -> Value {
        self.next_matching(|m| m["id"] == id && m.get("method").is_none())
            .await
    }

    pub(crate) async fn next_matching(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        if let Some(index) = self.backlog.iter().position(&mut pred) {
            return self.backlog.remove(index);
        }
        loop {
            let line = tokio::time::timeout(TIMEOUT, self.lines.next_line())
                .await
                .expect("timed out waiting for the server")
                .unwrap()
                .expect("server closed stdout");
            let message: Value = serde_json::from_str(&line).unwrap();
            if pred(&message) {
                return message;
            }
            self.backlog.push(message);
        }
    }

    /// Closes stdin and returns everything the server wrote afterwards.
    pub(crate) async fn close(mut self) -> Vec<Value> {
        if let Some(mut write) = self.write.take() {
            write.shutdown().await.unwrap();
        }
        let mut rest = std::mem::take(&mut self.backlog);
        while let Some(line) = tokio::time::timeout(TIMEOUT, self.lines.next_line())
            .await
            .expect("server did not close stdout")
            .unwrap()
        {
            rest.push(serde_json::from_str(&line).unwrap());
        }
        tokio::time::timeout(TIMEOUT, self.server)
            .await
            .expect("server did not stop")
            .unwrap();
        rest
    }
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"].as_str().unwrap()
}

#[tokio::test]
async fn initialize_echoes_known_versions() {
    for (requested, expected) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
    ] {
        let (client, response) = Client::initialized(requested, json!({})).await;
        let result = &response["result"];
        assert_eq!(result["protocolVersion"], expected, "requested {requested}");
        assert_eq!(result["serverInfo"]["name"], "periscope-demo-server");
        assert_eq!(result["serverInfo"]["title"], "Periscope Demo Server");
        assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        assert!(result["instructions"].as_str().unwrap().len() > 50);
        assert_eq!(
            result["capabilities"],
            json!({
                "logging": {},
                "completions": {},
                "prompts": { "listChanged": true },
                "resources": { "subscribe": true, "listChanged": true },
                "tools": { "listChanged": true },
                "extensions": {
                    "io.modelcontextprotocol/skills": { "directoryRead": true }
                }
            })
        );
        client.close().await;
    }
}

#[tokio::test]
async fn resources_list_is_paginated() {
    let (mut client, _) = Client::initialized("2025-11-25", json!({})).await;
    let mut uris = Vec::new();
    let mut params = json!({});
    let mut pages = 0;
    loop {
        let response = client.request(10 + pages, "resources/list", params).await;
        let result = &response["result"];
        assert!(result.get("resultType").is_none());
        uris.extend(
            result["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["uri"].as_str().unwrap().to_string()),
        );
        pages += 1;
        match result.get("nextCursor") {
            Some(cursor) => params = json!({ "cursor": cursor }),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(uris.len(), 27);
    assert_eq!(uris[25], "demo://blob/logo.png");
    assert_eq!(uris.last().unwrap(), "ui://periscope-demo/calculator.html");
    client.close().await;
}

#[tokio::test]
async fn slow_task_reports_progress_and_finishes_after_eof() {
    let (mut client, _) = Client::initialized("2025-11-25", json!({})).await;
    client
        .send(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {
                "name": "slow_task",
                "arguments": { "steps": 3, "step_ms": 50 },
                "_meta": { "progressToken": "tok" }
            }
        }))
        .await;
    // Close stdin straight away: the in-flight call must still complete.
    let rest = client.close().await;
    let progress: Vec<_> = rest
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| m["params"].clone())
        .collect();
    assert_eq!(
        progress,
        (1..=3)
            .map(|i| json!({
                "progressToken": "tok",
                "progress": f64::from(i),
                "total": 3.0,
                "message": format!("step {i} of 3")
            }))
            .collect::<Vec<_>>()
    );
    let response = rest.iter().find(|m| m["id"] == 1).unwrap();
    assert_eq!(text(response), "completed 3 steps");
}

#[tokio::test]
async fn slow_task_stops_when_cancelled() {
    let (mut client, _) = Client::initialized("2025-11-25", json!({})).await;
    client
        .send(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {
                "name": "slow_task",
                "arguments": { "steps": 1000, "step_ms": 20 },
                "_meta": { "progressToken": 5 }
            }
        }))
        .await;
    client
        .next_matching(|m| m["method"] == "notifications/progress")
        .await;
    client
        .send(json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": { "requestId": 1, "reason": "test" }
        }))
        .await;
    // The server keeps serving, and stops sending progress for the call.
    let pong = client.request(2, "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    let started = tokio::time::Instant::now();
    let rest = client.close().await;
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(rest.iter().all(|m| m["id"] != 1), "cancelled call answered");
    let late_progress = rest
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .count();
    assert!(
        late_progress <= 1,
        "{late_progress} progress notifications after cancel"
    );
}

#[tokio::test]
async fn list_changed_toggles_bonus_items() {
    let (mut client, _) = Client::initialized("2025-06-18", json!({})).await;
    let response = client
        .request(1, "tools/call", json!({ "name": "trigger_list_changed" }))
        .await;
    assert!(text(&response).contains("now present"));
    for method in [
        "notifications/tools/list_changed",
        "notifications/resources/list_changed",
        "notifications/prompts/list_changed",
    ] {
        client.next_matching(|m| m["method"] == method).await;
    }
    let bonus = client
        .request(2, "tools/call", json!({ "name": "bonus" }))
        .await;
    assert_eq!(text(&bonus), "bonus!");
    let prompt = client
        .request(3, "prompts/get", json!({ "name": "bonus_prompt" }))
        .await;
    assert!(prompt.get("result").is_some());
    client
        .request(4, "tools/call", json!({ "name": "trigger_list_changed" }))
        .await;
    let gone = client
        .request(5, "tools/call", json!({ "name": "bonus" }))
        .await;
    assert_eq!(gone["error"]["code"], -32602);
    let missing = client
        .request(6, "resources/read", json!({ "uri": "demo://bonus" }))
        .await;
    assert_eq!(missing["error"]["code"], -32002);
    client.close().await;
}

#[tokio::test]
async fn subscriptions_drive_resource_updates() {
    let (mut client, _) = Client::initialized("2025-11-25", json!({})).await;
    let touch = json!({ "name": "touch_resource", "arguments": { "uri": "demo://text/5" } });
    let response = client.request(1, "tools/call", touch.clone()).await;
    assert!(text(&response).contains("not subscribed"));
    client
        .request(2, "resources/subscribe", json!({ "uri": "demo://text/5" }))
        .await;
    let response = client.request(3, "tools/call", touch.clone()).await;
    assert!(text(&response).contains("sent notifications/resources/updated"));
    let update = client
        .next_matching(|m| m["method"] == "notifications/resources/updated")
        .await;
    assert_eq!(update["params"], json!({ "uri": "demo://text/5" }));
    client
        .request(
            4,
            "resources/unsubscribe",
            json!({ "uri": "demo://text/5" }),
        )
        .await;
    let response = client.request(5, "tools/call", touch).await;
    assert!(text(&response).contains("not subscribed"));
    client.close().await;
}

#[tokio::test]
async fn emit_logs_respects_set_level() {
    let (mut client, _) = Client::initialized("2025-11-25", json!({})).await;
    let response = client
        .request(1, "tools/call", json!({ "name": "emit_logs" }))
        .await;
    assert_eq!(text(&response), "sent 8 log messages");
    client
        .request(2, "logging/setLevel", json!({ "level": "warning" }))
        .await;
    let response = client
        .request(3, "tools/call", json!({ "name": "emit_logs" }))
        .await;
    assert_eq!(text(&response), "sent 5 log messages");
    let rest = client.close().await;
    let levels: Vec<_> = rest
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| {
            assert_eq!(m["params"]["logger"], "demo");
            m["params"]["level"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(
        levels,
        [
            "debug",
            "info",
            "notice",
            "warning",
            "error",
            "critical",
            "alert",
            "emergency",
            "warning",
            "error",
            "critical",
            "alert",
            "emergency"
        ]
    );
}

#[tokio::test]
async fn elicit_form_round_trip() {
    let capabilities = json!({ "elicitation": { "form": {}, "url": {} } });
    let (mut client, _) = Client::initialized("2025-11-25", capabilities).await;
    client
        .send(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "elicit_form" }
        }))
        .await;
    let request = client
        .next_matching(|m| m["method"] == "elicitation/create")
        .await;
    let params = &request["params"];
    assert_eq!(params["mode"], "form");
    let properties = &params["requestedSchema"]["properties"];
    assert_eq!(properties["zip"]["pattern"], "^[0-9]{5}$");
    assert_eq!(properties["size"]["oneOf"][1]["title"], "Medium");
    assert_eq!(properties["toppings"]["items"]["enum"][0], "cheese");
    client
        .send(json!({
            "jsonrpc": "2.0", "id": request["id"],
            "result": { "action": "accept", "content": { "email": "a@b.c", "nickname": "ab" } }
        }))
        .await;
    let response = client.response(1).await;
    assert_eq!(
        text(&response),
        "action: accept\ncontent: {\"email\":\"a@b.c\",\"nickname\":\"ab\"}"
    );

    // URL mode: accepted, then notifications/elicitation/complete.
    client
        .send(json!({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": { "name": "elicit_url" }
        }))
        .await;
    let request = client
        .next_matching(|m| m["method"] == "elicitation/create")
        .await;
    let params = &request["params"];
    assert_eq!(params["mode"], "url");
    let id = params["elicitationId"].as_str().unwrap().to_string();
    assert!(
        params["url"]
            .as_str()
            .unwrap()
            .starts_with("https://example.com/periscope-demo/authorize?session=")
    );
    client
        .send(json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "action": "accept" } }))
        .await;
    let response = client.response(2).await;
    assert!(text(&response).starts_with("action: accept"));
    let complete = client
        .next_matching(|m| m["method"] == "notifications/elicitation/complete")
        .await;
    assert_eq!(complete["params"]["elicitationId"], id);
    client.close().await;
}

#[tokio::test]
async fn client_features_need_capabilities() {
    let (mut client, _) = Client::initialized("2025-11-25", json!({})).await;
    for (id, tool) in [
        (1, "elicit_form"),
        (2, "elicit_url"),
        (3, "sample"),
        (4, "list_roots"),
    ] {
        let response = client
            .request(
                id,
                "tools/call",
                json!({ "name": tool, "arguments": { "prompt": "hi" } }),
            )
            .await;
        assert_eq!(response["result"]["isError"], true, "{tool}");
    }
    client.close().await;
}

#[tokio::test]
async fn pending_client_request_does_not_delay_exit() {
    let capabilities = json!({ "sampling": {} });
    let (mut client, _) = Client::initialized("2025-11-25", capabilities).await;
    client
        .send(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "sample", "arguments": { "prompt": "hello" } }
        }))
        .await;
    let request = client
        .next_matching(|m| m["method"] == "sampling/createMessage")
        .await;
    assert_eq!(request["params"]["maxTokens"], 200);
    assert_eq!(
        request["params"]["messages"][0],
        json!({ "role": "user", "content": { "type": "text", "text": "hello" } })
    );
    let started = tokio::time::Instant::now();
    let rest = client.close().await;
    assert!(started.elapsed() < Duration::from_secs(1));
    let response = rest.iter().find(|m| m["id"] == 1).unwrap();
    assert_eq!(response["result"]["isError"], true);
}
