//! A selection of frames as Markdown, for a bug report: what was inspected, then each frame with
//! its direction, time, what it is, its flags and its JSON (pretty when it parses, as sent when
//! not), and the stderr lines among them.

use std::fmt::Write;

use super::{Recording, rfc3339};
use crate::wire::Direction;

/// `seqs`: the frames (and stderr lines) to include, in record order; empty means all.
pub fn markdown(recording: &Recording, title: &str, seqs: &[u64]) -> String {
    let wanted = |seq: u64| seqs.is_empty() || seqs.contains(&seq);
    let mut out = String::new();
    let _ = writeln!(out, "# {title}\n");
    if let Some(target) = &recording.target {
        let _ = writeln!(out, "Server: `{}`\n", compact(target));
    }
    enum Item<'a> {
        Frame(&'a crate::wire::Frame),
        Stderr(&'a crate::record::StderrLine),
    }
    let mut items: Vec<(u64, Item)> = recording
        .frames
        .iter()
        .filter(|f| wanted(f.seq))
        .map(|f| (f.seq, Item::Frame(f)))
        .chain(
            recording
                .stderr
                .iter()
                .filter(|l| wanted(l.seq))
                .map(|l| (l.seq, Item::Stderr(l))),
        )
        .collect();
    items.sort_by_key(|(seq, _)| *seq);
    for (seq, item) in items {
        match item {
            Item::Frame(frame) => {
                let arrow = match frame.direction {
                    Direction::Out => "→ sent",
                    Direction::In => "← received",
                    Direction::ToApp => "→ to the app",
                    Direction::FromApp => "← from the app",
                };
                let _ = writeln!(
                    out,
                    "## #{seq} {arrow} · {} · {}\n",
                    frame.verdict.summary(),
                    rfc3339(frame.wall_us)
                );
                for flag in recording.flags_of(seq) {
                    let _ = writeln!(
                        out,
                        "- ⚠ {}",
                        compact(&serde_json::to_value(flag).unwrap_or_default())
                    );
                }
                if recording.flags_of(seq).next().is_some() {
                    out.push('\n');
                }
                let body = serde_json::from_slice::<serde_json::Value>(&frame.bytes)
                    .ok()
                    .and_then(|v| serde_json::to_string_pretty(&v).ok())
                    .unwrap_or_else(|| frame.text_lossy());
                let fence = fence_for(&body);
                let _ = writeln!(out, "{fence}json\n{body}\n{fence}\n");
            }
            Item::Stderr(line) => {
                let _ = writeln!(out, "## #{seq} stderr · {}\n", rfc3339(line.wall_us));
                let fence = fence_for(&line.text);
                let _ = writeln!(out, "{fence}\n{}\n{fence}\n", line.text);
            }
        }
    }
    out
}

fn compact(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// A code fence longer than any run of backticks in `body`, so a frame cannot close it early.
fn fence_for(body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::frame;
    use crate::record::StderrLine;

    #[test]
    fn the_selection_is_listed_in_order_with_pretty_json_and_stderr() {
        let recording = Recording {
            frames: vec![
                frame(
                    1,
                    Direction::Out,
                    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a```b"}}"#,
                    None,
                ),
                frame(3, Direction::In, "not json", None),
                frame(
                    4,
                    Direction::In,
                    r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                    None,
                ),
            ],
            stderr: vec![StderrLine {
                seq: 2,
                wall_us: 0,
                mono_us: 0,
                text: "warming up".into(),
            }],
            ..Recording::default()
        };
        let text = markdown(&recording, "Bug", &[1, 2, 3]);
        assert!(text.starts_with("# Bug\n"));
        let one = text
            .find("## #1 → sent · request tools/call (id 1)")
            .unwrap();
        let two = text.find("## #2 stderr").unwrap();
        let three = text.find("## #3 ← received").unwrap();
        assert!(one < two && two < three);
        assert!(!text.contains("## #4"));
        // The frame's own ``` cannot end the fence.
        assert!(text.contains("````json\n{\n"), "{text}");
        assert!(text.contains("    \"name\": \"a```b\""), "{text}");
        assert!(text.contains("not json"));
    }
}
