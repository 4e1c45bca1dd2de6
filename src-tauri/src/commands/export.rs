//! The Traffic view's exports: a connection's record as HAR 1.2, JSON Lines or Markdown (the
//! engine's `export`), written where the user picks (`save_file`).

use periscope_core::export::{self, Recording};
use periscope_core::store::TrafficFilter;
use periscope_core::vocabulary::Problem;
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
    /// The frames the list's filter shows, as Markdown for a bug report.
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
    filter: TrafficFilter,
) -> Result<Option<String>, Problem> {
    let traffic = state.traffic_of(&server_id)?;
    let name = state
        .catalog()
        .into_iter()
        .find(|e| e.id == server_id)
        .map_or_else(|| server_id.clone(), |e| e.name);
    // Markdown takes the frames the list shows: the filter's, asked of the record (one more
    // than the limit, to tell a list that is too long).
    let seqs: Vec<u64> = match format {
        TrafficExport::Markdown => traffic
            .window_rows(&filter, 0, MARKDOWN_MAX_FRAMES as u64 + 1)
            .map_err(Problem::record)?
            .iter()
            .filter(|r| r.kind.is_frame())
            .map(|r| r.seq)
            .collect(),
        _ => Vec::new(),
    };
    let recording = Recording::from_traffic(&traffic);
    let bytes = match format {
        TrafficExport::Har => {
            let mut b =
                serde_json::to_vec_pretty(&export::har(&recording)).map_err(Problem::internal)?;
            b.push(b'\n');
            b
        }
        TrafficExport::Jsonl => {
            let mut b = Vec::new();
            export::write_jsonl(&recording, &mut b).map_err(Problem::internal)?;
            b
        }
        TrafficExport::Markdown => {
            if seqs.len() > MARKDOWN_MAX_FRAMES {
                return Err(Problem::LimitHit {
                    what: periscope_core::vocabulary::problem::Limit::MarkdownFrames,
                    limit: MARKDOWN_MAX_FRAMES as u64,
                    asked: None,
                });
            }
            export::markdown(&recording, &format!("{name}: Periscope traffic"), &seqs).into_bytes()
        }
    };
    let file_name = crate::save_file::safe_file_name(
        &format!("{name}-traffic.{}", format.extension()),
        "traffic",
    );
    crate::save_file::save_bytes(&app, "Save traffic", &file_name, &bytes).await
}
