//! Exports of a session's record for other tools: the HTTP exchanges as HAR 1.2 (browsers'
//! developer tools open it), the frames as JSON Lines (one message per line, for `jq`), and a
//! selection of frames as Markdown for a bug report; and the record itself, as a record file
//! (`write_record`, the format `--record` writes).
//!
//! Each reads a [`Recording`]: the entries of a live session ([`Recording::from_traffic`]) or
//! of a record file ([`Recording::read`], the format `--record` writes, docs/engine.md). What
//! the record holds is already redacted (secret headers); nothing here adds a secret.

mod har;
mod jsonl;
mod markdown;
mod read;
mod record_file;

use std::path::Path;

pub use har::har;
pub use jsonl::write_jsonl;
pub use markdown::markdown;
pub use record_file::write_record;

use crate::record::{
    AuthStep, Decision, FlagRecord, FormatVersion, HttpExchange, RecordLine, RoundRecord,
    StderrLine,
};
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
    /// The record file's format (`None` for a live session's record).
    pub format_version: Option<FormatVersion>,
    /// The Periscope that wrote the file.
    pub periscope_version: Option<String>,
    pub decisions: Vec<Decision>,
    pub rounds: Vec<RoundRecord>,
    pub auth_steps: Vec<AuthStep>,
    /// Lines of a newer minor format whose type this build does not know, skipped.
    pub skipped_lines: usize,
}

/// The line types this build knows (a newer minor's other types are skipped, not errors).
const KNOWN_LINE_TYPES: [&str; 8] = [
    "session",
    "frame",
    "stderr",
    "flag",
    "http",
    "decision",
    "round",
    "auth_step",
];

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
    #[error(
        "{path} is a record of format {found}, written by a newer Periscope; this build reads format {}.x: update Periscope to open it",
        FormatVersion::CURRENT.major
    )]
    NewerFormat { path: String, found: FormatVersion },
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
            && let Ok(recording) = Recording::from_store(&store, traffic)
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
            decisions: traffic.decisions(),
            auth_steps: traffic.auth_steps(),
            ..Recording::default()
        }
    }

    fn from_store(store: &Store, traffic: &Traffic) -> Result<Recording, StoreError> {
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
            // Few and kept in memory whole, store or not.
            decisions: traffic.decisions(),
            auth_steps: traffic.auth_steps(),
            ..Recording::default()
        })
    }

    /// Reads a record file (JSON Lines, one entry a line; `read.rs`). A line this build does not
    /// know is an error naming it, not skipped (an export that silently lost entries would
    /// mislead) — unless the file is of a newer minor format, whose new line types are skipped
    /// and counted; a newer major is refused.
    pub fn read(path: &Path) -> Result<Recording, ReadError> {
        read::read(path)
    }

    fn push(&mut self, entry: RecordLine) {
        match entry {
            RecordLine::Session {
                format_version,
                periscope_version,
                started_wall_us,
                target,
            } => {
                self.format_version = Some(format_version.unwrap_or(FormatVersion::UNVERSIONED));
                self.periscope_version = Some(periscope_version);
                self.started_wall_us = Some(started_wall_us);
                self.target = Some(target);
            }
            RecordLine::Frame(frame) | RecordLine::AppFrame(frame) => self.frames.push(frame),
            RecordLine::Http(exchange) => self.exchanges.push(exchange),
            RecordLine::Stderr(line) => self.stderr.push(line),
            RecordLine::Flag(flag) => self.flags.push(flag),
            RecordLine::Decision(decision) => self.decisions.push(decision),
            RecordLine::Round(round) => self.rounds.push(round),
            RecordLine::AuthStep(step) => self.auth_steps.push(step),
        }
    }

    /// The recording as a read-only [`Traffic`], so a host queries it like a live session's.
    pub fn to_traffic(&self) -> std::sync::Arc<Traffic> {
        self.clone().into_traffic()
    }

    /// Like [`Recording::to_traffic`], moving the entries instead of copying them.
    pub fn into_traffic(self) -> std::sync::Arc<Traffic> {
        let lines = self
            .frames
            .into_iter()
            .map(RecordLine::of_frame)
            .chain(self.stderr.into_iter().map(RecordLine::Stderr))
            .chain(self.exchanges.into_iter().map(RecordLine::Http))
            .chain(self.flags.into_iter().map(RecordLine::Flag))
            .chain(self.decisions.into_iter().map(RecordLine::Decision))
            .chain(self.rounds.into_iter().map(RecordLine::Round))
            .chain(self.auth_steps.into_iter().map(RecordLine::AuthStep));
        Traffic::reopened(lines)
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
            app_view: None,
            verdict: classify(text.as_bytes()),
        }
    }

    #[test]
    fn a_record_file_reads_back_and_an_unknown_line_is_named() {
        let dir = std::env::temp_dir().join(format!("periscope-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        let lines = [
            serde_json::to_string(&RecordLine::Session {
                format_version: Some(FormatVersion::CURRENT),
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
    fn a_newer_major_is_refused_and_a_newer_minor_s_new_lines_are_skipped() {
        let dir = std::env::temp_dir().join(format!("periscope-version-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        let session = |version: &str| {
            format!(
                r#"{{"type":"session","format_version":"{version}","periscope_version":"9","started_wall_us":1,"target":{{}}}}"#
            )
        };
        std::fs::write(&path, session("2.0") + "\n").unwrap();
        let error = Recording::read(&path).unwrap_err();
        assert!(matches!(error, ReadError::NewerFormat { .. }), "{error}");
        assert!(
            error
                .to_string()
                .contains("format 2.0, written by a newer Periscope"),
            "{error}"
        );

        let lines = [
            session("1.9"),
            r#"{"type":"hologram","seq":1}"#.to_string(),
            r#"{"type":"stderr","seq":2,"wall_us":1,"mono_us":1,"text":"hi"}"#.to_string(),
        ];
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let recording = Recording::read(&path).unwrap();
        assert_eq!(recording.skipped_lines, 1);
        assert_eq!(recording.stderr.len(), 1);
        assert_eq!(
            recording.format_version,
            Some(FormatVersion { major: 1, minor: 9 })
        );

        // A broken line of a known type is an error even in a newer minor.
        let broken = [session("1.9"), r#"{"type":"stderr","seq":"x"}"#.to_string()];
        std::fs::write(&path, broken.join("\n") + "\n").unwrap();
        assert!(Recording::read(&path).is_err());
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
