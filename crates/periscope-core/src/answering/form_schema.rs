//! The restricted schema of a form elicitation (a flat object of primitive fields): checks that
//! a requested schema stays inside it, so the host can render it, or says why not. (The filled
//! form is checked by the UI before it is sent.)

use regex::{Regex, RegexBuilder};
use serde_json::{Map, Value};

/// Most fields a form may have.
const MAX_PROPERTIES: usize = 100;
/// Most choices a single- or multi-select field may offer.
const MAX_CHOICES: usize = 1000;
/// The string formats a form may ask for.
const FORMATS: &[&str] = &["email", "uri", "date", "date-time"];
/// Bound on the compiled size of a server-supplied `pattern` (the regex engine runs in linear
/// time, so only the size needs a bound).
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Keywords that reference, compose or nest schemas: never part of a form, at any level.
const STRUCTURAL: &[&str] = &[
    "$ref",
    "$dynamicRef",
    "$defs",
    "definitions",
    "allOf",
    "anyOf",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentSchemas",
    "prefixItems",
];

/// Ok when `schema` is a form MCP allows; Err names the first thing outside the subset.
pub fn check_schema(schema: &Value) -> Result<(), String> {
    let Some(top) = schema.as_object() else {
        return Err("The requested form is not described by a JSON object schema.".into());
    };
    if top.get("type").and_then(Value::as_str) != Some("object") {
        return Err("The requested form must be a schema of \"type\": \"object\".".into());
    }
    for key in STRUCTURAL.iter().chain(&["oneOf", "items"]) {
        if top.contains_key(*key) {
            return Err(format!(
                "The requested form uses \"{key}\", which forms do not allow."
            ));
        }
    }
    let empty = Map::new();
    let properties = match top.get("properties") {
        None => &empty,
        Some(Value::Object(properties)) => properties,
        Some(_) => {
            return Err("The form's \"properties\" must be an object listing its fields.".into());
        }
    };
    if properties.len() > MAX_PROPERTIES {
        return Err(format!(
            "The form has {} fields, more than the {MAX_PROPERTIES} allowed.",
            properties.len()
        ));
    }
    for (name, property) in properties {
        check_property(name, property)?;
    }
    match top.get("required") {
        None => {}
        Some(Value::Array(names)) => {
            for name in names {
                let Some(name) = name.as_str() else {
                    return Err(format!(
                        "The form's \"required\" list contains {name}, which is not a field name."
                    ));
                };
                if !properties.contains_key(name) {
                    return Err(format!(
                        "The form requires a field \"{name}\" that it does not define."
                    ));
                }
            }
        }
        Some(_) => {
            return Err("The form's \"required\" must be a list of field names.".into());
        }
    }
    Ok(())
}

/// What kind of field a property is, for messages.
fn kind_name(ty: &str) -> &'static str {
    match ty {
        "string" => "text",
        "number" | "integer" => "number",
        "boolean" => "yes/no",
        _ => "multiple-choice",
    }
}

fn check_property(name: &str, property: &Value) -> Result<(), String> {
    let Some(p) = property.as_object() else {
        return Err(format!(
            "Field \"{name}\" is not described by a schema object."
        ));
    };
    if p.contains_key("$ref") || p.contains_key("$dynamicRef") {
        return Err(format!(
            "Field \"{name}\" refers to another schema with \"$ref\", which forms do not allow."
        ));
    }
    let ty = match p.get("type") {
        None => return Err(format!("Field \"{name}\" has no \"type\".")),
        Some(Value::String(ty)) => ty.as_str(),
        Some(other) => {
            return Err(format!(
                "Field \"{name}\" has type {other}, but a form field needs a single type name."
            ));
        }
    };
    let extra_forbidden: &[&str] = match ty {
        "string" => &["items", "properties"],
        "number" | "integer" | "boolean" => &["items", "properties", "enum", "oneOf"],
        "array" => &["properties", "enum", "oneOf"],
        "object" => {
            return Err(format!(
                "Field \"{name}\" is a nested object, but forms only allow flat fields."
            ));
        }
        other => {
            return Err(format!(
                "Field \"{name}\" has type \"{other}\", which forms do not support."
            ));
        }
    };
    for key in STRUCTURAL.iter().chain(extra_forbidden) {
        if p.contains_key(*key) {
            return Err(format!(
                "Field \"{name}\" uses \"{key}\", which a {} field of a form may not have.",
                kind_name(ty)
            ));
        }
    }
    opt_str(name, p, "title")?;
    opt_str(name, p, "description")?;
    match ty {
        "string" => check_string(name, p),
        "number" | "integer" => check_number(name, p, ty == "integer"),
        "boolean" => match p.get("default") {
            None | Some(Value::Bool(_)) => Ok(()),
            Some(_) => Err(format!(
                "Field \"{name}\" is a yes/no field but its default is not true or false."
            )),
        },
        _ => check_array(name, p),
    }
}

fn check_string(name: &str, p: &Map<String, Value>) -> Result<(), String> {
    let min = opt_count(name, p, "minLength")?;
    let max = opt_count(name, p, "maxLength")?;
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return Err(format!(
            "Field \"{name}\" has a minLength larger than its maxLength."
        ));
    }
    if let Some(pattern) = opt_str(name, p, "pattern")?
        && let Err(e) = compile_pattern(pattern)
    {
        return Err(format!(
            "Field \"{name}\" has a pattern that is not a valid regular expression ({}).",
            first_line(&e.to_string())
        ));
    }
    if let Some(format) = opt_str(name, p, "format")?
        && !FORMATS.contains(&format)
    {
        return Err(format!(
            "Field \"{name}\" asks for the format \"{format}\", which forms do not support \
             (only email, uri, date and date-time)."
        ));
    }
    if p.get("default").is_some_and(|d| !d.is_string()) {
        return Err(format!(
            "Field \"{name}\" is a text field but its default is not text."
        ));
    }
    let choices = opt_choice_list(name, p.get("enum"), "enum")?;
    if let Some(names) = p.get("enumNames") {
        let Some(choices) = &choices else {
            return Err(format!(
                "Field \"{name}\" has \"enumNames\" without an \"enum\" to name."
            ));
        };
        let names = names.as_array().filter(|n| n.iter().all(Value::is_string));
        if names.is_none_or(|n| n.len() != choices.len()) {
            return Err(format!(
                "Field \"{name}\" has \"enumNames\" that is not a list of texts as long as its \
                 \"enum\"."
            ));
        }
    }
    if let Some(one_of) = p.get("oneOf") {
        if choices.is_some() {
            return Err(format!(
                "Field \"{name}\" has both \"enum\" and \"oneOf\"; a form field may offer only \
                 one list of choices."
            ));
        }
        check_titled_choices(name, one_of, "oneOf")?;
    }
    Ok(())
}

fn check_number(name: &str, p: &Map<String, Value>, integer: bool) -> Result<(), String> {
    let min = opt_number(name, p, "minimum")?;
    let max = opt_number(name, p, "maximum")?;
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return Err(format!(
            "Field \"{name}\" has a minimum larger than its maximum."
        ));
    }
    match p.get("default") {
        None => Ok(()),
        Some(d) if integer && is_integer(d) => Ok(()),
        Some(d) if !integer && d.is_number() => Ok(()),
        Some(_) => Err(format!(
            "Field \"{name}\" is a {} field but its default is not {}.",
            if integer { "whole-number" } else { "number" },
            if integer {
                "a whole number"
            } else {
                "a number"
            }
        )),
    }
}

fn check_array(name: &str, p: &Map<String, Value>) -> Result<(), String> {
    let not_choices = || {
        format!(
            "Field \"{name}\" is a list whose items are not a fixed set of text choices, which is \
             the only kind of list forms allow."
        )
    };
    let Some(items) = p.get("items").and_then(Value::as_object) else {
        return Err(not_choices());
    };
    if items.contains_key("$ref") {
        return Err(format!(
            "Field \"{name}\" refers to another schema with \"$ref\", which forms do not allow."
        ));
    }
    if let Some(any_of) = items.get("anyOf") {
        if items.get("type").is_some_and(|t| t != "string") {
            return Err(not_choices());
        }
        check_titled_choices(name, any_of, "items.anyOf")?;
    } else if items.get("type").and_then(Value::as_str) == Some("string")
        && items.contains_key("enum")
    {
        opt_choice_list(name, items.get("enum"), "items.enum")?;
    } else {
        return Err(not_choices());
    }
    let min = opt_count(name, p, "minItems")?;
    let max = opt_count(name, p, "maxItems")?;
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return Err(format!(
            "Field \"{name}\" has a minItems larger than its maxItems."
        ));
    }
    match p.get("default") {
        None => Ok(()),
        Some(Value::Array(d)) if d.iter().all(Value::is_string) => Ok(()),
        Some(_) => Err(format!(
            "Field \"{name}\" is a multiple-choice field but its default is not a list of texts."
        )),
    }
}

fn opt_str<'a>(
    name: &str,
    p: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, String> {
    match p.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!(
            "Field \"{name}\" has a \"{key}\" that is not text."
        )),
    }
}

fn opt_count(name: &str, p: &Map<String, Value>, key: &str) -> Result<Option<u64>, String> {
    match p.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .or_else(|| {
                v.as_f64()
                    .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= u64::MAX as f64)
                    .map(|f| f as u64)
            })
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "Field \"{name}\" has a \"{key}\" that is not a whole number of zero or more."
                )
            }),
    }
}

fn opt_number(name: &str, p: &Map<String, Value>, key: &str) -> Result<Option<f64>, String> {
    match p.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_f64()
            .map(Some)
            .ok_or_else(|| format!("Field \"{name}\" has a \"{key}\" that is not a number.")),
    }
}

/// An `enum`-style list: non-empty, at most [`MAX_CHOICES`] texts.
fn opt_choice_list<'a>(
    name: &str,
    list: Option<&'a Value>,
    key: &str,
) -> Result<Option<Vec<&'a str>>, String> {
    let Some(list) = list else {
        return Ok(None);
    };
    let Some(list) = list.as_array() else {
        return Err(format!(
            "Field \"{name}\" has a \"{key}\" that is not a list of choices."
        ));
    };
    check_choice_count(name, list.len(), key)?;
    list.iter()
        .map(|v| {
            v.as_str().ok_or_else(|| {
                format!("Field \"{name}\" has a \"{key}\" choice that is not text ({v}).")
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// A `oneOf`/`anyOf` list of `{const, title}` choices.
fn check_titled_choices(name: &str, list: &Value, key: &str) -> Result<(), String> {
    let Some(list) = list.as_array() else {
        return Err(format!(
            "Field \"{name}\" has a \"{key}\" that is not a list of choices."
        ));
    };
    check_choice_count(name, list.len(), key)?;
    for choice in list {
        let ok = choice.as_object().is_some_and(|c| {
            c.get("const").is_some_and(Value::is_string)
                && c.get("title").is_none_or(Value::is_string)
        });
        if !ok {
            return Err(format!(
                "Field \"{name}\" has a \"{key}\" choice that is not a text \"const\" with an \
                 optional \"title\"."
            ));
        }
    }
    Ok(())
}

fn check_choice_count(name: &str, count: usize, key: &str) -> Result<(), String> {
    if count == 0 {
        return Err(format!(
            "Field \"{name}\" has an empty \"{key}\" list of choices."
        ));
    }
    if count > MAX_CHOICES {
        return Err(format!(
            "Field \"{name}\" offers {count} choices, more than the {MAX_CHOICES} allowed."
        ));
    }
    Ok(())
}

fn compile_pattern(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(pattern)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
}

fn first_line(s: &str) -> &str {
    s.lines().find(|l| !l.trim().is_empty()).unwrap_or(s).trim()
}

fn is_integer(v: &Value) -> bool {
    v.is_i64()
        || v.is_u64()
        || v.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn every_kind() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "title": "Sign up",
            "description": "Tell us about you",
            "additionalProperties": false,
            "properties": {
                "name": {
                    "type": "string", "title": "Name", "description": "Your name",
                    "minLength": 2, "maxLength": 20, "pattern": "^[A-Za-z ]+$", "default": "Ann",
                    "x-foo": {"anything": true}
                },
                "email": {"type": "string", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "born": {"type": "string", "format": "date"},
                "meeting": {"type": "string", "format": "date-time"},
                "color": {
                    "type": "string", "enum": ["red", "green"], "enumNames": ["Red", "Green"],
                    "default": "red"
                },
                "size": {
                    "type": "string",
                    "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]
                },
                "height": {"type": "number", "minimum": 0.5, "maximum": 2.5, "default": 1.7},
                "age": {"type": "integer", "minimum": 18, "maximum": 130, "default": 30},
                "subscribe": {"type": "boolean", "default": false, "title": "Subscribe?"},
                "tags": {
                    "type": "array", "title": "Tags", "minItems": 1, "maxItems": 2,
                    "default": ["a"], "uniqueItems": true,
                    "items": {"type": "string", "enum": ["a", "b", "c"]}
                },
                "toppings": {
                    "type": "array",
                    "items": {"anyOf": [{"const": "ham", "title": "Ham"}, {"const": "egg"}]}
                }
            },
            "required": ["name", "email", "age"]
        })
    }

    fn with_property(name: &str, property: Value) -> Value {
        json!({"type": "object", "properties": {name: property}})
    }

    #[test]
    fn accepts_one_field_of_each_kind() {
        assert_eq!(check_schema(&every_kind()), Ok(()));
        assert_eq!(check_schema(&json!({"type": "object"})), Ok(()));
        assert_eq!(
            check_schema(&json!({"type": "object", "properties": {}, "required": []})),
            Ok(())
        );
    }

    #[test]
    fn rejects_each_forbidden_shape() {
        let many: Map<String, Value> = (0..101)
            .map(|i| (format!("f{i}"), json!({"type": "string"})))
            .collect();
        let big_enum: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
        // (schema, a word the message must contain)
        let cases: Vec<(Value, &str)> = vec![
            (json!("string"), "object schema"),
            (json!({"type": "string"}), "\"type\": \"object\""),
            (json!({"properties": {}}), "\"type\": \"object\""),
            (json!({"type": "object", "$ref": "#/$defs/x"}), "$ref"),
            (json!({"type": "object", "allOf": []}), "allOf"),
            (json!({"type": "object", "properties": []}), "properties"),
            (
                with_property(
                    "address",
                    json!({"type": "object", "properties": {"street": {"type": "string"}}}),
                ),
                "\"address\" is a nested object",
            ),
            (
                with_property("ids", json!({"type": "array", "items": {"type": "number"}})),
                "\"ids\" is a list",
            ),
            (
                with_property("ids", json!({"type": "array", "items": {"type": "string"}})),
                "\"ids\" is a list",
            ),
            (
                with_property("ids", json!({"type": "array"})),
                "\"ids\" is a list",
            ),
            (
                with_property(
                    "ids",
                    json!({"type": "array", "items": {"type": "object", "properties": {}}}),
                ),
                "\"ids\" is a list",
            ),
            (
                with_property("ids", json!({"type": "array", "items": {"$ref": "#/x"}})),
                "\"ids\" refers",
            ),
            (
                with_property("who", json!({"$ref": "#/$defs/person"})),
                "\"who\" refers",
            ),
            (
                with_property("when", json!({"type": "date"})),
                "\"when\" has type \"date\"",
            ),
            (
                with_property("name", json!({"title": "Name"})),
                "\"name\" has no \"type\"",
            ),
            (
                with_property("name", json!({"type": ["string", "null"]})),
                "\"name\" has type",
            ),
            (
                with_property("name", json!("string")),
                "\"name\" is not described",
            ),
            (
                with_property("name", json!({"type": "string", "anyOf": []})),
                "\"name\" uses \"anyOf\"",
            ),
            (
                with_property("n", json!({"type": "number", "enum": [1, 2]})),
                "\"n\" uses \"enum\"",
            ),
            (
                json!({"type": "object", "properties": {"a": {"type": "string"}},
                       "required": ["a", "b"]}),
                "field \"b\"",
            ),
            (
                json!({"type": "object", "properties": {"a": {"type": "string"}},
                       "required": "a"}),
                "\"required\"",
            ),
            (json!({"type": "object", "properties": many}), "101 fields"),
            (
                with_property("pick", json!({"type": "string", "enum": big_enum})),
                "\"pick\" offers 1001 choices",
            ),
            (
                with_property("pick", json!({"type": "string", "enum": []})),
                "\"pick\" has an empty",
            ),
            (
                with_property("pick", json!({"type": "string", "enum": ["a", 1]})),
                "\"pick\" has a \"enum\" choice",
            ),
            (
                with_property(
                    "pick",
                    json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}),
                ),
                "\"pick\" has \"enumNames\"",
            ),
            (
                with_property("pick", json!({"type": "string", "enumNames": ["A"]})),
                "\"pick\" has \"enumNames\" without",
            ),
            (
                with_property("pick", json!({"type": "string", "oneOf": [{"title": "A"}]})),
                "\"pick\" has a \"oneOf\" choice",
            ),
            (
                with_property(
                    "pick",
                    json!({"type": "string", "enum": ["a"], "oneOf": [{"const": "a"}]}),
                ),
                "\"pick\" has both",
            ),
            (
                with_property("code", json!({"type": "string", "pattern": "([a-z"})),
                "\"code\" has a pattern",
            ),
            (
                with_property("code", json!({"type": "string", "format": "ipv4"})),
                "\"code\" asks for the format \"ipv4\"",
            ),
            (
                with_property("code", json!({"type": "string", "minLength": -1})),
                "\"code\" has a \"minLength\"",
            ),
            (
                with_property(
                    "code",
                    json!({"type": "string", "minLength": 5, "maxLength": 2}),
                ),
                "\"code\" has a minLength larger",
            ),
            (
                with_property("code", json!({"type": "string", "default": 3})),
                "\"code\" is a text field",
            ),
            (
                with_property("code", json!({"type": "string", "title": 3})),
                "\"code\" has a \"title\"",
            ),
            (
                with_property("n", json!({"type": "integer", "default": 1.5})),
                "\"n\" is a whole-number field",
            ),
            (
                with_property("n", json!({"type": "number", "minimum": "1"})),
                "\"n\" has a \"minimum\"",
            ),
            (
                with_property("n", json!({"type": "number", "minimum": 3, "maximum": 1})),
                "\"n\" has a minimum larger",
            ),
            (
                with_property("ok", json!({"type": "boolean", "default": "yes"})),
                "\"ok\" is a yes/no field",
            ),
            (
                with_property(
                    "tags",
                    json!({"type": "array", "items": {"type": "string", "enum": ["a"]},
                           "default": [1]}),
                ),
                "\"tags\" is a multiple-choice field",
            ),
            (
                with_property(
                    "tags",
                    json!({"type": "array", "items": {"type": "string", "enum": ["a"]},
                           "minItems": 3, "maxItems": 1}),
                ),
                "\"tags\" has a minItems larger",
            ),
        ];
        for (schema, needle) in cases {
            match check_schema(&schema) {
                Ok(()) => panic!("accepted {schema}"),
                Err(message) => {
                    assert!(message.contains(needle), "{message:?} lacks {needle:?}");
                    assert!(message.ends_with('.'), "{message:?}");
                }
            }
        }
    }
}
