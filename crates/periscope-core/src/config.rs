//! What to connect to: the catalog's server entries, their targets, and the check every host runs
//! before an entry goes into the catalog.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use crate::era::EraChoice;

/// A local server started as a child process, spoken to over stdin/stdout.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct StdioTarget {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// The server's own environment variables, on top of the few it inherits from Periscope
    /// (PATH, HOME, the locale…: `transport::child_env`).
    #[serde(default)]
    pub env: Vec<(String, String)>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// The names in `env` whose values are secret: the catalog keeps them empty and the secret
    /// store keeps the values (see `server_secrets`), filled in when the server starts.
    #[serde(default)]
    pub secret_env: Vec<String>,
    /// Pass Periscope's whole environment to the server, not only the variables a program
    /// needs to run (API keys in the environment then reach it too).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inherit_env: bool,
}

impl StdioTarget {
    pub fn new(
        command: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        StdioTarget {
            command: command.into(),
            args: args.into_iter().map(Into::into).collect(),
            ..Default::default()
        }
    }

    /// The command line as a user would type it, for messages.
    pub fn display(&self) -> String {
        std::iter::once(self.command.as_str())
            .chain(self.args.iter().map(String::as_str))
            .map(|part| {
                if part.contains(char::is_whitespace) || part.is_empty() {
                    format!("{part:?}")
                } else {
                    part.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A description for record files: environment values are left out, they may be secrets
    /// (secret or not, a record names only the variables).
    pub fn redacted(&self) -> serde_json::Value {
        serde_json::json!({
            "transport": "stdio",
            "command": self.command,
            "args": self.args,
            "env_names": self.env.iter().map(|(k, _)| k).collect::<Vec<_>>(),
            "cwd": self.cwd,
        })
    }
}

/// A remote server reached over HTTP.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HttpTarget {
    pub url: String,
    /// Extra request headers, e.g. an API key (recorded redacted).
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// The names in `headers` whose values are secret: the catalog keeps them empty and the
    /// secret store keeps the values (see `server_secrets`); recorded redacted whatever the
    /// header's name.
    #[serde(default)]
    pub secret_headers: Vec<String>,
    /// How this client identifies itself when the server requires sign-in. A pre-registered
    /// client's secret is not here: it is in the secret store.
    #[serde(default)]
    pub oauth: OAuthSettings,
}

/// The user's OAuth choices for one server. Empty: dynamic client registration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct OAuthSettings {
    /// A pre-registered client ID (its secret, if any, is kept in the secret store).
    #[serde(default)]
    pub client_id: Option<String>,
    /// A Client ID Metadata Document URL, used where the authorization server supports CIMD.
    #[serde(default)]
    pub client_metadata_url: Option<String>,
    /// Sender-constrained tokens (DPoP, RFC 9449).
    #[serde(default)]
    pub dpop: DpopMode,
    /// Workload identity federation (SEP-1933): sign in with a JWT the workload's platform
    /// issues (RFC 7523 JWT bearer grant) instead of a browser. Where the token is read from;
    /// the token itself is never in the catalog.
    #[serde(default)]
    pub workload_identity: Option<WorkloadTokenSource>,
}

/// Whether token requests carry DPoP proofs (RFC 9449) so that the tokens are bound to a key
/// Periscope holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum DpopMode {
    /// When the authorization server advertises ES256 in `dpop_signing_alg_values_supported`.
    #[default]
    Auto,
    /// Always: a sign-in with an authorization server that offers no DPoP, or that answers with
    /// a bearer token, fails (to test a server that must bind its tokens).
    Required,
    /// Never: plain bearer tokens (to see how a server treats clients without DPoP).
    Off,
}

/// Where a workload identity token is read, afresh at each sign-in (platforms rotate them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum WorkloadTokenSource {
    /// A file the platform keeps current (e.g. a Kubernetes projected service account token).
    File { path: String },
    /// An environment variable of Periscope's own environment.
    Env { name: String },
}

impl HttpTarget {
    /// A description for record files: header values are left out, they may be secrets, and
    /// secrets in the URL's query are redacted.
    pub fn redacted(&self) -> serde_json::Value {
        serde_json::json!({
            "transport": "streamable_http",
            "url": crate::redact::url(&self.url),
            "header_names": self.headers.iter().map(|(k, _)| k).collect::<Vec<_>>(),
        })
    }

    /// The headers marked secret, as (name, value), for redaction.
    pub fn secret_header_values(&self) -> Vec<(&str, &str)> {
        self.headers
            .iter()
            .filter(|(name, _)| {
                self.secret_headers
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(name))
            })
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect()
    }
}

/// Which HTTP transport to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum HttpMode {
    /// Streamable HTTP, falling back to legacy HTTP+SSE when the first POST gets 400/404/405.
    #[default]
    Auto,
    Streamable,
    /// The 2024-11-05 HTTP+SSE transport.
    LegacySse,
}

/// How to reach a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "transport", rename_all = "snake_case")]
pub enum ServerTarget {
    /// A local process over stdio.
    Stdio(StdioTarget),
    /// A remote server over HTTP.
    Http {
        #[serde(flatten)]
        target: HttpTarget,
        #[serde(default)]
        mode: HttpMode,
    },
}

impl ServerTarget {
    /// The command line or URL (secrets in its query redacted), for messages.
    pub fn display(&self) -> String {
        match self {
            ServerTarget::Stdio(t) => t.display(),
            ServerTarget::Http { target, .. } => crate::redact::url(&target.url),
        }
    }
}

/// One server in the catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerEntry {
    /// Stable, unique within the catalog.
    pub id: String,
    pub name: String,
    pub target: ServerTarget,
    /// Which era of MCP to speak (auto: probe with `server/discover`). Entries written before
    /// eras existed read as auto.
    #[serde(default)]
    pub era: EraChoice,
}

/// Why a server entry cannot go into the catalog. Its `Display` is the sentence a user reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CatalogError {
    /// The name is empty (or only spaces).
    MissingName,
    /// A local server without a command to run.
    MissingCommand,
    /// A remote server without a URL.
    MissingUrl,
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CatalogError::MissingName => "a server needs a name",
            CatalogError::MissingCommand => "a server needs a command to run",
            CatalogError::MissingUrl => "a remote server needs a URL",
        })
    }
}

impl std::error::Error for CatalogError {}

impl From<CatalogError> for crate::vocabulary::Problem {
    /// The field the entry lacks, as hosts word it (in the UI's language).
    fn from(error: CatalogError) -> Self {
        use crate::vocabulary::problem::Field;
        crate::vocabulary::Problem::invalid(match error {
            CatalogError::MissingName => Field::ServerName,
            CatalogError::MissingCommand => Field::ServerCommand,
            CatalogError::MissingUrl => Field::ServerUrl,
        })
    }
}

/// Checks an entry before it is added to (or replaces one in) the catalog, so every host
/// refuses the same entries with the same words.
pub fn validate_entry(entry: &ServerEntry) -> Result<(), CatalogError> {
    if entry.name.trim().is_empty() {
        return Err(CatalogError::MissingName);
    }
    match &entry.target {
        ServerTarget::Stdio(t) if t.command.trim().is_empty() => Err(CatalogError::MissingCommand),
        ServerTarget::Http { target, .. } if target.url.trim().is_empty() => {
            Err(CatalogError::MissingUrl)
        }
        _ => Ok(()),
    }
}

/// A catalog as read: the entries that parsed, and those that did not, kept as they were so a
/// host can write them back unchanged (an entry from a newer Periscope, or one edited by hand,
/// is never lost because this build cannot read it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParsedCatalog {
    pub entries: Vec<ServerEntry>,
    pub unreadable: Vec<UnreadableEntry>,
}

/// One stored entry that is not a server entry this build can read.
#[derive(Debug, Clone, PartialEq)]
pub struct UnreadableEntry {
    /// Its position in the list, from 1.
    pub position: usize,
    pub id: Option<String>,
    pub name: Option<String>,
    /// Why, without any value from the entry (it may hold a secret).
    pub reason: String,
    /// The entry exactly as stored.
    pub raw: serde_json::Value,
}

impl UnreadableEntry {
    /// The entry as hosts say it, without its stored value.
    pub fn left_out(&self) -> crate::vocabulary::catalog_damage::LeftOutEntry {
        crate::vocabulary::catalog_damage::LeftOutEntry {
            position: self.position as u64,
            name: self.name.clone(),
            id: self.id.clone(),
            detail: self.reason.clone(),
        }
    }
}

impl std::fmt::Display for UnreadableEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.left_out().fmt(f)
    }
}

/// Reads a catalog's stored entries (the app's `catalog.json`, which the CLI reads too),
/// including those written before remote servers existed (whose `target` was a bare stdio
/// target), entry by entry: one that cannot be read is set aside with the reason, the others
/// load. None when the value is not a list at all.
pub fn parse_entries(value: serde_json::Value) -> Option<ParsedCatalog> {
    #[derive(serde::Deserialize)]
    struct StdioOnly {
        id: String,
        name: String,
        target: StdioTarget,
    }
    let serde_json::Value::Array(items) = value else {
        return None;
    };
    let mut catalog = ParsedCatalog::default();
    for (index, raw) in items.into_iter().enumerate() {
        let current = ServerEntry::deserialize(&raw);
        let parsed = match current {
            Ok(entry) => Ok(entry),
            // Entries from before remote servers existed: a bare stdio target, no `transport`.
            Err(error) => match raw.get("target").and_then(|t| t.get("transport")) {
                None => StdioOnly::deserialize(&raw)
                    .map(|old| ServerEntry {
                        id: old.id,
                        name: old.name,
                        target: ServerTarget::Stdio(old.target),
                        era: EraChoice::default(),
                    })
                    .map_err(|_| error),
                Some(_) => Err(error),
            },
        };
        match parsed {
            Ok(entry) => catalog.entries.push(entry),
            Err(error) => {
                let text = |key: &str| raw.get(key).and_then(|v| v.as_str()).map(str::to_string);
                catalog.unreadable.push(UnreadableEntry {
                    position: index + 1,
                    id: text("id"),
                    name: text("name"),
                    reason: without_quoted_values(&error.to_string()),
                    raw,
                });
            }
        }
    }
    Some(catalog)
}

/// serde's message without the values it quotes (`invalid type: string "sk-…"`): a value in a
/// catalog entry may be a secret, and the message goes to a screen and a log.
fn without_quoted_values(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            out.push(c);
            continue;
        }
        // Skip to the closing quote (serde escapes inner quotes with a backslash).
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => break,
                _ => {}
            }
        }
        if out.ends_with(' ') {
            out.pop();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_from_before_remote_servers_still_load() {
        let old = serde_json::json!([{"id": "a", "name": "A", "target": {"command": "x", "args": ["y"], "env": [], "cwd": null}}]);
        let new = serde_json::json!([{"id": "b", "name": "B", "target": {"transport": "http", "url": "http://h/mcp", "headers": [], "mode": "auto"}}]);
        let old = parse_entries(old).unwrap().entries;
        assert!(matches!(&old[0].target, ServerTarget::Stdio(t) if t.args == ["y"]));
        let new = parse_entries(new).unwrap().entries;
        assert!(
            matches!(&new[0].target, ServerTarget::Http { target, .. } if target.url == "http://h/mcp")
        );
    }

    fn stdio(name: &str, command: &str) -> ServerEntry {
        ServerEntry {
            id: "a".into(),
            name: name.into(),
            target: ServerTarget::Stdio(StdioTarget::new(command, Vec::<String>::new())),
            era: EraChoice::default(),
        }
    }

    fn http(url: &str) -> ServerEntry {
        ServerEntry {
            id: "b".into(),
            name: "Remote".into(),
            target: ServerTarget::Http {
                target: HttpTarget {
                    url: url.into(),
                    ..HttpTarget::default()
                },
                mode: HttpMode::Auto,
            },
            era: EraChoice::default(),
        }
    }

    #[test]
    fn a_complete_entry_is_valid() {
        assert_eq!(validate_entry(&stdio("Demo", "demo-server")), Ok(()));
        assert_eq!(validate_entry(&http("https://example.com/mcp")), Ok(()));
    }

    #[test]
    fn an_entry_without_a_name_is_refused_in_words() {
        let error = validate_entry(&stdio("  ", "demo-server")).unwrap_err();
        assert_eq!(error, CatalogError::MissingName);
        assert_eq!(error.to_string(), "a server needs a name");
    }

    #[test]
    fn a_local_server_needs_a_command_and_a_remote_one_a_url() {
        let error = validate_entry(&stdio("Demo", " ")).unwrap_err();
        assert_eq!(error.to_string(), "a server needs a command to run");
        let error = validate_entry(&http("")).unwrap_err();
        assert_eq!(error.to_string(), "a remote server needs a URL");
    }

    #[test]
    fn one_unreadable_entry_is_set_aside_by_name_and_the_others_load() {
        let stored = serde_json::json!([
            {"id": "a", "name": "Good", "target": {"transport": "stdio", "command": "x"}},
            {"id": "b", "name": "Broken", "target": {"transport": "stdio", "env": "API_KEY=sk-live-123456"}},
            {"id": "c", "name": "Future", "target": {"transport": "carrier-pigeon", "coop": 3}},
            {"id": "d", "name": "Old", "target": {"command": "y", "args": [], "env": [], "cwd": null}},
            "not even an object",
        ]);
        let catalog = parse_entries(stored.clone()).unwrap();
        let ids: Vec<&str> = catalog.entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["a", "d"]);
        let unreadable: Vec<String> = catalog.unreadable.iter().map(|u| u.to_string()).collect();
        assert_eq!(catalog.unreadable.len(), 3, "{unreadable:?}");
        assert!(
            unreadable[0].starts_with(r#"entry 2 ("Broken", id "b"): "#),
            "{unreadable:?}"
        );
        assert!(
            unreadable[1].starts_with(r#"entry 3 ("Future", id "c"): "#),
            "{unreadable:?}"
        );
        assert!(unreadable[1].contains("carrier-pigeon"), "{unreadable:?}");
        assert!(unreadable[2].starts_with("entry 5: "), "{unreadable:?}");
        // The reason never quotes a value (it may be a secret); the raw entry is kept as is.
        for text in &unreadable {
            assert!(!text.contains("sk-live"), "{text}");
        }
        assert_eq!(catalog.unreadable[0].raw, stored[1]);
        assert_eq!(parse_entries(serde_json::json!({"servers": []})), None);
    }

    #[test]
    fn secret_markers_load_and_old_entries_have_none() {
        let stored = serde_json::json!([
            {"id": "a", "name": "A", "target": {"transport": "stdio", "command": "x", "env": [["API_KEY", ""]], "secret_env": ["API_KEY"]}},
            {"id": "b", "name": "B", "target": {"transport": "http", "url": "https://h/mcp", "headers": [["X-Key", ""]], "secret_headers": ["X-Key"]}},
            {"id": "c", "name": "C", "target": {"transport": "stdio", "command": "x", "env": [["A", "1"]]}},
        ]);
        let entries = parse_entries(stored).unwrap().entries;
        assert!(
            matches!(&entries[0].target, ServerTarget::Stdio(t) if t.secret_env == ["API_KEY"])
        );
        assert!(
            matches!(&entries[1].target, ServerTarget::Http { target, .. } if target.secret_headers == ["X-Key"])
        );
        assert!(matches!(&entries[2].target, ServerTarget::Stdio(t) if t.secret_env.is_empty()));
    }

    #[test]
    fn a_url_with_a_key_in_its_query_is_described_redacted() {
        let target = HttpTarget {
            url: "https://h/mcp?api_key=k-123".into(),
            headers: vec![("X-Key".into(), "v-456".into())],
            ..HttpTarget::default()
        };
        let described = target.redacted().to_string();
        assert!(
            !described.contains("k-123") && !described.contains("v-456"),
            "{described}"
        );
        let display = ServerTarget::Http {
            target,
            mode: HttpMode::Auto,
        }
        .display();
        assert_eq!(display, "https://h/mcp?api_key=[redacted]");
    }
}
