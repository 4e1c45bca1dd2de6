//! What a check found: a verdict per rule (per era where the rule is asked in each), with the
//! frames that show it, and the counts a build gates on.

use serde::{Deserialize, Serialize};

use super::rule::{Area, Rule, Severity};
use crate::audit::AuditReport;
use crate::audit::rules::FindingSeverity;
use crate::era::Era;

/// A rule's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum RuleVerdict {
    Pass,
    /// Broken, and the rule is a MUST.
    Fail,
    /// Broken, and the rule is a SHOULD (or a habit hosts rely on).
    Warning,
    /// Not asked: `skipped` says why.
    Skipped,
}

/// Why a rule was not asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum NotAsked {
    /// The server does not declare the capability the rule needs.
    NotDeclared { capability: String },
    /// Asking would call a tool that is not marked read-only and was not picked
    /// (`--call NAME`, `--call-all`).
    NotReadOnly { tools: Vec<String> },
    /// The transport has no such rule (an HTTP rule over stdio, a process rule over HTTP).
    OtherTransport,
    /// The server does not speak the era the rule belongs to.
    OtherEra,
    /// The server offers nothing the rule could be asked of (no tools, no prompt with
    /// arguments, no resource listed…).
    NothingToAsk,
    /// The session this rule needed could not be opened (the reason is in the message).
    NoSession,
}

/// One rule's verdict, in one era.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CheckResult {
    pub rule: Rule,
    pub area: Area,
    pub verdict: RuleVerdict,
    /// The era of the session it was asked in; none for a rule asked once.
    pub era: Option<Era>,
    /// The official conformance scenario that tests the same rule.
    pub official_scenario: Option<String>,
    /// Where the spec says it: the section of the revision this era speaks, as a link.
    pub spec: String,
    /// The frames that show the verdict (sequence numbers in that era's record).
    #[cfg_attr(feature = "ts", ts(type = "Array<number>"))]
    pub frames: Vec<u64>,
    /// What was seen, in a line (the server's own words quoted where they matter).
    pub message: String,
    /// The fix, for a failure or a warning.
    pub hint: Option<String>,
    pub skipped: Option<NotAsked>,
}

/// A message on one line: a server's words may hold line breaks, which would break the text,
/// JUnit and Markdown reports' layout.
fn one_line(message: String) -> String {
    if message.contains(['\n', '\r']) {
        message
            .split(['\n', '\r'])
            .filter(|l| !l.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        message
    }
}

/// The outcome of a rule before its weight is applied.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    Pass { frames: Vec<u64>, message: String },
    Broken { frames: Vec<u64>, message: String },
    Skip(NotAsked, String),
}

impl Outcome {
    pub(crate) fn pass(frames: Vec<u64>, message: impl Into<String>) -> Outcome {
        Outcome::Pass {
            frames,
            message: one_line(message.into()),
        }
    }

    pub(crate) fn broken(frames: Vec<u64>, message: impl Into<String>) -> Outcome {
        Outcome::Broken {
            frames,
            message: one_line(message.into()),
        }
    }

    pub(crate) fn skip(reason: NotAsked, message: impl Into<String>) -> Outcome {
        Outcome::Skip(reason, one_line(message.into()))
    }

    /// The verdict, with the rule's weight and words.
    pub(crate) fn judge(self, rule: Rule, era: Option<Era>) -> CheckResult {
        let info = rule.info();
        let (verdict, frames, message, skipped) = match self {
            Outcome::Pass { frames, message } => (RuleVerdict::Pass, frames, message, None),
            Outcome::Broken { frames, message } => (
                match info.severity {
                    Severity::Error => RuleVerdict::Fail,
                    Severity::Warning => RuleVerdict::Warning,
                },
                frames,
                message,
                None,
            ),
            Outcome::Skip(reason, message) => {
                (RuleVerdict::Skipped, Vec::new(), message, Some(reason))
            }
        };
        let mut frames = frames;
        frames.sort_unstable();
        frames.dedup();
        CheckResult {
            rule,
            area: info.area,
            verdict,
            era,
            official_scenario: info.official_scenario.map(str::to_string),
            spec: super::rule::spec_link(rule, era),
            frames,
            message,
            hint: matches!(verdict, RuleVerdict::Fail | RuleVerdict::Warning)
                .then(|| info.hint.to_string()),
            skipped,
        }
    }
}

/// How each verdict was counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Counts {
    pub pass: u32,
    pub fail: u32,
    pub warning: u32,
    pub skipped: u32,
}

impl Counts {
    pub fn of<'a>(results: impl IntoIterator<Item = &'a CheckResult>) -> Counts {
        let mut counts = Counts::default();
        for result in results {
            match result.verdict {
                RuleVerdict::Pass => counts.pass += 1,
                RuleVerdict::Fail => counts.fail += 1,
                RuleVerdict::Warning => counts.warning += 1,
                RuleVerdict::Skipped => counts.skipped += 1,
            }
        }
        counts
    }
}

/// The lowest verdict that fails a build (`--fail-on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum FailOn {
    #[default]
    Error,
    Warning,
}

impl FailOn {
    /// The audit's severity that fails at this threshold.
    pub fn audit_severity(self) -> FindingSeverity {
        match self {
            FailOn::Error => FindingSeverity::Error,
            FailOn::Warning => FindingSeverity::Warning,
        }
    }
}

/// Which record holds the frames of one era's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct EraRecord {
    pub era: Era,
    pub protocol_version: String,
    /// The record file written for it (`--record`), if any.
    pub record: Option<String>,
}

/// A whole check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CheckReport {
    /// The server, as a line (command or URL, secrets masked).
    pub target: String,
    /// The server's name and version as it said them, when a session opened.
    pub server: Option<String>,
    /// The eras asked in, each with its record.
    pub eras: Vec<EraRecord>,
    pub results: Vec<CheckResult>,
    pub counts: Counts,
    /// When the check started (Unix milliseconds) and how long it took.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_ms: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub took_ms: u64,
    /// Why no session could be opened at all (the report then holds no result).
    pub unreachable: Option<String>,
    /// What a model receives from the server, audited (docs/audit.md); none when not asked
    /// (`--skip audit`) or no session opened.
    #[serde(default)]
    pub audit: Option<AuditReport>,
}

impl CheckReport {
    /// Whether anything at or above `threshold` failed.
    pub fn fails(&self, threshold: FailOn) -> bool {
        let audit = threshold.audit_severity();
        self.results.iter().any(|r| match threshold {
            FailOn::Error => r.verdict == RuleVerdict::Fail,
            FailOn::Warning => matches!(r.verdict, RuleVerdict::Fail | RuleVerdict::Warning),
        }) || self.audit.as_ref().is_some_and(|a| a.fails(audit))
    }
}
