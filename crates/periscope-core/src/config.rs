//! What to connect to. (The full server catalog and its JSON dialects arrive with the app.)

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A local server started as a child process, spoken to over stdin/stdout.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct StdioTarget {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra environment variables, on top of Periscope's own environment.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
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
