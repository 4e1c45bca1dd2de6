//! `periscope open FILE`: a record file reopened in the desktop app, read-only (the app is
//! started with `--open FILE`, or a running one gets it); `periscope open FILE --print`: the
//! recording in the terminal instead — what was recorded, its era and protocol, how much it
//! holds, the server's tools, resources, templates and prompts as last listed, then every frame
//! (its exact text; bytes that are not UTF-8 shown lossily).

use std::path::Path;

use periscope_core::diff::SurfaceList;
use periscope_core::export::Recording;
use periscope_core::summary::Summary;
use periscope_core::wire::Direction;
use serde_json::{Value, json};

use crate::args::Format;
use crate::exit::Exit;

pub fn run(file: &Path, print: bool, format: Format) -> Exit {
    if !print {
        // The app reads it; a path it can find from anywhere.
        let path = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        if !path.is_file() {
            tell!("periscope: {} is not a file", file.display());
            return Exit::Usage;
        }
        return crate::open_app::start(&["--open".into(), path.display().to_string()]);
    }
    let recording = match Recording::read(file) {
        Ok(r) => r,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let (summary, surface) = Summary::read(&recording);
    let list = |kind: SurfaceList| surface.lists.get(&kind);
    match format {
        Format::Json => {
            let lists: serde_json::Map<String, Value> = SurfaceList::ALL
                .iter()
                .filter_map(|k| {
                    let name = serde_json::to_value(k).ok()?.as_str()?.to_string();
                    Some((name, list(*k).map_or(Value::Null, |l| json!(l))))
                })
                .collect();
            let frames: Vec<Value> = recording
                .frames
                .iter()
                .map(|f| {
                    json!({
                        "seq": f.seq,
                        "direction": f.direction,
                        "wall_us": f.wall_us,
                        "text": String::from_utf8_lossy(&f.bytes),
                    })
                })
                .collect();
            say!(
                "{}",
                serde_json::to_string_pretty(&json!({
                    "file": file.display().to_string(),
                    "format_version": recording.format_version.map(|v| v.to_string()),
                    "periscope_version": recording.periscope_version,
                    "target": recording.target,
                    "summary": summary,
                    "identity": surface.identity,
                    "lists": lists,
                    "skipped_lines": recording.skipped_lines,
                    "frames": frames,
                }))
                .unwrap_or_default()
            );
        }
        Format::Text => print_text(file, &recording, &summary, &surface),
    }
    Exit::Ok
}

fn print_text(
    file: &Path,
    recording: &Recording,
    summary: &Summary,
    surface: &periscope_core::diff::Surface,
) {
    say!("recording: {}", file.display());
    say!(
        "format {} · written by Periscope {}",
        recording
            .format_version
            .map_or_else(|| "?".to_string(), |v| v.to_string()),
        recording.periscope_version.as_deref().unwrap_or("?")
    );
    if let Some(target) = &recording.target {
        say!("target: {}", periscope_core::summary::target_line(target));
    }
    let server = summary
        .server_info
        .as_ref()
        .map(|i| {
            periscope_core::views::ServerInfoView::read(i)
                .label()
                .unwrap_or_else(|| "?".into())
        })
        .unwrap_or_else(|| "not recorded".into());
    say!(
        "server: {server} · era {} · protocol {}",
        summary.era.unwrap_or("not recorded"),
        summary
            .protocol_version
            .as_deref()
            .unwrap_or("not recorded")
    );
    say!(
        "{} frames · {} HTTP exchanges · {} stderr lines · {} flags · {} decisions · {} sign-in steps",
        summary.frames,
        summary.exchanges,
        summary.stderr_lines,
        summary.flags,
        summary.decisions,
        summary.auth_steps
    );
    if recording.skipped_lines > 0 {
        say!(
            "{} lines of a newer format were skipped",
            recording.skipped_lines
        );
    }
    for kind in SurfaceList::ALL {
        let label = serde_json::to_value(kind)
            .ok()
            .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
            .unwrap_or_default();
        match surface.lists.get(&kind) {
            None => say!("{label}: never listed"),
            Some(items) => {
                let names: Vec<&str> = items
                    .iter()
                    .map(|i| i.get(kind.key()).and_then(Value::as_str).unwrap_or("?"))
                    .collect();
                say!("{label} ({}): {}", items.len(), names.join(", "));
            }
        }
    }
    say!("");
    for frame in &recording.frames {
        // App frames (host ↔ an MCP App view) say which view.
        let arrow = match (frame.direction, frame.app_view) {
            (Direction::Out, _) => "→".to_string(),
            (Direction::In, _) => "←".to_string(),
            (Direction::ToApp, view) => format!("→ app {}", view.unwrap_or_default()),
            (Direction::FromApp, view) => format!("← app {}", view.unwrap_or_default()),
        };
        say!(
            "#{} {arrow} {}",
            frame.seq,
            String::from_utf8_lossy(&frame.bytes)
        );
    }
}
