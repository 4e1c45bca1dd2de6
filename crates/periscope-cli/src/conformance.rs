//! `periscope conformance-client URL`: the client side of the official MCP conformance suite.
//! The suite starts a mock server per scenario, runs this command with the scenario's name in
//! `MCP_CONFORMANCE_SCENARIO`, and judges what went over the wire. The handshake happened
//! already (in `run`); here is what each scenario asks a client to do next, and nothing more.

use async_trait::async_trait;
use periscope_core::session::{
    CallOptions, HostHandler, RequestError, RpcError, ServerRequest, ServerRequestKind, Session,
};
use serde_json::{Map, Value, json};

use crate::exit::Exit;
use crate::output::exit_for;

pub async fn run(session: &Session) -> Exit {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let call = |name: &'static str, args: Value| async move {
        let arguments = args.as_object().cloned().unwrap_or_default();
        session
            .call_tool(name, arguments, CallOptions::default())
            .await
    };
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let result = match scenario.as_str() {
        "tools_call" => call("add_numbers", json!({"a": 5, "b": 3})).await,
        // 2026-07-28: every request's metadata and headers are what is judged; discovery (with
        // the version retry) happened in the handshake.
        "request-metadata" | "json-schema-ref-no-deref" => {
            session.list_tools().await.map(|_| Value::Null)
        }
        "sep-2322-client-request-state" => call_every_tool(session, &|_| json!({})).await,
        "http-invalid-tool-headers" => {
            // Periscope refuses the tools with broken annotations itself: trying them all
            // shows that only the valid one reaches the server.
            call_every_tool(session, &|_| json!({"region": "us-west1"})).await
        }
        "http-standard-headers" => exercise_every_kind(session).await,
        "json-schema-2020-12-preservation" => echo_schema(session).await,
        _ if context.get("toolCalls").is_some() => context_calls(session, &context).await,
        "elicitation-sep1034-client-defaults" => {
            call("test_client_elicitation_defaults", json!({})).await
        }
        "sse-retry" => call("test_reconnection", json!({})).await,
        // Skills (SEP-2640): a host lists the skills and fetches nothing more until a skill
        // is loaded ...
        "sep-2640-client-no-prefetch" => session.list_skills().await.map(|_| Value::Null),
        // ... and when one is, verifies its SKILL.md (digest, size, frontmatter) before it
        // reads on into the skill's files.
        s if s.starts_with("sep-2640-client-verify-") => load_first_skill(session).await,
        // The authorization scenarios: sign in (on the first 401), list, call the one tool.
        s if s.starts_with("auth/") => match session.list_tools().await {
            Ok(tools) if tools.iter().any(|t| t["name"] == "test-tool") => {
                call("test-tool", json!({})).await
            }
            Ok(_) => Ok(Value::Null),
            Err(e) => Err(e),
        },
        // `initialize` and anything unknown: the handshake is the whole job.
        _ => Ok(Value::Null),
    };
    match result {
        Ok(_) => Exit::Ok,
        Err(e) => {
            tell!("periscope: conformance scenario {scenario:?}: {e}");
            exit_for(&e)
        }
    }
}

/// Loads the first listed skill as a user's click would: its SKILL.md read and verified, then,
/// only if it loaded, each of its other files, each verified. A refusal ends it (said on
/// stderr): the scenario judges what was read after it.
async fn load_first_skill(session: &Session) -> Result<Value, RequestError> {
    let listing = session.list_skills().await?;
    let Some(entry) = listing.skills.first() else {
        return Ok(Value::Null);
    };
    let loaded = session.load_skill(entry).await?;
    if let Some(refusal) = &loaded.refusal {
        tell!(
            "periscope: skill not loaded: {}",
            refusal.describe(&entry.uri)
        );
        return Ok(Value::Null);
    }
    for file in entry.resources.iter().flatten() {
        if file.uri == entry.uri {
            continue;
        }
        let read = session.read_skill_file(entry, &file.uri).await?;
        if !read.check.passed() {
            tell!("periscope: {}", read.check.describe(&file.uri));
            break;
        }
    }
    Ok(Value::Null)
}

/// Lists the tools and calls each, with arguments from `args`; a call Periscope refuses (a
/// tool with broken header annotations) is not an error here.
async fn call_every_tool(
    session: &Session,
    args: &dyn Fn(&Value) -> Value,
) -> Result<Value, RequestError> {
    for tool in session.list_tools().await? {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let arguments = args(&tool).as_object().cloned().unwrap_or_default();
        match session
            .call_tool(name, arguments, CallOptions::default())
            .await
        {
            Ok(_) | Err(RequestError::Refused { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Value::Null)
}

/// One request of each kind that carries a name: tools, resources, prompts.
async fn exercise_every_kind(session: &Session) -> Result<Value, RequestError> {
    let tools = session.list_tools().await?;
    if let Some(name) = tools
        .first()
        .and_then(|t| t.get("name"))
        .and_then(Value::as_str)
    {
        session
            .call_tool(name, Map::new(), CallOptions::default())
            .await?;
    }
    let resources = session.list_resources().await?;
    if let Some(uri) = resources
        .first()
        .and_then(|r| r.get("uri"))
        .and_then(Value::as_str)
    {
        session.read_resource(uri).await?;
    }
    let prompts = session.list_prompts().await?;
    if let Some(name) = prompts
        .first()
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
    {
        session.get_prompt(name, Map::new()).await?;
    }
    Ok(Value::Null)
}

/// The tool calls the scenario's context names, in order.
async fn context_calls(session: &Session, context: &Value) -> Result<Value, RequestError> {
    session.list_tools().await?;
    for call in context["toolCalls"].as_array().into_iter().flatten() {
        let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
        let arguments = call
            .get("arguments")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        session
            .call_tool(name, arguments, CallOptions::default())
            .await?;
    }
    Ok(Value::Null)
}

/// Sends a tool's input schema back to the server exactly as it was listed (the scenario
/// compares it with what it sent: nothing may be lost or resolved on the way).
async fn echo_schema(session: &Session) -> Result<Value, RequestError> {
    let tools = session.list_tools().await?;
    let schema = tools
        .iter()
        .find(|t| t["name"] == "json_schema_2020_12_tool")
        .and_then(|t| t.get("inputSchema"))
        .cloned()
        .unwrap_or(Value::Null);
    let mut arguments = Map::new();
    arguments.insert("schema".into(), schema);
    session
        .call_tool("json_schema_echo", arguments, CallOptions::default())
        .await
}

/// Answers elicitations by accepting the form with every field's default value; declines the
/// rest. (The conformance scenarios check that a client can fill defaults in.)
pub struct AcceptDefaults;

#[async_trait]
impl HostHandler for AcceptDefaults {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        match request.kind() {
            ServerRequestKind::Elicitation { url: false } => {
                let properties = request
                    .params
                    .as_ref()
                    .and_then(|p| p.pointer("/requestedSchema/properties"))
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                let content: Map<String, Value> = properties
                    .into_iter()
                    .filter_map(|(name, schema)| schema.get("default").cloned().map(|d| (name, d)))
                    .collect();
                Ok(json!({"action": "accept", "content": content}))
            }
            _ => periscope_core::session::handler::decline(&request),
        }
    }
}

/// The era a scenario expects, from the suite's `MCP_CONFORMANCE_PROTOCOL_VERSION` (a modern
/// revision: modern; an older one: legacy); None leaves the user's choice (auto).
pub fn era_for_scenario() -> Option<periscope_core::era::EraChoice> {
    use periscope_core::era::EraChoice;
    use periscope_core::revision::{MODERN_VERSIONS, STATEFUL_VERSIONS};
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").ok()?;
    if MODERN_VERSIONS.contains(&version.as_str()) {
        Some(EraChoice::Modern)
    } else if STATEFUL_VERSIONS.contains(&version.as_str()) {
        Some(EraChoice::Legacy)
    } else {
        None
    }
}
