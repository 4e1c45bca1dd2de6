//! The neutral chat types every provider maps to and from: a request, its messages and
//! blocks, the events a streamed answer yields, and the finished turn.
//!
//! They follow MCP sampling's shape (text, image, tool use, tool result) rather than any one
//! provider's, so a sampling request, a playground conversation and both wire formats meet
//! here without losing what either side said.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who said a message. Tool results travel in user messages (as in MCP sampling and the
/// Anthropic API); the OpenAI mapping moves them into `tool` messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ChatRole {
    User,
    Assistant,
}

/// One piece of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "ChatBlock"))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    Text {
        text: String,
    },
    /// Base64 `data` of type `mime`.
    Image {
        mime: String,
        data: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    ToolResult {
        id: String,
        content: Vec<Block>,
        #[serde(default)]
        is_error: bool,
    },
}

impl Block {
    pub fn text(text: impl Into<String>) -> Block {
        Block::Text { text: text.into() }
    }
}

/// All the text of some blocks, joined (tool results' text included), for matching and
/// previews.
pub fn text_of(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Text { text } => out.push_str(text),
            Block::ToolResult { content, .. } => out.push_str(&text_of(content)),
            Block::Image { .. } | Block::ToolUse { .. } => {}
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ChatMessage {
    pub role: ChatRole,
    pub content: Vec<Block>,
}

impl ChatMessage {
    pub fn user(content: Vec<Block>) -> ChatMessage {
        ChatMessage {
            role: ChatRole::User,
            content,
        }
    }

    pub fn assistant(content: Vec<Block>) -> ChatMessage {
        ChatMessage {
            role: ChatRole::Assistant,
            content,
        }
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolSpec {
    pub name: String,
    pub description: Option<String>,
    /// A JSON Schema object.
    pub input_schema: Value,
}

/// Whether the model must, may or must not call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolChoice {
    #[default]
    Auto,
    Required,
    None,
}

/// What is asked of a model, whatever the provider.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChatRequest {
    pub system: Option<String>,
    pub messages: Vec<ChatMessage>,
    pub tools: Vec<ToolSpec>,
    pub tool_choice: ToolChoice,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f64>,
    pub stop: Vec<String>,
}

/// Something a streamed answer said, as it arrives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "ModelStreamEvent")
)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StreamEvent {
    TextDelta {
        text: String,
    },
    ToolUseStart {
        id: String,
        name: String,
    },
    /// A fragment of a tool call's JSON arguments (not valid JSON on its own).
    ToolInputDelta {
        id: String,
        partial: String,
    },
    /// Token counts so far, as the provider reported them.
    Usage {
        input: Option<u64>,
        output: Option<u64>,
    },
}

/// Token counts as the provider reported them; `None` when it did not (local runtimes often
/// do not in streams: shown as "—", never estimated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "ModelUsage"))]
pub struct Usage {
    pub input: Option<u64>,
    pub output: Option<u64>,
}

impl Usage {
    /// The sum of two counts; unknown stays unknown only when both are.
    pub fn plus(self, other: Usage) -> Usage {
        let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        Usage {
            input: add(self.input, other.input),
            output: add(self.output, other.output),
        }
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    MaxTokens,
    StopSequence,
    ToolUse,
    /// A reason the provider named that has no neutral word.
    Other(String),
}

/// When the answer came: to its first token and in all, in microseconds from the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TurnTiming {
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub first_token_us: Option<u64>,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub total_us: u64,
}

/// One finished answer of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub blocks: Vec<Block>,
    pub stop: StopReason,
    pub usage: Usage,
    pub timing: TurnTiming,
    /// The model that answered, as the provider named it (else the one asked for).
    pub model: String,
    /// The request body exactly as sent (the key travels in a header, never here).
    pub raw_request: Vec<u8>,
    /// The response body as received, up to [`super::http::RAW_RESPONSE_KEPT`] bytes.
    pub raw_response: Vec<u8>,
    /// The response body's full size.
    pub raw_response_len: u64,
}

impl Turn {
    /// The tool calls the answer asks for, in order.
    pub fn tool_uses(&self) -> Vec<(&str, &str, &Value)> {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::ToolUse { id, name, input } => Some((id.as_str(), name.as_str(), input)),
                _ => None,
            })
            .collect()
    }
}

/// What a provider's stream decoder has put together so far.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Assembled {
    pub blocks: Vec<Block>,
    pub stop: Option<StopReason>,
    pub usage: Usage,
    pub model: Option<String>,
}

/// A block being built from deltas.
#[derive(Debug, Clone)]
pub(crate) enum Building {
    Text(String),
    Tool {
        id: String,
        name: String,
        json: String,
    },
}

impl Building {
    /// The finished block; a tool call's arguments that are not a JSON object are kept as a
    /// string under `_unparsed` (shown, never repaired).
    pub(crate) fn finish(self) -> Block {
        match self {
            Building::Text(text) => Block::Text { text },
            Building::Tool { id, name, json } => {
                let input = if json.trim().is_empty() {
                    Value::Object(Default::default())
                } else {
                    match serde_json::from_str::<Value>(&json) {
                        Ok(v @ Value::Object(_)) => v,
                        _ => serde_json::json!({ "_unparsed": json }),
                    }
                };
                Block::ToolUse { id, name, input }
            }
        }
    }
}
