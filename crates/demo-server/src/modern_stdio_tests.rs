//! The modern era (2026-07-28) over stdio: the real handler behind the real
//! stdio transport, driven with raw JSON-RPC lines (see `e2e_tests.rs`).

use std::{sync::Arc, time::Duration};

use serde_json::{Value, json};

use crate::{e2e_tests::Client, era::Eras, server::DemoServer};

const MODERN: &str = "2026-07-28";

fn start(eras: Eras) -> Client {
    Client::start_with(DemoServer::with_eras(eras, Arc::default()))
}

/// The `_meta` every modern request carries.
fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": { "name": "modern-tests", "version": "0" }
    })
}

fn all_capabilities() -> Value {
    json!({
        "elicitation": { "form": {} },
        "sampling": {},
        "extensions": { "io.modelcontextprotocol/tasks": {} }
    })
}

/// `params` with the modern `_meta` (all capabilities) added.
fn with_meta(mut params: Value) -> Value {
    params["_meta"] = meta(all_capabilities());
    params
}

async fn call(client: &mut Client, id: i64, method: &str, params: Value) -> Value {
    client.request(id, method, with_meta(params)).await
}

async fn call_tool(client: &mut Client, id: i64, params: Value) -> Value {
    call(client, id, "tools/call", params).await
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {response}"))
}

#[tokio::test]
async fn discover_lists_versions_identity_and_cache_hints() {
    let mut client = start(Eras::Dual);
    let response = call(&mut client, 1, "server/discover", json!({})).await;
    let result = &response["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        result["supportedVersions"],
        json!([
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            MODERN
        ])
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "periscope-demo-server"
    );
    assert_eq!(
        result["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({})
    );
    assert_eq!(result["ttlMs"], 3_600_000);
    assert_eq!(result["cacheScope"], "public");
    assert!(
        result["instructions"]
            .as_str()
            .unwrap()
            .contains("mrtr_form")
    );

    let mut modern = start(Eras::Modern);
    let response = call(&mut modern, 1, "server/discover", json!({})).await;
    assert_eq!(response["result"]["supportedVersions"], json!([MODERN]));
}

#[tokio::test]
async fn legacy_eras_answer_discover_as_before() {
    let mut client = start(Eras::Legacy);
    let response = call(&mut client, 1, "server/discover", json!({})).await;
    assert_eq!(response["error"]["code"], -32601, "{response}");
}

#[tokio::test]
async fn dual_era_still_opens_legacy_sessions_unchanged() {
    let mut client = start(Eras::Dual);
    let discover = call(&mut client, 1, "server/discover", json!({})).await;
    assert_eq!(discover["result"]["resultType"], "complete");
    let init = client
        .request(
            2,
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": { "name": "legacy", "version": "0" }
            }),
        )
        .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    // The tasks extension belongs to the modern era; skills serve both.
    assert_eq!(
        init["result"]["capabilities"]["extensions"],
        json!({ "io.modelcontextprotocol/skills": { "directoryRead": true } }),
        "{init}"
    );
    client
        .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .await;
    let tools = client.request(3, "tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"elicit_form") && !names.contains(&"mrtr_form"));
    assert!(tools["result"].get("ttlMs").is_none());
    assert!(tools["result"].get("resultType").is_none());
}

#[tokio::test]
async fn modern_era_refuses_initialize_naming_its_versions() {
    let mut client = start(Eras::Modern);
    let response = client
        .request(
            0,
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": { "name": "legacy", "version": "0" }
            }),
        )
        .await;
    assert_eq!(response["error"]["code"], -32022, "{response}");
    assert_eq!(response["error"]["data"]["supported"], json!([MODERN]));
}

#[tokio::test]
async fn requests_need_their_meta_and_a_supported_version() {
    let mut client = start(Eras::Modern);
    // No clientCapabilities: malformed.
    let response = client
        .request(
            1,
            "tools/list",
            json!({ "_meta": { "io.modelcontextprotocol/protocolVersion": MODERN } }),
        )
        .await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap()
            .contains("clientCapabilities")
    );
    // An unknown version: -32022 with what the server does speak.
    let mut meta = meta(json!({}));
    meta["io.modelcontextprotocol/protocolVersion"] = json!("1900-01-01");
    let response = client
        .request(2, "tools/list", json!({ "_meta": meta }))
        .await;
    assert_eq!(response["error"]["code"], -32022, "{response}");
    assert_eq!(response["error"]["data"]["supported"], json!([MODERN]));
    assert_eq!(response["error"]["data"]["requested"], "1900-01-01");
    // And a well-formed request works afterwards.
    let response = call(&mut client, 3, "tools/list", json!({})).await;
    assert_eq!(response["result"]["resultType"], "complete");
}

#[tokio::test]
async fn removed_methods_are_not_found() {
    let mut client = start(Eras::Modern);
    call(&mut client, 1, "tools/list", json!({})).await;
    for (id, method, params) in [
        (2, "ping", json!({})),
        (3, "logging/setLevel", json!({ "level": "info" })),
        (4, "resources/subscribe", json!({ "uri": "demo://text/1" })),
    ] {
        let response = call(&mut client, id, method, params).await;
        assert_eq!(response["error"]["code"], -32601, "{method}: {response}");
    }
    let response = call_tool(&mut client, 5, json!({ "name": "elicit_form" })).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

#[tokio::test]
async fn lists_and_reads_carry_cache_hints() {
    let mut client = start(Eras::Dual);
    for (id, method, ttl) in [
        (1, "tools/list", 60_000),
        (2, "prompts/list", 60_000),
        (3, "resources/list", 30_000),
        (4, "resources/templates/list", 3_600_000),
    ] {
        let response = call(&mut client, id, method, json!({})).await;
        assert_eq!(response["result"]["ttlMs"], ttl, "{method}");
        assert_eq!(response["result"]["cacheScope"], "public", "{method}");
    }
    let read = call(
        &mut client,
        5,
        "resources/read",
        json!({ "uri": "demo://text/1" }),
    )
    .await;
    assert_eq!(read["result"]["ttlMs"], 300_000);
    assert_eq!(read["result"]["cacheScope"], "public");
    // The bonus resource is private and short-lived.
    call_tool(&mut client, 6, json!({ "name": "trigger_list_changed" })).await;
    let read = call(
        &mut client,
        7,
        "resources/read",
        json!({ "uri": "demo://bonus" }),
    )
    .await;
    assert_eq!(read["result"]["ttlMs"], 5_000, "{read}");
    assert_eq!(read["result"]["cacheScope"], "private");
    // A missing resource is -32602 in 2026-07-28.
    let missing = call(
        &mut client,
        8,
        "resources/read",
        json!({ "uri": "demo://nope" }),
    )
    .await;
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
}

#[tokio::test]
async fn mrtr_form_asks_once_and_returns_the_answers() {
    let mut client = start(Eras::Modern);
    let first = call_tool(&mut client, 1, json!({ "name": "mrtr_form" })).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert!(result.get("requestState").is_none());
    let form = &result["inputRequests"]["form"];
    assert_eq!(form["method"], "elicitation/create");
    assert_eq!(form["params"]["mode"], "form");
    let properties = &form["params"]["requestedSchema"]["properties"];
    assert_eq!(properties["toppings"]["maxItems"], 3);
    assert_eq!(properties["size"]["oneOf"][1]["const"], "m");
    let answer =
        json!({ "action": "accept", "content": { "email": "a@example.com", "nickname": "ada" } });
    let second = call_tool(
        &mut client,
        2,
        json!({ "name": "mrtr_form", "inputResponses": { "form": answer } }),
    )
    .await;
    assert_eq!(second["result"]["resultType"], "complete");
    assert_eq!(
        text(&second),
        "action: accept\ncontent: {\"email\":\"a@example.com\",\"nickname\":\"ada\"}"
    );
    let declined = call_tool(
        &mut client,
        3,
        json!({ "name": "mrtr_form", "inputResponses": { "form": { "action": "decline" } } }),
    )
    .await;
    assert_eq!(text(&declined), "action: decline\ncontent: null");
}

#[tokio::test]
async fn mrtr_two_inputs_asks_both_in_one_round_and_re_asks_what_is_missing() {
    let mut client = start(Eras::Modern);
    let first = call_tool(&mut client, 1, json!({ "name": "mrtr_two_inputs" })).await;
    let requests = &first["result"]["inputRequests"];
    assert_eq!(requests["name"]["method"], "elicitation/create");
    assert_eq!(requests["greeting"]["method"], "sampling/createMessage");
    let name = json!({ "action": "accept", "content": { "name": "Ada" } });
    let partial = call_tool(
        &mut client,
        2,
        json!({ "name": "mrtr_two_inputs", "inputResponses": { "name": name } }),
    )
    .await;
    let asked: Vec<&String> = partial["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(asked, ["greeting"]);
    let greeting = json!({
        "role": "assistant", "model": "test-model", "stopReason": "endTurn",
        "content": { "type": "text", "text": "Hello!" }
    });
    let done = call_tool(
        &mut client,
        3,
        json!({ "name": "mrtr_two_inputs", "inputResponses": { "name": name, "greeting": greeting } }),
    )
    .await;
    assert_eq!(
        text(&done),
        "name: accept {\"name\":\"Ada\"}\ngreeting from model test-model: Hello!"
    );
}

#[tokio::test]
async fn mrtr_two_rounds_carries_request_state_and_refuses_tampering() {
    let mut client = start(Eras::Modern);
    let first = call_tool(&mut client, 1, json!({ "name": "mrtr_two_rounds" })).await;
    assert_eq!(
        first["result"]["inputRequests"]["city"]["method"],
        "elicitation/create"
    );
    let state1 = first["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    let second = call_tool(
        &mut client,
        2,
        json!({
            "name": "mrtr_two_rounds",
            "inputResponses": { "city": { "action": "accept", "content": { "city": "Lyon" } } },
            "requestState": state1
        }),
    )
    .await;
    let confirm = &second["result"]["inputRequests"]["confirm"];
    assert!(
        confirm["params"]["message"]
            .as_str()
            .unwrap()
            .contains("Lyon"),
        "{second}"
    );
    let state2 = second["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(state1, state2);

    // An altered state is refused.
    let mut forged = state2.clone();
    forged.insert(3, 'x');
    let refused = call_tool(
        &mut client,
        3,
        json!({
            "name": "mrtr_two_rounds",
            "inputResponses": { "confirm": { "action": "accept", "content": { "confirm": true } } },
            "requestState": forged
        }),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");

    let done = call_tool(
        &mut client,
        4,
        json!({
            "name": "mrtr_two_rounds",
            "inputResponses": { "confirm": { "action": "accept", "content": { "confirm": true } } },
            "requestState": state2
        }),
    )
    .await;
    assert_eq!(text(&done), "booked a trip to Lyon after 2 rounds");
}

#[tokio::test]
async fn input_kinds_the_client_did_not_declare_are_refused_with_32021() {
    let mut client = start(Eras::Modern);
    let response = client
        .request(
            1,
            "tools/call",
            json!({ "name": "mrtr_two_inputs", "_meta": meta(json!({ "elicitation": {} })) }),
        )
        .await;
    assert_eq!(response["error"]["code"], -32021, "{response}");
    assert_eq!(
        response["error"]["data"]["requiredCapabilities"],
        json!({ "sampling": {} })
    );
    let response = client
        .request(
            2,
            "tools/call",
            json!({ "name": "long_job", "_meta": meta(json!({})) }),
        )
        .await;
    assert_eq!(response["error"]["code"], -32021, "{response}");
    assert_eq!(
        response["error"]["data"]["requiredCapabilities"]["extensions"],
        json!({ "io.modelcontextprotocol/tasks": {} })
    );
}

#[tokio::test]
async fn listen_acknowledges_first_then_tags_every_notification() {
    let mut client = start(Eras::Dual);
    client
        .send(json!({
            "jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen",
            "params": with_meta(json!({
                "notifications": {
                    "toolsListChanged": true,
                    "resourceSubscriptions": ["demo://text/1", "demo://nope"]
                }
            }))
        }))
        .await;
    let ack = client
        .next_matching(|m| m["method"] == "notifications/subscriptions/acknowledged")
        .await;
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({ "toolsListChanged": true, "resourceSubscriptions": ["demo://text/1"] })
    );

    let toggled = call_tool(&mut client, 1, json!({ "name": "trigger_list_changed" })).await;
    assert!(
        text(&toggled).ends_with("sent to 1 listen stream(s)"),
        "{toggled}"
    );
    let changed = client
        .next_matching(|m| m["method"] == "notifications/tools/list_changed")
        .await;
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    let touched = call_tool(
        &mut client,
        2,
        json!({ "name": "touch_resource", "arguments": { "uri": "demo://text/1" } }),
    )
    .await;
    assert!(
        text(&touched).contains("to 1 listen stream(s)"),
        "{touched}"
    );
    let updated = client
        .next_matching(|m| m["method"] == "notifications/resources/updated")
        .await;
    assert_eq!(updated["params"]["uri"], "demo://text/1");
    assert_eq!(
        updated["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    let untouched = call_tool(
        &mut client,
        3,
        json!({ "name": "touch_resource", "arguments": { "uri": "demo://text/2" } }),
    )
    .await;
    assert!(
        text(&untouched).starts_with("no listen stream"),
        "{untouched}"
    );

    // Closing stdin ends the subscription gracefully: its final result.
    let rest = client.close().await;
    let closing = rest
        .iter()
        .find(|m| m["id"] == 7)
        .unwrap_or_else(|| panic!("no closing result in {rest:?}"));
    assert_eq!(closing["result"]["resultType"], "complete");
    assert_eq!(
        closing["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    assert!(
        !rest
            .iter()
            .any(|m| m["method"] == "notifications/resources/list_changed"),
        "a kind the stream did not ask for was sent: {rest:?}"
    );
}

#[tokio::test]
async fn cancelled_listen_stops_receiving() {
    let mut client = start(Eras::Modern);
    client
        .send(json!({
            "jsonrpc": "2.0", "id": "sub", "method": "subscriptions/listen",
            "params": with_meta(json!({ "notifications": { "promptsListChanged": true } }))
        }))
        .await;
    client
        .next_matching(|m| m["method"] == "notifications/subscriptions/acknowledged")
        .await;
    client
        .send(json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": { "requestId": "sub" }
        }))
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let toggled = call_tool(&mut client, 1, json!({ "name": "trigger_list_changed" })).await;
    assert!(
        text(&toggled).ends_with("sent to 0 listen stream(s)"),
        "{toggled}"
    );
}

async fn poll_until(client: &mut Client, id: &mut i64, task: &str, status: &str) -> Value {
    for _ in 0..200 {
        *id += 1;
        let got = call(client, *id, "tasks/get", json!({ "taskId": task })).await;
        if got["result"]["status"] == status {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {task} never reached {status}");
}

#[tokio::test]
async fn long_job_runs_as_a_task_with_progress_input_and_cancel() {
    let mut client = start(Eras::Modern);
    let created = call_tool(
        &mut client,
        1,
        json!({ "name": "long_job", "arguments": { "steps": 4, "step_ms": 30, "ask": true } }),
    )
    .await;
    let task = &created["result"];
    assert_eq!(task["resultType"], "task", "{created}");
    assert_eq!(task["status"], "working");
    assert_eq!(task["pollIntervalMs"], 500);
    assert_eq!(task["ttlMs"], 600_000);
    let task_id = task["taskId"].as_str().unwrap().to_string();

    let mut id = 10;
    let waiting = poll_until(&mut client, &mut id, &task_id, "input_required").await;
    let question = &waiting["result"]["inputRequests"]["continue"];
    assert_eq!(question["method"], "elicitation/create");
    assert!(
        waiting["result"]["statusMessage"]
            .as_str()
            .unwrap()
            .contains("step 2 of 4"),
        "{waiting}"
    );
    let ack = call(
        &mut client,
        100,
        "tasks/update",
        json!({
            "taskId": task_id,
            "inputResponses": { "continue": { "action": "accept", "content": { "continue": true } } }
        }),
    )
    .await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let done = poll_until(&mut client, &mut id, &task_id, "completed").await;
    assert_eq!(done["result"]["statusMessage"], "step 4 of 4 (100%)");
    assert_eq!(
        done["result"]["result"]["content"][0]["text"],
        "long_job finished all 4 steps"
    );

    // Another one, cancelled.
    let created = call_tool(
        &mut client,
        200,
        json!({ "name": "long_job", "arguments": { "steps": 100, "step_ms": 1000 } }),
    )
    .await;
    let task_id = created["result"]["taskId"].as_str().unwrap().to_string();
    let ack = call(
        &mut client,
        201,
        "tasks/cancel",
        json!({ "taskId": task_id }),
    )
    .await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let mut id = 300;
    poll_until(&mut client, &mut id, &task_id, "cancelled").await;
    let unknown = call(&mut client, 400, "tasks/get", json!({ "taskId": "nope" })).await;
    assert!(unknown.get("error").is_some(), "{unknown}");
}

#[tokio::test]
async fn emit_logs_honours_the_request_log_level() {
    let mut client = start(Eras::Modern);
    let mut params = with_meta(json!({ "name": "emit_logs" }));
    params["_meta"]["io.modelcontextprotocol/logLevel"] = json!("error");
    let response = client.request(1, "tools/call", params).await;
    assert_eq!(text(&response), "sent 4 log messages");
    let mut levels = Vec::new();
    for _ in 0..4 {
        let log = client
            .next_matching(|m| m["method"] == "notifications/message")
            .await;
        levels.push(log["params"]["level"].as_str().unwrap().to_string());
    }
    assert_eq!(levels, ["error", "critical", "alert", "emergency"]);
    // Without a level, no log messages at all (spec: server/utilities/logging).
    let response = call_tool(&mut client, 2, json!({ "name": "emit_logs" })).await;
    assert!(
        text(&response).starts_with("sent 0 log messages"),
        "{response}"
    );
    let mut params = with_meta(json!({ "name": "emit_logs" }));
    params["_meta"]["io.modelcontextprotocol/logLevel"] = json!("loud");
    let response = client.request(3, "tools/call", params).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    let rest = client.close().await;
    assert!(
        !rest.iter().any(|m| m["method"] == "notifications/message"),
        "log messages without a log level: {rest:?}"
    );
}

#[tokio::test]
async fn header_tools_are_listed_with_their_annotations() {
    let mut client = start(Eras::Modern);
    let tools = call(&mut client, 1, "tools/list", json!({})).await;
    let find = |name: &str| {
        tools["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == name)
            .cloned()
            .unwrap()
    };
    let lookup = find("regional_lookup");
    assert_eq!(
        lookup["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region"
    );
    let broken = find("broken_headers");
    assert_eq!(
        broken["inputSchema"]["properties"]["b"]["x-mcp-header"],
        "dup"
    );
    // Over stdio there are no headers to mirror.
    let response = call_tool(
        &mut client,
        2,
        json!({ "name": "regional_lookup", "arguments": { "region": "eu-west1", "query": "q" } }),
    )
    .await;
    assert!(
        text(&response).contains("(none: not over Streamable HTTP"),
        "{response}"
    );
}
