//! `audit`: what a model receives from a server, judged offline, with no model and no call.
//! Every text of a server's surface that reaches a model (fields.rs) is linted for hidden
//! characters (hidden.rs), names that mix scripts or imitate others (names.rs), text aimed at
//! the model rather than the user (text.rs), and inputs that could carry data out or take
//! anything (inputs.rs). Each finding names its rule (rules.rs), the text and the exact span.
//! Hosts (`periscope audit`, the app) render the [`AuditReport`]; see docs/audit.md.

pub mod collect;
mod fields;
pub mod finding;
pub mod format;
mod hidden;
pub mod hosts;
mod inputs;
mod names;
pub mod pins;
pub mod results;
pub mod rules;
mod text;
pub mod together;
pub mod tokens;

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::hidden_text;
use crate::views::tool::ToolView;
use crate::vocabulary::views::prompt::PromptView;
use crate::vocabulary::views::resource::{ResourceView, TemplateView};
use fields::Text;
use finding::{Finding, FindingSeverity, SubjectKind, TextSpan};
use rules::AuditRule;

/// Characters of a finding's excerpt at most.
const EXCERPT_CHARS: usize = 120;

/// One server's surface: what its model-facing lists and its instructions hold.
#[derive(Debug, Clone, Default)]
pub struct Surface {
    /// The server's name as it said it, else its command or URL.
    pub server: String,
    pub instructions: Option<String>,
    pub tools: Vec<ToolView>,
    pub prompts: Vec<PromptView>,
    pub resources: Vec<ResourceView>,
    pub templates: Vec<TemplateView>,
}

/// How many findings of each severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FindingCounts {
    pub error: u32,
    pub warning: u32,
    pub info: u32,
}

impl FindingCounts {
    /// Counts one more finding of `severity`.
    pub fn add(&mut self, severity: FindingSeverity) {
        match severity {
            FindingSeverity::Error => self.error += 1,
            FindingSeverity::Warning => self.warning += 1,
            FindingSeverity::Info => self.info += 1,
        }
    }
}

/// What the audit found, worst first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AuditReport {
    pub findings: Vec<Finding>,
    pub counts: FindingCounts,
    /// What each major host does with each tool (one server's audit; `hosts.rs`).
    #[serde(default)]
    pub hosts: Option<hosts::HostReport>,
    /// What the server's tools and instructions cost in a model's context (`tokens.rs`).
    #[serde(default)]
    pub tokens: Option<tokens::TokenReport>,
}

impl AuditReport {
    /// Takes in more findings (a tool result's, a second server's), keeping the order (worst
    /// first) and the counts.
    pub fn add(&mut self, more: impl IntoIterator<Item = Finding>) {
        self.findings.extend(more);
        // Stable: within a severity, the order they were found in.
        self.findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        self.counts = count(&self.findings);
    }

    /// Whether any finding is at `threshold` or above.
    pub fn fails(&self, threshold: FindingSeverity) -> bool {
        self.findings.iter().any(|f| f.severity >= threshold)
    }
}

/// A finding before its span is counted in characters and its excerpt cut.
pub(crate) struct Found {
    rule: AuditRule,
    subject: SubjectKind,
    name: String,
    field: String,
    /// The text and the byte range in it, when the finding has a span.
    at: Option<(String, Range<usize>)>,
    message: String,
}

impl Found {
    /// A finding at `range` (bytes) of `text`.
    fn at(rule: AuditRule, text: &Text<'_>, range: Range<usize>, message: String) -> Found {
        Found {
            rule,
            subject: text.subject,
            name: text.name.to_string(),
            field: text.field.clone(),
            at: Some((text.text.to_string(), range)),
            message,
        }
    }

    /// A finding about a whole field.
    fn whole(
        rule: AuditRule,
        subject: SubjectKind,
        name: &str,
        field: impl Into<String>,
        message: String,
    ) -> Found {
        Found {
            rule,
            subject,
            name: name.to_string(),
            field: field.into(),
            at: None,
            message,
        }
    }

    fn finish(self, server: &str) -> Finding {
        let (span, excerpt) = match &self.at {
            Some((text, range)) => {
                let start = text[..range.start].chars().count() as u32;
                let end = start + text[range.clone()].chars().count() as u32;
                (
                    Some(TextSpan { start, end }),
                    excerpt_of(&text[range.clone()]),
                )
            }
            None => (None, String::new()),
        };
        Finding {
            rule: self.rule,
            severity: self.rule.text().severity,
            server: server.to_string(),
            subject: self.subject,
            name: self.name,
            field: self.field,
            span,
            excerpt,
            message: self.message,
        }
    }
}

/// `text` made visible (hidden characters marked, line breaks as spaces) and cut to a line.
pub(crate) fn excerpt_of(text: &str) -> String {
    let visible = hidden_text::visible(text).replace(['\n', '\r'], " ");
    // Variation selectors are not hidden text to hidden_text.rs (an emoji takes one); in an
    // excerpt each is marked, so that a finding on a run of them shows something.
    let visible: String = visible
        .chars()
        .map(|c| match c {
            '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => {
                format!("⟦U+{:04X}⟧", c as u32)
            }
            c => c.to_string(),
        })
        .collect();
    if visible.chars().count() <= EXCERPT_CHARS {
        return visible;
    }
    let mut cut: String = visible.chars().take(EXCERPT_CHARS).collect();
    cut.push('…');
    cut
}

/// Audits one server: its texts, and what each host does with its tools.
pub fn audit(surface: &Surface) -> AuditReport {
    let mut report = audit_all(std::slice::from_ref(surface));
    report.hosts = Some(hosts::matrix(&surface.server, &surface.tools));
    report.tokens = Some(tokens::count(surface));
    report
}

/// Audits the servers a host would load together: each one's texts, and the names and
/// mentions between them (a tool that shadows or imitates another server's).
pub fn audit_all(surfaces: &[Surface]) -> AuditReport {
    let mut findings = Vec::new();
    for (index, surface) in surfaces.iter().enumerate() {
        let texts = fields::texts(surface);
        let mut found = Vec::new();
        for text in &texts {
            hidden::lint(text, &mut found);
            if text.kind == fields::TextKind::Name {
                names::lint_name(text, &mut found);
            } else {
                text::lint(text, &mut found);
            }
        }
        inputs::lint(surface, &mut found);
        names::lint_across(surfaces, index, &texts, &mut found);
        findings.extend(found.into_iter().map(|f| f.finish(&surface.server)));
    }
    // Worst first; within a severity, in the order the listing shows them.
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    AuditReport {
        counts: count(&findings),
        findings,
        hosts: None,
        tokens: None,
    }
}

/// How many of `findings` each severity has.
fn count(findings: &[Finding]) -> FindingCounts {
    let mut counts = FindingCounts::default();
    for f in findings {
        counts.add(f.severity);
    }
    counts
}

#[cfg(test)]
mod tests;
