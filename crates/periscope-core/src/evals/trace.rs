//! What one repetition of a case did: the conversation, each tool call the model asked for
//! (with what became of it), the final answer, tokens and time. Bounded: a tool result is
//! kept to [`MAX_RESULT_CHARS`] characters here (the full one is in Traffic and History).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::chat::{ChatMessage, Usage};
use crate::model::conversation::Approval;
use crate::model::tool_host::Ran;

/// A tool result's text kept in a trace, at most.
pub const MAX_RESULT_CHARS: usize = 4000;

/// Why a call was run or not, under the run's approval rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalApprovalBasis")
)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalBasis {
    /// The tool is marked read-only and the run auto-approves read-only tools.
    ReadOnly,
    /// The user allowed this tool for the run, by name.
    Allowed,
    /// Not allowed: the model was told the user rejected the call.
    NotAllowed,
    /// No such tool on the server (the model made the name up).
    UnknownTool,
}

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalCall"))]
pub struct TracedCall {
    /// Which user turn (from 1).
    pub turn: u32,
    /// The model-facing name.
    pub name: String,
    /// The server's tool it stands for (`None`: no such tool).
    pub tool: Option<String>,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub arguments: Value,
    pub approval: Approval,
    pub basis: ApprovalBasis,
    pub is_error: bool,
    /// The result's text as the model read it, cut to [`MAX_RESULT_CHARS`].
    pub result: String,
    /// The server call, when one was made (Traffic and History hold it).
    pub ran: Option<Ran>,
}

impl TracedCall {
    /// The name expectations use: the server's, else the model's.
    pub fn tool_name(&self) -> &str {
        self.tool.as_deref().unwrap_or(&self.name)
    }
}

/// One repetition's conversation and figures.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalTrace"))]
pub struct Trace {
    pub messages: Vec<ChatMessage>,
    pub calls: Vec<TracedCall>,
    /// The model's last words (its text after the last tool call).
    pub answer: String,
    /// Summed over every round; `None` parts when the provider did not say.
    pub usage: Usage,
    /// The whole case, every round and tool call.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub latency_us: u64,
    /// The model's and the tools' share of `latency_us`; the rest is Periscope's.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub model_us: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub tools_us: u64,
    pub rounds: u32,
    pub hit_round_limit: bool,
    /// Tools whose wording the model saw from a variant, not from the server.
    pub overridden: Vec<String>,
}

impl Trace {
    /// Tokens in and out, when the provider said both.
    pub fn tokens(&self) -> Option<u64> {
        Some(self.usage.input? + self.usage.output?)
    }
}

/// `text` cut to `max` characters, with an ellipsis when cut.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}
