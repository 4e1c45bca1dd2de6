//! The playground's loop, headless: the user's message goes to the model with the servers'
//! model-visible tools; each tool call the model makes is shown to an [`Approver`] with its
//! arguments before it runs (approve once, always for this tool, or reject); results go back
//! to the model; until the model answers without a tool call, or [`MAX_TOOL_ROUNDS`] rounds of
//! tools have run in the turn.
//!
//! A rejected call is not hidden from the model: it gets a tool result marked as an error that
//! says the user rejected it, so it can answer accordingly.

use std::time::Instant;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::chat::{
    Block, ChatMessage, ChatRequest, StopReason, StreamEvent, ToolChoice, ToolSpec, TurnTiming,
    Usage,
};
pub use super::conversation::Approval;
use super::conversation::{Conversation, ToolCallStat, TurnStats};
use super::tool_host::{Ran, ToolHost};
use super::{ModelClient, ModelError};

/// The most rounds of tool calls one user turn may run.
pub const MAX_TOOL_ROUNDS: u32 = 10;

/// What the model gets for a call the user rejected.
pub const REJECTED: &str = "the user rejected this call";

/// A tool call the model asks for, before it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolCall {
    pub id: String,
    /// The model-facing name.
    pub name: String,
    pub input: Value,
}

/// Asks the user about a tool call.
#[async_trait]
pub trait Approver: Send + Sync {
    async fn approve(&self, call: &ToolCall) -> Approval;
}

/// What happens during a turn, in order, for a host to show as it goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "AgentEvent"))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AgentEvent {
    /// A piece of the model's answer in round `round` (from 1).
    Model {
        round: u32,
        event: StreamEvent,
    },
    /// The model finished round `round`.
    RoundDone {
        round: u32,
        usage: Usage,
        timing: TurnTiming,
        stop: StopReason,
    },
    /// A call is about to be shown to the approver (or run, when remembered).
    ToolCall {
        call: ToolCall,
        /// The user allowed this tool always, but it changed since (its description or schema
        /// is not what the model saw then): the call is asked about again.
        #[serde(default)]
        changed_since_allowed: bool,
    },
    ToolDecision {
        id: String,
        approval: Approval,
    },
    ToolResult {
        id: String,
        is_error: bool,
        content: Vec<Block>,
        /// The server call behind it (none for a rejected call), for the host's history.
        ran: Option<Ran>,
        /// What the server's result holds that is aimed at the model, which reads it next
        /// (`audit::results`): shown to the user beside the result.
        #[serde(default)]
        findings: Vec<crate::audit::finding::Finding>,
    },
}

/// Why a turn could not finish.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AgentError {
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The servers' tools could not be listed.
    #[error("{0}")]
    Tools(String),
}

/// Runs one user turn: appends `user` to the conversation, then the model's answers and the
/// tool results, and the turn's statistics. On an error the messages so far stay (a host can
/// show them and try again).
pub async fn run_turn(
    client: &ModelClient,
    conversation: &mut Conversation,
    user: Vec<Block>,
    tools: &dyn ToolHost,
    approver: &dyn Approver,
    events: &mpsc::Sender<AgentEvent>,
    cancel: &CancellationToken,
) -> Result<TurnStats, AgentError> {
    let started = Instant::now();
    conversation.messages.push(ChatMessage::user(user));
    let specs = tools.tools().await.map_err(AgentError::Tools)?;
    let mut stats = TurnStats {
        usage: Usage::default(),
        timing: TurnTiming::default(),
        rounds: 0,
        model: client.provider().model.clone(),
        stop: StopReason::EndTurn,
        tool_calls: Vec::new(),
        hit_round_limit: false,
    };
    let mut tool_rounds = 0;
    loop {
        stats.rounds += 1;
        let round = stats.rounds;
        let request = ChatRequest {
            system: system_prompt(conversation),
            messages: conversation.messages.clone(),
            tools: specs.clone(),
            tool_choice: ToolChoice::Auto,
            ..ChatRequest::default()
        };
        let turn = client
            .stream_each(&request, cancel, |event| async move {
                let _ = events.send(AgentEvent::Model { round, event }).await;
            })
            .await?;
        if round == 1 {
            stats.timing.first_token_us = turn.timing.first_token_us;
        }
        stats.usage = stats.usage.plus(turn.usage);
        stats.model = turn.model.clone();
        stats.stop = turn.stop.clone();
        let _ = events
            .send(AgentEvent::RoundDone {
                round,
                usage: turn.usage,
                timing: turn.timing,
                stop: turn.stop.clone(),
            })
            .await;
        let calls: Vec<ToolCall> = turn
            .tool_uses()
            .into_iter()
            .map(|(id, name, input)| ToolCall {
                id: id.to_string(),
                name: name.to_string(),
                input: input.clone(),
            })
            .collect();
        conversation
            .messages
            .push(ChatMessage::assistant(turn.blocks.clone()));
        if calls.is_empty() {
            break;
        }
        if tool_rounds == MAX_TOOL_ROUNDS {
            // Every tool_use needs its result, or the next request is invalid: say why none ran.
            stats.hit_round_limit = true;
            let results = calls
                .iter()
                .map(|c| Block::ToolResult {
                    id: c.id.clone(),
                    content: vec![Block::text(format!(
                        "not run: this turn reached its limit of {MAX_TOOL_ROUNDS} rounds of tool calls"
                    ))],
                    is_error: true,
                })
                .collect();
            conversation.messages.push(ChatMessage::user(results));
            break;
        }
        tool_rounds += 1;
        let mut results = Vec::new();
        for call in calls {
            let now = specs
                .iter()
                .find(|s| s.name == call.name)
                .map(spec_fingerprint)
                .unwrap_or_default();
            let allowed = conversation.always_allowed.contains(&call.name);
            if allowed && !conversation.allowed_as.contains_key(&call.name) {
                // Allowed before fingerprints were kept: as the tool is now.
                conversation
                    .allowed_as
                    .insert(call.name.clone(), now.clone());
            }
            let changed_since_allowed =
                allowed && conversation.allowed_as.get(&call.name) != Some(&now);
            let _ = events
                .send(AgentEvent::ToolCall {
                    call: call.clone(),
                    changed_since_allowed,
                })
                .await;
            let approval = if allowed && !changed_since_allowed {
                Approval::Remembered
            } else {
                tokio::select! {
                    _ = cancel.cancelled() => return Err(ModelError::Cancelled.into()),
                    approval = approver.approve(&call) => approval,
                }
            };
            match approval {
                Approval::AlwaysThisTool => {
                    conversation.always_allowed.insert(call.name.clone());
                    conversation.allowed_as.insert(call.name.clone(), now);
                }
                // Asked again and not allowed always: the old allowance is gone.
                Approval::Once | Approval::Reject if changed_since_allowed => {
                    conversation.always_allowed.remove(&call.name);
                    conversation.allowed_as.remove(&call.name);
                }
                _ => {}
            }
            let _ = events
                .send(AgentEvent::ToolDecision {
                    id: call.id.clone(),
                    approval,
                })
                .await;
            let (content, is_error, ran, findings) = if approval == Approval::Reject {
                (vec![Block::text(REJECTED)], true, None, Vec::new())
            } else {
                let outcome = tokio::select! {
                    _ = cancel.cancelled() => return Err(ModelError::Cancelled.into()),
                    outcome = tools.call(&call.name, call.input.clone()) => outcome,
                };
                let findings = match (&outcome.raw, &outcome.ran) {
                    (Some(raw), Some(ran)) => {
                        crate::audit::results::lint(&ran.server_id, &ran.tool, raw)
                    }
                    _ => Vec::new(),
                };
                (outcome.content, outcome.is_error, outcome.ran, findings)
            };
            let _ = events
                .send(AgentEvent::ToolResult {
                    id: call.id.clone(),
                    is_error,
                    content: content.clone(),
                    ran,
                    findings,
                })
                .await;
            stats.tool_calls.push(ToolCallStat {
                name: call.name.clone(),
                approval,
                is_error,
            });
            results.push(Block::ToolResult {
                id: call.id,
                content,
                is_error,
            });
        }
        conversation.messages.push(ChatMessage::user(results));
    }
    stats.timing.total_us = started.elapsed().as_micros() as u64;
    conversation.turns.push(stats.clone());
    Ok(stats)
}

/// A tool as the model sees it (name, description, input schema), fingerprinted: the same
/// members `audit::pins` keeps of a server's tool, in the model's own terms.
pub fn spec_fingerprint(spec: &ToolSpec) -> String {
    let mut tool = serde_json::Map::new();
    tool.insert("name".into(), spec.name.clone().into());
    if let Some(description) = &spec.description {
        tool.insert("description".into(), description.clone().into());
    }
    tool.insert("inputSchema".into(), spec.input_schema.clone());
    crate::audit::pins::fingerprint(&Value::Object(tool))
}

/// The conversation's system prompt, with the last context an MCP App gave.
fn system_prompt(conversation: &Conversation) -> Option<String> {
    let context = conversation.model_context.as_ref().map(|c| {
        format!("Context from the app the user is looking at (ui/update-model-context):\n{c}")
    });
    match (&conversation.system, context) {
        (Some(s), Some(c)) => Some(format!("{s}\n\n{c}")),
        (Some(s), None) => Some(s.clone()),
        (None, c) => c,
    }
}

impl From<AgentError> for crate::vocabulary::Problem {
    fn from(error: AgentError) -> Self {
        match error {
            AgentError::Model(error) => crate::vocabulary::Problem::ModelFailed { error },
            AgentError::Tools(detail) => crate::vocabulary::Problem::ToolsUnlisted { detail },
        }
    }
}
