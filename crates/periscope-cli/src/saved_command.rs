//! `periscope saved …` and `--args-file`: the saved calls the desktop app keeps
//! (`$XDG_DATA_HOME/dev.periscope.app/saved.json`), run from the command line.

use std::io::Read as _;
use std::path::Path;

use periscope_core::config::{self, ServerEntry};
use periscope_core::saved_calls::{CallKind, SAVED_FILE, SAVED_KEY, SavedCall, parse_list};
use serde_json::{Map, Value};

use crate::app_data::data_dir;
use crate::args::Format;
use crate::exit::Exit;

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not valid JSON: {e}", path.display()))
}

/// Every saved call (of `server` only, when given). No file yet: none.
pub fn load(server: Option<&str>) -> Result<Vec<SavedCall>, String> {
    let path = data_dir().join(SAVED_FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let calls: Vec<SavedCall> = parse_list(&read_json(&path)?, SAVED_KEY);
    Ok(calls
        .into_iter()
        .filter(|c| server.is_none_or(|s| c.server_id == s))
        .collect())
}

/// `periscope saved list`.
pub fn list(format: Format, server: Option<&str>) -> Exit {
    let calls = match load(server) {
        Ok(c) => c,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    match format {
        Format::Json => say!(
            "{}",
            serde_json::to_string_pretty(&calls).unwrap_or_default()
        ),
        Format::Text => {
            if calls.is_empty() {
                tell!(
                    "periscope: no saved calls in {} (save some in the app's Saved tab)",
                    data_dir().join(SAVED_FILE).display()
                );
            }
            for c in &calls {
                let args = match &c.arguments {
                    Value::Object(m) if m.is_empty() => String::new(),
                    other => format!(" {other}"),
                };
                say!(
                    "{}\t[{}] {} {}{}",
                    c.name,
                    c.server_id,
                    c.kind.label(),
                    c.target,
                    args
                );
            }
        }
    }
    Exit::Ok
}

/// The saved call named `name` (of `server`, when given); a name two servers share needs
/// `--server`.
pub fn find(name: &str, server: Option<&str>) -> Result<SavedCall, String> {
    let calls = load(server)?;
    let mut matches: Vec<SavedCall> = calls.into_iter().filter(|c| c.name == name).collect();
    match matches.len() {
        0 => Err(format!(
            "no saved call named {name:?}{} (see `periscope saved list`)",
            server
                .map(|s| format!(" for server {s:?}"))
                .unwrap_or_default()
        )),
        1 => Ok(matches.remove(0)),
        _ => Err(format!(
            "{} saved calls are named {name:?} (servers {}): choose one with --server ID",
            matches.len(),
            matches
                .iter()
                .map(|c| c.server_id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The server a saved call belongs to, from the app's catalog (`catalog.json`); its secret
/// values are still in the secret store (`secrets::resolve_entry`).
pub fn catalog_entry(server_id: &str) -> Result<ServerEntry, String> {
    let path = data_dir().join("catalog.json");
    let catalog = read_json(&path)?;
    let stored = catalog
        .get("servers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|e| e.get("id").and_then(Value::as_str) == Some(server_id));
    let no_server = || {
        format!(
            "the app's catalog ({}) has no server {server_id:?}: give the server with --url or after `--`",
            path.display()
        )
    };
    // Read as the app reads it (old stdio-only entries too), and checked as the app checks it.
    let mut parsed = config::parse_entries(Value::Array(stored.into_iter().cloned().collect()))
        .ok_or_else(no_server)?;
    if let Some(unreadable) = parsed.unreadable.pop() {
        return Err(format!(
            "the app's catalog ({}) has a server {server_id:?} this Periscope cannot read: {}",
            path.display(),
            unreadable.reason
        ));
    }
    let entry = parsed.entries.pop().ok_or_else(no_server)?;
    config::validate_entry(&entry).map_err(|e| {
        format!(
            "the app's catalog ({}) has a broken server {server_id:?}: {e}",
            path.display()
        )
    })?;
    Ok(entry)
}

/// The text of `--args-file FILE` (`-`: standard input).
pub fn read_args_file(path: &Path) -> Result<String, String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read the arguments from standard input: {e}"))?;
        return Ok(text);
    }
    std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --args-file {}: {e}", path.display()))
}

/// Arguments from `--args-file` with `-a` pairs on top.
pub fn file_arguments(
    path: &Path,
    pairs: &[(String, String)],
) -> Result<Map<String, Value>, String> {
    let text = read_args_file(path)?;
    let shown = if path == Path::new("-") {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    crate::args::tool_arguments(Some(&text), pairs)
        .map_err(|e| e.replacen("--args", &format!("--args-file ({shown})"), 1))
}

/// What a saved call asks for, for messages: `tool add {"a":2}`.
pub fn describe(call: &SavedCall) -> String {
    match call.kind {
        CallKind::Resource => format!("read {}", call.target),
        kind => format!("{} {} {}", kind.label(), call.target, call.arguments),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_arguments_must_hold_an_object_and_pairs_win() {
        let dir = std::env::temp_dir().join(format!("periscope-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("args.json");
        std::fs::write(&file, r#"{"a": 2, "b": 3}"#).unwrap();
        let args = file_arguments(&file, &[("b".into(), "40".into())]).unwrap();
        assert_eq!(Value::Object(args), serde_json::json!({"a": 2, "b": 40}));
        std::fs::write(&file, "[1, 2]").unwrap();
        let error = file_arguments(&file, &[]).unwrap_err();
        assert!(
            error.contains("--args-file") && error.contains("object"),
            "{error}"
        );
        let missing = file_arguments(&dir.join("nope.json"), &[]).unwrap_err();
        assert!(missing.contains("cannot read"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
