//! The frames of a session as JSON Lines: one object a line, in record order, with the message
//! itself (parsed) when the frame is JSON and its text (or base64 when not UTF-8) when not, so
//! `jq` reads every line and nothing malformed is hidden.

use std::io::{self, Write};

use base64::Engine;
use serde_json::{Value, json};

use super::{Recording, rfc3339};

pub fn write_jsonl(recording: &Recording, out: &mut impl Write) -> io::Result<()> {
    for frame in &recording.frames {
        let mut line = json!({
            "seq": frame.seq,
            "time": rfc3339(frame.wall_us),
            "direction": frame.direction.to_string(),
        });
        if let Some(view) = frame.app_view {
            line["app_view"] = json!(view);
        }
        match serde_json::from_slice::<Value>(&frame.bytes) {
            Ok(message) if frame.truncated_from.is_none() => line["message"] = message,
            _ => match std::str::from_utf8(&frame.bytes) {
                Ok(text) => line["text"] = json!(text),
                Err(_) => {
                    line["base64"] =
                        json!(base64::engine::general_purpose::STANDARD.encode(&frame.bytes))
                }
            },
        }
        if let Some(size) = frame.truncated_from {
            line["truncated_from"] = json!(size);
        }
        let flags: Vec<_> = recording.flags_of(frame.seq).collect();
        if !flags.is_empty() {
            line["flags"] = serde_json::to_value(flags).map_err(io::Error::other)?;
        }
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::frame;
    use crate::record::{Flag, FlagRecord};
    use crate::wire::Direction;

    #[test]
    fn every_frame_is_one_line_and_a_malformed_one_keeps_its_text() {
        let recording = Recording {
            frames: vec![
                frame(
                    1,
                    Direction::Out,
                    r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
                    None,
                ),
                frame(2, Direction::In, "Server ready!", None),
            ],
            flags: vec![FlagRecord {
                seq: 1,
                flag: Flag::InvalidUserFrame,
            }],
            ..Recording::default()
        };
        let mut out = Vec::new();
        write_jsonl(&recording, &mut out).unwrap();
        let lines: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["message"]["method"], "ping");
        assert_eq!(lines[0]["direction"], "out");
        assert_eq!(lines[0]["flags"][0]["kind"], "invalid_user_frame");
        assert_eq!(lines[1]["text"], "Server ready!");
        assert!(lines[1].get("message").is_none());
    }
}
