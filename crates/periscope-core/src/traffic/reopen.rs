//! A record read back from a file as a [`Traffic`]: every entry with its own seq and times, so
//! the queries a host runs on a live session (rows, a frame's detail, its call's rounds, flags)
//! work the same on a recording. Nothing is appended to it afterwards: it is read-only.

use std::sync::Arc;

use tokio::sync::broadcast;

use super::{MAX_AUTH_STEPS, Traffic};
use crate::record::RecordLine;

impl Traffic {
    /// A read-only record holding `lines` (a record file's entries; the `session` line is
    /// ignored). Frames, stderr lines and exchanges keep their seqs; they are sorted by seq,
    /// since an exchange's line can follow frames with higher numbers. All in memory.
    pub fn reopened(lines: impl IntoIterator<Item = RecordLine>) -> Arc<Traffic> {
        // Nobody listens: a reopened record has no live feed.
        let (events, _) = broadcast::channel(1);
        let traffic = Traffic::new(events);
        let mut frames = Vec::new();
        let mut stderr = Vec::new();
        let mut exchanges = Vec::new();
        {
            let mut inner = traffic.lock();
            for line in lines {
                match line {
                    RecordLine::Session { .. } => {}
                    RecordLine::Frame(frame) | RecordLine::AppFrame(frame) => {
                        frames.push(Arc::new(frame))
                    }
                    RecordLine::Stderr(line) => stderr.push(Arc::new(line)),
                    RecordLine::Http(exchange) => exchanges.push(Arc::new(exchange)),
                    RecordLine::Flag(flag) => inner.flags.entries.push_back(flag),
                    RecordLine::Decision(decision) => inner.decisions.push(decision),
                    RecordLine::Round(round) => {
                        inner.rounds.insert(round.seq, round.call);
                    }
                    RecordLine::AuthStep(step) => {
                        if inner.auth_steps.len() == MAX_AUTH_STEPS {
                            inner.auth_steps.pop_front();
                        }
                        inner.auth_steps.push_back(step);
                    }
                }
            }
            frames.sort_by_key(|f| f.seq);
            stderr.sort_by_key(|l| l.seq);
            exchanges.sort_by_key(|e| e.seq);
            let last = [
                frames.last().map(|f| f.seq),
                stderr.last().map(|l| l.seq),
                exchanges.last().map(|e| e.seq),
            ]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(0);
            inner.next_seq = last + 1;
            inner.frames.entries = frames.into();
            inner.stderr.entries = stderr.into();
            inner.exchanges.entries = exchanges.into();
        }
        Arc::new(traffic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{CallRound, RoundRecord, StderrLine};
    use crate::wire::{Direction, Frame, classify};

    fn frame(seq: u64, direction: Direction, text: &str) -> RecordLine {
        RecordLine::Frame(Frame {
            seq,
            direction,
            wall_us: seq,
            mono_us: seq,
            bytes: Arc::from(text.as_bytes()),
            truncated_from: None,
            exchange: None,
            app_view: None,
            verdict: classify(text.as_bytes()),
        })
    }

    #[test]
    fn a_reopened_record_keeps_seqs_rounds_and_pairs() {
        let traffic = Traffic::reopened([
            frame(
                1,
                Direction::Out,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            ),
            RecordLine::Stderr(StderrLine {
                seq: 2,
                wall_us: 2,
                mono_us: 2,
                text: "log".into(),
            }),
            frame(
                3,
                Direction::In,
                r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#,
            ),
            frame(
                5,
                Direction::Out,
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#,
            ),
            RecordLine::Round(RoundRecord {
                seq: 5,
                call: CallRound {
                    first_seq: 1,
                    round: 2,
                    asked_by: 3,
                },
            }),
            frame(6, Direction::In, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#),
        ]);
        assert_eq!(traffic.frame_count(), 4);
        assert_eq!(traffic.frame(5).unwrap().seq, 5);
        assert!(traffic.frame(2).is_none(), "seq 2 is a stderr line");
        assert_eq!(traffic.stderr().len(), 1);
        let rounds = traffic.call_of(6);
        assert_eq!(rounds.len(), 2);
        assert_eq!(rounds[1].response_seq, Some(6));
        assert_eq!(traffic.reserve_seq(), 7);
    }
}
