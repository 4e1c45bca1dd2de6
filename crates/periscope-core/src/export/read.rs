//! Reading a record file: bounded (the file's size, each line's), streamed line by line, the
//! format version checked on the `session` line. Parsing is nearly all of opening a recording
//! (`benches/benches/recording.rs`); parsing on several threads was tried and gave nothing on
//! a loaded two-core machine while holding the whole file in memory, so it reads serially.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::{KNOWN_LINE_TYPES, MAX_LINE_BYTES, MAX_RECORD_BYTES, ReadError, Recording};
use crate::record::{FormatVersion, RecordLine};

pub(super) fn read(path: &Path) -> Result<Recording, ReadError> {
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
    let mut reader = BufReader::new(file).take(MAX_RECORD_BYTES);
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
        let entry: RecordLine = match parse_line(&line) {
            Ok(entry) => entry,
            // A newer minor format may add line types: skipped and counted, not errors.
            Err(_)
                if recording
                    .format_version
                    .is_some_and(FormatVersion::newer_than_this_build)
                    && !known_type(&line) =>
            {
                recording.skipped_lines += 1;
                continue;
            }
            Err(e) => {
                return Err(ReadError::BadLine {
                    path: name,
                    line: number,
                    error: e.to_string(),
                });
            }
        };
        if let RecordLine::Session { format_version, .. } = &entry {
            let found = format_version.unwrap_or(FormatVersion::UNVERSIONED);
            if !found.readable() {
                return Err(ReadError::NewerFormat { path: name, found });
            }
        }
        recording.push(entry);
    }
    Ok(recording)
}

/// The line prefix this build writes for a frame (serde puts the tag first).
const FRAME_PREFIX: &[u8] = br#"{"type":"frame","#;

/// One line of a record file. A frame line (nearly every line) is read straight into a
/// [`Frame`](crate::wire::Frame): going through the tagged [`RecordLine`] would first copy the
/// whole line, its bytes included, into serde's buffer of any value, then read the frame from
/// that copy (most of the time of opening a recording). `Frame` ignores the `type` member as
/// it ignores any member it does not know, the way `RecordLine` reads it; anything else, and a
/// frame line the fast read refuses, takes the general way, so errors say the same.
fn parse_line(line: &[u8]) -> serde_json::Result<RecordLine> {
    if line.starts_with(FRAME_PREFIX)
        && let Ok(frame) = serde_json::from_slice(line)
    {
        return Ok(RecordLine::Frame(frame));
    }
    serde_json::from_slice(line)
}

/// Whether a line that did not parse names a line type this build knows (then it is broken,
/// not new).
fn known_type(line: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string))
        .is_some_and(|t| KNOWN_LINE_TYPES.contains(&t.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_file_keeps_its_order_and_names_its_bad_line() {
        let dir = std::env::temp_dir().join(format!("periscope-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("long.jsonl");
        let n = 4096 * 3 + 17;
        let mut text = String::from(
            r#"{"type":"session","format_version":"1.1","periscope_version":"0","started_wall_us":1,"target":{}}"#,
        );
        text.push('\n');
        for seq in 1..=n {
            text.push_str(&format!(
                r#"{{"type":"stderr","seq":{seq},"wall_us":1,"mono_us":1,"text":"line {seq}"}}"#
            ));
            text.push('\n');
        }
        std::fs::write(&path, &text).unwrap();
        let recording = Recording::read(&path).unwrap();
        assert_eq!(recording.stderr.len(), n);
        assert!(
            recording
                .stderr
                .windows(2)
                .all(|w| w[0].seq + 1 == w[1].seq)
        );

        // Line 1 is the session line: stderr seq k is line k + 1.
        let bad = 4096 * 2 + 5;
        let broken = text.replacen(&format!(r#""seq":{bad},"#), r#""seq":"x","#, 1);
        std::fs::write(&path, broken).unwrap();
        let error = Recording::read(&path).unwrap_err().to_string();
        assert!(error.contains(&format!("line {}:", bad + 1)), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
