//! Zed: `context_servers` in its `settings.json` (JSONC). A custom server is `{command, args,
//! env}` (older files: `{"command": {path, args, env}}`) or `{url, headers}`; a server an
//! extension provides has no command in the file and is refused saying so.

use serde_json::{Map, Value, json};

use super::draft::{self, Collector, Draft, DraftTransport};
use super::mcp_servers::pretty;
use super::variables::{Expander, Syntax};
use super::{
    Dialect, ImportContext, ImportError, ImportPreview, ImportRefusal, secret_placeholder, top_keys,
};
use crate::config::{HttpMode, ServerEntry, ServerTarget};

const KNOWN: &[&str] = &[
    "source", "command", "args", "env", "url", "headers", "enabled",
];

pub(super) fn import(
    value: &Value,
    context: &ImportContext<'_>,
) -> Result<ImportPreview, ImportError> {
    let Some(servers) = value.get("context_servers") else {
        return Err(ImportError::UnknownShape {
            expected: "context_servers".into(),
            found: top_keys(value),
        });
    };
    let expander = Expander {
        syntax: Syntax::Literal,
        context,
        inputs: &[],
    };
    let mut collector = Collector::new(Dialect::Zed);
    let Some(servers) = servers.as_object() else {
        collector.refuse(
            "context_servers",
            ImportRefusal::BadField {
                field: "context_servers".into(),
                expected: "an object of server names to configs".into(),
            },
        );
        return Ok(collector.finish());
    };
    for (name, config) in servers {
        match draft(name, config) {
            Ok(draft) => collector.add(draft, &expander),
            Err(reason) => collector.refuse(name, reason),
        }
    }
    Ok(collector.finish())
}

fn draft(name: &str, config: &Value) -> Result<Draft, ImportRefusal> {
    let Some(object) = config.as_object() else {
        return Err(ImportRefusal::NotAnObject);
    };
    let mut notes = Vec::new();
    draft::note_other_keys(object, KNOWN, "Zed", &mut notes);
    if object.get("enabled").and_then(Value::as_bool) == Some(false) {
        notes.push("disabled in Zed; imported anyway".into());
    }
    let is_extension = object.get("source").and_then(Value::as_str) == Some("extension");
    let transport = match (object.get("command"), draft::string(object, "url")?) {
        // The older form: the command is an object.
        (Some(Value::Object(command)), _) => {
            let path = draft::string(command, "path")?.ok_or(ImportRefusal::MissingCommand)?;
            DraftTransport::Stdio {
                command: path,
                args: draft::strings(command, "args")?,
                env: draft::pairs(command, "env")?,
                cwd: None,
            }
        }
        (Some(_), _) => {
            let mut args = draft::strings(object, "args")?;
            let command = draft::string(object, "command")?.unwrap_or_default();
            let command = draft::split_command(command, &mut args, &mut notes);
            DraftTransport::Stdio {
                command,
                args,
                env: draft::pairs(object, "env")?,
                cwd: None,
            }
        }
        (None, Some(url)) => DraftTransport::Http {
            url,
            headers: draft::pairs(object, "headers")?,
            mode: HttpMode::Auto,
        },
        (None, None) if is_extension || object.contains_key("settings") => {
            return Err(ImportRefusal::ZedExtension);
        }
        (None, None) => return Err(ImportRefusal::MissingCommand),
    };
    Ok(Draft {
        name: name.to_string(),
        transport,
        notes,
        ..Draft::default()
    })
}

pub(super) fn export(entries: &[ServerEntry], notes: &mut Vec<String>) -> String {
    let mut servers = Map::new();
    for entry in entries {
        let mut config = Map::new();
        match &entry.target {
            ServerTarget::Stdio(t) => {
                config.insert("command".into(), json!(t.command));
                config.insert("args".into(), json!(t.args));
                let env = draft::exported_pairs(&t.env, &t.secret_env, false, secret_placeholder);
                config.insert("env".into(), Value::Object(env));
                if t.cwd.is_some() {
                    notes.push(format!(
                        "{}: Zed's settings have no working directory: not written",
                        entry.name
                    ));
                }
            }
            ServerTarget::Http { target, mode } => {
                if *mode == HttpMode::LegacySse {
                    notes.push(format!(
                        "{}: Zed picks the transport itself; the legacy SSE choice is not written",
                        entry.name
                    ));
                }
                config.insert("url".into(), json!(target.url));
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
        servers.insert(entry.name.clone(), Value::Object(config));
    }
    pretty(&json!({ "context_servers": servers }))
}
