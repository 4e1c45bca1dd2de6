//! Resource templates (`resource_template::{variables, expand, fill}`) of any text a server may
//! send in `resources/templates/list`, filled with any values: no panic; a template iri-string
//! refuses is refused by all three alike, with a reason; an accepted one names each variable
//! once, every name found in the template, and expands to URI characters with complete `%XX`
//! escapes only; `fill` agrees with `variables` and `expand`.
//!
//! The input (lossy UTF-8): the template on the first line, then `name=value` lines.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use periscope_core::resource_template::{expand, fill, variables};

/// RFC 3986: unreserved and reserved characters, and `%` (checked as an escape apart).
fn uri_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c)
}

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.split('\n');
    let template = lines.next().unwrap_or("");
    let values: BTreeMap<String, String> = lines
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let filled = fill(template, &values);
    match (variables(template), expand(template, &values)) {
        (Ok(names), Ok(uri)) => {
            assert_eq!(filled.error, None);
            assert_eq!(filled.variables, names);
            assert_eq!(filled.uri, uri);
            for (i, v) in names.iter().enumerate() {
                assert!(!v.name.is_empty());
                assert!(
                    template.contains(v.name.as_str()),
                    "{} not in {template}",
                    v.name
                );
                assert!(
                    names[..i].iter().all(|w| w.name != v.name),
                    "{} twice",
                    v.name
                );
                let empty = values.get(&v.name).is_none_or(String::is_empty);
                assert_eq!(filled.missing.contains(&v.name), v.required && empty);
            }
            assert!(uri.chars().all(uri_char), "not URI characters: {uri}");
            let bytes = uri.as_bytes();
            for (at, _) in uri.match_indices('%') {
                let escape = bytes.get(at + 1..at + 3);
                assert!(
                    escape.is_some_and(|e| e.iter().all(u8::is_ascii_hexdigit)),
                    "an incomplete escape at {at} in {uri}"
                );
            }
        }
        (Err(_), Err(_)) => {
            assert!(filled.error.is_some_and(|e| !e.is_empty()));
            assert!(filled.variables.is_empty() && filled.uri.is_empty());
        }
        (names, uri) => panic!("variables and expand disagree: {names:?} / {uri:?}"),
    }
});
