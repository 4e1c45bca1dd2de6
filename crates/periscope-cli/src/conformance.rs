//! `periscope conformance-client URL`: the client side of the official MCP conformance suite.
//! The suite starts a mock server per scenario, runs this command with the scenario's name in
//! `MCP_CONFORMANCE_SCENARIO`, and judges what went over the wire. The handshake happened
//! already (in `run`); here is what each scenario asks a client to do next, and nothing more.

use async_trait::async_trait;
use periscope_core::session::{
    CallOptions, HostHandler, RpcError, ServerRequest, ServerRequestKind, Session,
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
    let result = match scenario.as_str() {
        "tools_call" => call("add_numbers", json!({"a": 5, "b": 3})).await,
        "elicitation-sep1034-client-defaults" => {
            call("test_client_elicitation_defaults", json!({})).await
        }
        "sse-retry" => call("test_reconnection", json!({})).await,
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
