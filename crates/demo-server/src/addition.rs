//! The addition the `add` tool and the calculator app share: the two addends in, `{sum}` out.
//! Kept apart from both so the app's tools need not import the tool list that lists them.

use std::sync::Arc;

use rmcp::model::{JsonObject, object};
use serde_json::{Value, json};

/// The input of `add` and `calculator_app`: two numbers.
pub fn addends_schema() -> JsonObject {
    object(json!({
        "type": "object",
        "properties": {
            "a": { "type": "number", "description": "First addend." },
            "b": { "type": "number", "description": "Second addend." }
        },
        "required": ["a", "b"]
    }))
}

/// The output schema of `add` and `calculator_app`: `{sum}`.
pub fn sum_schema() -> Arc<JsonObject> {
    Arc::new(object(json!({
        "type": "object",
        "properties": { "sum": { "type": "number" } },
        "required": ["sum"]
    })))
}

/// `a + b` of `args`, integral when both are integers.
pub fn sum(args: &JsonObject) -> Result<Value, String> {
    let a = required_number(args, "a")?;
    let b = required_number(args, "b")?;
    // Keep integer sums integral so `{"sum": 5}` is not sent as `5.0`.
    if let (Some(a), Some(b)) = (a.as_i64(), b.as_i64())
        && let Some(sum) = a.checked_add(b)
    {
        return Ok(Value::from(sum));
    }
    let sum = a.as_f64().unwrap_or(f64::NAN) + b.as_f64().unwrap_or(f64::NAN);
    serde_json::Number::from_f64(sum)
        .map(Value::Number)
        .ok_or_else(|| "the sum is not a finite number".to_string())
}

fn required_number(args: &JsonObject, name: &str) -> Result<serde_json::Number, String> {
    match args.get(name) {
        Some(Value::Number(value)) => Ok(value.clone()),
        Some(_) => Err(format!("{name} must be a number")),
        None => Err(format!("{name} is required")),
    }
}
