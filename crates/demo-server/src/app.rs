//! The demo's MCP App (extension `io.modelcontextprotocol/ui`, ext-apps
//! 2026-01-26): the `calculator_app` tool, the app-only `calculator_log`
//! tool and the `ui://periscope-demo/calculator.html` page they render in.
//!
//! The tool links to its page (`_meta.ui.resourceUri`) only for a client that
//! declared the extension — in its `initialize` capabilities (legacy era) or
//! in the request's `_meta` client capabilities (2026-07-28) — as the spec
//! asks servers to check; a client without it gets the same tool as a plain
//! text tool. Both tools are always listed, so the tool count does not depend
//! on the client.
//!
//! The page is hand-written HTML with an inline script that speaks the raw
//! host↔view JSON-RPC over `postMessage` (no SDK), so what crosses the frame
//! boundary is readable in the page itself.

use rmcp::model::{
    CallToolResult, ClientCapabilities, ContentBlock, JsonObject, MetaObject, Resource,
    ResourceContents, Tool, ToolAnnotations, object,
};
use serde_json::{Value, json};

use crate::{
    addition,
    state::DemoState,
    tool_result::{error_result, text_result},
};

/// The extension id a client declares in `capabilities.extensions`.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an MCP App's HTML.
pub const APP_MIME: &str = "text/html;profile=mcp-app";
/// The calculator page.
pub const CALCULATOR_URI: &str = "ui://periscope-demo/calculator.html";
/// The tool that renders in the calculator page.
pub const CALCULATOR_APP: &str = "calculator_app";
/// The tool only the page may call (`visibility: ["app"]`).
pub const CALCULATOR_LOG: &str = "calculator_log";

const TITLE: &str = "Calculator app";
const PAGE: &str = include_str!("app/calculator.html");

/// Whether `capabilities` declare the MCP Apps extension.
pub fn declared(capabilities: Option<&ClientCapabilities>) -> bool {
    capabilities
        .and_then(|capabilities| capabilities.extensions.as_ref())
        .is_some_and(|extensions| extensions.contains_key(UI_EXTENSION))
}

/// The two tools, as listed to a client without the extension.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            CALCULATOR_APP,
            "Adds two numbers and shows them in an interactive calculator (an MCP App, \
             ui://periscope-demo/calculator.html) that calls the server's add tool back, asks to \
             open a link, to go fullscreen and to send a chat message.",
            addition::addends_schema(),
        )
        .with_title(TITLE)
        .with_raw_output_schema(addition::sum_schema())
        .with_annotations(
            ToolAnnotations::with_title(TITLE)
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            CALCULATOR_LOG,
            "Records a sum the calculator app computed. Only the app calls it (visibility \
             [\"app\"]): a host must not offer it to a model.",
            object(json!({
                "type": "object",
                "properties": { "sum": { "type": "number", "description": "The sum to record." } },
                "required": ["sum"]
            })),
        )
        .with_title("Calculator log")
        .with_meta(ui_meta(json!({ "visibility": ["app"] })))
        .with_annotations(
            ToolAnnotations::with_title("Calculator log")
                .read_only(false)
                .destructive(false)
                .idempotent(false)
                .open_world(false),
        ),
    ]
}

/// Links `calculator_app` in `tools` to its page when the client declared
/// the extension; otherwise leaves the list as it is.
pub fn link(tools: &mut [Tool], capabilities: Option<&ClientCapabilities>) {
    if !declared(capabilities) {
        return;
    }
    if let Some(tool) = tools.iter_mut().find(|tool| tool.name == CALCULATOR_APP) {
        tool.meta = Some(ui_meta(json!({ "resourceUri": CALCULATOR_URI })));
    }
}

fn ui_meta(ui: Value) -> MetaObject {
    let mut meta = JsonObject::new();
    meta.insert("ui".to_string(), ui);
    MetaObject(meta)
}

/// The page's `resources/list` entry. No `csp`: the host's default (no
/// network) is all the page needs.
pub fn resource() -> Resource {
    Resource::new(CALCULATOR_URI, "calculator.html")
        .with_title(TITLE)
        .with_description(
            "The calculator_app tool's MCP App: an HTML page that talks to the host over \
             postMessage.",
        )
        .with_mime_type(APP_MIME)
        .with_size(PAGE.len() as u64)
        .with_meta(ui_meta(json!({ "prefersBorder": true })))
}

/// The page, as `resources/read` returns it.
pub fn contents() -> ResourceContents {
    ResourceContents::text(PAGE, CALCULATOR_URI).with_mime_type(APP_MIME)
}

/// `calculator_app {a, b}`: the sum, as text and as structured content.
pub fn calculator_app(args: &JsonObject) -> CallToolResult {
    let sum = match addition::sum(args) {
        Ok(sum) => sum,
        Err(error) => return error_result(format!("invalid arguments: {error}")),
    };
    let (a, b) = (&args["a"], &args["b"]);
    let mut result =
        CallToolResult::success(vec![ContentBlock::text(format!("{a} + {b} = {sum}"))]);
    result.structured_content = Some(json!({ "sum": sum }));
    result
}

/// `calculator_log {sum}`: counts the sums logged in this session.
pub fn calculator_log(state: &DemoState, args: &JsonObject) -> CallToolResult {
    match args.get("sum") {
        Some(Value::Number(sum)) => {
            let count = state.log_sum();
            text_result(format!("logged {sum} ({count} so far)"))
        }
        Some(_) => error_result("invalid arguments: sum must be a number"),
        None => error_result("invalid arguments: sum is required"),
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::ExtensionCapabilities;

    use super::*;

    fn with_extension() -> ClientCapabilities {
        let mut extensions = ExtensionCapabilities::new();
        extensions.insert(
            UI_EXTENSION.to_string(),
            object(json!({ "mimeTypes": [APP_MIME] })),
        );
        let mut capabilities = ClientCapabilities::default();
        capabilities.extensions = Some(extensions);
        capabilities
    }

    #[test]
    fn the_link_is_added_only_for_a_client_with_the_extension() {
        let mut listed = tools();
        link(&mut listed, Some(&ClientCapabilities::default()));
        assert!(listed[0].meta.is_none());
        link(&mut listed, None);
        assert!(listed[0].meta.is_none());
        link(&mut listed, Some(&with_extension()));
        let meta = serde_json::to_value(&listed[0].meta).unwrap();
        assert_eq!(meta, json!({ "ui": { "resourceUri": CALCULATOR_URI } }));
        let log = serde_json::to_value(&listed[1].meta).unwrap();
        assert_eq!(log, json!({ "ui": { "visibility": ["app"] } }));
    }

    #[test]
    fn calculator_app_answers_with_text_and_structured_sum() {
        let result = calculator_app(&object(json!({ "a": 2, "b": 3.5 })));
        assert_eq!(result.structured_content, Some(json!({ "sum": 5.5 })));
        assert_eq!(result.content[0].as_text().unwrap().text, "2 + 3.5 = 5.5");
        assert_eq!(
            calculator_app(&object(json!({ "a": 2 }))).is_error,
            Some(true)
        );
    }

    #[test]
    fn calculator_log_counts() {
        let state = DemoState::default();
        let args = object(json!({ "sum": 5 }));
        let text = |r: CallToolResult| r.content[0].as_text().unwrap().text.clone();
        assert_eq!(text(calculator_log(&state, &args)), "logged 5 (1 so far)");
        assert_eq!(text(calculator_log(&state, &args)), "logged 5 (2 so far)");
        assert_eq!(
            calculator_log(&state, &JsonObject::new()).is_error,
            Some(true)
        );
    }

    #[test]
    fn the_page_carries_every_control_the_contract_names() {
        for id in [
            "calc-a",
            "calc-b",
            "calc-add",
            "calc-sum",
            "calc-log",
            "calc-input",
            "calc-result",
            "calc-open-link",
            "calc-link-status",
            "calc-fullscreen",
            "calc-mode",
            "calc-message",
            "calc-message-status",
            "calc-theme",
        ] {
            assert!(
                PAGE.contains(&format!("data-testid=\"{id}\"")),
                "{id} missing"
            );
        }
    }
}
