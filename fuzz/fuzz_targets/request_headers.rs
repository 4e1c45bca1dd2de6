//! The 2026-07-28 mirrored headers (`request_headers`) on any tool schema and arguments a
//! server may send: no panic; an accepted schema's bindings are valid HTTP tokens, unique
//! without case; and every header Periscope builds is one an HTTP library accepts (values
//! that are not plain visible ASCII go in the Base64 form, never raw).
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use periscope_core::request_headers::{
    encode_header_value, header_bindings, param_headers, standard_headers,
};
use serde_json::Value;

/// RFC 9110 field-value characters, as the encoder promises them.
fn header_safe(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || (0x21..=0x7e).contains(&b))
        && !value.starts_with([' ', '\t'])
        && !value.ends_with([' ', '\t'])
}

fuzz_target!(|bytes: &[u8]| {
    // Half the input is the schema, half the arguments (a tool call's shape).
    let split = bytes.len() / 2;
    let Ok(schema) = serde_json::from_slice::<Value>(&bytes[..split]) else {
        // Not JSON: still a string to encode.
        let text = String::from_utf8_lossy(bytes);
        assert!(header_safe(&encode_header_value(&text)));
        return;
    };
    let arguments = serde_json::from_slice::<Value>(&bytes[split..]).unwrap_or(Value::Null);
    if let Ok(bindings) = header_bindings(&schema) {
        let mut seen = HashSet::new();
        for b in &bindings {
            assert!(!b.header.is_empty());
            assert!(reqwest_like_token(&b.header), "{:?}", b.header);
            assert!(
                seen.insert(b.header.to_ascii_lowercase()),
                "duplicate {:?}",
                b.header
            );
        }
        for (name, value) in param_headers(&bindings, &arguments) {
            assert!(name.starts_with("Mcp-Param-"));
            assert!(header_safe(&value), "{value:?}");
        }
    }
    for method in ["tools/call", "resources/read", "prompts/get"] {
        for (_, value) in standard_headers(method, Some(&arguments)) {
            assert!(header_safe(&value), "{value:?}");
        }
    }
});

/// An HTTP token (`tchar`s only).
fn reqwest_like_token(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
