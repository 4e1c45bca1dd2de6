//! Arguments for a tool call, made from its input schema: the smallest object the schema
//! accepts as far as a few rules can tell (every required property, each with its `const`,
//! `default`, first `enum` value or first example, else a value of its type within its
//! bounds), and one it must refuse (a property of the wrong type).

use serde_json::{Map, Value, json};

/// Deepest nesting filled in (a recursive schema ends here).
const MAX_DEPTH: usize = 6;

/// Arguments `schema` should accept.
pub fn generate(schema: &Value) -> Value {
    value_for(schema, 0)
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}))
}

fn value_for(schema: &Value, depth: usize) -> Option<Value> {
    let schema = schema.as_object()?;
    if depth > MAX_DEPTH {
        return None;
    }
    if let Some(value) = schema.get("const") {
        return Some(value.clone());
    }
    if let Some(value) = schema.get("default") {
        return Some(value.clone());
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Some(first.clone());
    }
    if let Some(first) = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Some(first.clone());
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            return value_for(first, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        // A list of types: the first that is not null.
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if schema.contains_key("properties") => "object",
        _ => "string",
    };
    Some(match kind {
        "object" => {
            let mut object = Map::new();
            let properties = schema.get("properties").and_then(Value::as_object);
            let required = schema.get("required").and_then(Value::as_array);
            for name in required.into_iter().flatten().filter_map(Value::as_str) {
                let property = properties
                    .and_then(|p| p.get(name))
                    .cloned()
                    .unwrap_or(json!({}));
                object.insert(
                    name.to_string(),
                    value_for(&property, depth + 1).unwrap_or(json!("periscope")),
                );
            }
            Value::Object(object)
        }
        "array" => {
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let item = schema.get("items").cloned().unwrap_or(json!({}));
            let items = (0..min.min(8))
                .filter_map(|_| value_for(&item, depth + 1))
                .collect();
            Value::Array(items)
        }
        "integer" => json!(number_within(schema).round() as i64),
        "number" => json!(number_within(schema)),
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => json!(string_within(schema)),
    })
}

fn number_within(schema: &Map<String, Value>) -> f64 {
    let min = schema.get("minimum").and_then(Value::as_f64).or_else(|| {
        schema
            .get("exclusiveMinimum")
            .and_then(Value::as_f64)
            .map(|m| m + 1.0)
    });
    let max = schema.get("maximum").and_then(Value::as_f64).or_else(|| {
        schema
            .get("exclusiveMaximum")
            .and_then(Value::as_f64)
            .map(|m| m - 1.0)
    });
    match (min, max) {
        (Some(min), _) => min,
        (None, Some(max)) => max.min(1.0),
        (None, None) => 1.0,
    }
}

fn string_within(schema: &Map<String, Value>) -> String {
    match schema.get("format").and_then(Value::as_str) {
        Some("uri") | Some("url") => return "https://example.com/".into(),
        Some("email") => return "periscope@example.com".into(),
        Some("date") => return "2026-07-28".into(),
        Some("date-time") => return "2026-07-28T00:00:00Z".into(),
        Some("uuid") => return "00000000-0000-4000-8000-000000000000".into(),
        _ => {}
    }
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = schema
        .get("maxLength")
        .and_then(Value::as_u64)
        .map(|m| m as usize)
        .unwrap_or(usize::MAX);
    let mut text = String::from("periscope");
    while text.len() < min {
        text.push('x');
    }
    text.truncate(max.max(min));
    text
}

/// Arguments `schema` must refuse: the valid ones with the first property that has a plain
/// `type` given a value of another type. None when no property has one.
pub fn wrong(schema: &Value) -> Option<(Value, String)> {
    let properties = schema.get("properties")?.as_object()?;
    let (name, kind) = properties.iter().find_map(|(name, property)| {
        let kind = property.get("type")?.as_str()?;
        Some((name.clone(), kind.to_string()))
    })?;
    let mut arguments = generate(schema);
    let bad = match kind.as_str() {
        "string" => json!(12345),
        _ => json!("periscope: not a value of this type"),
    };
    arguments
        .as_object_mut()
        .expect("generate makes an object")
        .insert(name.clone(), bad);
    Some((arguments, format!("{name} (a {kind}) given the wrong type")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_required_properties_within_their_bounds() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "minimum": 5},
                "b": {"type": "string", "enum": ["x", "y"]},
                "c": {"type": "array", "items": {"type": "boolean"}, "minItems": 2},
                "d": {"type": "object", "properties": {"e": {"type": "string", "minLength": 12}}, "required": ["e"]},
                "optional": {"type": "string"}
            },
            "required": ["a", "b", "c", "d"]
        });
        assert_eq!(
            generate(&schema),
            json!({"a": 5, "b": "x", "c": [true, true], "d": {"e": "periscopexxx"}})
        );
        let report = crate::schema_check::validate(&schema, &generate(&schema));
        assert!(report.valid, "{report:?}");
    }

    #[test]
    fn the_wrong_arguments_break_the_schema() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]});
        let (bad, _) = wrong(&schema).unwrap();
        assert!(!crate::schema_check::validate(&schema, &bad).valid);
        assert_eq!(wrong(&json!({"type": "object"})), None);
    }
}
