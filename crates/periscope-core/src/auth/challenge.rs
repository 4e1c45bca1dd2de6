//! `WWW-Authenticate` challenges (RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1): what a 401 or
//! 403 asks for, whether the server challenges with `Bearer`, `DPoP`, or both.

use serde::{Deserialize, Serialize};

/// The Bearer challenge of a refused request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Challenge {
    /// The HTTP status that carried it (401 or 403).
    pub status: u16,
    pub error: Option<String>,
    pub error_description: Option<String>,
    /// Space-separated scopes the resource needs.
    pub scope: Option<String>,
    /// The protected resource metadata URL (RFC 9728).
    pub resource_metadata: Option<String>,
    /// The `DPoP-Nonce` header that came with it (RFC 9449 §9): with `error`
    /// `use_dpop_nonce`, the request goes again with a proof carrying it.
    #[serde(default)]
    pub dpop_nonce: Option<String>,
}

impl Challenge {
    /// Reads the Bearer and DPoP challenges out of a `WWW-Authenticate` value (other schemes
    /// are skipped; a parameter both name is taken from the first). A missing or unreadable
    /// header gives an empty challenge: the flow then discovers everything itself.
    pub fn parse(status: u16, header: Option<&str>) -> Challenge {
        let mut challenge = Challenge {
            status,
            ..Challenge::default()
        };
        let Some(header) = header else {
            return challenge;
        };
        for (scheme, params) in split_challenges(header) {
            if !scheme.eq_ignore_ascii_case("bearer") && !scheme.eq_ignore_ascii_case("dpop") {
                continue;
            }
            for (key, value) in params {
                let slot = match key.to_ascii_lowercase().as_str() {
                    "error" => &mut challenge.error,
                    "error_description" => &mut challenge.error_description,
                    "scope" => &mut challenge.scope,
                    "resource_metadata" => &mut challenge.resource_metadata,
                    _ => continue,
                };
                slot.get_or_insert(value);
            }
        }
        challenge
    }

    /// The same challenge with the response's `DPoP-Nonce` header, if it had one.
    pub fn with_dpop_nonce(mut self, nonce: Option<&str>) -> Challenge {
        self.dpop_nonce = nonce.map(str::to_string);
        self
    }

    /// 401 `use_dpop_nonce` (RFC 9449 §9): the token is fine, the proof lacked the server's
    /// nonce.
    pub fn wants_dpop_nonce(&self) -> bool {
        self.error.as_deref() == Some(super::dpop::USE_DPOP_NONCE)
    }

    /// 403 with `insufficient_scope`: the token is fine, its scopes are not.
    pub fn is_insufficient_scope(&self) -> bool {
        self.status == 403 || self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Splits a header into (scheme, params). Tolerant: unquoted values, stray commas, and
/// escaped quotes inside quoted strings.
fn split_challenges(header: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let chars: Vec<char> = header.chars().collect();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && (chars[*i].is_whitespace() || chars[*i] == ',') {
            *i += 1;
        }
    };
    let token = |i: &mut usize| {
        let start = *i;
        while *i < chars.len() && !chars[*i].is_whitespace() && !matches!(chars[*i], '=' | ',') {
            *i += 1;
        }
        chars[start..*i].iter().collect::<String>()
    };
    loop {
        skip_ws(&mut i);
        if i >= chars.len() {
            break;
        }
        let word = token(&mut i);
        // A word followed by '=' is a parameter of the current scheme; otherwise a scheme.
        let mut j = i;
        while j < chars.len() && chars[j] == ' ' {
            j += 1;
        }
        if j < chars.len() && chars[j] == '=' && !out.is_empty() {
            i = j + 1;
            while i < chars.len() && chars[i] == ' ' {
                i += 1;
            }
            let value = if i < chars.len() && chars[i] == '"' {
                i += 1;
                let mut v = String::new();
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    v.push(chars[i]);
                    i += 1;
                }
                i += 1;
                v
            } else {
                token(&mut i)
            };
            if let Some((_, params)) = out.last_mut() {
                params.push((word, value));
            }
        } else if !word.is_empty() {
            out.push((word, Vec::new()));
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_bearer_parameter() {
        let c = Challenge::parse(
            401,
            Some(
                r#"Bearer error="invalid_token", error_description="Missing \"Authorization\" header", scope="mcp:basic mcp:write", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp""#,
            ),
        );
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            c.error_description.as_deref(),
            Some(r#"Missing "Authorization" header"#)
        );
        assert_eq!(c.scope.as_deref(), Some("mcp:basic mcp:write"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:1/.well-known/oauth-protected-resource/mcp")
        );
    }

    #[test]
    fn tolerates_other_schemes_unquoted_values_and_nothing() {
        let c = Challenge::parse(
            403,
            Some(r#"Basic realm="x", Bearer error=insufficient_scope, scope="a""#),
        );
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(c.scope.as_deref(), Some("a"));
        assert!(c.is_insufficient_scope());
        assert_eq!(Challenge::parse(401, None).scope, None);
        assert_eq!(Challenge::parse(401, Some("Bearer")).error, None);
        assert_eq!(Challenge::parse(401, Some("garbage ,,, ==")).error, None);
    }

    #[test]
    fn reads_a_dpop_challenge_and_the_nonce_demand() {
        let c = Challenge::parse(
            401,
            Some(r#"DPoP error="use_dpop_nonce", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp""#),
        )
        .with_dpop_nonce(Some("n-1"));
        assert!(c.wants_dpop_nonce());
        assert_eq!(c.dpop_nonce.as_deref(), Some("n-1"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:1/.well-known/oauth-protected-resource/mcp")
        );
        // Both schemes (RFC 9449 §7.1): each parameter from the first that names it.
        let both = Challenge::parse(
            401,
            Some(
                r#"Bearer realm="r", scope="a", DPoP algs="ES256", scope="b", error="invalid_token""#,
            ),
        );
        assert_eq!(both.scope.as_deref(), Some("a"));
        assert_eq!(both.error.as_deref(), Some("invalid_token"));
        assert!(!both.wants_dpop_nonce());
    }
}
