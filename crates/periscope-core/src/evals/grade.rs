//! A repetition graded: each expectation of its case, held or not, and why not.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::matching::{self, Mismatch};
use super::suite::Expect;
use super::trace::Trace;

/// One expectation of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalExpectation")
)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Expectation {
    Called { tool: String },
    NotCalled { tool: String },
    First { tool: String },
    AtMost { tool: String, limit: u32 },
    AnswerContains { text: String },
    AnswerNotContains { text: String },
    AnswerMatches { pattern: String },
    MaxTokens { limit: u64 },
    MaxLatency { limit_ms: u64 },
}

impl Expectation {
    /// A short label, the same in every report (`called add`, `max latency 5000 ms`).
    pub fn label(&self) -> String {
        match self {
            Expectation::Called { tool } => format!("called {tool}"),
            Expectation::NotCalled { tool } => format!("never called {tool}"),
            Expectation::First { tool } => format!("called {tool} first"),
            Expectation::AtMost { tool, limit } => format!("called {tool} at most {limit}×"),
            Expectation::AnswerContains { text } => format!("answer contains {text:?}"),
            Expectation::AnswerNotContains { text } => format!("answer lacks {text:?}"),
            Expectation::AnswerMatches { pattern } => format!("answer matches /{pattern}/"),
            Expectation::MaxTokens { limit } => format!("at most {limit} tokens"),
            Expectation::MaxLatency { limit_ms } => format!("at most {limit_ms} ms"),
        }
    }
}

/// Whether an expectation held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalVerdict"))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Fail,
    /// Could not be told (the provider gave no token counts): neither passes nor fails the
    /// case, and is said.
    Unmeasured,
}

/// Why an expectation did not hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalMiss"))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Miss {
    /// The tool was never called.
    NeverCalled,
    /// Called, but no call's arguments matched: the first call's difference.
    ArgumentsDiffer {
        calls: u32,
        mismatch: Mismatch,
    },
    CalledAnyway {
        times: u32,
    },
    /// Another tool came first, or none was called.
    FirstWas {
        tool: Option<String>,
    },
    TooManyCalls {
        times: u32,
    },
    /// The answer said something else (its first characters).
    Answer {
        excerpt: String,
    },
    Tokens {
        used: u64,
    },
    NoTokenCount,
    Latency {
        ms: u64,
    },
}

/// One expectation and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalCheck"))]
pub struct CheckResult {
    pub expectation: Expectation,
    pub verdict: Verdict,
    pub miss: Option<Miss>,
}

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Miss::NeverCalled => write!(f, "never called"),
            Miss::ArgumentsDiffer { calls, mismatch } => {
                write!(f, "called {calls}×, arguments differ: {mismatch}")
            }
            Miss::CalledAnyway { times } => write!(f, "called {times}×"),
            Miss::FirstWas { tool: Some(tool) } => write!(f, "{tool} came first"),
            Miss::FirstWas { tool: None } => write!(f, "no tool was called"),
            Miss::TooManyCalls { times } => write!(f, "called {times}×"),
            Miss::Answer { excerpt } => write!(f, "the answer was {excerpt:?}"),
            Miss::Tokens { used } => write!(f, "used {used} tokens"),
            Miss::NoTokenCount => write!(f, "the provider gave no token counts"),
            Miss::Latency { ms } => write!(f, "took {ms} ms"),
        }
    }
}

/// The answer excerpt a miss shows, at most.
const EXCERPT_CHARS: usize = 160;

/// Every expectation of `expect` against `trace`, in the order written.
pub fn grade(expect: &Expect, trace: &Trace) -> Vec<CheckResult> {
    let mut out = Vec::new();
    let result = |expectation, miss: Option<Miss>| CheckResult {
        expectation,
        verdict: if miss.is_some() {
            Verdict::Fail
        } else {
            Verdict::Pass
        },
        miss,
    };
    for call in &expect.called {
        let calls: Vec<_> = calls_of(trace, &call.tool).collect();
        let mut first_mismatch = None;
        let matched = calls.iter().any(|c| {
            let outcome = call_matches(call, &c.arguments);
            if let Err(m) = &outcome
                && first_mismatch.is_none()
            {
                first_mismatch = Some(m.clone());
            }
            outcome.is_ok()
        });
        let miss = match (calls.is_empty(), matched, first_mismatch) {
            (true, _, _) => Some(Miss::NeverCalled),
            (false, true, _) => None,
            (false, false, Some(mismatch)) => Some(Miss::ArgumentsDiffer {
                calls: calls.len() as u32,
                mismatch,
            }),
            (false, false, None) => Some(Miss::NeverCalled),
        };
        out.push(result(
            Expectation::Called {
                tool: call.tool.clone(),
            },
            miss,
        ));
    }
    for tool in &expect.not_called {
        let times = calls_of(trace, tool).count() as u32;
        out.push(result(
            Expectation::NotCalled { tool: tool.clone() },
            (times > 0).then_some(Miss::CalledAnyway { times }),
        ));
    }
    if let Some(tool) = &expect.first {
        let first = trace.calls.first().map(|c| c.tool_name().to_string());
        let miss =
            (first.as_deref() != Some(tool.as_str())).then_some(Miss::FirstWas { tool: first });
        out.push(result(Expectation::First { tool: tool.clone() }, miss));
    }
    for (tool, limit) in &expect.at_most {
        let times = calls_of(trace, tool).count() as u32;
        out.push(result(
            Expectation::AtMost {
                tool: tool.clone(),
                limit: *limit,
            },
            (times > *limit).then_some(Miss::TooManyCalls { times }),
        ));
    }
    if let Some(answer) = &expect.answer {
        let lower = trace.answer.to_lowercase();
        let excerpt = || Miss::Answer {
            excerpt: super::trace::cut(&trace.answer, EXCERPT_CHARS),
        };
        for text in &answer.contains {
            let found = lower.contains(&text.to_lowercase());
            out.push(result(
                Expectation::AnswerContains { text: text.clone() },
                (!found).then(excerpt),
            ));
        }
        for text in &answer.not_contains {
            let found = lower.contains(&text.to_lowercase());
            out.push(result(
                Expectation::AnswerNotContains { text: text.clone() },
                found.then(excerpt),
            ));
        }
        if let Some(pattern) = &answer.matches {
            let found = regex::Regex::new(pattern).is_ok_and(|r| r.is_match(&trace.answer));
            out.push(result(
                Expectation::AnswerMatches {
                    pattern: pattern.clone(),
                },
                (!found).then(excerpt),
            ));
        }
    }
    if let Some(limit) = expect.max_tokens {
        let expectation = Expectation::MaxTokens { limit };
        out.push(match trace.tokens() {
            None => CheckResult {
                expectation,
                verdict: Verdict::Unmeasured,
                miss: Some(Miss::NoTokenCount),
            },
            Some(used) => result(expectation, (used > limit).then_some(Miss::Tokens { used })),
        });
    }
    if let Some(limit_ms) = expect.max_latency_ms {
        let ms = trace.latency_us / 1000;
        out.push(result(
            Expectation::MaxLatency { limit_ms },
            (ms > limit_ms).then_some(Miss::Latency { ms }),
        ));
    }
    out
}

fn call_matches(call: &super::suite::CallExpect, arguments: &Value) -> Result<(), Mismatch> {
    if let Some(schema) = &call.schema {
        matching::validates(schema, arguments)?;
    }
    if let Some(expected) = &call.arguments {
        matching::matches(&Value::Object(expected.clone()), arguments, call.matching)?;
    }
    Ok(())
}

/// The calls of `tool` (by the server's name, else the model's).
fn calls_of<'a>(
    trace: &'a Trace,
    tool: &'a str,
) -> impl Iterator<Item = &'a super::trace::TracedCall> {
    trace.calls.iter().filter(move |c| c.tool_name() == tool)
}

/// A repetition passes when no expectation failed.
pub fn passed(checks: &[CheckResult]) -> bool {
    checks.iter().all(|c| c.verdict != Verdict::Fail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evals::suite::Suite;
    use crate::evals::trace::{ApprovalBasis, TracedCall};
    use crate::model::chat::Usage;
    use crate::model::conversation::Approval;
    use serde_json::json;

    fn call(tool: &str, arguments: Value) -> TracedCall {
        TracedCall {
            turn: 1,
            name: tool.into(),
            tool: Some(tool.into()),
            arguments,
            approval: Approval::Once,
            basis: ApprovalBasis::ReadOnly,
            is_error: false,
            result: String::new(),
            ran: None,
        }
    }

    fn expect(yaml: &str) -> Expect {
        let suite =
            Suite::parse(&format!("cases: [{{id: a, prompt: x, expect: {yaml}}}]")).unwrap();
        suite.cases[0].expect.clone()
    }

    #[test]
    fn each_expectation_fires_and_holds() {
        let trace = Trace {
            calls: vec![
                call("echo", json!({"message": "hi"})),
                call("add", json!({"a": 2, "b": 3})),
            ],
            answer: "The sum is 5.".into(),
            usage: Usage {
                input: Some(100),
                output: Some(20),
            },
            latency_us: 1_500_000,
            ..Trace::default()
        };
        let holds = expect(
            "{called: [{tool: add, arguments: {a: 2}}], not_called: [fail], first: echo, at_most: {add: 1}, answer: {contains: [SUM], matches: '\\b5\\b', not_contains: ['6']}, max_tokens: 120, max_latency_ms: 2000}",
        );
        let checks = grade(&holds, &trace);
        assert_eq!(checks.len(), 9);
        assert!(
            checks.iter().all(|c| c.verdict == Verdict::Pass),
            "{checks:#?}"
        );
        assert!(passed(&checks));

        let fails = expect(
            "{called: [{tool: add, arguments: {a: 3}}, {tool: fail}], not_called: [echo], first: add, at_most: {add: 0}, answer: {contains: ['6'], matches: '^7$', not_contains: [sum]}, max_tokens: 119, max_latency_ms: 1000}",
        );
        let checks = grade(&fails, &trace);
        assert_eq!(checks.len(), 10);
        assert!(
            checks.iter().all(|c| c.verdict == Verdict::Fail),
            "{checks:#?}"
        );
        assert!(matches!(
            checks[0].miss,
            Some(Miss::ArgumentsDiffer { calls: 1, .. })
        ));
        assert_eq!(checks[1].miss, Some(Miss::NeverCalled));
        assert_eq!(
            checks[3].miss,
            Some(Miss::FirstWas {
                tool: Some("echo".into())
            })
        );
    }

    #[test]
    fn no_token_count_is_unmeasured_not_a_failure() {
        let trace = Trace::default();
        let checks = grade(&expect("{max_tokens: 10}"), &trace);
        assert_eq!(checks[0].verdict, Verdict::Unmeasured);
        assert!(passed(&checks));
    }
}
