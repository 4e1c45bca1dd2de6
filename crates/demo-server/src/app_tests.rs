//! The calculator MCP App over the real stdio transport, in both eras: the
//! tool links to its page only for a client that declared the extension
//! (legacy: `initialize` capabilities; 2026-07-28: the request's `_meta`
//! client capabilities), the page reads with the app MIME type, and the
//! app-only tool says so.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::{
    app::{APP_MIME, CALCULATOR_URI, UI_EXTENSION},
    e2e_tests::Client,
    era::Eras,
    server::DemoServer,
};

const MODERN: &str = "2026-07-28";

fn capabilities(with_extension: bool) -> Value {
    if with_extension {
        json!({ "extensions": { UI_EXTENSION: { "mimeTypes": [APP_MIME] } } })
    } else {
        json!({ "sampling": {} })
    }
}

/// A legacy session opened with `initialize` declaring `capabilities`.
async fn legacy(capabilities: Value) -> Client {
    let mut client = Client::start_with(DemoServer::new());
    let init = client
        .request(
            0,
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": capabilities,
                "clientInfo": { "name": "app-tests", "version": "0" }
            }),
        )
        .await;
    assert!(init["result"].is_object(), "{init}");
    client
        .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .await;
    client
}

fn modern_params(mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": { "name": "app-tests", "version": "0" }
    });
    params
}

fn tool<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools in {list}"))
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("{name} not listed in {list}"))
}

/// What both eras must show: the link only with the extension, the app-only
/// tool's visibility always, the page with the app MIME type, the tool's
/// text and structured result.
fn check_listing(with: &Value, without: &Value) {
    let app = tool(with, "calculator_app");
    assert_eq!(app["_meta"]["ui"]["resourceUri"], CALCULATOR_URI, "{app}");
    assert_eq!(app["title"], "Calculator app");
    assert_eq!(
        app["outputSchema"]["properties"]["sum"]["type"], "number",
        "{app}"
    );
    let plain = tool(without, "calculator_app");
    assert!(plain.get("_meta").is_none(), "{plain}");
    for list in [with, without] {
        let log = tool(list, "calculator_log");
        assert_eq!(log["_meta"]["ui"]["visibility"], json!(["app"]), "{log}");
    }
}

fn check_read(read: &Value) {
    let contents = &read["result"]["contents"];
    assert_eq!(contents.as_array().map(Vec::len), Some(1), "{read}");
    assert_eq!(contents[0]["uri"], CALCULATOR_URI);
    assert_eq!(contents[0]["mimeType"], APP_MIME);
    let html = contents[0]["text"].as_str().unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("ui/initialize"));
}

fn check_call(call: &Value) {
    assert_eq!(
        call["result"]["content"][0]["text"], "2 + 40 = 42",
        "{call}"
    );
    assert_eq!(call["result"]["structuredContent"], json!({ "sum": 42 }));
}

#[tokio::test]
async fn a_client_with_the_ui_extension_sees_calculator_app_with_its_resource_and_one_without_does_not()
 {
    let mut with = legacy(capabilities(true)).await;
    let mut without = legacy(capabilities(false)).await;
    let listed_with = with.request(1, "tools/list", json!({})).await;
    let listed_without = without.request(1, "tools/list", json!({})).await;
    check_listing(&listed_with, &listed_without);

    let resources = with.request(2, "resources/list", json!({})).await;
    let mut cursor = resources["result"]["nextCursor"].clone();
    let mut all = resources["result"]["resources"].as_array().unwrap().clone();
    let mut id = 3;
    while let Some(next) = cursor.as_str().map(str::to_string) {
        let page = with
            .request(id, "resources/list", json!({ "cursor": next }))
            .await;
        all.extend(page["result"]["resources"].as_array().unwrap().clone());
        cursor = page["result"]["nextCursor"].clone();
        id += 1;
    }
    let page = all
        .iter()
        .find(|resource| resource["uri"] == CALCULATOR_URI)
        .expect("the page is listed");
    assert_eq!(page["name"], "calculator.html");
    assert_eq!(page["title"], "Calculator app");
    assert_eq!(page["mimeType"], APP_MIME);
    assert_eq!(page["_meta"], json!({ "ui": { "prefersBorder": true } }));

    check_read(
        &with
            .request(20, "resources/read", json!({ "uri": CALCULATOR_URI }))
            .await,
    );
    let call = json!({ "name": "calculator_app", "arguments": { "a": 2, "b": 40 } });
    check_call(&without.request(21, "tools/call", call).await);
    let log = json!({ "name": "calculator_log", "arguments": { "sum": 42 } });
    let logged = with.request(22, "tools/call", log.clone()).await;
    assert_eq!(
        logged["result"]["content"][0]["text"],
        "logged 42 (1 so far)"
    );
    let logged = with.request(23, "tools/call", log).await;
    assert_eq!(
        logged["result"]["content"][0]["text"],
        "logged 42 (2 so far)"
    );
}

#[tokio::test]
async fn in_2026_07_28_the_link_follows_each_requests_client_capabilities() {
    let mut client = Client::start_with(DemoServer::with_eras(Eras::Dual, Arc::default()));
    let listed_with = client
        .request(
            1,
            "tools/list",
            modern_params(json!({}), capabilities(true)),
        )
        .await;
    let listed_without = client
        .request(
            2,
            "tools/list",
            modern_params(json!({}), capabilities(false)),
        )
        .await;
    check_listing(&listed_with, &listed_without);
    check_read(
        &client
            .request(
                3,
                "resources/read",
                modern_params(json!({ "uri": CALCULATOR_URI }), capabilities(true)),
            )
            .await,
    );
    let call = json!({ "name": "calculator_app", "arguments": { "a": 2, "b": 40 } });
    check_call(
        &client
            .request(4, "tools/call", modern_params(call, capabilities(false)))
            .await,
    );
}
