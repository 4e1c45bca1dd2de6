//! Exports of a session's record for other tools: the HTTP exchanges as HAR 1.2 (browsers'
//! developer tools open it), the frames as JSON Lines (one message per line, for `jq`), and a
//! selection of frames as Markdown for a bug report.
//!
//! Each reads a [`Recording`]: the entries of a live session ([`Recording::from_traffic`]) or
//! of a record file ([`Recording::read`], the format `--record` writes, docs/engine.md). What
//! the record holds is already redacted (secret headers); nothing here adds a secret.

mod har;
mod jsonl;
mod markdown;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

pub use har::har;
pub use jsonl::write_jsonl;
pub use markdown::markdown;

use crate::record::{FlagRecord, HttpExchange, RecordLine, StderrLine};
use crate::store::{Store, StoreError};
use crate::traffic::Traffic;
use crate::wire::Frame;

/// Largest record file read whole (a 1 000 000-frame session is about 300 MB).
pub const MAX_RECORD_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// Longest line of a record file: a frame at the engine's size limit, base64-encoded, with room.
const MAX_LINE_BYTES: u64 = 96 * 1024 * 1024;

/// The entries of one session an export reads.
#[derive(Debug, Default, Clone)]
pub struct Recording {
    /// What was recorded (the command or URL), when the record file says.
    pub target: Option<serde_json::Value>,
    pub started_wall_us: Option<u64>,
    pub frames: Vec<Frame>,
    pub exchanges: Vec<HttpExchange>,
    pub stderr: Vec<StderrLine>,
    pub flags: Vec<FlagRecord>,
}

/// Why a record file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("could not read {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path} is {size} bytes; records larger than {limit} bytes are not read whole")]
    TooLarge { path: String, size: u64, limit: u64 },
    #[error("{path}, line {line}: longer than {limit} bytes")]
    LineTooLong {
        path: String,
        line: usize,
        limit: u64,
    },
    #[error("{path}, line {line}: not a record line ({error})")]
    BadLine {
        path: String,
        line: usize,
        error: String,
    },
}

impl Recording {
    /// Everything the live session recorded so far. With a store attached, memory holds only
    /// the newest entries: the store (synced first, so it has everything) is read whole.
    pub fn from_traffic(traffic: &Traffic) -> Recording {
        if let Some(store) = traffic.store()
            && let Ok(recording) = Recording::from_store(&store)
        {
            return recording;
        }
        Recording {
            target: None,
            started_wall_us: None,
            frames: traffic.frames().iter().map(|f| (**f).clone()).collect(),
            exchanges: traffic.exchanges().iter().map(|e| (**e).clone()).collect(),
            stderr: traffic.stderr().iter().map(|l| (**l).clone()).collect(),
            flags: traffic.flags(),
        }
    }

    fn from_store(store: &Store) -> Result<Recording, StoreError> {
        store.sync()?;
        Ok(Recording {
            target: None,
            started_wall_us: None,
            frames: store
                .all_frames()?
                .into_iter()
                .map(|f| (*f).clone())
                .collect(),
            exchanges: store.all_exchanges()?,
            stderr: store.all_stderr()?,
            flags: store.all_flags()?,
        })
    }

    /// Reads a record file (JSON Lines, one entry a line). A line this build does not know is
    /// an error naming it, not skipped: an export that silently lost entries would mislead.
    pub fn read(path: &Path) -> Result<Recording, ReadError> {
        let name = path.display().to_string();
        let io = |error| ReadError::Io {
            path: name.clone(),
            error,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size > MAX_RECORD_BYTES {
            return Err(ReadError::TooLarge {
                path: name,
                size,
                limit: MAX_RECORD_BYTES,
            });
        }
        let mut reader = BufReader::new(file);
        let mut recording = Recording::default();
        let mut line = Vec::new();
        let mut number = 0;
        loop {
            line.clear();
            number += 1;
            let read = (&mut reader)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut line)
                .map_err(io)?;
            if read == 0 {
                break;
            }
            if read as u64 > MAX_LINE_BYTES {
                return Err(ReadError::LineTooLong {
                    path: name,
                    line: number,
                    limit: MAX_LINE_BYTES,
                });
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let entry: RecordLine =
                serde_json::from_slice(&line).map_err(|e| ReadError::BadLine {
                    path: name.clone(),
                    line: number,
                    error: e.to_string(),
                })?;
            recording.push(entry);
        }
        Ok(recording)
    }

    fn push(&mut self, entry: RecordLine) {
        match entry {
            RecordLine::Session {
                started_wall_us,
                target,
                ..
            } => {
                self.started_wall_us = Some(started_wall_us);
                self.target = Some(target);
            }
            RecordLine::Frame(frame) => self.frames.push(frame),
            RecordLine::Http(exchange) => self.exchanges.push(exchange),
            RecordLine::Stderr(line) => self.stderr.push(line),
            RecordLine::Flag(flag) => self.flags.push(flag),
            // Decisions and rounds are not part of any export format yet.
            RecordLine::Decision(_) | RecordLine::Round(_) => {}
        }
    }

    /// The flags on one frame.
    fn flags_of(&self, seq: u64) -> impl Iterator<Item = &crate::record::Flag> {
        self.flags
            .iter()
            .filter(move |f| f.seq == seq)
            .map(|f| &f.flag)
    }
}

/// An RFC 3339 UTC time with milliseconds, from microseconds since the Unix epoch.
fn rfc3339(wall_us: u64) -> String {
    let nanos = i128::from(wall_us) * 1000;
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".to_string())
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::wire::{Direction, classify};

    pub(crate) fn frame(
        seq: u64,
        direction: Direction,
        text: &str,
        exchange: Option<u64>,
    ) -> Frame {
        Frame {
            seq,
            direction,
            wall_us: 1_764_000_000_000_000 + seq * 1000,
            mono_us: seq * 1000,
            bytes: Arc::from(text.as_bytes()),
            truncated_from: None,
            exchange,
            verdict: classify(text.as_bytes()).0,
        }
    }

    #[test]
    fn a_record_file_reads_back_and_an_unknown_line_is_named() {
        let dir = std::env::temp_dir().join(format!("periscope-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        let lines = [
            serde_json::to_string(&RecordLine::Session {
                periscope_version: "0".into(),
                started_wall_us: 5,
                target: serde_json::json!({"command": "demo"}),
            })
            .unwrap(),
            serde_json::to_string(&RecordLine::Frame(frame(
                1,
                Direction::Out,
                r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
                None,
            )))
            .unwrap(),
        ];
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let recording = Recording::read(&path).unwrap();
        assert_eq!(recording.started_wall_us, Some(5));
        assert_eq!(recording.frames.len(), 1);
        assert_eq!(
            &*recording.frames[0].bytes,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        );

        std::fs::write(&path, "{\"type\":\"something_new\"}\n").unwrap();
        let error = Recording::read(&path).unwrap_err().to_string();
        assert!(error.contains("line 1: not a record line"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn times_are_rfc3339_utc() {
        assert_eq!(
            rfc3339(1_764_000_000_123_456),
            "2025-11-24T16:00:00.123456Z"
        );
    }
}
