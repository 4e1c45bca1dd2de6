//! An eval suite: cases of user turns, each with what a model should do with the server's
//! tools (docs/evals.md; its JSON Schema is docs/evals.schema.json). Written in YAML (JSON is
//! YAML too), read strictly: an unknown key is an error naming it, so a typo never turns an
//! expectation off.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use super::matching::ArgsMatch;
use super::matching::MatcherError;

/// The suite format this engine reads.
pub const SUITE_VERSION: u32 = 1;
/// A suite file bigger than this is refused (a suite is text a person edits).
pub const MAX_SUITE_BYTES: usize = 1024 * 1024;
/// Cases in one suite at most.
pub const MAX_CASES: usize = 1000;
/// User turns in one case at most.
pub const MAX_TURNS: usize = 20;

/// A suite, as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalSuite"))]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// The format's version: 1.
    #[serde(default = "version_one")]
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The system prompt every case's conversation starts with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// Repetitions of each case for each model, unless the run says otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    /// Other wordings of the tools, tried without changing the server.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
    pub cases: Vec<Case>,
}

fn version_one() -> u32 {
    SUITE_VERSION
}

/// One case: what the user says, and what should come of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalCase"))]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique in the suite; what reports and baselines match cases by.
    pub id: String,
    /// One user turn (shorthand for `turns: [prompt]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// Several user turns, in order; the expectations judge the whole conversation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<String>,
    /// Resources and prompts given with the first turn.
    #[serde(default, skip_serializing_if = "Attach::is_empty")]
    pub attach: Attach,
    #[serde(default)]
    pub expect: Expect,
    /// An advisory model judge: reported apart, never part of the pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<Judge>,
}

impl Case {
    /// The user turns: `prompt`, then `turns`.
    pub fn user_turns(&self) -> Vec<String> {
        self.prompt
            .iter()
            .cloned()
            .chain(self.turns.iter().cloned())
            .collect()
    }
}

/// What is attached to a case's first user turn, read from the server at run time.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalAttach"))]
#[serde(deny_unknown_fields)]
pub struct Attach {
    /// Resource URIs, read with `resources/read`.
    #[serde(default)]
    pub resources: Vec<String>,
    /// Prompts, got with `prompts/get`.
    #[serde(default)]
    pub prompts: Vec<PromptAttach>,
}

impl Attach {
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty() && self.prompts.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalPromptAttach")
)]
#[serde(deny_unknown_fields)]
pub struct PromptAttach {
    pub name: String,
    #[serde(default)]
    pub arguments: BTreeMap<String, String>,
}

/// What a case expects. Every expectation given must hold for a repetition to pass.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalExpect"))]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Each must be matched by a call of the tool (its arguments matching, when given).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub called: Vec<CallExpect>,
    /// Tools the model must not call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_called: Vec<String>,
    /// The tool the model must call first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Tool → the most calls allowed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub at_most: BTreeMap<String, u32>,
    /// The model's final answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<AnswerExpect>,
    /// Input plus output tokens over the whole case, at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// The whole case (every model round and tool call), at most, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_latency_ms: Option<u64>,
}

impl Expect {
    /// Whether nothing is expected (a case that cannot fail).
    pub fn is_empty(&self) -> bool {
        self == &Expect::default()
    }
}

/// A call the model should make.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalCallExpect")
)]
#[serde(deny_unknown_fields)]
pub struct CallExpect {
    /// The server's name for the tool.
    pub tool: String,
    /// Expected arguments: each value equal, or a matcher `{"$regex": "…"}`,
    /// `{"$schema": {…}}` or `{"$any": true}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown> | null"))]
    pub arguments: Option<Map<String, Value>>,
    /// `partial` (the default): the fields given match, others may be there; `exact`: no
    /// other field.
    #[serde(default, rename = "match")]
    pub matching: ArgsMatch,
    /// A JSON Schema the whole arguments object must validate against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub schema: Option<Value>,
}

/// What the final answer must (not) say.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalAnswerExpect")
)]
#[serde(deny_unknown_fields)]
pub struct AnswerExpect {
    /// Each must appear (case-insensitive).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contains: Vec<String>,
    /// None may appear (case-insensitive).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_contains: Vec<String>,
    /// A regular expression the answer must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<String>,
}

/// An advisory judge: a model reads the conversation and says whether it meets the rubric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalJudge"))]
#[serde(deny_unknown_fields)]
pub struct Judge {
    pub rubric: String,
}

/// Another wording of some tools, as the model sees them; the server is not changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalVariant"))]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub name: String,
    /// The server's tool name → what the model is told instead.
    pub tools: BTreeMap<String, ToolOverride>,
}

/// What a variant says of one tool.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalToolOverride")
)]
#[serde(deny_unknown_fields)]
pub struct ToolOverride {
    /// The tool's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Input property → its description in the input schema.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
}

/// Why a suite cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalSuiteProblem")
)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SuiteProblem {
    #[error("the suite is {bytes} bytes, more than the {limit} a suite may be")]
    TooBig { bytes: u64, limit: u64 },
    /// The YAML does not parse, or does not have the suite's shape (the parser's words, with
    /// the line).
    #[error("the suite does not read: {detail}")]
    Unreadable { detail: String },
    #[error("the suite is version {found}; this Periscope reads version {SUITE_VERSION}")]
    Version { found: u32 },
    #[error("the suite has no cases")]
    NoCases,
    #[error("the suite has {count} cases, more than the {MAX_CASES} a suite may have")]
    TooManyCases { count: u64 },
    #[error("case {index} has no id")]
    NoId { index: u64 },
    #[error("two cases are named {id:?}")]
    DuplicateId { id: String },
    #[error("case {id:?} has no user turn (give `prompt` or `turns`)")]
    NoTurn { id: String },
    #[error("case {id:?} has {count} user turns, more than {MAX_TURNS}")]
    TooManyTurns { id: String, count: u64 },
    #[error("case {id:?} expects nothing, so it could never fail (add `expect`)")]
    ExpectsNothing { id: String },
    #[error("case {id:?}: the regular expression {pattern:?} does not compile: {detail}")]
    BadRegex {
        id: String,
        pattern: String,
        detail: String,
    },
    #[error("case {id:?}: the JSON Schema for {tool} does not compile: {detail}")]
    BadSchema {
        id: String,
        tool: String,
        detail: String,
    },
    #[error("case {id:?}: {matcher} is not a matcher (use $regex, $schema or $any)")]
    UnknownMatcher { id: String, matcher: String },
    #[error("case {id:?} expects {tool} to be both called and never called")]
    Contradiction { id: String, tool: String },
    #[error("two variants are named {name:?}")]
    DuplicateVariant { name: String },
    #[error("a variant needs a name other than {name:?}")]
    ReservedVariant { name: String },
    #[error("the suite's repeat must be at least 1")]
    ZeroRepeat,
}

/// The name of the run without a variant: the tools as the server words them.
pub const AS_SERVED: &str = "as-served";

impl Suite {
    /// Reads and checks a suite.
    pub fn parse(text: &str) -> Result<Suite, SuiteProblem> {
        if text.len() > MAX_SUITE_BYTES {
            return Err(SuiteProblem::TooBig {
                bytes: text.len() as u64,
                limit: MAX_SUITE_BYTES as u64,
            });
        }
        let suite: Suite = serde_saphyr::from_str(text).map_err(|e| SuiteProblem::Unreadable {
            detail: e.to_string(),
        })?;
        suite.validate()?;
        Ok(suite)
    }

    /// What makes the suite unrunnable, first found first.
    pub fn validate(&self) -> Result<(), SuiteProblem> {
        if self.version != SUITE_VERSION {
            return Err(SuiteProblem::Version {
                found: self.version,
            });
        }
        if self.repeat == Some(0) {
            return Err(SuiteProblem::ZeroRepeat);
        }
        if self.cases.is_empty() {
            return Err(SuiteProblem::NoCases);
        }
        if self.cases.len() > MAX_CASES {
            return Err(SuiteProblem::TooManyCases {
                count: self.cases.len() as u64,
            });
        }
        let mut ids = BTreeSet::new();
        for (index, case) in self.cases.iter().enumerate() {
            if case.id.trim().is_empty() {
                return Err(SuiteProblem::NoId {
                    index: index as u64 + 1,
                });
            }
            if !ids.insert(case.id.as_str()) {
                return Err(SuiteProblem::DuplicateId {
                    id: case.id.clone(),
                });
            }
            validate_case(case)?;
        }
        let mut names = BTreeSet::new();
        for variant in &self.variants {
            if variant.name.trim().is_empty() || variant.name == AS_SERVED {
                return Err(SuiteProblem::ReservedVariant {
                    name: variant.name.clone(),
                });
            }
            if !names.insert(variant.name.as_str()) {
                return Err(SuiteProblem::DuplicateVariant {
                    name: variant.name.clone(),
                });
            }
        }
        Ok(())
    }

    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }
}

fn validate_case(case: &Case) -> Result<(), SuiteProblem> {
    let id = || case.id.clone();
    let turns = case.user_turns();
    if turns.iter().all(|t| t.trim().is_empty()) {
        return Err(SuiteProblem::NoTurn { id: id() });
    }
    if turns.len() > MAX_TURNS {
        return Err(SuiteProblem::TooManyTurns {
            id: id(),
            count: turns.len() as u64,
        });
    }
    let expect = &case.expect;
    if expect.is_empty() {
        return Err(SuiteProblem::ExpectsNothing { id: id() });
    }
    for call in &expect.called {
        if expect.not_called.contains(&call.tool) {
            return Err(SuiteProblem::Contradiction {
                id: id(),
                tool: call.tool.clone(),
            });
        }
        if let Some(schema) = &call.schema {
            super::matching::compile_schema(schema).map_err(|detail| SuiteProblem::BadSchema {
                id: id(),
                tool: call.tool.clone(),
                detail,
            })?;
        }
        if let Some(arguments) = &call.arguments {
            super::matching::check_matchers(&Value::Object(arguments.clone()))
                .map_err(|e| matcher_problem(e, &case.id, &call.tool))?;
        }
    }
    if let Some(first) = &expect.first
        && expect.not_called.contains(first)
    {
        return Err(SuiteProblem::Contradiction {
            id: id(),
            tool: first.clone(),
        });
    }
    if let Some(pattern) = expect.answer.as_ref().and_then(|a| a.matches.as_ref()) {
        regex::Regex::new(pattern).map_err(|e| SuiteProblem::BadRegex {
            id: id(),
            pattern: pattern.clone(),
            detail: e.to_string(),
        })?;
    }
    Ok(())
}

/// A matcher written wrong, as the suite's problem.
fn matcher_problem(error: MatcherError, id: &str, tool: &str) -> SuiteProblem {
    let id = id.to_string();
    match error {
        MatcherError::Unknown { matcher } => SuiteProblem::UnknownMatcher { id, matcher },
        MatcherError::BadRegex { pattern, detail } => SuiteProblem::BadRegex {
            id,
            pattern,
            detail,
        },
        MatcherError::BadSchema { detail } => SuiteProblem::BadSchema {
            id,
            tool: tool.to_string(),
            detail,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
version: 1
name: demo
cases:
  - id: add
    prompt: What is 2 plus 3?
    expect:
      called:
        - tool: add
          arguments: {a: 2, b: {$regex: "^3(\\.0)?$"}}
      answer: {contains: ["5"]}
"#;

    #[test]
    fn a_suite_reads_with_its_matchers() {
        let suite = Suite::parse(GOOD).unwrap();
        assert_eq!(suite.cases.len(), 1);
        let call = &suite.cases[0].expect.called[0];
        assert_eq!(call.matching, ArgsMatch::Partial);
        assert_eq!(call.arguments.as_ref().unwrap()["a"], serde_json::json!(2));
        assert_eq!(suite.cases[0].user_turns(), vec!["What is 2 plus 3?"]);
    }

    /// docs/evals.schema.json, the suite format's published schema.
    fn published_schema() -> jsonschema::Validator {
        let text = include_str!("../../../../docs/evals.schema.json");
        jsonschema::options()
            .build(&serde_json::from_str(text).unwrap())
            .unwrap()
    }

    #[test]
    fn the_published_schema_agrees_with_the_reader() {
        let schema = published_schema();
        let value = |text: &str| serde_saphyr::from_str::<Value>(text).unwrap();
        let fixture = include_str!("../../../../tests/fixtures/evals/demo-suite.yaml");
        for good in [GOOD, fixture] {
            Suite::parse(good).unwrap();
            let errors: Vec<String> = schema
                .iter_errors(&value(good))
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{errors:?}");
        }
        // What the reader refuses for its shape, the schema refuses too.
        for bad in [
            GOOD.replace("called:", "caled:"),
            GOOD.replace("$regex", "$regx"),
            "cases: []".to_string(),
            "cases: [{id: a, prompt: x, expect: {}}]".to_string(),
            "cases: [{id: a, expect: {first: t}}]".to_string(),
            "variants: [{name: as-served, tools: {}}]\ncases: [{id: a, prompt: x, expect: {first: t}}]".to_string(),
        ] {
            assert!(Suite::parse(&bad).is_err(), "{bad}");
            assert!(!schema.is_valid(&value(&bad)), "the schema takes {bad}");
        }
    }

    #[test]
    fn a_typo_is_an_error_not_an_expectation_turned_off() {
        let typo = GOOD.replace("called:", "caled:");
        let err = Suite::parse(&typo).unwrap_err();
        assert!(err.to_string().contains("caled"), "{err}");
    }

    #[test]
    fn a_suite_that_cannot_fail_or_cannot_run_is_refused() {
        let cases = [
            ("cases: []", "no cases"),
            ("cases: [{id: a, prompt: hi}]", "expects nothing"),
            ("cases: [{id: a, expect: {first: x}}]", "no user turn"),
            (
                "cases: [{id: a, prompt: x, expect: {first: t}}, {id: a, prompt: y, expect: {first: t}}]",
                "two cases",
            ),
            (
                "cases: [{id: a, prompt: x, expect: {called: [{tool: t}], not_called: [t]}}]",
                "both called and never",
            ),
            (
                "cases: [{id: a, prompt: x, expect: {answer: {matches: '('}}}]",
                "does not compile",
            ),
            (
                "cases: [{id: a, prompt: x, expect: {called: [{tool: t, arguments: {x: {$regexp: a}}}]}}]",
                "not a matcher",
            ),
            (
                "cases: [{id: a, prompt: x, expect: {called: [{tool: t, schema: {type: 12}}]}}]",
                "does not compile",
            ),
            (
                "version: 2\ncases: [{id: a, prompt: x, expect: {first: t}}]",
                "version 2",
            ),
            (
                "variants: [{name: as-served, tools: {}}]\ncases: [{id: a, prompt: x, expect: {first: t}}]",
                "other than",
            ),
        ];
        for (text, words) in cases {
            let err = Suite::parse(text).unwrap_err();
            assert!(err.to_string().contains(words), "{text}: {err}");
        }
    }
}
