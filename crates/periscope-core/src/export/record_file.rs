//! A session's record written as a record file after the fact (the app's "Save session…"):
//! the same format `--record` writes as it goes (docs/recording-format.md), so `periscope open`,
//! `periscope diff`, `periscope replay` and the app's File → Open read either.

use std::io::{self, Write};

use super::Recording;
use crate::record::{FormatVersion, RecordLine};

/// Writes `recording` as a record file: the `session` line (`target` describes the server,
/// without secrets), then frames, stderr lines and HTTP exchanges in seq order, each flag and
/// round after the entry it names, and decisions and sign-in steps by time at the end (they
/// carry no seq).
pub fn write_record(
    recording: &Recording,
    target: serde_json::Value,
    out: &mut impl Write,
) -> io::Result<()> {
    let started_wall_us = recording.started_wall_us.unwrap_or_else(|| {
        recording
            .frames
            .first()
            .map_or(0, |f| f.wall_us.saturating_sub(f.mono_us))
    });
    line(
        out,
        &RecordLine::Session {
            format_version: Some(FormatVersion::CURRENT),
            periscope_version: env!("CARGO_PKG_VERSION").to_string(),
            started_wall_us,
            target,
        },
    )?;
    // (seq, order within the seq, line): an entry, then what names it.
    let mut entries: Vec<(u64, u8, RecordLine)> = Vec::with_capacity(
        recording.frames.len() + recording.stderr.len() + recording.exchanges.len(),
    );
    entries.extend(
        recording
            .frames
            .iter()
            .map(|f| (f.seq, 0, RecordLine::of_frame(f.clone()))),
    );
    entries.extend(
        recording
            .stderr
            .iter()
            .map(|l| (l.seq, 0, RecordLine::Stderr(l.clone()))),
    );
    entries.extend(
        recording
            .exchanges
            .iter()
            .map(|e| (e.seq, 0, RecordLine::Http(e.clone()))),
    );
    entries.extend(
        recording
            .rounds
            .iter()
            .map(|r| (r.seq, 1, RecordLine::Round(*r))),
    );
    entries.extend(
        recording
            .flags
            .iter()
            .map(|f| (f.seq, 2, RecordLine::Flag(f.clone()))),
    );
    entries.sort_by_key(|(seq, order, _)| (*seq, *order));
    for (_, _, entry) in &entries {
        line(out, entry)?;
    }
    let mut timed: Vec<(u64, RecordLine)> = recording
        .decisions
        .iter()
        .map(|d| (d.wall_us, RecordLine::Decision(d.clone())))
        .chain(
            recording
                .auth_steps
                .iter()
                .map(|s| (s.wall_us, RecordLine::AuthStep(s.redacted()))),
        )
        .collect();
    timed.sort_by_key(|(wall_us, _)| *wall_us);
    for (_, entry) in &timed {
        line(out, entry)?;
    }
    out.flush()
}

fn line(out: &mut impl Write, entry: &RecordLine) -> io::Result<()> {
    serde_json::to_writer(&mut *out, entry)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::frame;
    use crate::record::{AuthStep, StderrLine, StepOutcome};
    use crate::wire::Direction;

    #[test]
    fn a_written_record_reads_back_with_every_entry() {
        let recording = Recording {
            frames: vec![
                frame(
                    1,
                    Direction::Out,
                    r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
                    None,
                ),
                frame(
                    3,
                    Direction::In,
                    r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                    None,
                ),
            ],
            stderr: vec![StderrLine {
                seq: 2,
                wall_us: 2,
                mono_us: 2,
                text: "hello".into(),
            }],
            auth_steps: vec![AuthStep {
                wall_us: 9,
                title: "Token".into(),
                detail: "back at http://127.0.0.1/cb?code=XYZ".into(),
                http: None,
                outcome: StepOutcome::Ok,
            }],
            ..Recording::default()
        };
        let mut bytes = Vec::new();
        write_record(
            &recording,
            serde_json::json!({"command": "demo"}),
            &mut bytes,
        )
        .unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(!text.contains("XYZ"), "{text}");
        let dir = std::env::temp_dir().join(format!("periscope-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        std::fs::write(&path, &text).unwrap();
        let back = Recording::read(&path).unwrap();
        assert_eq!(back.format_version, Some(FormatVersion::CURRENT));
        assert_eq!(back.frames.len(), 2);
        assert_eq!(back.frames[1].bytes, recording.frames[1].bytes);
        assert_eq!(back.stderr, recording.stderr);
        assert_eq!(back.auth_steps.len(), 1);
        assert_eq!(back.target, Some(serde_json::json!({"command": "demo"})));
        let types: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["type"].to_string())
            .collect();
        assert_eq!(
            types,
            [
                r#""session""#,
                r#""frame""#,
                r#""stderr""#,
                r#""frame""#,
                r#""auth_step""#
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
