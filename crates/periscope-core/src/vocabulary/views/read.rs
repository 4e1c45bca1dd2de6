//! Reading a server's JSON without trusting its shape: each reader returns what is there and
//! notes what is off as a [`OffSpec`].

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What was off in an item a server sent, by member (`field` is the JSON name as sent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OffSpec {
    /// The item itself is not a JSON object.
    NotAnObject,
    /// A member the spec requires is absent.
    Missing { field: String },
    /// A member is there but not of the type the spec says (`expected`: string, boolean, …).
    WrongType { field: String, expected: String },
}

impl std::fmt::Display for OffSpec {
    /// In English, as the CLI says it (the UI words it in `i18n/offSpec.ts`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OffSpec::NotAnObject => f.write_str("the item is not an object"),
            OffSpec::Missing { field } => write!(f, "{field} is missing"),
            OffSpec::WrongType { field, expected } => {
                write!(f, "{field} is not of type {expected}")
            }
        }
    }
}

impl OffSpec {
    /// The problem of a member of an item (`at`: `arguments[2]`, `annotations`), named from
    /// the item: a member that is no object is a wrong type there.
    pub fn under(self, at: &str) -> OffSpec {
        match self {
            OffSpec::NotAnObject => OffSpec::WrongType {
                field: at.to_string(),
                expected: "object".into(),
            },
            OffSpec::Missing { field } => OffSpec::Missing {
                field: format!("{at}.{field}"),
            },
            OffSpec::WrongType { field, expected } => OffSpec::WrongType {
                field: format!("{at}.{field}"),
                expected,
            },
        }
    }
}

/// The members of an item, or none (and the problem said) when it is not an object.
pub fn members<'a>(raw: &'a Value, problems: &mut Vec<OffSpec>) -> Option<&'a Map<String, Value>> {
    let object = raw.as_object();
    if object.is_none() {
        problems.push(OffSpec::NotAnObject);
    }
    object
}

/// Reads the members of one object, noting what is off.
pub struct Reader<'a> {
    pub object: Option<&'a Map<String, Value>>,
    pub problems: Vec<OffSpec>,
}

impl<'a> Reader<'a> {
    pub fn new(raw: &'a Value) -> Self {
        let mut problems = Vec::new();
        let object = members(raw, &mut problems);
        Reader { object, problems }
    }

    pub fn get(&self, field: &str) -> Option<&'a Value> {
        self.object.and_then(|o| o.get(field))
    }

    fn wrong(&mut self, field: &str, expected: &str) {
        self.problems.push(OffSpec::WrongType {
            field: field.to_string(),
            expected: expected.to_string(),
        });
    }

    /// An optional string member; another type is a problem (and read as absent).
    pub fn text(&mut self, field: &str) -> Option<String> {
        match self.get(field)? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            _ => {
                self.wrong(field, "string");
                None
            }
        }
    }

    /// A required string member.
    pub fn required_text(&mut self, field: &str) -> Option<String> {
        if self.object.is_some() && self.get(field).is_none() {
            self.problems.push(OffSpec::Missing {
                field: field.to_string(),
            });
        }
        self.text(field)
    }

    /// An optional boolean member.
    pub fn flag(&mut self, field: &str) -> Option<bool> {
        match self.get(field)? {
            Value::Bool(b) => Some(*b),
            Value::Null => None,
            _ => {
                self.wrong(field, "boolean");
                None
            }
        }
    }

    /// An optional non-negative integer member.
    pub fn count(&mut self, field: &str) -> Option<u64> {
        match self.get(field)? {
            Value::Null => None,
            v => v.as_u64().or_else(|| {
                self.wrong(field, "non-negative integer");
                None
            }),
        }
    }

    /// An optional object member, as sent.
    pub fn object(&mut self, field: &str) -> Option<&'a Value> {
        match self.get(field)? {
            v @ Value::Object(_) => Some(v),
            Value::Null => None,
            _ => {
                self.wrong(field, "object");
                None
            }
        }
    }

    /// An optional array member's items (an absent one is empty).
    pub fn list(&mut self, field: &str) -> &'a [Value] {
        match self.get(field) {
            Some(Value::Array(items)) => items,
            None | Some(Value::Null) => &[],
            Some(_) => {
                self.wrong(field, "array");
                &[]
            }
        }
    }
}
