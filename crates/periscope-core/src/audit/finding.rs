//! One thing the audit found: which rule, how bad, in whose text, exactly where.

use serde::{Deserialize, Serialize};

use super::rules::AuditRule;
pub use super::rules::FindingSeverity;

/// What a server's text belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum SubjectKind {
    Tool,
    Prompt,
    Resource,
    ResourceTemplate,
    /// The server's `instructions` (sent once, at the start, into the model's context).
    Instructions,
    /// What a call of the tool gave back (`results.rs`): the model reads it next.
    ToolResult,
}

impl SubjectKind {
    /// The JSON report's key for it (`"tool": "read_file"`).
    pub fn key(self) -> &'static str {
        match self {
            SubjectKind::Tool => "tool",
            SubjectKind::Prompt => "prompt",
            SubjectKind::Resource => "resource",
            SubjectKind::ResourceTemplate => "resource_template",
            SubjectKind::Instructions => "instructions",
            SubjectKind::ToolResult => "tool_result",
        }
    }
}

/// Where in a field's text a finding lies: character offsets (Unicode scalar values), end
/// exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TextSpan {
    pub start: u32,
    pub end: u32,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Finding {
    pub rule: AuditRule,
    pub severity: FindingSeverity,
    /// The server whose text it is (its name as it said it, else its command or URL).
    pub server: String,
    pub subject: SubjectKind,
    /// The tool's, prompt's or resource's name (the URI for a resource without one); the
    /// server's name for its instructions.
    pub name: String,
    /// Which of its texts: `name`, `description`, `inputSchema.properties.path.description`…
    pub field: String,
    /// Where in that text; none when the finding is about the whole item.
    pub span: Option<TextSpan>,
    /// The text at the span, hidden characters made visible (`⟦U+202E⟧`), at most a line.
    pub excerpt: String,
    /// What was found, in a sentence.
    pub message: String,
}
