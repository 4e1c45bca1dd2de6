//! The modern era (2026-07-28) over Streamable HTTP: the real server on an
//! ephemeral port, driven with plain HTTP requests (see `http_tests.rs`).

use std::time::Duration;

use reqwest::{RequestBuilder, StatusCode, header::CONTENT_TYPE};
use serde_json::{Value, json};

use crate::{
    era::Eras,
    http::{HttpMode, HttpServer},
    http_tests::{Running, SseReader, http},
};

const MODERN: &str = "2026-07-28";
const SESSION_HEADER: &str = "mcp-session-id";

async fn start(eras: Eras) -> Running {
    let server = HttpServer::bind_eras("127.0.0.1:0", HttpMode::Streamable, eras)
        .await
        .unwrap();
    Running::start_with(server, HttpMode::Streamable)
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {
            "elicitation": { "form": {} },
            "extensions": { "io.modelcontextprotocol/tasks": {} }
        },
        "io.modelcontextprotocol/clientInfo": { "name": "modern-http-tests", "version": "0" }
    })
}

fn body(id: i64, method: &str, mut params: Value) -> Value {
    params["_meta"] = meta();
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// A POST of `body` with only the Accept and Content-Type headers.
fn bare_post(server: &Running, body: &Value) -> RequestBuilder {
    http()
        .post(&server.url)
        .header("accept", "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json")
        .body(body.to_string())
}

/// A POST with the standard headers a conforming client derives from `body`.
fn post(server: &Running, body: &Value) -> RequestBuilder {
    let method = body["method"].as_str().unwrap();
    let mut request = bare_post(server, body)
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", method);
    let params = &body["params"];
    let name = match method {
        "tools/call" | "prompts/get" => params["name"].as_str(),
        "resources/read" => params["uri"].as_str(),
        "tasks/get" | "tasks/update" | "tasks/cancel" => params["taskId"].as_str(),
        _ => None,
    };
    if let Some(name) = name {
        request = request.header("mcp-name", name);
    }
    request
}

/// Status and the one JSON-RPC message of an answer (JSON or SSE).
async fn answer(request: RequestBuilder) -> (StatusCode, Value) {
    let response = request.send().await.unwrap();
    let status = response.status();
    assert!(response.headers().get(SESSION_HEADER).is_none());
    let content_type = response.headers()[CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_string();
    let message = if content_type.starts_with("application/json") {
        serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
    } else {
        let mut stream = SseReader::new(response);
        loop {
            let message = stream.next_message().await;
            if message.get("method").is_none() {
                break message;
            }
        }
    };
    (status, message)
}

async fn rpc(server: &Running, id: i64, method: &str, params: Value) -> Value {
    let (status, message) = answer(post(server, &body(id, method, params))).await;
    assert_eq!(status, StatusCode::OK, "{message}");
    message
}

#[tokio::test]
async fn discover_is_plain_json_without_a_session() {
    let server = start(Eras::Modern).await;
    let response = post(&server, &body(1, "server/discover", json!({})))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get(SESSION_HEADER).is_none());
    assert!(
        response.headers()[CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let message: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(message["result"]["supportedVersions"], json!([MODERN]));
    assert_eq!(message["result"]["cacheScope"], "public");
    server.stop().await;
}

#[tokio::test]
async fn get_and_delete_are_not_allowed() {
    let server = start(Eras::Modern).await;
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let response = http()
            .request(method.clone(), &server.url)
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", MODERN)
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn header_mismatches_are_400_with_32020() {
    let server = start(Eras::Modern).await;
    let call = body(
        1,
        "tools/call",
        json!({ "name": "echo", "arguments": { "message": "hi" } }),
    );
    let cases: Vec<(&str, RequestBuilder)> = vec![
        (
            "no MCP-Protocol-Version",
            bare_post(&server, &call)
                .header("mcp-method", "tools/call")
                .header("mcp-name", "echo"),
        ),
        (
            "no Mcp-Method",
            bare_post(&server, &call)
                .header("mcp-protocol-version", MODERN)
                .header("mcp-name", "echo"),
        ),
        (
            "wrong Mcp-Method",
            post(&server, &call).header("mcp-method", "tools/list"),
        ),
        (
            "no Mcp-Name",
            bare_post(&server, &call)
                .header("mcp-protocol-version", MODERN)
                .header("mcp-method", "tools/call"),
        ),
        (
            "wrong Mcp-Name",
            bare_post(&server, &call)
                .header("mcp-protocol-version", MODERN)
                .header("mcp-method", "tools/call")
                .header("mcp-name", "add"),
        ),
        (
            "version header differs from _meta",
            bare_post(&server, &call)
                .header("mcp-protocol-version", "2025-11-25")
                .header("mcp-method", "tools/call")
                .header("mcp-name", "echo"),
        ),
    ];
    for (case, request) in cases {
        let (status, message) = answer(request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{case}: {message}");
        assert_eq!(message["error"]["code"], -32020, "{case}: {message}");
    }
    // The Base64 form of Mcp-Name is decoded before comparing.
    let (status, message) = answer(
        bare_post(&server, &call)
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", "tools/call")
            .header("mcp-name", "=?base64?ZWNobw==?="),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{message}");
    assert_eq!(message["result"]["content"][0]["text"], "echo: hi");
    server.stop().await;
}

#[tokio::test]
async fn unknown_methods_and_versions_are_modern_errors() {
    let server = start(Eras::Dual).await;
    let (status, message) = answer(post(&server, &body(1, "no/such/method", json!({})))).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{message}");
    assert_eq!(message["error"]["code"], -32601);

    let mut request = body(2, "tools/list", json!({}));
    request["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("1900-01-01");
    let (status, message) = answer(
        bare_post(&server, &request)
            .header("mcp-protocol-version", "1900-01-01")
            .header("mcp-method", "tools/list"),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{message}");
    assert_eq!(message["error"]["code"], -32022);
    assert_eq!(message["error"]["data"]["supported"][4], MODERN);

    let mut request = body(3, "tools/list", json!({}));
    request["params"]["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    let (status, message) = answer(post(&server, &request)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{message}");
    assert_eq!(message["error"]["code"], -32602);
    server.stop().await;
}

#[tokio::test]
async fn x_mcp_header_arguments_are_checked_against_their_headers() {
    let server = start(Eras::Modern).await;
    let call = body(
        1,
        "tools/call",
        json!({
            "name": "regional_lookup",
            "arguments": { "region": "eu-west1", "tenant": 42, "dry_run": true, "query": "q" }
        }),
    );
    let (status, message) = answer(
        post(&server, &call)
            .header("mcp-param-region", "eu-west1")
            .header("mcp-param-tenant", "42")
            .header("mcp-param-dryrun", "true"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{message}");
    let text = message["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.ends_with("mcp-param-dryrun: true\nmcp-param-region: eu-west1\nmcp-param-tenant: 42"),
        "{text}"
    );
    for (case, request) in [
        (
            "missing Region",
            post(&server, &call)
                .header("mcp-param-tenant", "42")
                .header("mcp-param-dryrun", "true"),
        ),
        (
            "wrong Region",
            post(&server, &call)
                .header("mcp-param-region", "us-east1")
                .header("mcp-param-tenant", "42")
                .header("mcp-param-dryrun", "true"),
        ),
    ] {
        let (status, message) = answer(request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{case}: {message}");
        assert_eq!(message["error"]["code"], -32020, "{case}: {message}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_listen_stream_hears_changes_made_by_other_requests() {
    let server = start(Eras::Modern).await;
    let listen = body(
        9,
        "subscriptions/listen",
        json!({ "notifications": { "toolsListChanged": true, "resourceSubscriptions": ["demo://text/3"] } }),
    );
    let response = post(&server, &listen).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get(SESSION_HEADER).is_none());
    let mut stream = SseReader::new(response);
    let ack = stream.next_message().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        9
    );

    let toggled = rpc(
        &server,
        1,
        "tools/call",
        json!({ "name": "trigger_list_changed" }),
    )
    .await;
    assert!(
        toggled["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("sent to 1 listen stream(s)")
    );
    let changed = stream.next_message().await;
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        9
    );
    // The other POSTs share the toggle: the bonus tool is listed now.
    let tools = rpc(&server, 2, "tools/list", json!({})).await;
    assert!(
        tools["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "bonus")
    );

    rpc(
        &server,
        3,
        "tools/call",
        json!({ "name": "touch_resource", "arguments": { "uri": "demo://text/3" } }),
    )
    .await;
    let updated = stream.next_message().await;
    assert_eq!(updated["method"], "notifications/resources/updated");
    assert_eq!(updated["params"]["uri"], "demo://text/3");

    // Closing the stream ends the subscription: nothing is sent to it after.
    drop(stream);
    let mut reached = String::new();
    for id in 10..100 {
        let toggled = rpc(
            &server,
            id,
            "tools/call",
            json!({ "name": "trigger_list_changed" }),
        )
        .await;
        reached = toggled["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        if reached.ends_with("sent to 0 listen stream(s)") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(reached.ends_with("sent to 0 listen stream(s)"), "{reached}");
    server.stop().await;
}

#[tokio::test]
async fn a_task_lives_across_requests() {
    let server = start(Eras::Dual).await;
    let created = rpc(
        &server,
        1,
        "tools/call",
        json!({ "name": "long_job", "arguments": { "steps": 3, "step_ms": 20 } }),
    )
    .await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let task_id = created["result"]["taskId"].as_str().unwrap().to_string();
    let mut status = String::new();
    for id in 2..200 {
        let got = rpc(&server, id, "tasks/get", json!({ "taskId": task_id })).await;
        status = got["result"]["status"].as_str().unwrap().to_string();
        if status == "completed" {
            assert_eq!(got["result"]["statusMessage"], "step 3 of 3 (100%)");
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status, "completed");
    // Without the Mcp-Name routing header, tasks/get is a header mismatch.
    let (code, message) = answer(
        bare_post(
            &server,
            &body(300, "tasks/get", json!({ "taskId": task_id })),
        )
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tasks/get"),
    )
    .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{message}");
    server.stop().await;
}

#[tokio::test]
async fn mrtr_rounds_are_independent_posts() {
    let server = start(Eras::Modern).await;
    let first = rpc(
        &server,
        1,
        "tools/call",
        json!({ "name": "mrtr_two_rounds" }),
    )
    .await;
    let state = first["result"]["requestState"].as_str().unwrap();
    let second = rpc(
        &server,
        2,
        "tools/call",
        json!({
            "name": "mrtr_two_rounds",
            "inputResponses": { "city": { "action": "accept", "content": { "city": "Oslo" } } },
            "requestState": state
        }),
    )
    .await;
    let state = second["result"]["requestState"].as_str().unwrap();
    let done = rpc(
        &server,
        3,
        "tools/call",
        json!({
            "name": "mrtr_two_rounds",
            "inputResponses": { "confirm": { "action": "decline" } },
            "requestState": state
        }),
    )
    .await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        "not booked: the trip to Oslo was not confirmed (decline)"
    );
    server.stop().await;
}

#[tokio::test]
async fn dual_era_keeps_legacy_sessions_beside_modern_requests() {
    let server = start(Eras::Dual).await;
    let response = bare_post(
        &server,
        &json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "legacy", "version": "0" }
            }
        }),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get(SESSION_HEADER).is_some());
    let init = SseReader::new(response).next_message().await;
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    // The tasks extension belongs to the modern era; skills serve both.
    assert_eq!(
        init["result"]["capabilities"]["extensions"],
        json!({ "io.modelcontextprotocol/skills": { "directoryRead": true } })
    );
    let discover = rpc(&server, 1, "server/discover", json!({})).await;
    assert_eq!(discover["result"]["resultType"], "complete");
    server.stop().await;
}

#[tokio::test]
async fn modern_era_refuses_initialize() {
    let server = start(Eras::Modern).await;
    let (_, message) = answer(bare_post(
        &server,
        &json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "legacy", "version": "0" }
            }
        }),
    ))
    .await;
    assert_eq!(message["error"]["code"], -32022, "{message}");
    assert_eq!(message["error"]["data"]["supported"], json!([MODERN]));
    server.stop().await;
}
