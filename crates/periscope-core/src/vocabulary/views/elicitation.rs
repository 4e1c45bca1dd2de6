//! An `elicitation/create` request: form mode (a message and a flat `requestedSchema`, read
//! into the fields a form shows) or URL mode (a message, a URL and its elicitation id), with
//! the JSON as sent. Whatever in a property's schema a form cannot honour is a note on its
//! field, never a reason to drop it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::read::{OffSpec, Reader};

/// A text field's input kind, from the property's `format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TextFormat {
    Text,
    Email,
    Uri,
    Date,
    Datetime,
}

/// One choice of a select: the value sent and the label shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Choice {
    pub value: String,
    pub label: String,
}

/// What a form could not honour in a property's schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FieldNote {
    /// The property's schema is not an object: shown as a text field.
    NotObject,
    /// A `type` the form does not know (None: no string type): shown as a text field.
    Type {
        #[serde(rename = "type")]
        type_name: Option<String>,
    },
    /// A string `format` the form does not know: shown as plain text.
    Format { format: String },
}

/// What a field asks for, with its constraints and the server's default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FieldKind {
    Text {
        format: TextFormat,
        min_length: Option<u64>,
        max_length: Option<u64>,
        pattern: Option<String>,
        default: Option<String>,
    },
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
        default: Option<f64>,
    },
    Boolean {
        default: Option<bool>,
    },
    Select {
        choices: Vec<Choice>,
        default: Option<String>,
    },
    MultiSelect {
        choices: Vec<Choice>,
        min_items: Option<u64>,
        max_items: Option<u64>,
        default: Option<Vec<String>>,
    },
}

/// One property of a `requestedSchema` as a form field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FormField {
    pub name: String,
    /// The property's `title`, else its name.
    pub label: String,
    pub description: Option<String>,
    pub required: bool,
    pub field: FieldKind,
    pub notes: Vec<FieldNote>,
}

/// The mode an elicitation asks in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum ElicitationMode {
    /// A form (also without a `mode`): its fields in the order of `properties`.
    Form {
        requested_schema: Option<Value>,
        fields: Vec<FormField>,
    },
    /// A URL to open (nothing has been fetched).
    Url {
        url: Option<String>,
        elicitation_id: Option<String>,
    },
    /// A mode this client does not know.
    Other { name: String },
}

/// An `elicitation/create` request's params, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ElicitationView {
    pub message: Option<String>,
    pub request: ElicitationMode,
    pub problems: Vec<OffSpec>,
    pub raw: Value,
}

fn number(schema: &Map<String, Value>, key: &str) -> Option<f64> {
    schema
        .get(key)
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
}

/// A non-negative integer constraint (`minLength`, `maxItems`…).
fn count(schema: &Map<String, Value>, key: &str) -> Option<u64> {
    let n = number(schema, key)?;
    (n >= 0.0 && n.fract() == 0.0).then_some(n as u64)
}

fn text(schema: &Map<String, Value>, key: &str) -> Option<String> {
    schema.get(key).and_then(Value::as_str).map(str::to_string)
}

fn label(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_string)
}

/// `enum` (with the legacy `enumNames` as labels) or `oneOf` / `anyOf` of `{const, title}`.
fn choices_of(schema: &Map<String, Value>) -> Option<Vec<Choice>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let names = schema.get("enumNames").and_then(Value::as_array);
        return Some(
            values
                .iter()
                .enumerate()
                .map(|(i, value)| Choice {
                    value: label(value),
                    label: names
                        .and_then(|n| n.get(i))
                        .and_then(Value::as_str)
                        .map_or_else(|| label(value), str::to_string),
                })
                .collect(),
        );
    }
    let list = schema
        .get("oneOf")
        .and_then(Value::as_array)
        .or_else(|| schema.get("anyOf").and_then(Value::as_array))?;
    let consts: Option<Vec<&Map<String, Value>>> = list
        .iter()
        .map(|c| c.as_object().filter(|c| c.contains_key("const")))
        .collect();
    let consts = consts.filter(|c| !c.is_empty())?;
    Some(
        consts
            .into_iter()
            .map(|c| Choice {
                value: label(&c["const"]),
                label: text(c, "title").unwrap_or_else(|| label(&c["const"])),
            })
            .collect(),
    )
}

fn field_of(name: &str, schema: &Value, required: bool) -> FormField {
    let Some(schema) = schema.as_object() else {
        return FormField {
            name: name.to_string(),
            label: name.to_string(),
            description: None,
            required,
            field: FieldKind::Text {
                format: TextFormat::Text,
                min_length: None,
                max_length: None,
                pattern: None,
                default: None,
            },
            notes: vec![FieldNote::NotObject],
        };
    };
    let type_name = text(schema, "type");
    let fallback = schema.get("default");
    let mut notes = Vec::new();
    let multi = (type_name.as_deref() == Some("array"))
        .then(|| {
            schema
                .get("items")
                .and_then(Value::as_object)
                .and_then(choices_of)
        })
        .flatten();
    let single = if type_name.as_deref() == Some("array") {
        None
    } else {
        choices_of(schema)
    };
    let field = if let Some(choices) = multi {
        FieldKind::MultiSelect {
            choices,
            min_items: count(schema, "minItems"),
            max_items: count(schema, "maxItems"),
            default: fallback.and_then(Value::as_array).map(|l| {
                l.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            }),
        }
    } else if let Some(choices) = single {
        FieldKind::Select {
            choices,
            default: fallback.and_then(Value::as_str).map(str::to_string),
        }
    } else {
        match type_name.as_deref() {
            Some(kind @ ("number" | "integer")) => FieldKind::Number {
                integer: kind == "integer",
                minimum: number(schema, "minimum"),
                maximum: number(schema, "maximum"),
                default: fallback.and_then(Value::as_f64).filter(|n| n.is_finite()),
            },
            Some("boolean") => FieldKind::Boolean {
                default: fallback.and_then(Value::as_bool),
            },
            _ => {
                let format_name = text(schema, "format");
                let format = match format_name.as_deref() {
                    None => TextFormat::Text,
                    Some("email") => TextFormat::Email,
                    Some("uri") => TextFormat::Uri,
                    Some("date") => TextFormat::Date,
                    Some("date-time") => TextFormat::Datetime,
                    Some(_) => TextFormat::Text,
                };
                if type_name.as_deref() != Some("string") {
                    notes.push(FieldNote::Type {
                        type_name: type_name.clone(),
                    });
                }
                if let Some(f) = format_name
                    .filter(|f| !["email", "uri", "date", "date-time"].contains(&f.as_str()))
                {
                    notes.push(FieldNote::Format { format: f });
                }
                FieldKind::Text {
                    format,
                    min_length: count(schema, "minLength"),
                    max_length: count(schema, "maxLength"),
                    pattern: text(schema, "pattern"),
                    default: fallback.and_then(Value::as_str).map(str::to_string),
                }
            }
        }
    };
    FormField {
        name: name.to_string(),
        label: text(schema, "title")
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| name.to_string()),
        description: text(schema, "description"),
        required,
        field,
        notes,
    }
}

/// The fields of a `requestedSchema`, in the order of its `properties`.
pub fn fields_of(schema: &Value) -> Vec<FormField> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .iter()
        .map(|(name, property)| field_of(name, property, required.contains(&name.as_str())))
        .collect()
}

impl ElicitationView {
    /// Reads an `elicitation/create` request's params.
    pub fn read(raw: &Value) -> ElicitationView {
        let mut r = Reader::new(raw);
        let message = r.required_text("message");
        let mode = r.text("mode");
        let request = match mode.as_deref() {
            None | Some("form") => {
                let requested_schema = r.object("requestedSchema").cloned();
                if r.object.is_some() && r.get("requestedSchema").is_none() {
                    r.problems.push(OffSpec::Missing {
                        field: "requestedSchema".into(),
                    });
                }
                let fields = requested_schema.as_ref().map(fields_of).unwrap_or_default();
                ElicitationMode::Form {
                    requested_schema,
                    fields,
                }
            }
            Some("url") => ElicitationMode::Url {
                url: r.required_text("url"),
                elicitation_id: r.text("elicitationId"),
            },
            Some(other) => ElicitationMode::Other {
                name: other.to_string(),
            },
        };
        ElicitationView {
            message,
            request,
            problems: r.problems,
            raw: raw.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The 2026-07-28 schema's `ElicitRequestFormParams` example (multiple fields).
    fn contact_form() -> Value {
        json!({"mode": "form", "message": "Please provide your contact information",
            "requestedSchema": {"type": "object", "properties": {
                "name": {"type": "string", "description": "Your full name"},
                "email": {"type": "string", "format": "email", "description": "Your email address"},
                "age": {"type": "number", "minimum": 18, "description": "Your age"}},
            "required": ["name", "email"]}})
    }

    #[test]
    fn a_spec_form_reads_into_fields_in_order() {
        let view = ElicitationView::read(&contact_form());
        assert_eq!(
            view.message.as_deref(),
            Some("Please provide your contact information")
        );
        let ElicitationMode::Form { fields, .. } = &view.request else {
            panic!()
        };
        let names: Vec<_> = fields
            .iter()
            .map(|f| (f.name.as_str(), f.required))
            .collect();
        assert_eq!(names, [("name", true), ("email", true), ("age", false)]);
        assert!(matches!(
            fields[1].field,
            FieldKind::Text {
                format: TextFormat::Email,
                ..
            }
        ));
        assert!(matches!(
            fields[2].field,
            FieldKind::Number {
                integer: false,
                minimum: Some(18.0),
                ..
            }
        ));
        assert!(view.problems.is_empty());
        assert_eq!(view.raw, contact_form());
    }

    #[test]
    fn a_spec_url_request_reads_its_url() {
        let raw = json!({"mode": "url", "url": "https://mcp.example.com/ui/set_api_key",
            "message": "Please provide your API key to continue.", "elicitationId": "e-1"});
        let view = ElicitationView::read(&raw);
        assert_eq!(
            view.request,
            ElicitationMode::Url {
                url: Some("https://mcp.example.com/ui/set_api_key".into()),
                elicitation_id: Some("e-1".into())
            }
        );
    }

    #[test]
    fn selects_and_multi_selects_read_their_choices() {
        let schema = json!({"properties": {
            "color": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red"], "default": "g"},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l"}]},
            "tags": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}, "maxItems": 2, "default": ["a", 1]},
            "ok": {"type": "boolean", "default": true}}});
        let fields = fields_of(&schema);
        let FieldKind::Select { choices, default } = &fields[0].field else {
            panic!()
        };
        assert_eq!(
            choices[0],
            Choice {
                value: "r".into(),
                label: "Red".into()
            }
        );
        assert_eq!(choices[1].label, "g");
        assert_eq!(default.as_deref(), Some("g"));
        let FieldKind::Select { choices, .. } = &fields[1].field else {
            panic!()
        };
        assert_eq!(
            (choices[0].label.as_str(), choices[1].label.as_str()),
            ("Small", "l")
        );
        assert!(
            matches!(&fields[2].field, FieldKind::MultiSelect { max_items: Some(2), default: Some(d), .. } if d == &["a"])
        );
        assert_eq!(
            fields[3].field,
            FieldKind::Boolean {
                default: Some(true)
            }
        );
    }

    /// The schema the UI's form tests use (ui/src/answering/formSchema.test.ts), read here as
    /// the UI read it before the engine did.
    fn every_kind() -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Your name", "description": "As on your passport", "minLength": 2, "maxLength": 5},
            "email": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "born": {"type": "string", "format": "date"},
            "meeting": {"type": "string", "format": "date-time"},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "age": {"type": "integer", "minimum": 18, "maximum": 99, "default": 30},
            "ratio": {"type": "number", "minimum": 0, "maximum": 1},
            "agree": {"type": "boolean", "default": true},
            "colour": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"], "default": "g"},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2, "default": ["b"]},
            "pets": {"type": "array", "items": {"anyOf": [{"const": "cat", "title": "Cat"}, {"const": "dog", "title": "Dog"}]}}},
            "required": ["name", "email", "tags"]})
    }

    fn kind_name(field: &FormField) -> &'static str {
        match &field.field {
            FieldKind::Text { format, .. } => match format {
                TextFormat::Text => "text",
                TextFormat::Email => "email",
                TextFormat::Uri => "uri",
                TextFormat::Date => "date",
                TextFormat::Datetime => "datetime",
            },
            FieldKind::Number { integer: true, .. } => "integer",
            FieldKind::Number { .. } => "number",
            FieldKind::Boolean { .. } => "boolean",
            FieldKind::Select { .. } => "select",
            FieldKind::MultiSelect { .. } => "multiselect",
        }
    }

    #[test]
    fn every_kind_of_field_reads_in_order_with_labels_constraints_and_choices() {
        let fields = fields_of(&every_kind());
        let kinds: Vec<_> = fields
            .iter()
            .map(|f| (f.name.as_str(), kind_name(f)))
            .collect();
        assert_eq!(
            kinds,
            [
                ("name", "text"),
                ("email", "email"),
                ("site", "uri"),
                ("born", "date"),
                ("meeting", "datetime"),
                ("code", "text"),
                ("age", "integer"),
                ("ratio", "number"),
                ("agree", "boolean"),
                ("colour", "select"),
                ("size", "select"),
                ("tags", "multiselect"),
                ("pets", "multiselect"),
            ]
        );
        let by = |name: &str| fields.iter().find(|f| f.name == name).unwrap();
        let name = by("name");
        assert_eq!(
            (
                name.label.as_str(),
                name.description.as_deref(),
                name.required
            ),
            ("Your name", Some("As on your passport"), true)
        );
        assert!(matches!(
            name.field,
            FieldKind::Text {
                min_length: Some(2),
                max_length: Some(5),
                ..
            }
        ));
        let email = by("email");
        assert_eq!(
            (
                email.label.as_str(),
                email.description.as_deref(),
                email.required
            ),
            ("email", None, true)
        );
        assert!(matches!(
            by("age").field,
            FieldKind::Number {
                minimum: Some(18.0),
                maximum: Some(99.0),
                default: Some(30.0),
                ..
            }
        ));
        assert!(
            matches!(&by("tags").field, FieldKind::MultiSelect { min_items: Some(1), max_items: Some(2), default: Some(d), .. } if d == &["b"])
        );
        let choices = |name: &str| match &by(name).field {
            FieldKind::Select { choices, .. } | FieldKind::MultiSelect { choices, .. } => choices
                .iter()
                .map(|c| (c.value.clone(), c.label.clone()))
                .collect::<Vec<_>>(),
            _ => panic!("{name} has no choices"),
        };
        let pairs = |l: &[(&str, &str)]| {
            l.iter()
                .map(|(v, l)| (v.to_string(), l.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(choices("colour"), pairs(&[("r", "Red"), ("g", "Green")]));
        assert_eq!(choices("size"), pairs(&[("s", "Small"), ("l", "Large")]));
        assert_eq!(
            choices("tags"),
            pairs(&[("a", "a"), ("b", "b"), ("c", "c")])
        );
        assert_eq!(choices("pets"), pairs(&[("cat", "Cat"), ("dog", "Dog")]));
    }

    /// The UI's form tests start from the fields the engine reads (ui/src/answering/fixtures/
    /// forms.json: each schema beside its fields); they must be what `fields_of` gives.
    /// `BLESS=1` writes them.
    #[test]
    fn the_ui_form_fixtures_are_what_the_engine_reads() {
        crate::vocabulary::views::ui_fixtures::keep_true(
            "ui/src/answering/fixtures/forms.json",
            "fields",
            |form| serde_json::to_value(fields_of(&form["schema"])).unwrap(),
        );
    }

    #[test]
    fn a_schema_without_properties_has_no_fields() {
        assert!(fields_of(&json!(null)).is_empty());
        assert!(fields_of(&json!("nope")).is_empty());
        assert!(fields_of(&json!({"type": "object"})).is_empty());
        let odd =
            fields_of(&json!({"properties": {"a": 3, "b": {"type": "object"}}, "required": "a"}));
        assert_eq!(
            odd.iter().map(kind_name).collect::<Vec<_>>(),
            ["text", "text"]
        );
        assert!(!odd[0].required);
    }

    #[test]
    fn a_malformed_form_still_yields_fields_with_notes() {
        let raw = json!({"requestedSchema": {"properties": {"a": 5, "b": {"type": "object"},
            "c": {"type": "string", "format": "phone", "minLength": -1}}}});
        let view = ElicitationView::read(&raw);
        assert_eq!(
            view.problems,
            vec![OffSpec::Missing {
                field: "message".into()
            }]
        );
        let ElicitationMode::Form { fields, .. } = &view.request else {
            panic!()
        };
        assert_eq!(fields[0].notes, vec![FieldNote::NotObject]);
        assert_eq!(
            fields[1].notes,
            vec![FieldNote::Type {
                type_name: Some("object".into())
            }]
        );
        assert_eq!(
            fields[2].notes,
            vec![FieldNote::Format {
                format: "phone".into()
            }]
        );
        assert!(matches!(
            fields[2].field,
            FieldKind::Text {
                min_length: None,
                ..
            }
        ));
        let odd = ElicitationView::read(&json!({"message": "m", "mode": "voice"}));
        assert_eq!(
            odd.request,
            ElicitationMode::Other {
                name: "voice".into()
            }
        );
    }
}
