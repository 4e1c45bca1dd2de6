//! `periscope recording har|jsonl|markdown FILE`: a record file (`--record`) exported for other
//! tools — the HTTP exchanges as HAR 1.2, the frames as JSON Lines, chosen frames as Markdown
//! for a bug report. Written to standard output, or to `--output`.

use std::io::Write;
use std::path::Path;

use periscope_core::export::{self, Recording};

use crate::args::RecordingAction;
use crate::exit::Exit;

pub fn run(action: &RecordingAction) -> Exit {
    let (file, output) = match action {
        RecordingAction::Har { file, output }
        | RecordingAction::Jsonl { file, output }
        | RecordingAction::Markdown { file, output, .. } => (file, output),
    };
    let recording = match Recording::read(file) {
        Ok(r) => r,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let mut bytes = Vec::new();
    match action {
        RecordingAction::Har { .. } => {
            let doc = export::har(&recording);
            bytes = serde_json::to_vec_pretty(&doc).unwrap_or_default();
            bytes.push(b'\n');
        }
        RecordingAction::Jsonl { .. } => {
            if let Err(e) = export::write_jsonl(&recording, &mut bytes) {
                tell!("periscope: {e}");
                return Exit::Usage;
            }
        }
        RecordingAction::Markdown { frames, title, .. } => {
            let seqs = match parse_frames(frames.as_deref().unwrap_or("")) {
                Ok(s) => s,
                Err(e) => {
                    tell!("periscope: --frames: {e}");
                    return Exit::Usage;
                }
            };
            let title = title.clone().unwrap_or_else(|| title_of(file));
            bytes = export::markdown(&recording, &title, &seqs).into_bytes();
        }
    }
    match write_out(output.as_deref(), &bytes) {
        Ok(()) => Exit::Ok,
        Err(e) => {
            tell!("periscope: {e}");
            Exit::Usage
        }
    }
}

fn title_of(file: &Path) -> String {
    format!(
        "Periscope record {}",
        file.file_name().unwrap_or_default().to_string_lossy()
    )
}

fn write_out(output: Option<&Path>, bytes: &[u8]) -> Result<(), String> {
    match output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| format!("could not write {}: {e}", path.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(bytes)
                .and_then(|()| stdout.flush())
                .map_err(|e| e.to_string())
        }
    }
}

/// "1,3,5-9" → [1, 3, 5, 6, 7, 8, 9]; empty → all frames. A range is capped so a typo like
/// "1-999999999" cannot allocate gigabytes.
pub fn parse_frames(text: &str) -> Result<Vec<u64>, String> {
    const MAX: u64 = 100_000;
    let mut seqs = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| {
            s.trim()
                .trim_start_matches('#')
                .parse::<u64>()
                .map_err(|_| format!("{s:?} is not a frame number"))
        };
        match part.split_once('-') {
            Some((from, to)) => {
                let (from, to) = (number(from)?, number(to)?);
                if to < from || to - from >= MAX {
                    return Err(format!("{part:?} is not a range of at most {MAX} frames"));
                }
                seqs.extend(from..=to);
            }
            None => seqs.push(number(part)?),
        }
    }
    Ok(seqs)
}

#[cfg(test)]
mod tests {
    use super::parse_frames;

    #[test]
    fn frame_lists_and_ranges_parse() {
        assert_eq!(parse_frames("1, 3,#5-7").unwrap(), [1, 3, 5, 6, 7]);
        assert!(parse_frames("").unwrap().is_empty());
        assert!(parse_frames("x").is_err());
        assert!(parse_frames("9-1").is_err());
        assert!(parse_frames("1-999999999").is_err());
    }
}
