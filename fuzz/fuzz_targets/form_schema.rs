//! Elicitation-schema checks (`answering::form_schema::check_schema`) on any JSON a server may
//! send as a form's `requestedSchema`: no panic, no runaway regex, and an accepted schema is a
//! flat object of the field types a form can render.
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::answering::form_schema::check_schema;
use serde_json::Value;

fuzz_target!(|bytes: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<Value>(bytes) else {
        return;
    };
    match check_schema(&schema) {
        Ok(()) => {
            assert_eq!(schema["type"], "object");
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for property in properties.values() {
                    let ty = property["type"]
                        .as_str()
                        .expect("an accepted field has a type");
                    assert!(
                        matches!(ty, "string" | "number" | "integer" | "boolean" | "array"),
                        "accepted a field of type {ty}"
                    );
                }
            }
        }
        Err(message) => assert!(!message.is_empty()),
    }
});
