//! What the demo does for modern (2026-07-28) requests, on top of what rmcp
//! serves itself.
//!
//! rmcp 3.11 implements the protocol machinery of 2026-07-28: `server/discover`,
//! per-request `_meta` checks (-32602), -32022 with `data.supported`,
//! `resultType`, `input_required` results, the tasks extension methods, the
//! `subscriptions/listen` acknowledgement and tagging, and on Streamable HTTP
//! the header checks (-32020 / 400), 404 for unknown methods and stateless
//! serving without sessions. This module adds the demo's side: the modern
//! tool list and its tools ([`mrtr`], [`tasks`], [`header_tool`]), the
//! process-wide state stateless requests share, listen streams
//! ([`listen`]) and caching hints ([`caching`]).

pub mod caching;
pub mod header_tool;
pub mod listen;
pub mod mrtr;
pub mod request_state;
pub mod stream_break;
pub mod tasks;

use std::{fmt, sync::Arc};

use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolRequestParams, CallToolResponse, DiscoverResult, JsonObject, LoggingLevel,
        ServerConfig, Tool,
    },
    service::RequestContext,
    task_manager::TaskManager,
};
use serde_json::Value;

use crate::{
    era::Eras,
    resources,
    state::DemoState,
    tool_result::{error_result, text_result},
    tools,
};

/// Legacy tools that send requests to the client (elicitation, sampling,
/// roots) or rely on notifications 2026-07-28 removed: not offered to modern
/// requests, where the `mrtr_*` tools take their place.
pub const LEGACY_ONLY_TOOLS: [&str; 5] = [
    "elicit_form",
    "elicit_url",
    "needs_authorization",
    "sample",
    "list_roots",
];

const INSTRUCTIONS: &str = "This is the Periscope demo server, a test fixture for MCP clients \
and inspectors, here in the stateless 2026-07-28 era. Multi round-trip input: mrtr_form (one \
elicitation), mrtr_two_inputs (elicitation + sampling in one round), mrtr_two_rounds (two rounds \
with requestState). Tasks: long_job (extension io.modelcontextprotocol/tasks). HTTP header \
mirroring: regional_lookup (x-mcp-header; broken_headers is invalid on purpose). A broken \
response stream over HTTP: break_next_stream. Change \
notifications arrive on subscriptions/listen: trigger_list_changed toggles the bonus items, \
touch_resource marks a resource updated. Lists and reads carry ttlMs and cacheScope. Two Agent \
Skills (release-notes, arithmetic) are served by skills/list, skills/get and \
resources/directory/read. Nothing it does has side effects outside this process.";

/// What every modern request of the process shares: stateless HTTP serves
/// each request with a fresh handler, so the bonus toggle, the tasks, the
/// open listen streams and the `requestState` key live here.
#[derive(Default)]
pub struct ModernState {
    pub demo: Arc<DemoState>,
    pub tasks: TaskManager,
    pub listeners: listen::Listeners,
    pub state_key: request_state::StateKey,
    /// Methods whose next HTTP request gets a broken response stream.
    pub stream_breaks: stream_break::Armed,
}

impl fmt::Debug for ModernState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModernState")
            .field("bonus", &self.demo.bonus())
            .field("running_tasks", &self.tasks.running_task_count())
            .finish_non_exhaustive()
    }
}

/// The tools listed to modern requests, in listing order.
pub fn tools(bonus: bool) -> Vec<Tool> {
    let mut list: Vec<Tool> = tools::all(false)
        .into_iter()
        .filter(|tool| !LEGACY_ONLY_TOOLS.contains(&tool.name.as_ref()))
        .collect();
    list.extend(mrtr::tools());
    list.push(tasks::tool());
    list.push(header_tool::regional_lookup_tool());
    list.push(header_tool::broken_headers_tool());
    list.push(stream_break::tool());
    if bonus {
        list.extend(tools::find(tools::BONUS_TOOL, true));
    }
    list
}

/// The `server/discover` result: the versions of `eras`, the server's
/// identity and capabilities, and instructions for the modern tools.
pub fn discover(eras: Eras, info: ServerConfig) -> DiscoverResult {
    let mut result = DiscoverResult::from_server_info(eras.supported_versions().into_owned(), info);
    result.instructions = Some(INSTRUCTIONS.to_string());
    caching::discover(result)
}

/// Runs tool `request.name` for a modern request. `Err` is a protocol error
/// (unknown tool, -32021, a refused `requestState`).
pub async fn call(
    shared: &ModernState,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, McpError> {
    let capabilities = context.client_capabilities();
    let args = request.arguments.clone().unwrap_or_default();
    let name = request.name.as_ref();
    if let Some(outcome) = mrtr::call(name, request, capabilities.as_ref(), &shared.state_key) {
        return outcome;
    }
    let result = match name {
        tasks::LONG_JOB => return tasks::call(&args, capabilities.as_ref(), &shared.tasks),
        header_tool::REGIONAL_LOOKUP => header_tool::regional_lookup(&args, context),
        header_tool::BROKEN_HEADERS => header_tool::broken_headers(),
        stream_break::BREAK_NEXT_STREAM => stream_break::call(&args, &shared.stream_breaks),
        "trigger_list_changed" => trigger_list_changed(shared).await,
        "touch_resource" => touch_resource(shared, &args).await,
        "emit_logs" => match request_log_level(context)? {
            Some(level) => tools::emit_logs(Some(level), context).await,
            None => text_result(
                "sent 0 log messages: the request did not set io.modelcontextprotocol/logLevel",
            ),
        },
        legacy if LEGACY_ONLY_TOOLS.contains(&legacy) => return Err(unknown_tool(legacy)),
        other => {
            return tools::call(&shared.demo, other, &args, context)
                .await
                .map(Into::into);
        }
    };
    Ok(result.into())
}

fn unknown_tool(name: &str) -> McpError {
    McpError::invalid_params(
        format!("Unknown tool: {name} (not offered in the 2026-07-28 era)"),
        Some(serde_json::json!({ "tool": name })),
    )
}

const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";

/// The per-request minimum log level (`_meta` `io.modelcontextprotocol/logLevel`),
/// which replaces `logging/setLevel` in 2026-07-28. Without it a request gets
/// no log messages at all; an unknown level is -32602 (server/utilities/logging).
fn request_log_level(
    context: &RequestContext<RoleServer>,
) -> Result<Option<LoggingLevel>, McpError> {
    match (context.meta.get(LOG_LEVEL_KEY), context.meta.log_level()) {
        (None, _) => Ok(None),
        (Some(_), Some(level)) => Ok(Some(level)),
        (Some(value), None) => Err(McpError::invalid_params(
            format!("{LOG_LEVEL_KEY} is not a log level: {value}"),
            None,
        )),
    }
}

async fn trigger_list_changed(shared: &ModernState) -> rmcp::model::CallToolResult {
    let present = shared.demo.toggle_bonus();
    let reach = shared.listeners.lists_changed().await;
    let what = if present { "present" } else { "absent" };
    text_result(format!(
        "bonus items are now {what} (tool \"bonus\", resource demo://bonus, prompt \
         \"bonus_prompt\"); list_changed sent to {} listen stream(s)",
        reach.notified
    ))
}

async fn touch_resource(shared: &ModernState, args: &JsonObject) -> rmcp::model::CallToolResult {
    let Some(uri) = args.get("uri").and_then(Value::as_str) else {
        return error_result("invalid arguments: uri (a string) is required");
    };
    if !resources::exists(uri, shared.demo.bonus()) {
        return error_result(format!("no such resource: {uri}"));
    }
    let reach = shared.listeners.resource_updated(uri).await;
    if reach.notified == 0 {
        text_result(format!(
            "no listen stream is subscribed to {uri}; no notification was sent"
        ))
    } else {
        text_result(format!(
            "sent notifications/resources/updated for {uri} to {} listen stream(s)",
            reach.notified
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modern_tool_names_are_stable() {
        let names: Vec<_> = tools(true).into_iter().map(|tool| tool.name).collect();
        assert_eq!(
            names,
            [
                "echo",
                "add",
                "create_order",
                "mixed_content",
                "slow_task",
                "fail",
                "emit_logs",
                "trigger_list_changed",
                "touch_resource",
                "calculator_app",
                "calculator_log",
                "mrtr_form",
                "mrtr_two_inputs",
                "mrtr_two_rounds",
                "long_job",
                "regional_lookup",
                "broken_headers",
                "break_next_stream",
                "bonus"
            ]
        );
    }
}
