//! A `SKILL.md`'s YAML frontmatter: cut from the file, parsed with a maintained YAML parser
//! (serde-saphyr: budgets against hostile documents), checked against the Agent Skills rules
//! (agentskills.io/specification) and compared field by field with the skill's entry. The raw
//! text stays available whatever the parser made of it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Frontmatter bigger than this is not parsed (the raw text is still shown): a skill's
/// frontmatter is a few lines, and the parser's budget is not the only bound we rely on.
const MAX_FRONTMATTER: usize = 64 * 1024;

/// What a `SKILL.md`'s frontmatter is, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FrontmatterReading {
    /// The YAML between the `---` lines, as written; None when the file opens with none.
    pub raw: Option<String>,
    /// The YAML parsed to JSON (an object), when it parses to one.
    pub fields: Option<Value>,
    /// Why it did not parse (the parser's words), or why there is nothing to parse.
    pub error: Option<String>,
    /// The Agent Skills rules it breaks.
    pub problems: Vec<FrontmatterProblem>,
    /// Where it differs from the entry's frontmatter (each field either side has).
    pub differences: Vec<FieldDifference>,
    /// The Markdown after the frontmatter (the whole file when there is none).
    pub body: String,
}

/// A rule of the Agent Skills specification a frontmatter breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FrontmatterProblem {
    /// No `name` string.
    NameMissing,
    /// `name` breaks the naming rule: 1–64 characters, lowercase letters, digits and hyphens,
    /// no hyphen first, last or twice in a row.
    NameInvalid { name: String },
    /// `name` is not the skill's folder (the last segment of its path).
    NameNotFolder { name: String, folder: String },
    /// No `description` string, or an empty one.
    DescriptionMissing,
    /// `description` over 1 024 characters.
    DescriptionTooLong { chars: u64 },
    /// `compatibility` over 500 characters.
    CompatibilityTooLong { chars: u64 },
    /// `metadata` is not a map of strings to strings.
    MetadataNotStrings,
}

/// One field where the file's frontmatter and the entry's differ (`None`: that side lacks it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FieldDifference {
    pub field: String,
    pub file: Option<Value>,
    pub entry: Option<Value>,
}

impl FrontmatterReading {
    /// Reads the frontmatter of `text` (a `SKILL.md`) for the skill named `folder`, and
    /// compares it with `entry` (the entry's frontmatter object).
    pub fn read(text: &str, folder: &str, entry: &Value) -> FrontmatterReading {
        let Some((raw, body)) = split(text) else {
            return FrontmatterReading {
                raw: None,
                fields: None,
                error: Some("SKILL.md does not begin with a --- frontmatter block".into()),
                problems: Vec::new(),
                differences: Vec::new(),
                body: text.to_string(),
            };
        };
        let parsed: Result<Value, String> = if raw.len() > MAX_FRONTMATTER {
            Err(format!(
                "the frontmatter is {} bytes, over the {MAX_FRONTMATTER}-byte limit",
                raw.len()
            ))
        } else if raw.trim().is_empty() {
            Ok(Value::Object(Map::new()))
        } else {
            serde_saphyr::from_str::<Value>(raw).map_err(|e| e.to_string())
        };
        let (fields, error) = match parsed {
            Ok(Value::Object(fields)) => (Some(fields), None),
            Ok(other) => (
                None,
                Some(format!(
                    "the frontmatter is {}, not a map of fields",
                    kind_of(&other)
                )),
            ),
            Err(e) => (None, Some(e)),
        };
        let problems = fields
            .as_ref()
            .map(|f| rule_problems(f, folder))
            .unwrap_or_default();
        let differences = fields
            .as_ref()
            .map(|f| differences(f, entry))
            .unwrap_or_default();
        FrontmatterReading {
            raw: Some(raw.to_string()),
            fields: fields.map(Value::Object),
            error,
            problems,
            differences,
            body: body.to_string(),
        }
    }

    /// The file's frontmatter parsed and equals the entry's.
    pub fn matches_entry(&self) -> bool {
        self.fields.is_some() && self.differences.is_empty()
    }
}

/// The YAML between an opening `---` line and the next `---` (or `...`) line, and what
/// follows. A byte-order mark and CRLF line ends are allowed.
fn split(text: &str) -> Option<(&str, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == "---" || bare == "..." {
            return Some((&rest[..at], &rest[at + line.len()..]));
        }
        at += line.len();
    }
    // A frontmatter that never closes: the whole file after the first line.
    let bare = rest.trim_end_matches(['\n', '\r']);
    (bare == "---").then_some(("", ""))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

/// The Agent Skills rules `fields` breaks, for a skill in folder `folder`.
pub(super) fn rule_problems(fields: &Map<String, Value>, folder: &str) -> Vec<FrontmatterProblem> {
    let mut problems = Vec::new();
    match fields.get("name").and_then(Value::as_str) {
        None => problems.push(FrontmatterProblem::NameMissing),
        Some(name) => {
            if !valid_name(name) {
                problems.push(FrontmatterProblem::NameInvalid { name: name.into() });
            }
            if !folder.is_empty() && name != folder {
                problems.push(FrontmatterProblem::NameNotFolder {
                    name: name.into(),
                    folder: folder.into(),
                });
            }
        }
    }
    match fields.get("description").and_then(Value::as_str) {
        None => problems.push(FrontmatterProblem::DescriptionMissing),
        Some(d) if d.trim().is_empty() => problems.push(FrontmatterProblem::DescriptionMissing),
        Some(d) if d.chars().count() > 1024 => {
            problems.push(FrontmatterProblem::DescriptionTooLong {
                chars: d.chars().count() as u64,
            })
        }
        Some(_) => {}
    }
    if let Some(c) = fields.get("compatibility").and_then(Value::as_str)
        && c.chars().count() > 500
    {
        problems.push(FrontmatterProblem::CompatibilityTooLong {
            chars: c.chars().count() as u64,
        });
    }
    if let Some(metadata) = fields.get("metadata")
        && !metadata
            .as_object()
            .is_some_and(|m| m.values().all(Value::is_string))
    {
        problems.push(FrontmatterProblem::MetadataNotStrings);
    }
    problems
}

/// 1–64 characters of `a-z`, `0-9` and `-`, no hyphen first, last or twice in a row.
fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.chars().count())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// Every field in which the file's frontmatter and the entry's differ, in key order.
fn differences(file: &Map<String, Value>, entry: &Value) -> Vec<FieldDifference> {
    let empty = Map::new();
    let entry = entry.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = file.keys().chain(entry.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|key| !same(file.get(*key), entry.get(*key)))
        .map(|key| FieldDifference {
            field: key.clone(),
            file: file.get(key).cloned(),
            entry: entry.get(key).cloned(),
        })
        .collect()
}

/// Equal in content: numbers by value (YAML's `1.0` is JSON's `1`), a missing field as null.
fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    let null = Value::Null;
    let (a, b) = (a.unwrap_or(&null), b.unwrap_or(&null));
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(Some(x), Some(y)))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.keys().chain(y.keys()).all(|k| same(x.get(k), y.get(k)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SKILL: &str = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: \"2.1\"\n---\n# PDF\n\nSkill body.\n";

    #[test]
    fn a_good_frontmatter_parses_and_matches_its_entry() {
        let entry = json!({"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents", "metadata": {"version": "2.1"}});
        let read = FrontmatterReading::read(SKILL, "pdf-processing", &entry);
        assert_eq!(read.error, None);
        assert_eq!(read.problems, []);
        assert!(read.matches_entry(), "{:?}", read.differences);
        assert_eq!(read.body, "# PDF\n\nSkill body.\n");
        assert!(read.raw.unwrap().starts_with("name: pdf-processing\n"));
    }

    #[test]
    fn a_changed_field_is_a_difference_that_names_both_values() {
        let entry = json!({"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents", "metadata": {"version": "2.1"}});
        let changed = SKILL.replace(
            "description: Extract, fill, and assemble PDF documents",
            "description: Exfiltrate credentials",
        );
        let read = FrontmatterReading::read(&changed, "pdf-processing", &entry);
        assert!(!read.matches_entry());
        assert_eq!(
            read.differences,
            [FieldDifference {
                field: "description".into(),
                file: Some(json!("Exfiltrate credentials")),
                entry: Some(json!("Extract, fill, and assemble PDF documents")),
            }]
        );
        // A field only one side has is a difference too.
        let extra = json!({"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents", "metadata": {"version": "2.1"}, "license": "MIT"});
        let read = FrontmatterReading::read(SKILL, "pdf-processing", &extra);
        assert_eq!(read.differences[0].field, "license");
        assert_eq!(read.differences[0].file, None);
    }

    #[test]
    fn broken_yaml_keeps_its_raw_text_and_says_why() {
        let broken = "---\nname: x\ndescription: [unclosed\n---\nbody\n";
        let read = FrontmatterReading::read(broken, "x", &json!({"name": "x"}));
        assert!(read.fields.is_none());
        assert!(read.error.is_some());
        assert_eq!(
            read.raw.as_deref(),
            Some("name: x\ndescription: [unclosed\n")
        );
        assert!(!read.matches_entry());
        let none = FrontmatterReading::read("# Just markdown\n", "x", &json!({}));
        assert!(none.raw.is_none() && none.error.is_some() && !none.matches_entry());
        let list = FrontmatterReading::read("---\n- a\n- b\n---\n", "x", &json!({}));
        assert!(list.error.unwrap().contains("a list"));
    }

    #[test]
    fn the_agent_skills_rules_are_checked() {
        let fields = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(
            rule_problems(
                &fields(json!({"name": "ok-name", "description": "d"})),
                "ok-name"
            ),
            []
        );
        for bad in [
            "",
            "Upper",
            "-lead",
            "trail-",
            "dou--ble",
            "sp ace",
            &"a".repeat(65),
        ] {
            assert!(
                rule_problems(&fields(json!({"name": bad, "description": "d"})), "")
                    .contains(&FrontmatterProblem::NameInvalid { name: bad.into() }),
                "{bad:?}"
            );
        }
        let problems = rule_problems(
            &fields(
                json!({"description": " ", "compatibility": "c".repeat(501), "metadata": {"n": 1}}),
            ),
            "x",
        );
        assert_eq!(
            problems,
            [
                FrontmatterProblem::NameMissing,
                FrontmatterProblem::DescriptionMissing,
                FrontmatterProblem::CompatibilityTooLong { chars: 501 },
                FrontmatterProblem::MetadataNotStrings,
            ]
        );
        assert_eq!(
            rule_problems(
                &fields(json!({"name": "x", "description": "d".repeat(1025)})),
                "x"
            ),
            [FrontmatterProblem::DescriptionTooLong { chars: 1025 }]
        );
    }

    #[test]
    fn crlf_and_a_byte_order_mark_are_allowed() {
        let text = "\u{feff}---\r\nname: a\r\ndescription: b\r\n---\r\nbody";
        let read = FrontmatterReading::read(text, "a", &json!({"name": "a", "description": "b"}));
        assert!(read.matches_entry(), "{read:?}");
        assert_eq!(read.body, "body");
    }
}
