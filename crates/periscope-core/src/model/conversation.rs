//! A playground conversation: the messages exchanged with a model, the statistics of each
//! turn, and how it reads as Markdown.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::chat::{Block, ChatMessage, ChatRole, StopReason, TurnTiming, Usage};

/// The user's answer to a tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    Once,
    /// This call, and every later call of this tool in the conversation.
    AlwaysThisTool,
    Reject,
    /// Not asked: the tool was approved "always" earlier in the conversation.
    Remembered,
}

/// One tool call of a turn, and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolCallStat {
    /// The model-facing name (e.g. `add`, or `server__add` across several servers).
    pub name: String,
    pub approval: Approval,
    pub is_error: bool,
}

/// What one user turn cost and took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TurnStats {
    /// Summed over the turn's rounds.
    pub usage: Usage,
    /// First token of the first round; total over all rounds.
    pub timing: TurnTiming,
    /// How many times the model was asked.
    pub rounds: u32,
    pub model: String,
    pub stop: StopReason,
    pub tool_calls: Vec<ToolCallStat>,
    /// The model still wanted tools when the round limit was reached.
    #[serde(default)]
    pub hit_round_limit: bool,
}

/// A conversation with a model about one or several servers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Conversation {
    pub id: String,
    pub title: String,
    pub server_ids: Vec<String>,
    pub provider_id: String,
    #[serde(default)]
    pub system: Option<String>,
    pub messages: Vec<ChatMessage>,
    #[serde(default)]
    pub turns: Vec<TurnStats>,
    /// The last context an MCP App gave (`ui/update-model-context`): sent with each turn.
    #[serde(default)]
    pub model_context: Option<Value>,
    /// Tools the user approved for the rest of the conversation ("always for this tool").
    #[serde(default)]
    pub always_allowed: BTreeSet<String>,
    /// The fingerprint of each always-allowed tool as the model saw it when allowed
    /// ([`super::agent::spec_fingerprint`]): a tool that changed since is asked about again.
    #[serde(default)]
    pub allowed_as: BTreeMap<String, String>,
}

impl Conversation {
    pub fn new(
        id: impl Into<String>,
        server_ids: Vec<String>,
        provider_id: impl Into<String>,
    ) -> Conversation {
        Conversation {
            id: id.into(),
            title: String::new(),
            server_ids,
            provider_id: provider_id.into(),
            system: None,
            messages: Vec::new(),
            turns: Vec::new(),
            model_context: None,
            always_allowed: BTreeSet::new(),
            allowed_as: BTreeMap::new(),
        }
    }

    /// The usage of every turn, summed.
    pub fn usage(&self) -> Usage {
        self.turns
            .iter()
            .fold(Usage::default(), |sum, t| sum.plus(t.usage))
    }

    /// The conversation as Markdown: the user's and the model's words, each tool call with
    /// its arguments and result, and each turn's tokens and time.
    pub fn to_markdown(&self) -> String {
        let mut md = String::new();
        let title = if self.title.is_empty() {
            "Conversation"
        } else {
            &self.title
        };
        let _ = writeln!(md, "# {title}\n");
        let _ = writeln!(
            md,
            "Servers: {}. Provider: {}.\n",
            self.server_ids.join(", "),
            self.provider_id
        );
        if let Some(system) = &self.system {
            let _ = writeln!(md, "**System:** {system}\n");
        }
        let mut turn = 0;
        for message in &self.messages {
            let only_results = message
                .content
                .iter()
                .all(|b| matches!(b, Block::ToolResult { .. }));
            match message.role {
                ChatRole::User if !only_results => {
                    if turn > 0 {
                        self.stats_line(&mut md, turn - 1);
                    }
                    turn += 1;
                    let _ = writeln!(md, "## You\n");
                }
                ChatRole::User => {}
                ChatRole::Assistant => {
                    let _ = writeln!(md, "## Model\n");
                }
            }
            for block in &message.content {
                block_markdown(&mut md, block);
            }
        }
        if turn > 0 {
            self.stats_line(&mut md, turn - 1);
        }
        md
    }

    fn stats_line(&self, md: &mut String, index: usize) {
        let Some(stats) = self.turns.get(index) else {
            return;
        };
        let count = |n: Option<u64>| n.map_or("—".to_string(), |n| n.to_string());
        let _ = writeln!(
            md,
            "*{} · {} tokens in, {} out · {:.1} s*\n",
            stats.model,
            count(stats.usage.input),
            count(stats.usage.output),
            stats.timing.total_us as f64 / 1e6
        );
    }
}

/// A fence longer than any run of backticks in `text`, so the text cannot close it.
fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

fn block_markdown(md: &mut String, block: &Block) {
    match block {
        Block::Text { text } => {
            let _ = writeln!(md, "{text}\n");
        }
        Block::Image { mime, .. } => {
            let _ = writeln!(md, "*(an image, {mime})*\n");
        }
        Block::ToolUse { name, input, .. } => {
            let args = serde_json::to_string_pretty(input).unwrap_or_default();
            let fence = fence_for(&args);
            let _ = writeln!(
                md,
                "**Tool call** `{name}`\n\n{fence}json\n{args}\n{fence}\n"
            );
        }
        Block::ToolResult {
            content, is_error, ..
        } => {
            let text = super::chat::text_of(content);
            let fence = fence_for(&text);
            let label = if *is_error {
                "Tool error"
            } else {
                "Tool result"
            };
            let _ = writeln!(md, "**{label}**\n\n{fence}\n{text}\n{fence}\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_conversation_reads_as_markdown_with_calls_results_and_stats() {
        let mut c = Conversation::new("c1", vec!["demo".into()], "local");
        c.title = "Adding".into();
        c.messages = vec![
            ChatMessage::user(vec![Block::text("What is 2 and 3?")]),
            ChatMessage::assistant(vec![Block::ToolUse {
                id: "t".into(),
                name: "add".into(),
                input: json!({"a": 2, "b": 3}),
            }]),
            ChatMessage::user(vec![Block::ToolResult {
                id: "t".into(),
                content: vec![Block::text("```5```")],
                is_error: false,
            }]),
            ChatMessage::assistant(vec![Block::text("The sum is 5.")]),
        ];
        c.turns.push(TurnStats {
            usage: Usage {
                input: Some(100),
                output: None,
            },
            timing: TurnTiming {
                first_token_us: Some(1000),
                total_us: 1_500_000,
            },
            rounds: 2,
            model: "fake-1".into(),
            stop: StopReason::EndTurn,
            tool_calls: vec![ToolCallStat {
                name: "add".into(),
                approval: Approval::Once,
                is_error: false,
            }],
            hit_round_limit: false,
        });
        let md = c.to_markdown();
        assert!(md.starts_with("# Adding\n"), "{md}");
        assert!(md.contains("## You\n\nWhat is 2 and 3?"), "{md}");
        assert!(md.contains("**Tool call** `add`"), "{md}");
        assert!(md.contains("\"a\": 2"), "{md}");
        // The result's own backticks cannot close its fence.
        assert!(md.contains("````\n```5```\n````"), "{md}");
        assert!(md.contains("The sum is 5."), "{md}");
        assert!(
            md.contains("*fake-1 · 100 tokens in, — out · 1.5 s*"),
            "{md}"
        );
        assert_eq!(md.matches("## You").count(), 1);
        // It survives a save and a load.
        let saved = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Conversation>(&saved).unwrap(), c);
    }
}
