//! Tools whose arguments travel as HTTP headers too (`x-mcp-header`; spec:
//! server/tools and basic/transports/streamable-http, "Custom Headers from
//! Tool Parameters").
//!
//! Over Streamable HTTP, rmcp checks each annotated argument against its
//! `Mcp-Param-{name}` header before the tool runs (400 with -32020 on a
//! mismatch). `regional_lookup` then reports the headers it received, so a
//! client can see what it sent; `broken_headers` carries annotations a client
//! must refuse, so an inspector can show how it flags such a tool.

use axum::http::request::Parts;
use rmcp::{
    RoleServer,
    model::{CallToolResult, JsonObject, Tool, ToolAnnotations, object},
    service::RequestContext,
};
use serde_json::{Value, json};

use crate::tool_result::{error_result, text_result};

pub const REGIONAL_LOOKUP: &str = "regional_lookup";
pub const BROKEN_HEADERS: &str = "broken_headers";

const PARAM_HEADER_PREFIX: &str = "mcp-param-";

pub fn regional_lookup_tool() -> Tool {
    Tool::new(
        REGIONAL_LOOKUP,
        "Looks a query up in a region. `region`, `tenant` and `dry_run` are mirrored as the HTTP \
         headers Mcp-Param-Region, Mcp-Param-Tenant and Mcp-Param-DryRun (x-mcp-header); the \
         result lists the Mcp-Param-* headers the server received.",
        object(json!({
            "type": "object",
            "properties": {
                "region": {
                    "type": "string",
                    "description": "Region to run in, e.g. eu-west1.",
                    "x-mcp-header": "Region"
                },
                "tenant": {
                    "type": "integer",
                    "description": "Tenant number.",
                    "x-mcp-header": "Tenant"
                },
                "dry_run": {
                    "type": "boolean",
                    "description": "Only pretend.",
                    "x-mcp-header": "DryRun"
                },
                "query": { "type": "string", "description": "What to look up (not mirrored)." }
            },
            "required": ["region", "query"]
        })),
    )
    .with_title("Regional lookup")
    .with_annotations(
        ToolAnnotations::with_title("Regional lookup")
            .read_only(true)
            .idempotent(true)
            .open_world(false),
    )
}

/// Invalid on purpose: the same header name twice (case-insensitively) and
/// one on an object-typed property. The spec says a client must not offer
/// this tool over HTTP.
pub fn broken_headers_tool() -> Tool {
    Tool::new(
        BROKEN_HEADERS,
        "Carries invalid x-mcp-header annotations on purpose (a duplicate header name and one on \
         an object property): a client on Streamable HTTP must refuse to call it.",
        object(json!({
            "type": "object",
            "properties": {
                "a": { "type": "string", "x-mcp-header": "Dup" },
                "b": { "type": "string", "x-mcp-header": "dup" },
                "nested": {
                    "type": "object",
                    "x-mcp-header": "Nested",
                    "properties": {}
                }
            }
        })),
    )
    .with_title("Broken header annotations")
    .with_annotations(
        ToolAnnotations::with_title("Broken header annotations")
            .read_only(true)
            .idempotent(true)
            .open_world(false),
    )
}

pub fn regional_lookup(args: &JsonObject, context: &RequestContext<RoleServer>) -> CallToolResult {
    let Some(region) = args.get("region").and_then(Value::as_str) else {
        return error_result("invalid arguments: region (a string) is required");
    };
    let Some(query) = args.get("query").and_then(Value::as_str) else {
        return error_result("invalid arguments: query (a string) is required");
    };
    let tenant = args
        .get("tenant")
        .map_or("(none)".to_string(), Value::to_string);
    let dry_run = args
        .get("dry_run")
        .map_or("(none)".to_string(), Value::to_string);
    let headers = received_param_headers(context);
    let headers = if headers.is_empty() {
        "(none: not over Streamable HTTP, or none sent)".to_string()
    } else {
        headers.join("\n")
    };
    text_result(format!(
        "looked up {query:?} in region {region}, tenant {tenant}, dry_run {dry_run}\n\
         Mcp-Param-* headers received:\n{headers}"
    ))
}

pub fn broken_headers() -> CallToolResult {
    text_result("broken_headers ran: a client should not have offered this call over HTTP")
}

/// The `Mcp-Param-*` headers of the HTTP request that carried this call,
/// as `name: value` lines (rmcp puts the request's parts in the extensions).
fn received_param_headers(context: &RequestContext<RoleServer>) -> Vec<String> {
    let Some(parts) = context.extensions.get::<Parts>() else {
        return Vec::new();
    };
    let mut lines: Vec<String> = parts
        .headers
        .iter()
        .filter(|(name, _)| name.as_str().starts_with(PARAM_HEADER_PREFIX))
        .map(|(name, value)| {
            format!(
                "{}: {}",
                name.as_str(),
                String::from_utf8_lossy(value.as_bytes())
            )
        })
        .collect();
    lines.sort();
    lines
}
