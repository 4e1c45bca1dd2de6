//! VS Code: `mcp.json` (`{"servers": {…}, "inputs": […]}`, user or `.vscode/` in a workspace),
//! the same under `mcp` in `settings.json`, and the JSON `code --add-mcp` takes. Secrets are
//! `${input:id}` references to `inputs` VS Code prompts for; an import keeps them as
//! placeholders to be typed, an export writes one password input per secret value.

use serde_json::{Map, Value, json};

use super::draft::{self, Collector, id_for};
use super::mcp_servers::{self, pretty};
use super::variables::{Expander, Input, Syntax};
use super::{
    Dialect, ImportContext, ImportError, ImportPreview, ImportRefusal, detect, secret_placeholder,
    top_keys,
};
use crate::config::{HttpMode, ServerEntry, ServerTarget};

pub(super) fn import(
    value: &Value,
    context: &ImportContext<'_>,
) -> Result<ImportPreview, ImportError> {
    let section = match value.get("mcp") {
        Some(mcp) if value.get("servers").is_none() => mcp,
        _ => value,
    };
    let inputs = inputs(section.get("inputs"));
    let expander = Expander {
        syntax: Syntax::Editor,
        context,
        inputs: &inputs,
    };
    let mut collector = Collector::new(Dialect::VsCode);
    match section.get("servers") {
        Some(Value::Object(servers)) => {
            for (name, config) in servers {
                match mcp_servers::draft(name, config, Dialect::VsCode) {
                    Ok(draft) => collector.add(draft, &expander),
                    Err(reason) => collector.refuse(name, reason),
                }
            }
        }
        Some(_) => collector.refuse(
            "servers",
            ImportRefusal::BadField {
                field: "servers".into(),
                expected: "an object of server names to configs".into(),
            },
        ),
        // `code --add-mcp` JSON: one server, its name inside.
        None if detect::is_server(value) => {
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("server");
            match mcp_servers::draft(name, value, Dialect::VsCode) {
                Ok(draft) => collector.add(draft, &expander),
                Err(reason) => collector.refuse(name, reason),
            }
        }
        None => {
            return Err(ImportError::UnknownShape {
                expected: "servers (mcp.json) or mcp.servers (settings.json)".into(),
                found: top_keys(value),
            });
        }
    }
    Ok(collector.finish())
}

fn inputs(value: Option<&Value>) -> Vec<Input> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|input| {
            Some(Input {
                id: input.get("id")?.as_str()?.to_string(),
                description: input
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                password: input
                    .get("password")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            })
        })
        .collect()
}

/// The input id for one secret value of one server.
fn input_id(server: &str, name: &str) -> String {
    format!("{}-{}", id_for(server), id_for(name))
}

pub(super) fn export(entries: &[ServerEntry]) -> String {
    let mut inputs = Vec::new();
    let mut servers = Map::new();
    for entry in entries {
        let placeholder = |name: &str| format!("${{input:{}}}", input_id(&entry.name, name));
        let (config, secret_names) = server(entry, &placeholder);
        for name in secret_names {
            inputs.push(json!({
                "type": "promptString",
                "id": input_id(&entry.name, &name),
                "description": format!("{name} for {}", entry.name),
                "password": true,
            }));
        }
        servers.insert(entry.name.clone(), Value::Object(config));
    }
    pretty(&json!({ "inputs": inputs, "servers": servers }))
}

/// One server as VS Code writes it, and the names of its secret values.
fn server(
    entry: &ServerEntry,
    placeholder: &dyn Fn(&str) -> String,
) -> (Map<String, Value>, Vec<String>) {
    let mut config = Map::new();
    match &entry.target {
        ServerTarget::Stdio(t) => {
            config.insert("type".into(), json!("stdio"));
            config.insert("command".into(), json!(t.command));
            config.insert("args".into(), json!(t.args));
            if !t.env.is_empty() {
                let env = draft::exported_pairs(&t.env, &t.secret_env, false, placeholder);
                config.insert("env".into(), Value::Object(env));
            }
            if let Some(cwd) = &t.cwd {
                config.insert("cwd".into(), json!(cwd));
            }
        }
        ServerTarget::Http { target, mode } => {
            let kind = if *mode == HttpMode::LegacySse {
                "sse"
            } else {
                "http"
            };
            config.insert("type".into(), json!(kind));
            config.insert("url".into(), json!(target.url));
            if !target.headers.is_empty() {
                let headers = draft::exported_pairs(
                    &target.headers,
                    &target.secret_headers,
                    true,
                    placeholder,
                );
                config.insert("headers".into(), Value::Object(headers));
            }
        }
    }
    let secrets = crate::server_secrets::secret_names(&entry.target);
    (config, secrets.into_iter().map(|(_, name)| name).collect())
}

/// `code --add-mcp '{…}'`, one line per server. The command takes no inputs, so secrets are
/// written as `<secret: NAME>` for the user to replace.
pub(super) fn export_add_mcp(entries: &[ServerEntry]) -> String {
    let mut text = String::new();
    for entry in entries {
        let (config, _) = server(entry, &secret_placeholder);
        let mut object = Map::new();
        object.insert("name".into(), json!(entry.name));
        object.extend(config);
        let json = Value::Object(object).to_string();
        text.push_str("code --add-mcp ");
        text.push_str(&draft::quote(&json));
        text.push('\n');
    }
    text
}
