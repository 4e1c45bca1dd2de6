//! Analysis of a URL a server asks the user to open (URL elicitation): plain warnings about what
//! could deceive. Pure: nothing is fetched or resolved.

use serde::{Deserialize, Serialize};

/// What [`analyze_url`] found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct UrlAnalysis {
    /// The URL exactly as the server sent it.
    pub raw: String,
    /// The scheme, lower-cased ("https"); empty when the URL does not parse.
    pub scheme: String,
    /// The host as DNS sees it (ASCII, Punycode `xn--` labels kept); empty when there is none.
    pub host_ascii: String,
    /// The host as a human reads it (Unicode, Punycode decoded). Equal to `host_ascii` for
    /// plain ASCII hosts.
    pub host_unicode: String,
    /// May the host open it at all (http or https, parses)? Other schemes are never opened.
    pub openable: bool,
    pub warnings: Vec<UrlWarning>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct UrlWarning {
    pub kind: UrlWarningKind,
    /// One plain sentence for the user.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum UrlWarningKind {
    /// Does not parse as a URL.
    Unparseable,
    /// Not http(s): never opened.
    UnsupportedScheme,
    /// `http:` to a host that is not loopback.
    InsecureHttp,
    /// `user:pass@` before the host.
    Userinfo,
    /// The host is an IPv4 or IPv6 literal.
    IpHost,
    /// A label of the host is Punycode (`xn--`).
    Punycode,
    /// A label mixes scripts (e.g. Latin and Cyrillic), the look-alike trick.
    MixedScript,
    /// The host differs from the MCP server's host.
    HostDiffers,
    /// Very long URL (over 2,000 characters) or a very long path.
    Long,
    /// Percent-encoding in the host or heavy encoding in the path.
    Encoded,
}

/// Analyses `raw`. `server_host` is the host of the MCP server that asks (None for a local
/// stdio server: then no `HostDiffers` warning).
pub fn analyze_url(raw: &str, server_host: Option<&str>) -> UrlAnalysis {
    let _ = server_host;
    UrlAnalysis {
        raw: raw.to_string(),
        scheme: String::new(),
        host_ascii: String::new(),
        host_unicode: String::new(),
        openable: false,
        warnings: Vec::new(),
    }
}
