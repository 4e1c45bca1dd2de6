//! The `mcpServers` family: Claude Desktop, Claude Code (`.mcp.json`, `~/.claude.json`),
//! Cursor, Windsurf and Cline. One shape (`{"mcpServers": {name: {command, args, env} | {url,
//! headers}}}`), with each host's own words for remote servers and its own placeholders.

use serde_json::{Map, Value, json};

use super::draft::{self, Collector, Draft, DraftTransport};
use super::variables::{Expander, Syntax};
use super::{
    Dialect, ImportContext, ImportError, ImportPreview, ImportRefusal, detect, secret_placeholder,
    top_keys,
};
use crate::config::{HttpMode, ServerEntry, ServerTarget};

const KNOWN: &[&str] = &[
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "serverUrl",
    "headers",
    "type",
    "transport",
    "name",
    "disabled",
];

pub(super) fn import(
    value: &Value,
    dialect: Dialect,
    context: &ImportContext<'_>,
) -> Result<ImportPreview, ImportError> {
    let syntax = match dialect {
        Dialect::ClaudeCode => Syntax::Shell,
        Dialect::Cursor | Dialect::Windsurf => Syntax::Editor,
        _ => Syntax::Literal,
    };
    let expander = Expander {
        syntax,
        context,
        inputs: &[],
    };
    let mut collector = Collector::new(dialect);
    let mut found = false;
    if let Some(servers) = value.get("mcpServers") {
        found = true;
        read_map(servers, dialect, None, &expander, &mut collector);
    }
    // `~/.claude.json` keeps each project's servers under `projects.<folder>.mcpServers`.
    if let Some(projects) = value.get("projects").and_then(Value::as_object) {
        for (folder, project) in projects {
            if let Some(servers) = project.get("mcpServers") {
                found = true;
                read_map(servers, dialect, Some(folder), &expander, &mut collector);
            }
        }
    }
    if !found {
        if detect::is_server(value) {
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("server")
                .to_string();
            add(&name, value, dialect, None, &expander, &mut collector);
        } else if value
            .as_object()
            .is_some_and(|m| !m.is_empty() && m.values().all(detect::is_server))
        {
            read_map(value, dialect, None, &expander, &mut collector);
        } else {
            return Err(ImportError::UnknownShape {
                expected: "mcpServers".into(),
                found: top_keys(value),
            });
        }
    }
    Ok(collector.finish())
}

fn read_map(
    servers: &Value,
    dialect: Dialect,
    project: Option<&str>,
    expander: &Expander<'_>,
    collector: &mut Collector,
) {
    let Some(servers) = servers.as_object() else {
        collector.refuse(
            "mcpServers",
            ImportRefusal::BadField {
                field: "mcpServers".into(),
                expected: "an object of server names to configs".into(),
            },
        );
        return;
    };
    for (name, config) in servers {
        add(name, config, dialect, project, expander, collector);
    }
}

fn add(
    name: &str,
    config: &Value,
    dialect: Dialect,
    project: Option<&str>,
    expander: &Expander<'_>,
    collector: &mut Collector,
) {
    let shown = match project {
        Some(folder) => format!("{name} ({folder})"),
        None => name.to_string(),
    };
    match draft(&shown, config, dialect) {
        Ok(mut draft) => {
            if let Some(folder) = project {
                draft
                    .notes
                    .push(format!("from the project {folder} of ~/.claude.json"));
            }
            collector.add(draft, expander)
        }
        Err(reason) => collector.refuse(&shown, reason),
    }
}

/// One server's config, read. Shared with Zed's and VS Code's readers, whose servers have the
/// same fields.
pub(super) fn draft(name: &str, config: &Value, dialect: Dialect) -> Result<Draft, ImportRefusal> {
    let Some(object) = config.as_object() else {
        return Err(ImportRefusal::NotAnObject);
    };
    let mut notes = Vec::new();
    draft::note_other_keys(object, KNOWN, dialect.label(), &mut notes);
    if object.get("disabled").and_then(Value::as_bool) == Some(true) {
        notes.push(format!("disabled in {}; imported anyway", dialect.label()));
    }
    let url = match draft::string(object, "url")? {
        Some(url) => Some(url),
        None => draft::string(object, "serverUrl")?,
    };
    let kind = match draft::string(object, "type")? {
        Some(kind) => Some(kind),
        None => draft::string(object, "transport")?,
    };
    let mode = match kind.as_deref() {
        Some(kind) => draft::transport_mode(kind)?,
        None if url.is_some() && object.get("command").is_none() => Some(HttpMode::Auto),
        None => None,
    };
    let transport = match mode {
        Some(mode) => DraftTransport::Http {
            url: url.ok_or(ImportRefusal::MissingUrl)?,
            headers: draft::pairs(object, "headers")?,
            mode,
        },
        None => {
            let mut args = draft::strings(object, "args")?;
            let command = draft::string(object, "command")?.ok_or(ImportRefusal::MissingCommand)?;
            let command = draft::split_command(command, &mut args, &mut notes);
            DraftTransport::Stdio {
                command,
                args,
                env: draft::pairs(object, "env")?,
                cwd: draft::string(object, "cwd")?,
            }
        }
    };
    Ok(Draft {
        name: name.to_string(),
        transport,
        notes,
        ..Draft::default()
    })
}

pub(super) fn export(entries: &[ServerEntry], dialect: Dialect, notes: &mut Vec<String>) -> String {
    let mut servers = Map::new();
    for entry in entries {
        if let Some(config) = server(entry, dialect, notes) {
            servers.insert(entry.name.clone(), config);
        }
    }
    pretty(&json!({ "mcpServers": servers }))
}

/// One entry in `dialect`'s words; None (with a note) when the host's file cannot hold it.
fn server(entry: &ServerEntry, dialect: Dialect, notes: &mut Vec<String>) -> Option<Value> {
    let mut config = Map::new();
    match &entry.target {
        ServerTarget::Stdio(t) => {
            if dialect == Dialect::ClaudeCode {
                config.insert("type".into(), json!("stdio"));
            }
            config.insert("command".into(), json!(t.command));
            config.insert("args".into(), json!(t.args));
            if !t.env.is_empty() {
                let env = draft::exported_pairs(&t.env, &t.secret_env, false, secret_placeholder);
                config.insert("env".into(), Value::Object(env));
            }
            if let Some(cwd) = &t.cwd {
                config.insert("cwd".into(), json!(cwd));
            }
        }
        ServerTarget::Http { target, mode } => {
            let sse = *mode == HttpMode::LegacySse;
            match dialect {
                Dialect::ClaudeDesktop => {
                    notes.push(format!(
                        "{}: left out: Claude Desktop's file holds local servers only (remote ones are added as connectors in its settings)",
                        entry.name
                    ));
                    return None;
                }
                Dialect::ClaudeCode => {
                    config.insert("type".into(), json!(if sse { "sse" } else { "http" }));
                    config.insert("url".into(), json!(target.url));
                }
                Dialect::Cline => {
                    config.insert(
                        "type".into(),
                        json!(if sse { "sse" } else { "streamableHttp" }),
                    );
                    config.insert("url".into(), json!(target.url));
                }
                Dialect::Windsurf | Dialect::Cursor => {
                    if sse {
                        notes.push(format!(
                            "{}: {} picks the transport itself; the legacy SSE choice is not written",
                            entry.name,
                            dialect.label()
                        ));
                    }
                    let key = if dialect == Dialect::Windsurf {
                        "serverUrl"
                    } else {
                        "url"
                    };
                    config.insert(key.into(), json!(target.url));
                }
                _ => unreachable!("not an mcpServers dialect"),
            }
            if !target.headers.is_empty() {
                let headers = draft::exported_pairs(
                    &target.headers,
                    &target.secret_headers,
                    true,
                    secret_placeholder,
                );
                config.insert("headers".into(), Value::Object(headers));
            }
        }
    }
    Some(Value::Object(config))
}

pub(super) fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values always encode");
    text.push('\n');
    text
}
