//! `WWW-Authenticate` parsing (`auth::Challenge::parse`): any header value parses without a
//! panic, and a Bearer challenge written with quoted, escaped parameters reads back exactly,
//! whatever scheme comes before it.
//!
//! The input is the header value (lossy UTF-8). Its lines, split at `\n`, are also the other
//! scheme, `error`, `error_description`, `scope` and `resource_metadata` of a challenge that is
//! written out, parsed and compared (an empty line: the parameter is absent).
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::auth::Challenge;

/// `"value"` with `\` and `"` escaped, as RFC 9110 quoted-strings are.
fn quoted(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// A scheme name the parser reads as one token: no spaces, commas or `=`.
fn token(word: &str) -> Option<&str> {
    let ok = !word.is_empty()
        && !word.eq_ignore_ascii_case("bearer")
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c));
    ok.then_some(word)
}

fuzz_target!(|bytes: &[u8]| {
    let status = if bytes.first().is_some_and(|b| b % 2 == 0) {
        401
    } else {
        403
    };
    let raw = String::from_utf8_lossy(bytes);
    let parsed = Challenge::parse(status, Some(&raw));
    assert_eq!(parsed.status, status);
    let _ = parsed.is_insufficient_scope();

    let mut lines = raw
        .split('\n')
        .map(|l| (!l.is_empty()).then(|| l.to_string()));
    let mut next = || lines.next().flatten();
    let (other_scheme, error, error_description, scope, resource_metadata) =
        (next(), next(), next(), next(), next());
    let mut header = String::new();
    if let Some(scheme) = other_scheme.as_deref().and_then(token) {
        header.push_str(scheme);
        header.push_str(" realm=\"x\", ");
    }
    header.push_str("Bearer");
    let fields = [
        ("error", &error),
        ("error_description", &error_description),
        ("scope", &scope),
        ("resource_metadata", &resource_metadata),
    ];
    let mut first = true;
    for (name, value) in fields {
        if let Some(value) = value {
            header.push_str(if first { " " } else { ", " });
            first = false;
            header.push_str(name);
            header.push('=');
            header.push_str(&quoted(value));
        }
    }
    let back = Challenge::parse(status, Some(&header));
    let want = Challenge {
        status,
        error,
        error_description,
        scope,
        resource_metadata,
        // From the DPoP-Nonce header, never from WWW-Authenticate.
        dpop_nonce: None,
    };
    assert_eq!(back, want, "header {header:?}");
});
