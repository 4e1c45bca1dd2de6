//! The server configs of other MCP hosts, read into catalog entries (import) and written back
//! (export): the `mcpServers` family (Claude Desktop, Claude Code, Cursor, Windsurf, Cline),
//! VS Code's `mcp.json`, Zed's `context_servers`, the MCP registry's `server.json`, and a
//! pasted command line. One file per dialect family; this one holds what they share.
//!
//! An import never writes anything: it returns an [`ImportPreview`] a host shows before the
//! user confirms. Every server in the input is either in it or refused with a reason.

mod command_line;
mod detect;
mod draft;
pub mod locations;
mod mcp_servers;
mod registry;
mod variables;
mod vscode;
mod zed;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::config::ServerEntry;

pub use detect::dialect_for_file;

/// A host's config format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// `claude_desktop_config.json`: `mcpServers`, local servers only.
    ClaudeDesktop,
    /// `.mcp.json` and `~/.claude.json`: `mcpServers` with `type: stdio|http|sse`, `${VAR}`.
    ClaudeCode,
    /// `~/.cursor/mcp.json`: `mcpServers`, `url` for remote servers, `${env:VAR}`.
    Cursor,
    /// `~/.codeium/windsurf/mcp_config.json`: `mcpServers`, `serverUrl` for remote servers.
    Windsurf,
    /// `cline_mcp_settings.json`: `mcpServers` with `type: streamableHttp|sse`.
    Cline,
    /// VS Code's `mcp.json` (`servers`, `inputs`) or `settings.json` (`mcp.servers`).
    #[serde(rename = "vscode")]
    VsCode,
    /// Zed's `settings.json`: `context_servers`.
    Zed,
    /// The MCP registry's `server.json` (packages and remotes), or a registry list of them.
    Registry,
    /// A command line, `FOO=1 npx -y some-server`, or a `claude mcp add` / `code --add-mcp` line.
    CommandLine,
}

impl Dialect {
    pub const ALL: [Dialect; 9] = [
        Dialect::ClaudeDesktop,
        Dialect::ClaudeCode,
        Dialect::Cursor,
        Dialect::Windsurf,
        Dialect::Cline,
        Dialect::VsCode,
        Dialect::Zed,
        Dialect::Registry,
        Dialect::CommandLine,
    ];

    /// The name used on the command line and in JSON (`claude-desktop`, `vscode`…).
    pub fn id(self) -> &'static str {
        match self {
            Dialect::ClaudeDesktop => "claude-desktop",
            Dialect::ClaudeCode => "claude-code",
            Dialect::Cursor => "cursor",
            Dialect::Windsurf => "windsurf",
            Dialect::Cline => "cline",
            Dialect::VsCode => "vscode",
            Dialect::Zed => "zed",
            Dialect::Registry => "registry",
            Dialect::CommandLine => "command-line",
        }
    }

    pub fn from_id(id: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.id() == id)
    }

    /// The host's name, for people.
    pub fn label(self) -> &'static str {
        match self {
            Dialect::ClaudeDesktop => "Claude Desktop",
            Dialect::ClaudeCode => "Claude Code",
            Dialect::Cursor => "Cursor",
            Dialect::Windsurf => "Windsurf",
            Dialect::Cline => "Cline",
            Dialect::VsCode => "VS Code",
            Dialect::Zed => "Zed",
            Dialect::Registry => "MCP registry server.json",
            Dialect::CommandLine => "command line",
        }
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// What an import may draw on besides the text: the variables `${env:X}` / `${X}` name, and the
/// folders `${userHome}` and `${workspaceFolder}` stand for. Tests pass their own.
pub struct ImportContext<'a> {
    pub env: &'a dyn Fn(&str) -> Option<String>,
    pub home: Option<PathBuf>,
    /// The project folder of a workspace file (`.vscode/mcp.json` → the folder holding `.vscode`).
    pub workspace_folder: Option<PathBuf>,
}

impl ImportContext<'static> {
    /// This process's environment and home folder.
    pub fn of_this_process(workspace_folder: Option<PathBuf>) -> Self {
        ImportContext {
            env: &|name| std::env::var(name).ok(),
            home: std::env::var_os("HOME").map(PathBuf::from),
            workspace_folder,
        }
    }
}

/// What the user gave: the text, the file's name when it came from a file, and the dialect when
/// they named it (else it is detected).
#[derive(Debug, Clone, Copy, Default)]
pub struct ImportSource<'a> {
    pub text: &'a str,
    pub file_name: Option<&'a str>,
    pub dialect: Option<Dialect>,
}

/// What an import would add, shown before anything is written.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ImportPreview {
    /// The dialect read (named by the user, or detected).
    pub dialect: Dialect,
    pub entries: Vec<ImportedEntry>,
    /// The servers that cannot be imported, with the reason.
    pub refused: Vec<RefusedEntry>,
}

/// One server as it would go into the catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ImportedEntry {
    /// With its secret values (marked in `secret_env` / `secret_headers`): a host keeps those in
    /// the secret store and the rest in the catalog (`server_secrets::keep`). Never print it
    /// whole; [`ImportedEntry::masked`] is the entry to show.
    pub entry: ServerEntry,
    /// Values to be typed before the server can run: placeholders (`${input:id}`, `<secret:
    /// NAME>`, a registry argument without a value) found in the entry.
    pub needs: Vec<NeededValue>,
    /// What the host's config said that the entry does not carry (e.g. `autoApprove`, a server
    /// disabled there), so nothing is lost without a word.
    pub notes: Vec<String>,
}

impl ImportedEntry {
    /// The entry with every secret value replaced by `••••` (empty values stay empty), to show.
    pub fn masked(&self) -> ServerEntry {
        let mut entry = self.entry.clone();
        let mask = |pairs: &mut Vec<(String, String)>, secret: &[String], header: bool| {
            for (name, value) in pairs {
                let is_secret = secret.iter().any(|s| {
                    if header {
                        s.eq_ignore_ascii_case(name)
                    } else {
                        s == name
                    }
                });
                if is_secret && !value.is_empty() {
                    *value = "••••".into();
                }
            }
        };
        match &mut entry.target {
            crate::config::ServerTarget::Stdio(t) => mask(&mut t.env, &t.secret_env, false),
            crate::config::ServerTarget::Http { target, .. } => {
                mask(&mut target.headers, &target.secret_headers, true)
            }
        }
        entry
    }
}

/// A value the user must give before the server runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct NeededValue {
    pub place: ValuePlace,
    /// The placeholder as written, e.g. `${input:api-key}`.
    pub placeholder: String,
    /// What the host would have asked (VS Code's input `description`, a registry description).
    pub prompt: Option<String>,
    /// Whether the host treats it as a password.
    pub password: bool,
}

/// Where in an entry a value sits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum ValuePlace {
    Command,
    /// An argument, counted from 1.
    Argument(u32),
    Env(String),
    Url,
    Header(String),
    Cwd,
}

impl std::fmt::Display for ValuePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValuePlace::Command => f.write_str("the command"),
            ValuePlace::Argument(n) => write!(f, "argument {n}"),
            ValuePlace::Env(name) => write!(f, "environment variable {name}"),
            ValuePlace::Url => f.write_str("the URL"),
            ValuePlace::Header(name) => write!(f, "header {name}"),
            ValuePlace::Cwd => f.write_str("the working directory"),
        }
    }
}

/// A server in the input that cannot become a catalog entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RefusedEntry {
    pub name: String,
    pub reason: ImportRefusal,
    /// The reason in words (`reason`'s `Display`), for hosts that show it as is.
    pub message: String,
}

impl std::fmt::Display for RefusedEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.reason)
    }
}

/// Why a server cannot be imported. Its `Display` is the sentence a user reads; it never quotes
/// a value that may be secret (only names, transports and placeholders).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImportRefusal {
    /// The server's config is not a JSON object.
    NotAnObject,
    /// A local server without a command.
    MissingCommand,
    /// A remote server without a URL.
    MissingUrl,
    /// A `type` / `transport` Periscope does not speak.
    UnknownTransport { transport: String },
    /// A field of the wrong kind, e.g. `args` that is not a list of strings.
    BadField { field: String, expected: String },
    /// `${env:X}` (or `${X}`) names a variable that is not set here.
    UnsetVariable { variable: String },
    /// A `${…}` placeholder Periscope cannot fill (e.g. `${command:…}`).
    UnsupportedVariable { placeholder: String },
    /// A Zed server provided by an extension: its command is the extension's, not in the file.
    ZedExtension,
    /// A registry package type Periscope has no runner for (e.g. `mcpb`).
    UnknownPackageType { registry_type: String },
    /// A registry package that serves over HTTP once started: start it yourself, import its URL.
    PackageServesHttp { transport: String },
    /// A registry `server.json` with neither packages nor remotes.
    NothingToRun,
}

impl std::fmt::Display for ImportRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportRefusal::NotAnObject => f.write_str("its config is not a JSON object"),
            ImportRefusal::MissingCommand => f.write_str("a local server needs a command to run"),
            ImportRefusal::MissingUrl => f.write_str("a remote server needs a URL"),
            ImportRefusal::UnknownTransport { transport } => {
                write!(
                    f,
                    "transport {transport:?} is not one Periscope speaks (stdio, http, sse)"
                )
            }
            ImportRefusal::BadField { field, expected } => {
                write!(f, "{field} should be {expected}")
            }
            ImportRefusal::UnsetVariable { variable } => write!(
                f,
                "it uses the environment variable {variable}, which is not set here: set it and import again"
            ),
            ImportRefusal::UnsupportedVariable { placeholder } => {
                write!(f, "it uses {placeholder}, which only its host can fill in")
            }
            ImportRefusal::ZedExtension => f.write_str(
                "it is provided by a Zed extension, whose command is not in the settings file",
            ),
            ImportRefusal::UnknownPackageType { registry_type } => {
                write!(
                    f,
                    "package type {registry_type:?} has no runner Periscope knows"
                )
            }
            ImportRefusal::PackageServesHttp { transport } => write!(
                f,
                "the package serves over {transport} once started: start it yourself and import its URL"
            ),
            ImportRefusal::NothingToRun => {
                f.write_str("the server.json has no packages and no remotes")
            }
        }
    }
}

/// Why the text as a whole cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("there is nothing to import: the text is empty")]
    Empty,
    #[error("the text is not valid JSON (comments and trailing commas are allowed): {0}")]
    NotJson(String),
    #[error("the command line cannot be read: {0}")]
    BadCommandLine(String),
    /// JSON without any of the keys a host's config has.
    #[error("no MCP servers found: expected {expected} (top-level keys found: {found})")]
    UnknownShape { expected: String, found: String },
}

/// Reads a host's config (or a command line) into a preview. Nothing is written.
pub fn import(
    source: ImportSource<'_>,
    context: &ImportContext<'_>,
) -> Result<ImportPreview, ImportError> {
    let text = source.text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(ImportError::Empty);
    }
    // A fragment copied from a README, `"name": {"command": …}`, is read inside braces.
    let wrapped;
    let text = if text.starts_with('"') && parse_jsonc(&format!("{{{text}}}")).is_ok() {
        wrapped = format!("{{{text}}}");
        wrapped.as_str()
    } else {
        text
    };
    let looks_like_json =
        text.starts_with(['{', '[']) || text.starts_with("//") || text.starts_with("/*");
    if source.dialect == Some(Dialect::CommandLine)
        || (source.dialect.is_none() && !looks_like_json)
    {
        return command_line::import(text, context);
    }
    let value = parse_jsonc(text)?;
    let dialect = match source.dialect {
        Some(dialect) => dialect,
        None => detect::dialect(&value, source.file_name)?,
    };
    let preview = match dialect {
        Dialect::ClaudeDesktop
        | Dialect::ClaudeCode
        | Dialect::Cursor
        | Dialect::Windsurf
        | Dialect::Cline => mcp_servers::import(&value, dialect, context)?,
        Dialect::VsCode => vscode::import(&value, context)?,
        Dialect::Zed => zed::import(&value, context)?,
        Dialect::Registry => registry::import(&value)?,
        Dialect::CommandLine => unreachable!("handled above"),
    };
    Ok(preview)
}

/// Every dialect is read as JSONC: plain JSON is a subset, and VS Code, Zed and Cursor allow
/// comments and trailing commas in their files.
fn parse_jsonc(text: &str) -> Result<serde_json::Value, ImportError> {
    jsonc_parser::parse_to_serde_value::<serde_json::Value>(
        text,
        &jsonc_parser::ParseOptions::default(),
    )
    .map_err(|e| ImportError::NotJson(e.to_string()))
}

/// The shape of a servers map's keys, for [`ImportError::UnknownShape`].
fn top_keys(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(map) if map.is_empty() => "none".into(),
        serde_json::Value::Object(map) => map.keys().cloned().collect::<Vec<_>>().join(", "),
        serde_json::Value::Array(_) => "none, it is a list".into(),
        _ => "none, it is not an object".into(),
    }
}

// --- Export -----------------------------------------------------------------------------

/// What to write: a dialect's file, or a host's one-line command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    File(Dialect),
    /// `claude mcp add …`, one line per server.
    ClaudeMcpAdd,
    /// `code --add-mcp '…'`, one line per server.
    CodeAddMcp,
}

impl ExportFormat {
    /// From a name on the command line: a dialect's id, `claude-mcp-add` or `code-add-mcp`.
    pub fn from_id(id: &str) -> Option<ExportFormat> {
        match id {
            "claude-mcp-add" => Some(ExportFormat::ClaudeMcpAdd),
            "code-add-mcp" => Some(ExportFormat::CodeAddMcp),
            other => Dialect::from_id(other).map(ExportFormat::File),
        }
    }

    pub const IDS: &'static str = "claude-desktop, claude-code, cursor, windsurf, cline, vscode, zed, command-line, claude-mcp-add, code-add-mcp";
}

/// The exported text, and what it could not carry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Exported {
    pub text: String,
    /// One sentence per thing left out or changed (a setting the format has no place for, a
    /// server the format cannot hold).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error(
        "a registry server.json describes a published package and is written by its publisher; export to another dialect"
    )]
    RegistryNotWritable,
}

/// The placeholder written for a secret value in dialects without inputs: never the value.
/// The largest config file (or pasted text) read for an import. Host configs are small, but
/// `~/.claude.json` also keeps a history and grows; past this, reading is refused with the size
/// rather than holding an arbitrary file in memory.
pub const MAX_CONFIG_BYTES: u64 = 32 * 1024 * 1024;

/// Reads `reader` as text, at most [`MAX_CONFIG_BYTES`]; `what` names it in the error.
pub fn read_config(reader: impl std::io::Read, what: &str) -> Result<String, String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    reader
        .take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what}: {e}"))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(format!(
            "{what} is larger than {} MB; Periscope reads host configs up to that size",
            MAX_CONFIG_BYTES / (1024 * 1024)
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{what} is not UTF-8 text"))
}

/// Opens and reads the file at `path` with [`read_config`].
pub fn read_config_file(path: &std::path::Path) -> Result<String, String> {
    let what = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {what}: {e}"))?;
    read_config(file, &what)
}

pub fn secret_placeholder(name: &str) -> String {
    format!("<secret: {name}>")
}

/// Writes `entries` in `format`. Secret values are never written: each is a placeholder
/// (`${input:…}` in VS Code, [`secret_placeholder`] elsewhere), whatever the entry holds.
pub fn export(entries: &[ServerEntry], format: ExportFormat) -> Result<Exported, ExportError> {
    let mut notes = Vec::new();
    for entry in entries {
        draft::note_unexported(entry, format, &mut notes);
    }
    let text = match format {
        ExportFormat::File(Dialect::Registry) => return Err(ExportError::RegistryNotWritable),
        ExportFormat::File(Dialect::VsCode) => vscode::export(entries),
        ExportFormat::File(Dialect::Zed) => zed::export(entries, &mut notes),
        ExportFormat::File(Dialect::CommandLine) => command_line::export(entries, &mut notes),
        ExportFormat::File(dialect) => mcp_servers::export(entries, dialect, &mut notes),
        ExportFormat::ClaudeMcpAdd => command_line::export_claude_mcp_add(entries, &mut notes),
        ExportFormat::CodeAddMcp => vscode::export_add_mcp(entries),
    };
    Ok(Exported { text, notes })
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod read_tests {
    #[test]
    fn a_config_over_the_limit_is_refused_with_the_size() {
        let big = std::io::repeat(b' ').take(super::MAX_CONFIG_BYTES + 1);
        use std::io::Read as _;
        let error = super::read_config(big, "the paste").unwrap_err();
        assert_eq!(
            error,
            "the paste is larger than 32 MB; Periscope reads host configs up to that size"
        );
        assert_eq!(super::read_config(&b"{}"[..], "x").as_deref(), Ok("{}"));
    }
}
