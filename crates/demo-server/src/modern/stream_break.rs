//! `break_next_stream`: lets a client see how it copes with a response
//! stream that breaks before its answer, which 2026-07-28 never resumes.
//!
//! The tool arms a method; the next modern Streamable HTTP request for it is
//! still served (the server does the work: a tool call's effect happens), but
//! its answer is replaced by an SSE stream that says so in a comment and ends
//! before the response. Only HTTP has response streams: over stdio the tool
//! arms nothing anyone will hit.

use std::{
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderValue, header},
    middleware::Next,
    response::Response,
};
use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations, object};
use serde_json::{Value, json};

use super::ModernState;
use crate::tool_result::{error_result, text_result};

pub const BREAK_NEXT_STREAM: &str = "break_next_stream";
/// Arms waiting at once; a client that arms more is told no.
const MAX_ARMED: usize = 16;
/// How long the cut answer waits for the served one, so a slow handler does
/// not keep the connection (the answer is thrown away anyway).
const SERVE_WAIT: Duration = Duration::from_secs(30);

/// The methods whose next modern HTTP request gets a broken stream, one per
/// entry, oldest first.
#[derive(Debug, Default)]
pub struct Armed(Mutex<Vec<String>>);

impl Armed {
    fn arm(&self, method: &str) -> Result<usize, usize> {
        let mut armed = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if armed.len() >= MAX_ARMED {
            return Err(armed.len());
        }
        armed.push(method.to_string());
        Ok(armed.iter().filter(|m| *m == method).count())
    }

    /// Takes one arm for `method`, if there is one.
    fn take(&self, method: &str) -> bool {
        let mut armed = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match armed.iter().position(|m| m == method) {
            Some(at) => {
                armed.remove(at);
                true
            }
            None => false,
        }
    }
}

pub fn tool() -> Tool {
    Tool::new(
        BREAK_NEXT_STREAM,
        "Streamable HTTP, 2026-07-28: the next request for `method` is served, but its response \
         stream ends before the answer (an SSE comment, then the end). Shows how a client copes: \
         a request that only reads (tools/list, resources/read, …) may be sent again as a new \
         request; a tools/call may not, its effect has happened. Each call breaks one request.",
        object(json!({
            "type": "object",
            "properties": {
                "method": {
                    "type": "string",
                    "description": "The JSON-RPC method whose next request breaks.",
                    "default": "tools/list"
                }
            }
        })),
    )
    .with_title("Break the next response stream")
    .with_annotations(
        ToolAnnotations::with_title("Break the next response stream")
            .read_only(false)
            .destructive(false)
            .idempotent(false)
            .open_world(false),
    )
}

pub fn call(args: &JsonObject, armed: &Armed) -> CallToolResult {
    let method = match args.get("method") {
        None => "tools/list",
        Some(Value::String(m)) if !m.trim().is_empty() => m.as_str(),
        Some(_) => return error_result("invalid arguments: method must be a non-empty string"),
    };
    match armed.arm(method) {
        Ok(count) => text_result(format!(
            "the next {count} modern HTTP request(s) for {method} will get a response stream \
             that ends before the answer (over stdio nothing breaks)"
        )),
        Err(count) => error_result(format!(
            "{count} broken streams are already waiting to happen; call {method} first"
        )),
    }
}

/// The `/mcp` layer: a modern POST for an armed method (its `Mcp-Method`
/// header; the version header tells it is modern) is served, and its answer
/// replaced by a stream cut before the response.
pub async fn cut_if_armed(
    State(modern): State<Arc<ModernState>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let method = headers
        .get("mcp-method")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let is_modern = headers.contains_key("mcp-protocol-version")
        && request.method() == axum::http::Method::POST;
    let Some(method) = method.filter(|m| is_modern && modern.stream_breaks.take(m)) else {
        return next.run(request).await;
    };
    tracing::info!(%method, "break_next_stream: cutting this request's response stream");
    // Served for real, so that what the client cannot know (did it happen?) is true.
    let served = tokio::time::timeout(SERVE_WAIT, next.run(request)).await;
    drop(served);
    let mut cut = Response::new(Body::from(format!(
        ": break_next_stream: this {method} response stream ends before its answer\n\n"
    )));
    cut.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    cut.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_arm_breaks_one_request_of_its_method() {
        let armed = Armed::default();
        assert_eq!(armed.arm("tools/list"), Ok(1));
        assert_eq!(armed.arm("tools/list"), Ok(2));
        assert!(!armed.take("tools/call"));
        assert!(armed.take("tools/list"));
        assert!(armed.take("tools/list"));
        assert!(!armed.take("tools/list"));
    }
}
