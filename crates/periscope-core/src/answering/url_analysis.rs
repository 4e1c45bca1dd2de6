//! Analysis of a URL a server asks the user to open (URL elicitation): plain warnings about what
//! could deceive. Pure: nothing is fetched or resolved.

use serde::{Deserialize, Serialize};
use unicode_script::{Script, UnicodeScript};
use url::{Host, Url};

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

/// Longest raw URL that passes without a [`UrlWarningKind::Long`] warning, in characters.
const MAX_URL_CHARS: usize = 2000;
/// Longest path that passes without a [`UrlWarningKind::Long`] warning, in bytes.
const MAX_PATH_BYTES: usize = 512;
/// More percent-escapes than this in the path and query earn an [`UrlWarningKind::Encoded`].
const MAX_ESCAPES: usize = 10;

/// Analyses `raw`. `server_host` is the host of the MCP server that asks (None for a local
/// stdio server: then no `HostDiffers` warning).
pub fn analyze_url(raw: &str, server_host: Option<&str>) -> UrlAnalysis {
    let mut out = UrlAnalysis {
        raw: raw.to_string(),
        scheme: String::new(),
        host_ascii: String::new(),
        host_unicode: String::new(),
        openable: false,
        warnings: Vec::new(),
    };
    let url = match Url::parse(raw) {
        Ok(url) => url,
        Err(e) => {
            warn(
                &mut out,
                UrlWarningKind::Unparseable,
                format!("This is not a valid web address ({e}), so it cannot be opened."),
            );
            return out;
        }
    };
    out.scheme = url.scheme().to_string();
    out.host_ascii = url.host_str().unwrap_or_default().to_string();
    out.host_unicode = match url.host() {
        Some(Host::Domain(domain)) => match idna::domain_to_unicode(domain) {
            (unicode, Ok(())) => unicode,
            (_, Err(_)) => domain.to_string(),
        },
        _ => out.host_ascii.clone(),
    };

    if !matches!(url.scheme(), "http" | "https") {
        // Never opened, so the finer points of the address do not matter.
        warn(
            &mut out,
            UrlWarningKind::UnsupportedScheme,
            format!(
                "This is a \"{}:\" link, not a web page address, so it will not be opened.",
                url.scheme()
            ),
        );
        return out;
    }
    out.openable = true;
    // Special schemes always have a host once parsed.
    let Some(host) = url.host() else {
        return out;
    };
    let shown_host = display_host(&out.host_ascii, &out.host_unicode);
    let (raw_host, raw_path_query) = raw_host_and_rest(raw);

    if !url.username().is_empty() || url.password().is_some_and(|p| !p.is_empty()) {
        let message = if url.password().is_some_and(|p| !p.is_empty()) {
            format!(
                "The address carries a user name and password before the \"@\"; the site it \
                 actually opens is {shown_host}."
            )
        } else {
            format!(
                "The address begins with \"{}@\", which is only a user name: the site it \
                 actually opens is {shown_host}.",
                url.username()
            )
        };
        warn(&mut out, UrlWarningKind::Userinfo, message);
    }

    if let Host::Domain(_) = host {
        let punycode = out.host_ascii.split('.').any(|label| {
            label
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
        });
        if punycode {
            let message = format!(
                "The host is written in Punycode: \"{}\" reads as \"{}\".",
                out.host_ascii, out.host_unicode
            );
            warn(&mut out, UrlWarningKind::Punycode, message);
        }
        if let Some(message) = script_warning(&out.host_unicode) {
            warn(&mut out, UrlWarningKind::MixedScript, message);
        }
    }

    if url.scheme() == "http" && !is_loopback(&host) {
        warn(
            &mut out,
            UrlWarningKind::InsecureHttp,
            "The address uses unencrypted \"http\", so others on the network could read or \
             change what you see and send."
                .to_string(),
        );
    }

    if matches!(host, Host::Ipv4(_) | Host::Ipv6(_)) {
        let written = strip_port(raw_host);
        let message = if written.eq_ignore_ascii_case(&out.host_ascii) {
            format!(
                "The address points to the bare IP address {} instead of a named site.",
                out.host_ascii
            )
        } else {
            format!(
                "The address points to the bare IP address {}, disguised in the unusual form \
                 \"{written}\".",
                out.host_ascii
            )
        };
        warn(&mut out, UrlWarningKind::IpHost, message);
    }

    if let Some(server) = server_host.and_then(normalize_server_host)
        && normalize_host(&out.host_ascii) != server
    {
        warn(
            &mut out,
            UrlWarningKind::HostDiffers,
            format!(
                "This address goes to {shown_host}, not to \"{server}\", the server that \
                 asked you to open it."
            ),
        );
    }

    if raw_host.contains('%') {
        warn(
            &mut out,
            UrlWarningKind::Encoded,
            format!(
                "The host name is partly percent-encoded (\"{raw_host}\"), which can hide what \
                 it really says."
            ),
        );
    } else {
        let (escapes, sneaky) = count_escapes(raw_path_query);
        if sneaky || escapes > MAX_ESCAPES {
            warn(
                &mut out,
                UrlWarningKind::Encoded,
                "The address hides part of its path behind encoded characters, which can \
                 disguise where it really leads."
                    .to_string(),
            );
        }
    }

    let chars = raw.chars().count();
    if chars > MAX_URL_CHARS {
        warn(
            &mut out,
            UrlWarningKind::Long,
            format!(
                "The address is very long ({chars} characters), which can hide where it really \
                 leads."
            ),
        );
    } else if url.path().len() > MAX_PATH_BYTES {
        warn(
            &mut out,
            UrlWarningKind::Long,
            "The address has a very long path, which can hide where it really leads.".to_string(),
        );
    }

    out.warnings.sort_by_key(|w| severity(w.kind));
    out
}

fn warn(out: &mut UrlAnalysis, kind: UrlWarningKind, message: String) {
    out.warnings.push(UrlWarning { kind, message });
}

/// Rank of a warning kind, most severe first.
fn severity(kind: UrlWarningKind) -> u8 {
    match kind {
        UrlWarningKind::Unparseable => 0,
        UrlWarningKind::UnsupportedScheme => 1,
        UrlWarningKind::Userinfo => 2,
        UrlWarningKind::Punycode => 3,
        UrlWarningKind::MixedScript => 4,
        UrlWarningKind::InsecureHttp => 5,
        UrlWarningKind::IpHost => 6,
        UrlWarningKind::HostDiffers => 7,
        UrlWarningKind::Encoded => 8,
        UrlWarningKind::Long => 9,
    }
}

/// `"host"`, or `"unicode" (ascii)` when the two differ.
fn display_host(ascii: &str, unicode: &str) -> String {
    if ascii == unicode {
        format!("\"{ascii}\"")
    } else {
        format!("\"{unicode}\" ({ascii})")
    }
}

/// The host as written in `raw` (port kept, user info dropped) and the raw path and query (no
/// fragment). A lenient split of the raw text, used only to see what the parser normalised
/// away (percent-escapes, `%2e%2e` segments, numeric IP forms).
fn raw_host_and_rest(raw: &str) -> (&str, &str) {
    let s = raw.trim_matches(|c: char| c <= ' ');
    let Some(colon) = s.find(':') else {
        return ("", "");
    };
    let after = s[colon + 1..].trim_start_matches(['/', '\\']);
    let end = after.find(['/', '\\', '?', '#']).unwrap_or(after.len());
    let authority = &after[..end];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let rest = &after[end..];
    let rest = rest.split('#').next().unwrap_or_default();
    (host, rest)
}

/// `host[:port]` or `[v6][:port]` without the port.
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        host.find(']').map_or(host, |i| &host[..=i])
    } else if host.matches(':').count() > 1 {
        // A bare IPv6 address, no port possible.
        host
    } else {
        host.split(':').next().unwrap_or_default()
    }
}

/// Lower-cased, trailing dot dropped.
fn normalize_host(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// The server's host as the URL parser would write it (IDNA, brackets), port and trailing dot
/// dropped; None when empty.
fn normalize_server_host(server: &str) -> Option<String> {
    let server = server.trim();
    let bracketed;
    let server = if !server.starts_with('[') && server.matches(':').count() > 1 {
        bracketed = format!("[{server}]");
        bracketed.as_str()
    } else {
        server
    };
    let host = match Url::parse(&format!("http://{server}/")) {
        Ok(url) => url.host_str().unwrap_or_default().to_string(),
        Err(_) => strip_port(server).to_string(),
    };
    let host = normalize_host(&host);
    (!host.is_empty()).then_some(host)
}

fn is_loopback(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(domain) => {
            let domain = normalize_host(domain);
            domain == "localhost" || domain.ends_with(".localhost")
        }
        Host::Ipv4(ip) => ip.is_loopback(),
        Host::Ipv6(ip) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// Number of `%XX` escapes in `s`, and whether one of them encodes a dot, a slash, a backslash
/// or NUL (path tricks).
fn count_escapes(s: &str) -> (usize, bool) {
    let bytes = s.as_bytes();
    let mut count = 0;
    let mut sneaky = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = (hex_value(bytes[i + 1]), hex_value(bytes[i + 2]));
            if let (Some(hi), Some(lo)) = hex {
                count += 1;
                sneaky |= matches!(hi * 16 + lo, b'.' | b'/' | b'\\' | 0);
                i += 3;
                continue;
            }
        }
        i += 1;
    }
    (count, sneaky)
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The script class of a letter; None for digits, '-' and other characters shared by all
/// scripts. Chinese, Japanese and Korean scripts count as one class (Japanese names mix Kanji
/// and Kana as a matter of course).
fn script_class(c: char) -> Option<Script> {
    match c.script() {
        Script::Common | Script::Inherited => None,
        Script::Han | Script::Hiragana | Script::Katakana | Script::Bopomofo | Script::Hangul => {
            Some(Script::Han)
        }
        script => Some(script),
    }
}

fn script_name(script: Script) -> &'static str {
    match script {
        Script::Han => "Chinese/Japanese/Korean",
        script => script.full_name(),
    }
}

/// Cyrillic and Greek letters that pass for Latin ones, with the Latin letter they imitate.
const LOOK_ALIKES: &[(char, char)] = &[
    ('а', 'a'),
    ('с', 'c'),
    ('ԁ', 'd'),
    ('е', 'e'),
    ('һ', 'h'),
    ('і', 'i'),
    ('ј', 'j'),
    ('ӏ', 'l'),
    ('о', 'o'),
    ('р', 'p'),
    ('ԛ', 'q'),
    ('ѕ', 's'),
    ('ԝ', 'w'),
    ('х', 'x'),
    ('у', 'y'),
    ('ү', 'y'),
    ('α', 'a'),
    ('ι', 'i'),
    ('κ', 'k'),
    ('ο', 'o'),
    ('ρ', 'p'),
    ('υ', 'u'),
    ('ν', 'v'),
];

/// A sentence about the first label of `host` that mixes scripts, or else the first label
/// written wholly in Cyrillic or Greek letters that all look Latin ("сосо" for "coco").
fn script_warning(host: &str) -> Option<String> {
    for label in host.split('.') {
        let mut scripts: Vec<Script> = Vec::new();
        for script in label.chars().filter_map(script_class) {
            if !scripts.contains(&script) {
                scripts.push(script);
            }
        }
        if scripts.len() >= 2 {
            let names: Vec<&str> = scripts.iter().map(|s| script_name(*s)).collect();
            let names = match names.split_last() {
                Some((last, [])) => (*last).to_string(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            return Some(format!(
                "The host part \"{label}\" mixes {names} letters, a trick used to imitate a \
                 familiar name."
            ));
        }
    }
    for label in host.split('.') {
        let mut letters = label
            .chars()
            .filter(|c| script_class(*c).is_some())
            .peekable();
        let Some(first) = letters.peek().copied() else {
            continue;
        };
        let script = first.script();
        if !matches!(script, Script::Cyrillic | Script::Greek) {
            continue;
        }
        let all_alike = label
            .chars()
            .all(|c| script_class(c).is_none() || LOOK_ALIKES.iter().any(|(alike, _)| *alike == c));
        if all_alike {
            let imitated: String = label
                .chars()
                .map(|c| {
                    LOOK_ALIKES
                        .iter()
                        .find(|(alike, _)| *alike == c)
                        .map_or(c, |(_, latin)| *latin)
                })
                .collect();
            return Some(format!(
                "The host part \"{label}\" is written in {} letters that look like Latin ones, \
                 so it can pass for \"{imitated}\".",
                script.full_name()
            ));
        }
    }
    None
}

/// Why a URL is not handed to a web browser.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotForBrowser {
    #[error("not a valid web address: {0}")]
    Unparseable(#[from] url::ParseError),
    #[error("a \"{scheme}:\" link is not a web page address; only http and https are opened")]
    Scheme { scheme: String },
}

/// The only form in which a URL reaches a web browser: parsed, http or https, and written
/// back out by the parser (so the browser gets exactly what was analysed, with no stray
/// whitespace, unescaped characters or a scheme a file handler would act on).
pub fn browser_url(raw: &str) -> Result<String, NotForBrowser> {
    let url = Url::parse(raw)?;
    match url.scheme() {
        "http" | "https" => Ok(url.into()),
        other => Err(NotForBrowser::Scheme {
            scheme: other.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_gets_only_http_urls_as_the_parser_writes_them() {
        assert_eq!(
            browser_url(" https://Example.COM/a b?q=1 ").unwrap(),
            "https://example.com/a%20b?q=1"
        );
        assert_eq!(
            browser_url("http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080/"
        );
        for raw in [
            "file:///etc/passwd",
            "javascript:alert(1)",
            "smb://host/share",
            "x-scheme-handler:evil",
            "data:text/html,hi",
        ] {
            assert!(
                matches!(browser_url(raw), Err(NotForBrowser::Scheme { .. })),
                "{raw}"
            );
        }
        assert!(matches!(
            browser_url("not a url"),
            Err(NotForBrowser::Unparseable(_))
        ));
    }
    use UrlWarningKind::*;

    fn kinds(a: &UrlAnalysis) -> Vec<UrlWarningKind> {
        a.warnings.iter().map(|w| w.kind).collect()
    }

    #[test]
    fn table_of_hostile_and_benign_urls() {
        let long_url = format!("https://example.com/?q={}", "a".repeat(3000));
        let long_path = format!("https://example.com/{}", "a/".repeat(300));
        let many_escapes = format!("https://example.com/{}", "%41".repeat(11));
        let cases: Vec<(&str, Option<&str>, &[UrlWarningKind])> = vec![
            ("https://example.com/", None, &[]),
            ("https://example.com/cb?code=1", Some("example.com"), &[]),
            (
                "https://example.com/",
                Some("mcp.other.org"),
                &[HostDiffers],
            ),
            (
                "https://login.example.com/",
                Some("example.com"),
                &[HostDiffers],
            ),
            ("http://example.com/", None, &[InsecureHttp]),
            ("http://localhost:8080/cb", None, &[]),
            ("http://app.localhost/", None, &[]),
            ("http://127.0.0.1/", None, &[IpHost]),
            ("http://[::1]:3000/", None, &[IpHost]),
            ("http://[::1]:3000/", Some("::1"), &[IpHost]),
            ("http://[::1]:3000/", Some("[::1]:8080"), &[IpHost]),
            ("https://xn--pple-43d.com/", None, &[Punycode, MixedScript]),
            ("https://аpple.com/", None, &[Punycode, MixedScript]),
            ("https://gοοgle.com/", None, &[Punycode, MixedScript]),
            ("https://сосо.com/", None, &[Punycode, MixedScript]),
            ("https://яндекс.рф/", None, &[Punycode]),
            ("https://日本語.jp/", None, &[Punycode]),
            ("https://ひらがな漢字.jp/", None, &[Punycode]),
            ("https://münchen.de/", None, &[Punycode]),
            ("https://paypal.com@evil.example/", None, &[Userinfo]),
            ("https://user:pass@example.com/", None, &[Userinfo]),
            ("https://192.168.0.1/", None, &[IpHost]),
            ("https://[2001:db8::1]/", None, &[IpHost]),
            // 2130706433 is 127.0.0.1: loopback, so plain http is fine.
            ("http://2130706433/", None, &[IpHost]),
            // 3232235521 is 192.168.0.1.
            ("http://3232235521/", None, &[InsecureHttp, IpHost]),
            ("http://0x7f.1/", None, &[IpHost]),
            ("javascript:alert(1)", None, &[UnsupportedScheme]),
            ("file:///etc/passwd", None, &[UnsupportedScheme]),
            ("data:text/html,hi", None, &[UnsupportedScheme]),
            (
                "ftp://user@1.2.3.4/",
                Some("example.com"),
                &[UnsupportedScheme],
            ),
            ("mailto:someone@example.com", None, &[UnsupportedScheme]),
            ("myapp://callback", None, &[UnsupportedScheme]),
            ("HTTPS://EXAMPLE.COM/", None, &[]),
            ("not a url", None, &[Unparseable]),
            ("", None, &[Unparseable]),
            ("https://", None, &[Unparseable]),
            (long_url.as_str(), None, &[Long]),
            (long_path.as_str(), None, &[Long]),
            ("https://example.com/%2e%2e/%2e%2e/etc", None, &[Encoded]),
            ("https://example.com/a%2Fb", None, &[Encoded]),
            ("https://example.com/file%00.png", None, &[Encoded]),
            (many_escapes.as_str(), None, &[Encoded]),
            ("https://example.com/a%20b?q=%C3%A9", None, &[]),
            ("https://example.com/#%2e%2e%2f", None, &[]),
            ("https://ex%61mple.com/", None, &[Encoded]),
            ("https://example.com./", Some("example.com"), &[]),
            ("https://example.com/", Some("example.com."), &[]),
            ("https://example.com:8443/", Some("example.com:443"), &[]),
            ("https://Example.COM/", Some("EXAMPLE.com"), &[]),
            ("https://münchen.de/", Some("münchen.de"), &[Punycode]),
            (
                "http://user@xn--pple-43d.com/%2e%2e",
                Some("apple.com"),
                &[
                    Userinfo,
                    Punycode,
                    MixedScript,
                    InsecureHttp,
                    HostDiffers,
                    Encoded,
                ],
            ),
        ];
        assert!(cases.len() >= 25);
        for (raw, server, expected) in cases {
            let a = analyze_url(raw, server);
            assert_eq!(kinds(&a), expected, "{raw} (server {server:?}): {a:#?}");
            assert_eq!(a.raw, raw);
            let scheme_ok = matches!(a.scheme.as_str(), "http" | "https");
            assert_eq!(a.openable, scheme_ok, "{raw}");
            for w in &a.warnings {
                assert!(!w.message.trim().is_empty(), "{raw}: empty message");
                assert!(w.message.ends_with('.'), "{raw}: {}", w.message);
            }
        }
    }

    #[test]
    fn idn_hosts_in_both_forms() {
        let a = analyze_url("https://xn--pple-43d.com/", None);
        assert_eq!(a.host_ascii, "xn--pple-43d.com");
        assert_eq!(a.host_unicode, "\u{430}pple.com");
        assert_eq!(
            a.warnings[0].message,
            "The host is written in Punycode: \"xn--pple-43d.com\" reads as \"\u{430}pple.com\"."
        );
        assert!(
            a.warnings[1]
                .message
                .contains("mixes Cyrillic and Latin letters"),
            "{a:?}"
        );

        let a = analyze_url("https://\u{430}pple.com/", None);
        assert_eq!(a.host_ascii, "xn--pple-43d.com");
        assert_eq!(a.host_unicode, "\u{430}pple.com");

        let a = analyze_url("https://яндекс.рф/", None);
        assert_eq!(a.host_ascii, "xn--d1acpjx3f.xn--p1ai");
        assert_eq!(a.host_unicode, "яндекс.рф");

        let a = analyze_url("https://сосо.com/", None);
        assert!(a.warnings[1].message.contains("\"coco\""), "{a:?}");
    }

    #[test]
    fn fields_of_plain_urls() {
        let a = analyze_url("HTTPS://EXAMPLE.COM/", None);
        assert_eq!(a.scheme, "https");
        assert_eq!(a.host_ascii, "example.com");
        assert_eq!(a.host_unicode, "example.com");
        assert!(a.openable);

        let a = analyze_url("http://[::1]:3000/", None);
        assert_eq!(a.host_ascii, "[::1]");
        assert_eq!(a.host_unicode, "[::1]");

        let a = analyze_url("http://2130706433/", None);
        assert_eq!(a.host_ascii, "127.0.0.1");
        assert!(a.warnings[0].message.contains("\"2130706433\""), "{a:?}");

        // The parser decodes a percent-encoded host; the warning still shows how it was written.
        let a = analyze_url("https://ex%61mple.com/", None);
        assert_eq!(a.host_ascii, "example.com");
        assert!(a.warnings[0].message.contains("ex%61mple.com"), "{a:?}");

        let a = analyze_url("not a url", Some("example.com"));
        assert_eq!(a.raw, "not a url");
        assert_eq!(a.scheme, "");
        assert_eq!(a.host_ascii, "");
        assert_eq!(a.host_unicode, "");
        assert!(!a.openable);

        let a = analyze_url("javascript:alert(1)", None);
        assert_eq!(a.scheme, "javascript");
        assert!(!a.openable);
        assert!(a.warnings[0].message.contains("\"javascript:\""));
    }

    #[test]
    fn messages_name_the_real_hosts() {
        let a = analyze_url("https://paypal.com@evil.example/", None);
        assert_eq!(a.host_ascii, "evil.example");
        assert!(a.warnings[0].message.contains("\"evil.example\""), "{a:?}");
        assert!(a.warnings[0].message.contains("paypal.com@"), "{a:?}");

        let a = analyze_url("https://user:secret@example.com/", None);
        assert!(a.warnings[0].message.contains("\"example.com\""), "{a:?}");
        assert!(!a.warnings[0].message.contains("secret"), "{a:?}");

        let a = analyze_url("https://evil.example/", Some("mcp.example.com:8443"));
        let m = &a.warnings[0].message;
        assert!(
            m.contains("\"evil.example\"") && m.contains("\"mcp.example.com\""),
            "{m}"
        );
    }
}
