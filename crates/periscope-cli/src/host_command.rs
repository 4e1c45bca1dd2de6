//! `periscope import` and `periscope export`: other MCP hosts' server configs, read into a
//! preview (never written: the app owns its catalog and its running copy would overwrite a
//! change made behind its back) and the app's catalog written in a host's dialect.

use std::path::{Path, PathBuf};

use periscope_core::config::{self, ServerEntry, ServerTarget};
use periscope_core::host_config::{
    self, Dialect, ExportFormat, ImportContext, ImportPreview, ImportSource, locations,
};
use serde_json::Value;

use crate::app_data::data_dir;
use crate::args::Format;
use crate::exit::Exit;

/// `periscope import --detect`: the usual host config files that exist here.
pub fn detect(format: Format) -> Exit {
    let Some(roots) = locations::Roots::of_this_process() else {
        tell!("periscope: HOME is not set, so the usual config files cannot be looked for");
        return Exit::Usage;
    };
    let found = locations::found(&roots);
    match format {
        Format::Json => say!(
            "{}",
            serde_json::to_string_pretty(&found).unwrap_or_default()
        ),
        Format::Text => {
            if found.is_empty() {
                tell!(
                    "periscope: no config file of Claude, Cursor, Windsurf, Cline, VS Code or Zed found here"
                );
            }
            for file in &found {
                say!(
                    "{}\t{}\t({}, {})",
                    file.dialect,
                    file.path.display(),
                    file.dialect.label(),
                    file.scope
                );
            }
            if !found.is_empty() {
                tell!("periscope: preview one with `periscope import FILE`");
            }
        }
    }
    Exit::Ok
}

/// `periscope import FILE|-`: what importing would add, and what it would refuse.
pub fn import(file: &Path, from: Option<Dialect>, format: Format) -> Exit {
    let stdin = file == Path::new("-");
    let text = if stdin {
        match host_config::read_config(std::io::stdin(), "standard input") {
            Ok(text) => text,
            Err(e) => {
                tell!("periscope: {e}");
                return Exit::Usage;
            }
        }
    } else {
        match host_config::read_config_file(file) {
            Ok(text) => text,
            Err(e) => {
                tell!("periscope: {e}");
                return Exit::Usage;
            }
        }
    };
    let absolute =
        (!stdin).then(|| std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf()));
    let file_name = absolute.as_ref().map(|p| p.to_string_lossy().into_owned());
    let context =
        ImportContext::of_this_process(absolute.as_deref().and_then(locations::workspace_folder));
    let source = ImportSource {
        text: &text,
        file_name: file_name.as_deref(),
        dialect: from,
    };
    let preview = match host_config::import(source, &context) {
        Ok(preview) => preview,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    match format {
        Format::Json => say!(
            "{}",
            serde_json::to_string_pretty(&json_preview(&preview)).unwrap_or_default()
        ),
        Format::Text => print_preview(&preview, file_name.as_deref()),
    }
    Exit::Ok
}

/// The preview as JSON, secret values masked.
fn json_preview(preview: &ImportPreview) -> Value {
    serde_json::json!({
        "dialect": preview.dialect,
        "entries": preview.entries.iter().map(|e| serde_json::json!({
            "entry": e.masked(),
            "to_secret_store": periscope_core::server_secrets::secret_names(&e.entry.target)
                .into_iter().map(|(slot, name)| serde_json::json!({"slot": slot, "name": name}))
                .collect::<Vec<_>>(),
            "needs": e.needs,
            "notes": e.notes,
        })).collect::<Vec<_>>(),
        "refused": preview.refused.iter().map(|r| serde_json::json!({
            "name": r.name,
            "reason": r.reason,
            "message": r.reason.to_string(),
        })).collect::<Vec<_>>(),
    })
}

fn print_preview(preview: &ImportPreview, file: Option<&str>) {
    let from = file.map(|f| format!(" ({f})")).unwrap_or_default();
    say!(
        "From {}{from}: {} server{} to import, {} refused.",
        preview.dialect.label(),
        preview.entries.len(),
        if preview.entries.len() == 1 { "" } else { "s" },
        preview.refused.len()
    );
    for imported in &preview.entries {
        let entry = &imported.entry;
        say!("");
        match &entry.target {
            ServerTarget::Stdio(t) => {
                say!("  {}  [stdio]  {}", entry.name, t.display());
                if let Some(cwd) = &t.cwd {
                    say!("      cwd {}", cwd.display());
                }
                for (name, value) in &t.env {
                    let secret = t.secret_env.contains(name);
                    say!("      env {name}={}", masked_value(value, secret));
                }
            }
            ServerTarget::Http { target, mode } => {
                say!(
                    "  {}  [http, {}]  {}",
                    entry.name,
                    mode_label(*mode),
                    periscope_core::redact::url(&target.url)
                );
                for (name, value) in &target.headers {
                    let secret = target
                        .secret_headers
                        .iter()
                        .any(|s| s.eq_ignore_ascii_case(name));
                    say!("      header {name}: {}", masked_value(value, secret));
                }
            }
        }
        for needed in &imported.needs {
            let prompt = needed
                .prompt
                .as_ref()
                .map(|p| format!(" ({p})"))
                .unwrap_or_default();
            say!(
                "      to type: {} for {}{prompt}",
                needed.placeholder,
                needed.place
            );
        }
        for note in &imported.notes {
            say!("      note: {note}");
        }
    }
    if !preview.refused.is_empty() {
        say!("");
        say!("Refused:");
        for refused in &preview.refused {
            say!("  {refused}");
        }
    }
    say!("");
    say!(
        "Preview only: nothing was written. Values marked (secret store) go to the keychain when imported in the app."
    );
}

fn masked_value(value: &str, secret: bool) -> String {
    let shown = if value.is_empty() {
        "(empty)"
    } else {
        "••••"
    };
    if secret {
        format!("{shown}  (secret store)")
    } else {
        shown.to_string()
    }
}

fn mode_label(mode: periscope_core::config::HttpMode) -> &'static str {
    match mode {
        periscope_core::config::HttpMode::Auto => "auto",
        periscope_core::config::HttpMode::Streamable => "streamable",
        periscope_core::config::HttpMode::LegacySse => "legacy SSE",
    }
}

/// `periscope export --to FORMAT [SERVER…]`: the app's servers (all, or those named by id or
/// name) in a host's dialect, on stdout; what the format cannot hold, on stderr.
pub fn export(to: ExportFormat, servers: &[String], format: Format) -> Exit {
    let entries = match catalog() {
        Ok(entries) => entries,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let mut chosen = Vec::new();
    for wanted in servers {
        match entries
            .iter()
            .find(|e| &e.id == wanted)
            .or_else(|| entries.iter().find(|e| &e.name == wanted))
        {
            Some(entry) => chosen.push(entry.clone()),
            None => {
                let known: Vec<String> = entries
                    .iter()
                    .map(|e| format!("{} ({})", e.id, e.name))
                    .collect();
                tell!(
                    "periscope: the app's catalog has no server {wanted:?}; it has: {}",
                    known.join(", ")
                );
                return Exit::Usage;
            }
        }
    }
    if servers.is_empty() {
        chosen = entries;
    }
    let exported = match host_config::export(&chosen, to) {
        Ok(exported) => exported,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    match format {
        Format::Json => say!(
            "{}",
            serde_json::to_string_pretty(&exported).unwrap_or_default()
        ),
        Format::Text => {
            // Written raw: the text is JSON or shell lines the user will paste; `say!` would
            // add a final newline of its own.
            use std::io::Write as _;
            if std::io::stdout()
                .write_all(exported.text.as_bytes())
                .is_err()
            {
                return Exit::Ok;
            }
            for note in &exported.notes {
                tell!("periscope: note: {note}");
            }
        }
    }
    Exit::Ok
}

/// The app's catalog (`catalog.json`), as the app reads it.
fn catalog() -> Result<Vec<ServerEntry>, String> {
    let path: PathBuf = data_dir().join("catalog.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read the app's catalog {}: {e} (start the app once to create it)",
            path.display()
        )
    })?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not valid JSON: {e}", path.display()))?;
    let servers = value
        .get("servers")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    let parsed = config::parse_entries(servers)
        .ok_or_else(|| format!("{} has no list of servers", path.display()))?;
    for unreadable in &parsed.unreadable {
        tell!("periscope: left out, this Periscope cannot read it: {unreadable}");
    }
    Ok(parsed.entries)
}
