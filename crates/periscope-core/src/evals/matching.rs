//! Whether a tool call's arguments are the ones a case expects: values equal (numbers by
//! value, so `2` is `2.0`), or a matcher in their place: `{"$regex": "…"}` (a string's text,
//! or any other value's JSON, must match), `{"$schema": {…}}` (the value validates),
//! `{"$any": true}` (present, whatever it is), `{"$equals": …}` (literally this, for an
//! object whose own keys start with `$`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a call's arguments are compared with the expected ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalArgsMatch")
)]
#[serde(rename_all = "snake_case")]
pub enum ArgsMatch {
    #[default]
    Partial,
    Exact,
}

const REGEX: &str = "$regex";
const SCHEMA: &str = "$schema";
const ANY: &str = "$any";
const EQUALS: &str = "$equals";

/// A matcher written wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatcherError {
    Unknown { matcher: String },
    BadRegex { pattern: String, detail: String },
    BadSchema { detail: String },
}

/// A compiled JSON Schema.
pub fn compile_schema(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The matcher an expected value is, if it is one.
enum Matcher<'a> {
    Regex(&'a str),
    Schema(&'a Value),
    Any,
    Equals(&'a Value),
    Unknown(&'a str),
}

fn matcher(expected: &Value) -> Option<Matcher<'_>> {
    let object = expected.as_object()?;
    let (key, value) = object.iter().next()?;
    if !key.starts_with('$') {
        return None;
    }
    if object.len() > 1 {
        return Some(Matcher::Unknown(key));
    }
    Some(match key.as_str() {
        REGEX => match value.as_str() {
            Some(p) => Matcher::Regex(p),
            None => Matcher::Unknown(key),
        },
        SCHEMA => Matcher::Schema(value),
        ANY => Matcher::Any,
        EQUALS => Matcher::Equals(value),
        _ => Matcher::Unknown(key),
    })
}

/// Every matcher inside `expected` is known and compiles.
pub fn check_matchers(expected: &Value) -> Result<(), MatcherError> {
    match matcher(expected) {
        Some(Matcher::Unknown(key)) => Err(MatcherError::Unknown {
            matcher: key.to_string(),
        }),
        Some(Matcher::Regex(pattern)) => {
            regex::Regex::new(pattern)
                .map(|_| ())
                .map_err(|e| MatcherError::BadRegex {
                    pattern: pattern.to_string(),
                    detail: e.to_string(),
                })
        }
        Some(Matcher::Schema(schema)) => compile_schema(schema)
            .map(|_| ())
            .map_err(|detail| MatcherError::BadSchema { detail }),
        Some(Matcher::Any | Matcher::Equals(_)) => Ok(()),
        None => match expected {
            Value::Object(map) => map.values().try_for_each(check_matchers),
            Value::Array(items) => items.iter().try_for_each(check_matchers),
            _ => Ok(()),
        },
    }
}

/// Where arguments differ from the expected ones, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalMismatch"))]
pub struct Mismatch {
    /// A JSON Pointer into the arguments (`""` for the whole object).
    pub path: String,
    pub reason: MismatchReason,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalMismatchReason")
)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MismatchReason {
    Missing,
    /// A field `exact` does not allow.
    Unexpected,
    NotEqual {
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        expected: Value,
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        actual: Value,
    },
    NoMatch {
        pattern: String,
    },
    /// The value does not validate against the schema (the validator's first words).
    Schema {
        detail: String,
    },
    LengthDiffers {
        expected: u64,
        actual: u64,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.path.is_empty() {
            "the arguments".to_string()
        } else {
            self.path.clone()
        };
        match &self.reason {
            MismatchReason::Missing => write!(f, "{at} is missing"),
            MismatchReason::Unexpected => write!(f, "{at} is not expected (exact match)"),
            MismatchReason::NotEqual { expected, actual } => {
                write!(f, "{at} is {actual}, expected {expected}")
            }
            MismatchReason::NoMatch { pattern } => write!(f, "{at} does not match /{pattern}/"),
            MismatchReason::Schema { detail } => write!(f, "{at} breaks the schema: {detail}"),
            MismatchReason::LengthDiffers { expected, actual } => {
                write!(f, "{at} has {actual} items, expected {expected}")
            }
        }
    }
}

/// Whether `actual` matches `expected`; the first difference when not.
pub fn matches(expected: &Value, actual: &Value, mode: ArgsMatch) -> Result<(), Mismatch> {
    walk(expected, actual, mode, String::new())
}

/// Whether `arguments` validate against `schema`.
pub fn validates(schema: &Value, arguments: &Value) -> Result<(), Mismatch> {
    let fail = |detail: String| Mismatch {
        path: String::new(),
        reason: MismatchReason::Schema { detail },
    };
    let validator = compile_schema(schema).map_err(fail)?;
    match validator.iter_errors(arguments).next() {
        None => Ok(()),
        Some(e) => Err(Mismatch {
            path: e.instance_path().to_string(),
            reason: MismatchReason::Schema {
                detail: e.to_string(),
            },
        }),
    }
}

fn pointer_push(path: &str, key: &str) -> String {
    format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"))
}

fn walk(expected: &Value, actual: &Value, mode: ArgsMatch, path: String) -> Result<(), Mismatch> {
    let differ = |reason| {
        Err(Mismatch {
            path: path.clone(),
            reason,
        })
    };
    match matcher(expected) {
        Some(Matcher::Any) => return Ok(()),
        Some(Matcher::Equals(value)) => {
            return if same(value, actual) {
                Ok(())
            } else {
                differ(MismatchReason::NotEqual {
                    expected: value.clone(),
                    actual: actual.clone(),
                })
            };
        }
        Some(Matcher::Regex(pattern)) => {
            let text = match actual {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            // Checked when the suite was read; a pattern that fails here fails the match.
            let found = regex::Regex::new(pattern).is_ok_and(|r| r.is_match(&text));
            return if found {
                Ok(())
            } else {
                differ(MismatchReason::NoMatch {
                    pattern: pattern.to_string(),
                })
            };
        }
        Some(Matcher::Schema(schema)) => {
            return validates(schema, actual).map_err(|m| Mismatch {
                path: format!("{path}{}", m.path),
                reason: m.reason,
            });
        }
        Some(Matcher::Unknown(key)) => {
            return differ(MismatchReason::NoMatch {
                pattern: key.to_string(),
            });
        }
        None => {}
    }
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => {
            for (key, value) in want {
                let at = pointer_push(&path, key);
                match got.get(key) {
                    Some(v) => walk(value, v, mode, at)?,
                    None => {
                        return Err(Mismatch {
                            path: at,
                            reason: MismatchReason::Missing,
                        });
                    }
                }
            }
            if mode == ArgsMatch::Exact
                && let Some(extra) = got.keys().find(|k| !want.contains_key(*k))
            {
                return Err(Mismatch {
                    path: pointer_push(&path, extra),
                    reason: MismatchReason::Unexpected,
                });
            }
            Ok(())
        }
        (Value::Array(want), Value::Array(got)) => {
            if want.len() != got.len() {
                return differ(MismatchReason::LengthDiffers {
                    expected: want.len() as u64,
                    actual: got.len() as u64,
                });
            }
            for (i, (w, g)) in want.iter().zip(got).enumerate() {
                walk(w, g, mode, format!("{path}/{i}"))?;
            }
            Ok(())
        }
        _ if same(expected, actual) => Ok(()),
        _ => differ(MismatchReason::NotEqual {
            expected: expected.clone(),
            actual: actual.clone(),
        }),
    }
}

/// Equal, numbers by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn partial_and_exact_matching() {
        let want = json!({"a": 2, "b": 3});
        assert!(
            matches(
                &want,
                &json!({"a": 2.0, "b": 3, "c": 1}),
                ArgsMatch::Partial
            )
            .is_ok()
        );
        let extra = matches(&want, &json!({"a": 2, "b": 3, "c": 1}), ArgsMatch::Exact);
        assert_eq!(extra.unwrap_err().path, "/c");
        let wrong = matches(&want, &json!({"a": 2, "b": 4}), ArgsMatch::Partial).unwrap_err();
        assert_eq!(wrong.to_string(), "/b is 4, expected 3");
        let missing = matches(&want, &json!({"a": 2}), ArgsMatch::Partial).unwrap_err();
        assert_eq!(missing.reason, MismatchReason::Missing);
    }

    #[test]
    fn matchers_stand_in_for_values() {
        let want = json!({
            "city": {"$regex": "(?i)^paris$"},
            "days": {"$schema": {"type": "integer", "minimum": 1, "maximum": 7}},
            "units": {"$any": true},
            "raw": {"$equals": {"$ref": "x"}},
            "n": {"$regex": "^3(\\.0)?$"}
        });
        let good = json!({"city": "PARIS", "days": 3, "units": null, "raw": {"$ref": "x"}, "n": 3});
        assert!(matches(&want, &good, ArgsMatch::Exact).is_ok());
        let bad = json!({"city": "Lyon", "days": 3, "units": 1, "raw": {"$ref": "x"}, "n": 3});
        assert!(matches!(
            matches(&want, &bad, ArgsMatch::Partial).unwrap_err().reason,
            MismatchReason::NoMatch { .. }
        ));
        let out_of_range =
            json!({"city": "Paris", "days": 9, "units": 1, "raw": {"$ref": "x"}, "n": 3});
        let m = matches(&want, &out_of_range, ArgsMatch::Partial).unwrap_err();
        assert_eq!(m.path, "/days");
        assert!(matches!(m.reason, MismatchReason::Schema { .. }));
    }

    #[test]
    fn a_misspelt_matcher_is_caught_before_a_run() {
        assert!(matches!(
            check_matchers(&json!({"a": {"$regx": "x"}})),
            Err(MatcherError::Unknown { .. })
        ));
        assert!(check_matchers(&json!({"a": [{"$regex": "("}]})).is_err());
        assert!(check_matchers(&json!({"a": {"$schema": {"type": "string"}}})).is_ok());
    }

    #[test]
    fn a_whole_schema_validates_the_arguments() {
        let schema =
            json!({"type": "object", "required": ["q"], "properties": {"q": {"type": "string"}}});
        assert!(validates(&schema, &json!({"q": "x"})).is_ok());
        assert!(validates(&schema, &json!({"q": 1})).is_err());
        assert!(validates(&schema, &json!({})).is_err());
    }
}
