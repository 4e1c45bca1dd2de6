//! The content security policy an app's page runs under, built from the domains its resource
//! declares (`_meta.ui.csp`, ext-apps 2026-01-26 §Security Implications): the spec's default
//! when nothing is declared (no network at all), else each declared list only in its own
//! directives. Only plain `https:`/`wss:` origins (and `http(s)`/`ws(s)` on localhost or
//! 127.0.0.1, for local dev servers) are kept; keywords, `*`, other schemes (`ipc:`, `data:`,
//! `periscope-app:` …) and anything carrying a separator that could start a new directive or
//! source are dropped and reported. Periscope also adds `object-src 'none'` and
//! `form-action 'none'` (the spec lets a host restrict further).

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The domains a resource declares, as it wrote them (non-strings as their JSON text, so
/// that the builder drops and reports them).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AppCsp {
    pub connect: Vec<String>,
    pub resource: Vec<String>,
    pub frame: Vec<String>,
    pub base_uri: Vec<String>,
}

impl AppCsp {
    /// As `_meta.ui.csp` names the lists.
    pub fn to_meta(&self) -> Value {
        serde_json::json!({
            "connectDomains": self.connect,
            "resourceDomains": self.resource,
            "frameDomains": self.frame,
            "baseUriDomains": self.base_uri,
        })
    }

    /// From `_meta.ui.csp`: `connectDomains`, `resourceDomains`, `frameDomains`,
    /// `baseUriDomains`.
    pub fn from_meta(csp: &Value) -> AppCsp {
        let list = |key: &str| -> Vec<String> {
            match csp.get(key) {
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .collect(),
                Some(Value::Null) | None => Vec::new(),
                Some(other) => vec![other.to_string()],
            }
        };
        AppCsp {
            connect: list("connectDomains"),
            resource: list("resourceDomains"),
            frame: list("frameDomains"),
            base_uri: list("baseUriDomains"),
        }
    }
}

/// The policy for one view: the header's value, the external origins it lets in (for the
/// user's warning) and what was dropped, each as "<value>: <why>".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CspHeader {
    pub header: String,
    /// The declared lists with only what was kept (`hostCapabilities.sandbox.csp`).
    pub kept: AppCsp,
    pub external: Vec<String>,
    pub dropped: Vec<String>,
}

/// The spec's default, for a resource that declares no `csp` (S: MUST), plus the directives
/// Periscope always adds.
pub const DEFAULT_CSP: &str = "default-src 'none'; script-src 'self' 'unsafe-inline'; \
style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; \
connect-src 'none'; object-src 'none'; form-action 'none'";

static REMOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(https|wss)://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?$",
    )
    .expect("valid regex")
});
static LOCAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(https?|wss?)://(localhost|127\.0\.0\.1)(:([0-9]{1,5}|\*))?(/[A-Za-z0-9._~/-]*)?$",
    )
    .expect("valid regex")
});

/// Why a declared value is not a source Periscope puts in a policy.
fn refuse(value: &str) -> Option<&'static str> {
    if value.is_empty() {
        return Some("empty");
    }
    if value
        .chars()
        .any(|c| c.is_whitespace() || c == ';' || c == ',' || c == '\'' || c == '"')
    {
        return Some("holds a separator or quote that could widen the policy");
    }
    if value == "*" || value.ends_with("://*") || value.contains("://*:") {
        return Some("a wildcard for every host");
    }
    if !value.contains("://") {
        return Some("not an origin (keywords and bare schemes are not allowed)");
    }
    if REMOTE.is_match(value) || LOCAL.is_match(value) {
        return None;
    }
    if !(value.starts_with("https://") || value.starts_with("wss://")) {
        return Some("only https: and wss: origins (http on localhost) are allowed");
    }
    Some("not a plain origin")
}

/// The header for a resource that declared `csp` (None: the spec default).
pub fn build(csp: Option<&AppCsp>) -> CspHeader {
    let Some(csp) = csp else {
        return CspHeader {
            header: DEFAULT_CSP.to_string(),
            kept: AppCsp::default(),
            external: Vec::new(),
            dropped: Vec::new(),
        };
    };
    let mut dropped = Vec::new();
    let mut external: Vec<String> = Vec::new();
    let mut keep = |list: &[String], key: &str| -> Vec<String> {
        let mut kept: Vec<String> = Vec::new();
        for value in list {
            match refuse(value) {
                Some(why) => dropped.push(format!("{key} {value}: {why}")),
                None => {
                    if !kept.contains(value) {
                        kept.push(value.clone());
                    }
                    if !external.contains(value) {
                        external.push(value.clone());
                    }
                }
            }
        }
        kept
    };
    let resource = keep(&csp.resource, "resourceDomains");
    let connect = keep(&csp.connect, "connectDomains");
    let frame = keep(&csp.frame, "frameDomains");
    let base_uri = keep(&csp.base_uri, "baseUriDomains");
    let with = |fixed: &str, extra: &[String]| {
        std::iter::once(fixed.to_string())
            .chain(extra.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let or = |extra: &[String], none: &str| {
        if extra.is_empty() {
            none.to_string()
        } else {
            extra.join(" ")
        }
    };
    let header = [
        "default-src 'none'".to_string(),
        format!("script-src {}", with("'self' 'unsafe-inline'", &resource)),
        format!("style-src {}", with("'self' 'unsafe-inline'", &resource)),
        format!("img-src {}", with("'self' data:", &resource)),
        format!("font-src {}", with("'self'", &resource)),
        format!("media-src {}", with("'self' data:", &resource)),
        format!("connect-src {}", or(&connect, "'none'")),
        format!("frame-src {}", or(&frame, "'none'")),
        format!("base-uri {}", or(&base_uri, "'self'")),
        "object-src 'none'".to_string(),
        "form-action 'none'".to_string(),
    ]
    .join("; ");
    CspHeader {
        header,
        kept: AppCsp {
            connect,
            resource,
            frame,
            base_uri,
        },
        external,
        dropped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn directive<'a>(header: &'a str, name: &str) -> &'a str {
        header
            .split("; ")
            .find(|d| d.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} in {header}"))
    }

    #[test]
    fn no_declared_csp_gives_the_spec_default() {
        let built = build(None);
        assert!(built.header.starts_with(
            "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data:; media-src 'self' data:; connect-src 'none'"
        ));
        assert!(built.header.contains("object-src 'none'"));
        assert!(built.external.is_empty() && built.dropped.is_empty());
    }

    #[test]
    fn declared_domains_land_only_in_their_directives() {
        let csp = AppCsp::from_meta(&json!({
            "connectDomains": ["https://api.example.com", "wss://live.example.com"],
            "resourceDomains": ["https://cdn.example.com"],
            "frameDomains": ["https://www.youtube.com"],
        }));
        let built = build(Some(&csp));
        let h = &built.header;
        assert_eq!(
            directive(h, "connect-src"),
            "connect-src https://api.example.com wss://live.example.com"
        );
        assert_eq!(
            directive(h, "script-src"),
            "script-src 'self' 'unsafe-inline' https://cdn.example.com"
        );
        assert_eq!(
            directive(h, "frame-src"),
            "frame-src https://www.youtube.com"
        );
        assert_eq!(directive(h, "base-uri"), "base-uri 'self'");
        assert!(!directive(h, "connect-src").contains("cdn"));
        assert!(!directive(h, "img-src").contains("api.example.com"));
        assert_eq!(built.external.len(), 4);
        assert!(built.dropped.is_empty(), "{:?}", built.dropped);
    }

    #[test]
    fn keywords_schemes_and_separators_cannot_widen_the_policy() {
        let hostile = [
            "*",
            "'unsafe-eval'",
            "https:",
            "http://example.com",
            "ipc://localhost",
            "http://ipc.localhost",
            "data:",
            "periscope-app://abc",
            "https://a.example; script-src *",
            "https://a.example, https://b.example",
            "https://a.example 'unsafe-eval'",
            "https://*",
            "",
        ];
        let csp = AppCsp {
            connect: hostile.iter().map(|s| s.to_string()).collect(),
            resource: vec!["https://ok.example".into()],
            ..AppCsp::default()
        };
        let built = build(Some(&csp));
        assert_eq!(
            directive(&built.header, "connect-src"),
            "connect-src 'none'"
        );
        assert_eq!(built.dropped.len(), hostile.len(), "{:?}", built.dropped);
        assert_eq!(built.header.matches(';').count(), 10, "{}", built.header);
        for bad in ["unsafe-eval", "ipc", "http://example.com", "periscope-app"] {
            assert!(!built.header.contains(bad), "{bad} in {}", built.header);
        }
        let local = AppCsp {
            connect: vec!["http://localhost:3000".into(), "ws://127.0.0.1:*".into()],
            ..AppCsp::default()
        };
        assert_eq!(
            directive(&build(Some(&local)).header, "connect-src"),
            "connect-src http://localhost:3000 ws://127.0.0.1:*"
        );
        let not_strings = AppCsp::from_meta(&json!({"connectDomains": [1, {"a": 1}]}));
        assert_eq!(build(Some(&not_strings)).dropped.len(), 2);
    }
}
