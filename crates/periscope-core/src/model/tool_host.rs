//! The tools a model may call in the playground, and how a call reaches its server.
//!
//! [`ToolHost`] is what the agent loop needs; [`SessionTools`] is the engine's own, over live
//! sessions: model-visible tools only ([`crate::apps::meta::model_tools`]), named `tool` for one server and
//! `server__tool` across several, every name fitting the providers' rule
//! (`^[a-zA-Z0-9_-]{1,64}$`, shortened with a hash when needed).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::chat::{Block, ToolSpec};
use super::context::content_block;
use crate::apps::meta::model_tools;
use crate::session::{Session, Timing};

/// What a tool call gave the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    pub content: Vec<Block>,
    pub is_error: bool,
    /// The server's `CallToolResult` as it came, when there was one.
    pub raw: Option<Value>,
    /// Which server's tool ran, and when, for the host's history (a model's calls are listed
    /// like the user's own); `None` when nothing was sent.
    pub ran: Option<Ran>,
    /// Why a call that reached a server failed, typed for the host's history (the model reads
    /// `content`, in English).
    pub failure: Option<crate::vocabulary::Problem>,
}

/// A call that reached a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "ModelToolRun"))]
pub struct Ran {
    pub server_id: String,
    /// The tool's own name (not the model-facing one).
    pub tool: String,
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub arguments: Map<String, Value>,
    pub timing: Timing,
    /// The host's History entry for the call, when the host keeps one and says its id (an
    /// eval's trace links to it).
    #[serde(default)]
    pub history_id: Option<String>,
}

/// The tools of the servers a conversation is about.
#[async_trait]
pub trait ToolHost: Send + Sync {
    /// The tools the model may call, under the names it will use.
    async fn tools(&self) -> Result<Vec<ToolSpec>, String>;
    /// Calls one by the model's name for it.
    async fn call(&self, name: &str, input: Value) -> ToolOutcome;
}

/// The longest tool name providers accept.
pub const MAX_TOOL_NAME: usize = 64;

/// A model-facing name: `tool`, or `server__tool` when `server` is given, with characters
/// outside `[a-zA-Z0-9_-]` replaced by `_`, and shortened with a hash of the full name when
/// longer than 64.
pub fn model_name(server: Option<&str>, tool: &str) -> String {
    let full = match server {
        Some(s) => format!("{s}__{tool}"),
        None => tool.to_string(),
    };
    let clean: String = full
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean == full && !clean.is_empty() && clean.len() <= MAX_TOOL_NAME {
        return clean;
    }
    // Too long, or characters were replaced (which could make two names equal): a hash of the
    // full name keeps them apart.
    let hash = short_hash(&full);
    let keep = MAX_TOOL_NAME - hash.len() - 1;
    format!("{}_{hash}", &clean[..clean.len().min(keep)])
}

fn short_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// A `CallToolResult`'s content as chat blocks (what a model can read of it); its
/// `structuredContent` as JSON when it has no content.
pub fn blocks_of_result(result: &Value) -> Vec<Block> {
    let mut blocks: Vec<Block> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(content_block)
        .collect();
    if blocks.is_empty()
        && let Some(structured) = result.get("structuredContent")
    {
        blocks.push(Block::text(structured.to_string()));
    }
    blocks
}

/// A server's tool as the model sees it, under `name`: its description and input schema.
pub fn spec_of(name: String, tool: &Value) -> ToolSpec {
    ToolSpec {
        name,
        description: tool
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        input_schema: tool
            .get("inputSchema")
            .cloned()
            .unwrap_or(serde_json::json!({"type": "object"})),
    }
}

/// Live sessions' tools.
pub struct SessionTools {
    servers: Vec<(String, Arc<Session>)>,
    /// Model name → (server index, the tool's own name), from the last listing.
    names: Mutex<HashMap<String, (usize, String)>>,
}

impl SessionTools {
    /// `servers`: (server id, session). One server: tools keep their names.
    pub fn new(servers: Vec<(String, Arc<Session>)>) -> SessionTools {
        SessionTools {
            servers,
            names: Mutex::new(HashMap::new()),
        }
    }

    /// Which server and tool a model name stands for (after [`ToolHost::tools`]).
    pub fn resolve(&self, name: &str) -> Option<(String, String)> {
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        names
            .get(name)
            .map(|(i, tool)| (self.servers[*i].0.clone(), tool.clone()))
    }
}

#[async_trait]
impl ToolHost for SessionTools {
    async fn tools(&self) -> Result<Vec<ToolSpec>, String> {
        let several = self.servers.len() > 1;
        let mut specs = Vec::new();
        let mut names = HashMap::new();
        for (i, (server_id, session)) in self.servers.iter().enumerate() {
            let tools = session
                .list_tools()
                .await
                .map_err(|e| format!("listing the tools of {server_id} failed: {e}"))?;
            for tool in model_tools(&tools) {
                let Some(own) = tool.get("name").and_then(Value::as_str) else {
                    continue;
                };
                let name = model_name(several.then_some(server_id.as_str()), own);
                names.insert(name.clone(), (i, own.to_string()));
                specs.push(spec_of(name, &tool));
            }
        }
        *self.names.lock().unwrap_or_else(|e| e.into_inner()) = names;
        Ok(specs)
    }

    async fn call(&self, name: &str, input: Value) -> ToolOutcome {
        let Some((index, tool)) = self
            .names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned()
        else {
            return failed(format!("there is no tool named {name}"));
        };
        let (server_id, session) = &self.servers[index];
        call_on(session, server_id, tool, input).await
    }
}

/// A tool call a model made that never reached a server, in words the model reads.
pub fn failed(text: String) -> ToolOutcome {
    ToolOutcome {
        content: vec![Block::text(text)],
        is_error: true,
        raw: None,
        ran: None,
        failure: None,
    }
}

/// Calls `tool` (the server's own name) on `session` with the model's `input`, tracked like
/// the user's calls so a host can list it in History with its timing.
pub async fn call_on(
    session: &Session,
    server_id: &str,
    tool: String,
    input: Value,
) -> ToolOutcome {
    let arguments = match input {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        other => return failed(format!("the arguments must be a JSON object, not {other}")),
    };
    let Ok((outcome, timing)) = session
        .call_tool_tracked(&tool, arguments.clone(), None, None)
        .await
    else {
        return failed("the call could not be tracked".into());
    };
    let ran = Some(Ran {
        server_id: server_id.to_string(),
        tool,
        arguments,
        timing,
        history_id: None,
    });
    match outcome {
        Ok(result) => ToolOutcome {
            content: blocks_of_result(&result),
            is_error: result.get("isError").and_then(Value::as_bool) == Some(true),
            raw: Some(result),
            ran,
            failure: None,
        },
        Err(e) => ToolOutcome {
            ran,
            failure: Some(crate::vocabulary::Problem::from(&e)),
            ..failed(format!("the call failed: {e}"))
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names_fit_the_providers_rule() {
        let rule = |n: &str| {
            !n.is_empty()
                && n.len() <= MAX_TOOL_NAME
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        assert_eq!(model_name(None, "add"), "add");
        assert_eq!(model_name(Some("demo"), "add"), "demo__add");
        let long = model_name(Some(&"s".repeat(40)), &"t".repeat(40));
        assert!(rule(&long) && long.len() == MAX_TOOL_NAME, "{long}");
        assert_ne!(long, model_name(Some(&"s".repeat(40)), &"t".repeat(41)));
        let dotted = model_name(Some("my server"), "files.read");
        assert!(rule(&dotted), "{dotted}");
        assert_ne!(dotted, model_name(Some("my_server"), "files_read"));
    }
}
