//! Which dialect a config is in: from its shape (the key holding the servers), and within the
//! `mcpServers` family, from the file's name or the fields its host alone uses.

use std::path::Path;

use serde_json::Value;

use super::{Dialect, ImportError, top_keys};

/// The dialect a file's name says, if it says one (`claude_desktop_config.json`, `.mcp.json`…).
pub fn dialect_for_file(path: &str) -> Option<Dialect> {
    let path = path.replace('\\', "/");
    let name = Path::new(&path).file_name()?.to_str()?;
    match name {
        "claude_desktop_config.json" => Some(Dialect::ClaudeDesktop),
        ".mcp.json" | ".claude.json" => Some(Dialect::ClaudeCode),
        "mcp_config.json" => Some(Dialect::Windsurf),
        "cline_mcp_settings.json" => Some(Dialect::Cline),
        "server.json" => Some(Dialect::Registry),
        "mcp.json" if path.contains(".cursor/") => Some(Dialect::Cursor),
        "mcp.json" => Some(Dialect::VsCode),
        "settings.json" if path.contains("zed/") => Some(Dialect::Zed),
        "settings.json" if path.contains("Code/") || path.contains(".vscode/") => {
            Some(Dialect::VsCode)
        }
        _ => None,
    }
}

/// The dialect of a parsed config: its shape decides the family, the file's name (else the
/// fields used) the host within the `mcpServers` family.
pub fn dialect(value: &Value, file_name: Option<&str>) -> Result<Dialect, ImportError> {
    let by_name = file_name.and_then(dialect_for_file);
    let Value::Object(map) = value else {
        return Err(unknown(value));
    };
    if let Some(servers) = map.get("mcpServers") {
        return Ok(match by_name {
            Some(
                d @ (Dialect::ClaudeDesktop
                | Dialect::ClaudeCode
                | Dialect::Cursor
                | Dialect::Windsurf
                | Dialect::Cline),
            ) => d,
            // `mcp.json` holding `mcpServers` is Cursor's, not VS Code's.
            Some(Dialect::VsCode) => Dialect::Cursor,
            _ => family_member(servers),
        });
    }
    if map.get("servers").is_some_and(Value::is_array) {
        return Ok(Dialect::Registry);
    }
    if map.get("servers").is_some_and(Value::is_object)
        || map.get("mcp").and_then(|m| m.get("servers")).is_some()
    {
        return Ok(Dialect::VsCode);
    }
    if map.contains_key("context_servers") {
        return Ok(Dialect::Zed);
    }
    let schema = map.get("$schema").and_then(Value::as_str).unwrap_or("");
    if map.contains_key("packages")
        || map.contains_key("remotes")
        || schema.contains("server.schema")
    {
        return Ok(Dialect::Registry);
    }
    if is_server(value) {
        // One server on its own: `code --add-mcp` JSON has its name inside.
        return Ok(if map.get("name").is_some_and(Value::is_string) {
            Dialect::VsCode
        } else {
            by_name.unwrap_or_else(|| {
                family_member(&Value::Object(
                    [("x".to_string(), value.clone())].into_iter().collect(),
                ))
            })
        });
    }
    if !map.is_empty() && map.values().all(is_server) {
        // A bare map of servers, as many READMEs show them.
        return Ok(by_name.unwrap_or_else(|| family_member(value)));
    }
    Err(unknown(value))
}

/// Whether a value looks like one server's config.
pub(super) fn is_server(value: &Value) -> bool {
    ["command", "url", "serverUrl"]
        .iter()
        .any(|k| value.get(k).is_some())
}

/// Which host of the `mcpServers` family wrote these servers, from the fields only it uses.
fn family_member(servers: &Value) -> Dialect {
    let entries: Vec<&Value> = servers
        .as_object()
        .map(|m| m.values().collect())
        .unwrap_or_default();
    let any = |f: &dyn Fn(&Value) -> bool| entries.iter().any(|e| f(e));
    if any(&|e| e.get("serverUrl").is_some()) {
        Dialect::Windsurf
    } else if any(&|e| {
        e.get("autoApprove").is_some()
            || e.get("alwaysAllow").is_some()
            || e.get("type").and_then(Value::as_str) == Some("streamableHttp")
    }) {
        Dialect::Cline
    } else if any(&|e| e.get("type").is_some()) {
        Dialect::ClaudeCode
    } else if any(&|e| e.get("url").is_some()) {
        // Claude Desktop's file holds local servers only; a bare `url` is Cursor's form.
        Dialect::Cursor
    } else {
        Dialect::ClaudeDesktop
    }
}

fn unknown(value: &Value) -> ImportError {
    ImportError::UnknownShape {
        expected: "mcpServers, servers, mcp.servers, context_servers, a server.json (packages, remotes), or one server's command or url".into(),
        found: top_keys(value),
    }
}
