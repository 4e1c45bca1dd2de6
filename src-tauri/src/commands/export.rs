//! The Traffic view's exports: a connection's record as HAR 1.2, JSON Lines or Markdown (the
//! engine's `export`), written where the user picks in the native save dialog. Nothing is
//! written without that pick; test builds write into `PERISCOPE_SAVE_DIR` instead of showing
//! the dialog, so the end-to-end tests see the file.

use periscope_core::export::{self, Recording};
use serde::Deserialize;
use tauri::{AppHandle, Runtime, State};

use crate::AppState;

/// Which export the user asked for.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TrafficExport {
    /// The HTTP exchanges as HAR 1.2.
    Har,
    /// Every frame, one JSON line each.
    Jsonl,
    /// The frames given (those the view shows), as Markdown for a bug report.
    Markdown,
}

impl TrafficExport {
    fn extension(self) -> &'static str {
        match self {
            TrafficExport::Har => "har",
            TrafficExport::Jsonl => "jsonl",
            TrafficExport::Markdown => "md",
        }
    }
}

/// Most frames a Markdown report takes (a bug report, not an archive: JSON Lines is that).
pub const MARKDOWN_MAX_FRAMES: usize = 2_000;

/// Builds the export and saves it; the path written, or None when the user cancelled.
#[tauri::command]
pub async fn export_traffic<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    format: TrafficExport,
    seqs: Vec<u64>,
) -> Result<Option<String>, String> {
    let session = state.session_record(&server_id)?;
    let name = state
        .catalog()
        .into_iter()
        .find(|e| e.id == server_id)
        .map_or_else(|| server_id.clone(), |e| e.name);
    let recording = Recording::from_traffic(session.traffic());
    let bytes = match format {
        TrafficExport::Har => {
            let mut b =
                serde_json::to_vec_pretty(&export::har(&recording)).map_err(|e| e.to_string())?;
            b.push(b'\n');
            b
        }
        TrafficExport::Jsonl => {
            let mut b = Vec::new();
            export::write_jsonl(&recording, &mut b).map_err(|e| e.to_string())?;
            b
        }
        TrafficExport::Markdown => {
            if seqs.len() > MARKDOWN_MAX_FRAMES {
                return Err(format!(
                    "a Markdown report takes at most {MARKDOWN_MAX_FRAMES} frames ({} shown): filter the view first, or export JSON Lines",
                    seqs.len()
                ));
            }
            export::markdown(&recording, &format!("{name}: Periscope traffic"), &seqs).into_bytes()
        }
    };
    let file_name = format!("{}-traffic.{}", file_stem(&name), format.extension());
    save(&app, &file_name, &bytes).await
}

/// A file name part from a server's name: letters, digits, `-` and `_` only.
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem.trim_matches('-');
    if stem.is_empty() {
        "server".into()
    } else {
        stem.into()
    }
}

async fn save<R: Runtime>(
    app: &AppHandle<R>,
    file_name: &str,
    bytes: &[u8],
) -> Result<Option<String>, String> {
    #[cfg(feature = "test-seams")]
    if let Some(dir) = std::env::var_os("PERISCOPE_SAVE_DIR") {
        let path = std::path::Path::new(&dir).join(file_name);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
        return Ok(Some(path.display().to_string()));
    }
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_file_name(file_name)
        .save_file(move |picked| {
            let _ = tx.send(picked);
        });
    let picked = rx.await.map_err(|_| "the save dialog closed".to_string())?;
    let Some(path) = picked else {
        return Ok(None);
    };
    let path = path
        .into_path()
        .map_err(|e| format!("not a local file: {e}"))?;
    std::fs::write(&path, bytes).map_err(|e| format!("could not write {}: {e}", path.display()))?;
    Ok(Some(path.display().to_string()))
}

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn a_file_name_comes_from_the_server_name() {
        assert_eq!(
            file_stem("Demo server (legacy era)"),
            "Demo-server--legacy-era"
        );
        assert_eq!(file_stem("../.."), "server");
    }
}
