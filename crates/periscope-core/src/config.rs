//! What to connect to: the catalog's server entries, their targets, and the check every host runs
//! before an entry goes into the catalog.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

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

    /// A description for record files: environment values are left out, they may be secrets.
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
}

impl HttpTarget {
    /// A description for record files: header values are left out, they may be secrets.
    pub fn redacted(&self) -> serde_json::Value {
        serde_json::json!({
            "transport": "streamable_http",
            "url": self.url,
            "header_names": self.headers.iter().map(|(k, _)| k).collect::<Vec<_>>(),
        })
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
    /// The command line or URL, for messages.
    pub fn display(&self) -> String {
        match self {
            ServerTarget::Stdio(t) => t.display(),
            ServerTarget::Http { target, .. } => target.url.clone(),
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

/// Reads a catalog's stored entries (the app's `catalog.json`, which the CLI reads too),
/// including those written before remote servers existed (whose `target` was a bare stdio
/// target). None when the value is not a list of entries.
pub fn parse_entries(value: serde_json::Value) -> Option<Vec<ServerEntry>> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Current(ServerEntry),
        StdioOnly {
            id: String,
            name: String,
            target: StdioTarget,
        },
    }
    let stored: Vec<Stored> = serde_json::from_value(value).ok()?;
    Some(
        stored
            .into_iter()
            .map(|s| match s {
                Stored::Current(entry) => entry,
                Stored::StdioOnly { id, name, target } => ServerEntry {
                    id,
                    name,
                    target: ServerTarget::Stdio(target),
                },
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_from_before_remote_servers_still_load() {
        let old = serde_json::json!([{"id": "a", "name": "A", "target": {"command": "x", "args": ["y"], "env": [], "cwd": null}}]);
        let new = serde_json::json!([{"id": "b", "name": "B", "target": {"transport": "http", "url": "http://h/mcp", "headers": [], "mode": "auto"}}]);
        let old = parse_entries(old).unwrap();
        assert!(matches!(&old[0].target, ServerTarget::Stdio(t) if t.args == ["y"]));
        let new = parse_entries(new).unwrap();
        assert!(
            matches!(&new[0].target, ServerTarget::Http { target, .. } if target.url == "http://h/mcp")
        );
    }

    fn stdio(name: &str, command: &str) -> ServerEntry {
        ServerEntry {
            id: "a".into(),
            name: name.into(),
            target: ServerTarget::Stdio(StdioTarget::new(command, Vec::<String>::new())),
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
}
