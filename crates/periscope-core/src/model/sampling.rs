//! A server's `sampling/createMessage` answered by a model: the request's messages, system
//! prompt, limits and tools mapped to a [`ChatRequest`] ([`to_chat`]), the model's turn mapped
//! back to a `CreateMessageResult` ([`to_result`]), and which configured provider answers
//! ([`pick`]: the request's model hints, else the default).
//!
//! Whether the answer is sent as is, edited first or refused is the host's call (the app shows
//! it as a draft; the CLI, which has no one to ask, sends it and prints it).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::chat::{
    Block, ChatMessage, ChatRequest, ChatRole, StopReason, ToolChoice, ToolSpec, Turn,
};
use super::{ModelClient, ModelError, Provider};

/// Why a sampling request could not be answered by the model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SamplingError {
    /// The request itself does not follow the spec's shape.
    #[error("the sampling request is malformed: {0}")]
    BadRequest(String),
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// One MCP content block as a chat block.
fn block_of(v: &Value) -> Result<Block, String> {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    Ok(match kind {
        "text" => Block::Text {
            text: s("text").ok_or("a text block without text")?,
        },
        "image" => Block::Image {
            mime: s("mimeType").ok_or("an image block without mimeType")?,
            data: s("data").ok_or("an image block without data")?,
        },
        "tool_use" => Block::ToolUse {
            id: s("id").ok_or("a tool_use block without id")?,
            name: s("name").ok_or("a tool_use block without name")?,
            input: v.get("input").cloned().unwrap_or(json!({})),
        },
        "tool_result" => {
            let mut content = Vec::new();
            for c in v
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                content.push(block_of(c)?);
            }
            if content.is_empty()
                && let Some(structured) = v.get("structuredContent")
            {
                content.push(Block::text(structured.to_string()));
            }
            Block::ToolResult {
                id: s("toolUseId").ok_or("a tool_result block without toolUseId")?,
                content,
                is_error: v.get("isError").and_then(Value::as_bool).unwrap_or(false),
            }
        }
        // Neither wire format takes audio or embedded resources in a chat message: said in
        // the text the model gets, not dropped silently.
        "audio" => Block::text(format!(
            "[audio ({}) that this client cannot send to the model]",
            s("mimeType").unwrap_or_default()
        )),
        "resource" => Block::text(
            v.get("resource")
                .and_then(|r| r.get("text"))
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string()),
        ),
        other => return Err(format!("a content block of unknown type {other:?}")),
    })
}

/// A `sampling/createMessage` request's params as a chat request.
pub fn to_chat(params: &Value) -> Result<ChatRequest, SamplingError> {
    let bad = SamplingError::BadRequest;
    let mut messages = Vec::new();
    for (i, m) in params
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no messages".into()))?
        .iter()
        .enumerate()
    {
        let role = match m.get("role").and_then(Value::as_str) {
            Some("user") => ChatRole::User,
            Some("assistant") => ChatRole::Assistant,
            other => return Err(bad(format!("message {i} has role {other:?}"))),
        };
        let content = match m.get("content") {
            Some(Value::Array(blocks)) => blocks.iter().map(block_of).collect(),
            Some(block) => block_of(block).map(|b| vec![b]),
            None => Err("no content".to_string()),
        }
        .map_err(|e| bad(format!("message {i}: {e}")))?;
        messages.push(ChatMessage { role, content });
    }
    let tools = params
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|t| ToolSpec {
            name: t
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            description: t
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            input_schema: t
                .get("inputSchema")
                .cloned()
                .unwrap_or(json!({"type": "object"})),
        })
        .collect();
    let tool_choice = match params
        .get("toolChoice")
        .and_then(|c| c.get("mode"))
        .and_then(Value::as_str)
    {
        Some("required") => ToolChoice::Required,
        Some("none") => ToolChoice::None,
        _ => ToolChoice::Auto,
    };
    Ok(ChatRequest {
        system: params
            .get("systemPrompt")
            .and_then(Value::as_str)
            .map(str::to_string),
        messages,
        tools,
        tool_choice,
        max_tokens: params
            .get("maxTokens")
            .and_then(Value::as_u64)
            .map(|n| n.min(u32::MAX as u64) as u32),
        temperature: params.get("temperature").and_then(Value::as_f64),
        stop: params
            .get("stopSequences")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
    })
}

fn content_of(block: &Block) -> Value {
    match block {
        Block::Text { text } => json!({"type": "text", "text": text}),
        Block::Image { mime, data } => json!({"type": "image", "mimeType": mime, "data": data}),
        Block::ToolUse { id, name, input } => {
            json!({"type": "tool_use", "id": id, "name": name, "input": input})
        }
        Block::ToolResult {
            id,
            content,
            is_error,
        } => json!({"type": "tool_result", "toolUseId": id,
                    "content": content.iter().map(content_of).collect::<Vec<_>>(), "isError": is_error}),
    }
}

/// The spec's word for a stop reason (others are passed through as the provider said them).
pub fn stop_word(stop: &StopReason) -> String {
    match stop {
        StopReason::EndTurn => "endTurn".into(),
        StopReason::MaxTokens => "maxTokens".into(),
        StopReason::StopSequence => "stopSequence".into(),
        StopReason::ToolUse => "toolUse".into(),
        StopReason::Other(word) => word.clone(),
    }
}

/// What a reply form takes from a model's turn: its text, the first tool it calls, and the
/// stop reason sent with it (that of [`to_result`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ReplyDraft {
    pub text: String,
    pub tool: Option<ToolCallDraft>,
    pub stop_reason: String,
}

/// A tool the model calls, by name with its input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolCallDraft {
    pub name: String,
    pub input: Value,
}

/// The reason a turn is sent with: a tool call is always `toolUse` (some runtimes say "stop"
/// beside one; the spec ties tool_use content to toolUse, and a server reads the content by
/// the reason).
fn stop_of(turn: &Turn) -> StopReason {
    if turn
        .blocks
        .iter()
        .any(|b| matches!(b, Block::ToolUse { .. }))
    {
        StopReason::ToolUse
    } else {
        turn.stop.clone()
    }
}

/// The model's turn as a reply form shows it ([`ReplyDraft`]).
pub fn reply_draft(turn: &Turn) -> ReplyDraft {
    let text = turn
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let tool = turn.blocks.iter().find_map(|b| match b {
        Block::ToolUse { name, input, .. } => Some(ToolCallDraft {
            name: name.clone(),
            input: input.clone(),
        }),
        _ => None,
    });
    ReplyDraft {
        text,
        tool,
        stop_reason: stop_word(&stop_of(turn)),
    }
}

/// The model's turn as a `CreateMessageResult`: one content block, or an array when there
/// are several (always when the model calls a tool, as the spec's tool use requires).
pub fn to_result(turn: &Turn) -> Value {
    let blocks: Vec<Value> = turn.blocks.iter().map(content_of).collect();
    let tool_use = turn
        .blocks
        .iter()
        .any(|b| matches!(b, Block::ToolUse { .. }));
    let content = match blocks.len() {
        0 => json!({"type": "text", "text": ""}),
        1 if !tool_use => blocks[0].clone(),
        _ => Value::Array(blocks),
    };
    json!({
        "role": "assistant",
        "content": content,
        "model": turn.model,
        "stopReason": stop_word(&stop_of(turn)),
    })
}

/// Why a provider was picked for a sampling request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum PickReason {
    /// The request's model hint (a substring of the provider's model name).
    Hint { hint: String },
    /// No hint matched: the default provider.
    Default,
    /// No hint matched and none is marked default: the first one.
    First,
}

/// Which provider answers a request with these `modelPreferences`: the first hint (in the
/// request's order) that is a substring of a provider's model name, case-insensitively, else
/// the default provider, else the first. Priorities (cost, speed, intelligence) are shown to
/// the user, not used: Periscope knows nothing of the models' prices or speeds.
pub fn pick<'a>(
    providers: &'a [Provider],
    preferences: Option<&Value>,
) -> Option<(&'a Provider, PickReason)> {
    let hints = preferences
        .and_then(|p| p.get("hints"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|h| h.get("name").and_then(Value::as_str))
        .filter(|h| !h.is_empty());
    for hint in hints {
        let lower = hint.to_lowercase();
        if let Some(p) = providers
            .iter()
            .find(|p| p.model.to_lowercase().contains(&lower))
        {
            return Some((
                p,
                PickReason::Hint {
                    hint: hint.to_string(),
                },
            ));
        }
    }
    if let Some(p) = providers.iter().find(|p| p.default) {
        return Some((p, PickReason::Default));
    }
    providers.first().map(|p| (p, PickReason::First))
}

/// Asks `client`'s model to answer a sampling request; returns the `CreateMessageResult` and
/// the turn (for its usage, timing and raw bytes).
pub async fn answer(
    client: &ModelClient,
    params: &Value,
    cancel: &CancellationToken,
) -> Result<(Value, Turn), SamplingError> {
    let request = to_chat(params)?;
    // Nobody watches the stream here; a host that shows a draft streams it itself.
    let (tx, _rx) = mpsc::channel(1);
    drop(_rx);
    let turn = client.stream(&request, &tx, cancel).await?;
    Ok((to_result(&turn), turn))
}

impl From<SamplingError> for crate::vocabulary::Problem {
    fn from(error: SamplingError) -> Self {
        match error {
            SamplingError::BadRequest(detail) => {
                crate::vocabulary::Problem::SamplingMalformed { detail }
            }
            SamplingError::Model(error) => crate::vocabulary::Problem::ModelFailed { error },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ProviderKind;
    use crate::model::chat::{TurnTiming, Usage};

    #[test]
    fn a_request_with_tools_maps_to_a_chat_request_and_back() {
        let params = json!({
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Weather in Paris?"}},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Paris"}}]},
                {"role": "user", "content": [{"type": "tool_result", "toolUseId": "t1", "content": [{"type": "text", "text": "18°C"}]}]}
            ],
            "systemPrompt": "Be brief.",
            "maxTokens": 200,
            "temperature": 0.2,
            "stopSequences": ["END"],
            "tools": [{"name": "get_weather", "description": "The weather.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}],
            "toolChoice": {"mode": "required"},
            "modelPreferences": {"hints": [{"name": "claude"}]}
        });
        let chat = to_chat(&params).unwrap();
        assert_eq!(chat.system.as_deref(), Some("Be brief."));
        assert_eq!(chat.max_tokens, Some(200));
        assert_eq!(chat.temperature, Some(0.2));
        assert_eq!(chat.stop, vec!["END"]);
        assert_eq!(chat.tool_choice, ToolChoice::Required);
        assert_eq!(chat.tools[0].name, "get_weather");
        assert_eq!(chat.messages.len(), 3);
        assert_eq!(
            chat.messages[2].content[0],
            Block::ToolResult {
                id: "t1".into(),
                content: vec![Block::text("18°C")],
                is_error: false
            }
        );
        let turn = |blocks, stop| Turn {
            blocks,
            stop,
            usage: Usage::default(),
            timing: TurnTiming::default(),
            model: "fake-1".into(),
            raw_request: Vec::new(),
            raw_response: Vec::new(),
            raw_response_len: 0,
        };
        // A tool call: content is an array, stop reason toolUse.
        let result = to_result(&turn(
            vec![Block::ToolUse {
                id: "t2".into(),
                name: "get_weather".into(),
                input: json!({"city": "Lyon"}),
            }],
            // As a runtime that says "stop" beside its tool call would.
            StopReason::EndTurn,
        ));
        assert_eq!(
            result,
            json!({"role": "assistant", "model": "fake-1", "stopReason": "toolUse",
                   "content": [{"type": "tool_use", "id": "t2", "name": "get_weather", "input": {"city": "Lyon"}}]})
        );
        // Plain text: one block, as every era's servers read it.
        let result = to_result(&turn(vec![Block::text("Sunny.")], StopReason::EndTurn));
        assert_eq!(result["content"], json!({"type": "text", "text": "Sunny."}));
        assert_eq!(result["stopReason"], "endTurn");
        // The reply form's draft: the text, the first tool called, the reason sent.
        let draft = reply_draft(&turn(
            vec![
                Block::text("Checking "),
                Block::text("the weather."),
                Block::ToolUse {
                    id: "t3".into(),
                    name: "get_weather".into(),
                    input: json!({"city": "Paris"}),
                },
            ],
            StopReason::EndTurn,
        ));
        assert_eq!(draft.text, "Checking the weather.");
        assert_eq!(
            draft.tool,
            Some(ToolCallDraft {
                name: "get_weather".into(),
                input: json!({"city": "Paris"})
            })
        );
        assert_eq!(draft.stop_reason, "toolUse");
        let plain = reply_draft(&turn(vec![Block::text("Hi.")], StopReason::MaxTokens));
        assert_eq!(
            (plain.text.as_str(), plain.tool, plain.stop_reason.as_str()),
            ("Hi.", None, "maxTokens")
        );
        // A malformed request says what is wrong.
        let err = to_chat(
            &json!({"messages": [{"role": "system", "content": {"type": "text", "text": "x"}}]}),
        )
        .unwrap_err();
        assert!(err.to_string().contains("message 0"), "{err}");
    }

    #[test]
    fn hints_pick_a_matching_provider_else_the_default() {
        let p = |id: &str, model: &str, default: bool| Provider {
            id: id.into(),
            name: id.into(),
            kind: ProviderKind::OpenAiCompatible,
            base_url: "http://localhost:11434/v1".into(),
            model: model.into(),
            max_tokens: None,
            default,
        };
        let providers = vec![
            p("local", "llama3.2", false),
            p("claude", "claude-sonnet-4-5", true),
            p("qwen", "qwen2.5-coder", false),
        ];
        let prefs = json!({"hints": [{"name": "gpt-4o"}, {"name": "QWEN"}], "speedPriority": 1});
        let (chosen, why) = pick(&providers, Some(&prefs)).unwrap();
        assert_eq!(chosen.id, "qwen");
        assert_eq!(
            why,
            PickReason::Hint {
                hint: "QWEN".into()
            }
        );
        let (chosen, why) =
            pick(&providers, Some(&json!({"hints": [{"name": "gemini"}]}))).unwrap();
        assert_eq!((chosen.id.as_str(), why), ("claude", PickReason::Default));
        let (chosen, why) = pick(&providers[..1], None).unwrap();
        assert_eq!((chosen.id.as_str(), why), ("local", PickReason::First));
        assert!(pick(&[], None).is_none());
    }
}
