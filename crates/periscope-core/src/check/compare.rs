//! What changed between two checks of one server: the rules that broke since, and the ones
//! fixed. The app's Check view says it after a run ("2 new failures, 1 fixed since 12:03").

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::report::{CheckReport, RuleVerdict};
use super::rule::Rule;
use crate::era::Era;

/// One rule whose verdict changed, in the era it was asked in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CheckChange {
    pub rule: Rule,
    pub era: Option<Era>,
    /// The verdict before (none when the rule was not in the earlier report).
    pub before: Option<RuleVerdict>,
    pub after: RuleVerdict,
}

/// What a check found that the one before it did not, and what it no longer found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CheckChanges {
    /// When the earlier check started (Unix milliseconds).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub since_ms: u64,
    /// Broken now (a failure or a warning), not broken before: it passed, was skipped, was
    /// not asked, or was broken less (a warning that is now a failure counts too).
    pub new_failures: Vec<CheckChange>,
    /// Broken before, passing now.
    pub fixed: Vec<CheckChange>,
}

impl CheckChanges {
    pub fn is_empty(&self) -> bool {
        self.new_failures.is_empty() && self.fixed.is_empty()
    }
}

fn broken(verdict: RuleVerdict) -> bool {
    matches!(verdict, RuleVerdict::Fail | RuleVerdict::Warning)
}

/// What changed from `before` to `after` (two checks of the same server). A rule asked in
/// an era in one and not the other (the server learned or forgot an era) is new when it is
/// broken, and neither fixed nor broken when it passes or went away: only a pass says fixed.
pub fn compare(before: &CheckReport, after: &CheckReport) -> CheckChanges {
    let earlier: HashMap<(Rule, Option<Era>), RuleVerdict> = before
        .results
        .iter()
        .map(|r| ((r.rule, r.era), r.verdict))
        .collect();
    let mut new_failures = Vec::new();
    let mut fixed = Vec::new();
    for result in &after.results {
        let was = earlier.get(&(result.rule, result.era)).copied();
        let change = CheckChange {
            rule: result.rule,
            era: result.era,
            before: was,
            after: result.verdict,
        };
        let worse = match was {
            Some(RuleVerdict::Fail) => false,
            Some(RuleVerdict::Warning) => result.verdict == RuleVerdict::Fail,
            _ => true,
        };
        if broken(result.verdict) && worse {
            new_failures.push(change);
        } else if result.verdict == RuleVerdict::Pass && was.is_some_and(broken) {
            fixed.push(change);
        }
    }
    CheckChanges {
        since_ms: before.started_ms,
        new_failures,
        fixed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::report::{CheckResult, Counts};

    fn result(rule: Rule, era: Option<Era>, verdict: RuleVerdict) -> CheckResult {
        CheckResult {
            rule,
            area: rule.info().area,
            verdict,
            era,
            official_scenario: None,
            spec: String::new(),
            frames: Vec::new(),
            message: String::new(),
            hint: None,
            skipped: None,
        }
    }

    fn report(started_ms: u64, results: Vec<CheckResult>) -> CheckReport {
        CheckReport {
            target: "demo".into(),
            server: None,
            eras: Vec::new(),
            counts: Counts::of(&results),
            results,
            started_ms,
            took_ms: 0,
            unreachable: None,
            audit: None,
        }
    }

    #[test]
    fn a_rule_broken_since_is_new_and_one_passing_since_is_fixed() {
        let legacy = Some(Era::Legacy);
        let modern = Some(Era::Modern);
        let before = report(
            1_000,
            vec![
                result(Rule::UnknownMethod, legacy, RuleVerdict::Pass),
                result(Rule::UnknownMethod, modern, RuleVerdict::Fail),
                result(Rule::Ping, legacy, RuleVerdict::Warning),
                result(Rule::ParseError, legacy, RuleVerdict::Fail),
                result(Rule::InvalidRequest, legacy, RuleVerdict::Fail),
            ],
        );
        let after = report(
            2_000,
            vec![
                // Broke in the legacy era; the modern one is still broken (not new).
                result(Rule::UnknownMethod, legacy, RuleVerdict::Fail),
                result(Rule::UnknownMethod, modern, RuleVerdict::Fail),
                // A warning that became a failure is new.
                result(Rule::Ping, legacy, RuleVerdict::Fail),
                // Fixed.
                result(Rule::ParseError, legacy, RuleVerdict::Pass),
                // Skipped now: not fixed.
                result(Rule::InvalidRequest, legacy, RuleVerdict::Skipped),
                // Never asked before, broken now: new.
                result(Rule::InvalidParams, modern, RuleVerdict::Warning),
            ],
        );
        let changes = compare(&before, &after);
        assert_eq!(changes.since_ms, 1_000);
        let new: Vec<_> = changes
            .new_failures
            .iter()
            .map(|c| (c.rule, c.era, c.before))
            .collect();
        assert_eq!(
            new,
            vec![
                (Rule::UnknownMethod, legacy, Some(RuleVerdict::Pass)),
                (Rule::Ping, legacy, Some(RuleVerdict::Warning)),
                (Rule::InvalidParams, modern, None),
            ]
        );
        let fixed: Vec<_> = changes.fixed.iter().map(|c| (c.rule, c.era)).collect();
        assert_eq!(fixed, vec![(Rule::ParseError, legacy)]);
        assert!(!changes.is_empty());
        assert!(compare(&after, &after).is_empty());
    }
}
