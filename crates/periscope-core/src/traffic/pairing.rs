//! Which frames belong together in a record: a request we sent and its response, and the
//! rounds of a multi round-trip call (a later request linked to the response that asked for
//! its inputs). Looked for in memory first, then in the store when frames left memory.

use crate::record::{CallRound, RecordLine, RoundFrames, RoundRecord};
use crate::wire::{Direction, Frame, RequestId, Verdict};

use super::{Inner, Traffic};

/// Rounds announced for requests not yet sent that the record remembers; a request whose send
/// failed before its frame was recorded leaves its announcement behind, so past this they go.
const MAX_AWAITED_ROUNDS: usize = 1024;

impl Traffic {
    /// The seq of the request we sent that `frame` is (an outgoing request) or answers (an
    /// incoming response), looked for in the store too when memory has not got it.
    fn request_of(&self, frame: &Frame) -> Option<u64> {
        // Memory was searched back from the frame: when anything left memory, the request may
        // be among what left, even when the frame itself is still in memory.
        let (found, store) = {
            let inner = self.lock();
            (inner.request_of(frame), inner.store_if_evicted())
        };
        if found.is_some() {
            return found;
        }
        let (Verdict::Response { id: Some(id), .. }, Direction::In) =
            (&frame.verdict, frame.direction)
        else {
            return None;
        };
        let store = store?;
        store.sync().ok()?;
        store
            .request_before(frame.seq, Direction::Out, &crate::rows::row_id(id))
            .ok()
            .flatten()
    }

    /// The seq of the first response to our request frame `request_seq`, once it came; looked
    /// for in the store too when the request left memory.
    fn response_of(&self, request_seq: u64) -> Option<u64> {
        let (found, store) = {
            let inner = self.lock();
            (
                inner.response_of(request_seq),
                inner.store_before(request_seq),
            )
        };
        if found.is_some() {
            return found;
        }
        let store = store?;
        let request = self.frame(request_seq)?;
        let Verdict::Request { id, .. } = &request.verdict else {
            return None;
        };
        store
            .response_after(request_seq, Direction::In, &crate::rows::row_id(id))
            .ok()
            .flatten()
    }

    /// The other half of a request we sent and its response: for our request frame, its
    /// response once it came; for a response from the server, the request it answers. From the
    /// store when they left memory.
    pub fn partner_of(&self, seq: u64) -> Option<u64> {
        let frame = self.frame(seq)?;
        match (&frame.verdict, frame.direction) {
            (Verdict::Request { .. }, Direction::Out) => self.response_of(seq),
            (Verdict::Response { .. }, Direction::In) => self.request_of(&frame),
            _ => None,
        }
    }

    /// Says that the request about to go out with `id` answers the inputs the response frame
    /// `asked_by` asked for: it becomes the next round of that response's call. Called before
    /// the send, so the frame is linked the moment it is recorded (a host building rows from
    /// the record never sees it unlinked).
    pub fn expect_round(&self, id: &RequestId, asked_by: u64) {
        let Some(request_seq) = self.frame(asked_by).and_then(|f| self.request_of(&f)) else {
            return;
        };
        let mut inner = self.lock();
        let call = match inner.rounds.get(&request_seq) {
            Some(previous) => CallRound {
                first_seq: previous.first_seq,
                round: previous.round + 1,
                asked_by,
            },
            None => CallRound {
                first_seq: request_seq,
                round: 2,
                asked_by,
            },
        };
        if inner.awaited_rounds.len() >= MAX_AWAITED_ROUNDS {
            inner.awaited_rounds.clear();
        }
        inner.awaited_rounds.insert(id.clone(), call);
    }

    /// Which round of which call the request frame `seq` is, when it is a later round (the
    /// first request of a call is not linked: it was sent before anyone knew).
    pub fn round_of(&self, seq: u64) -> Option<CallRound> {
        self.lock().rounds.get(&seq).copied()
    }

    /// Every round of the multi round-trip call frame `seq` (a request or its response) belongs
    /// to, in order; empty when it belongs to none. It scans the record for the last round's
    /// response, so it is for a detail view, not for every row.
    pub fn call_of(&self, seq: u64) -> Vec<RoundFrames> {
        let Some(frame) = self.frame(seq) else {
            return Vec::new();
        };
        let Some(request_seq) = self.request_of(&frame) else {
            return Vec::new();
        };
        let inner = self.lock();
        let first_seq = inner
            .rounds
            .get(&request_seq)
            .map_or(request_seq, |c| c.first_seq);
        let mut later: Vec<(u64, CallRound)> = inner
            .rounds
            .iter()
            .filter(|(_, c)| c.first_seq == first_seq)
            .map(|(s, c)| (*s, *c))
            .collect();
        if later.is_empty() {
            return Vec::new();
        }
        later.sort_by_key(|(_, c)| c.round);
        let mut rounds = vec![RoundFrames {
            round: 1,
            request_seq: first_seq,
            response_seq: None,
        }];
        for (request_seq, call) in later {
            // The response that asked for this round's inputs answered the round before.
            if let Some(previous) = rounds.last_mut() {
                previous.response_seq = Some(call.asked_by);
            }
            rounds.push(RoundFrames {
                round: call.round,
                request_seq,
                response_seq: None,
            });
        }
        drop(inner);
        if let Some(last) = rounds.last_mut() {
            last.response_seq = self.response_of(last.request_seq);
        }
        rounds
    }

    /// Every later round of a multi round-trip call, by its request's seq (kept whole in
    /// memory: a call's rounds are few).
    pub(crate) fn rounds_snapshot(&self) -> Vec<(u64, CallRound)> {
        self.lock().rounds.iter().map(|(s, c)| (*s, *c)).collect()
    }
}

impl Inner {
    /// The seq of the request we sent that `frame` is (an outgoing request) or answers (an
    /// incoming response), if it is in the record.
    fn request_of(&self, frame: &Frame) -> Option<u64> {
        match (&frame.verdict, frame.direction) {
            (Verdict::Request { .. }, Direction::Out) => Some(frame.seq),
            (Verdict::Response { id: Some(id), .. }, Direction::In) => {
                let frames = &self.frames.entries;
                let end = frames.partition_point(|f| f.seq < frame.seq);
                frames
                    .range(..end)
                    .rev()
                    .find(|f| {
                        f.direction == Direction::Out
                            && matches!(&f.verdict, Verdict::Request { id: i, .. } if i == id)
                    })
                    .map(|f| f.seq)
            }
            _ => None,
        }
    }

    /// The seq of the first response to our request frame `request_seq`, once it came.
    fn response_of(&self, request_seq: u64) -> Option<u64> {
        let request = self.frame_at(request_seq)?;
        let Verdict::Request { id, .. } = &request.verdict else {
            return None;
        };
        let frames = &self.frames.entries;
        let start = frames.partition_point(|f| f.seq <= request_seq);
        frames
            .range(start..)
            .find(|f| {
                f.direction == Direction::In
                    && matches!(&f.verdict, Verdict::Response { id: Some(i), .. } if i == id)
            })
            .map(|f| f.seq)
    }

    /// Links an outgoing request to the round announced for its id, and records the link.
    pub(super) fn link_round(&mut self, frame: &Frame) {
        let (Direction::Out, Verdict::Request { id, .. }) = (frame.direction, &frame.verdict)
        else {
            return;
        };
        let Some(call) = self.awaited_rounds.remove(id) else {
            return;
        };
        self.rounds.insert(frame.seq, call);
        self.write(RecordLine::Round(RoundRecord {
            seq: frame.seq,
            call,
        }));
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::broadcast;

    use super::*;

    #[test]
    fn a_request_announced_as_a_round_is_linked_and_the_link_is_recorded() {
        let (tx, _rx) = broadcast::channel(16);
        let traffic = Traffic::new(tx);
        let dir = std::env::temp_dir().join(format!("periscope-rounds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        traffic
            .record_to(&path, serde_json::json!({"command": "x"}))
            .unwrap();
        let out = |t: &str| traffic.append_frame(Direction::Out, t.as_bytes().to_vec(), None);
        let first = out(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#);
        let asking = traffic.append_frame(
            Direction::In,
            br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#.to_vec(),
            None,
        );
        traffic.expect_round(&RequestId::Number(2), asking.seq);
        let again = out(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#);
        let call = traffic.round_of(again.seq).unwrap();
        assert_eq!(
            call,
            CallRound {
                first_seq: first.seq,
                round: 2,
                asked_by: asking.seq
            }
        );
        assert_eq!(traffic.call_of(first.seq).len(), 2);
        traffic.flush().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(
            last,
            serde_json::json!({"type": "round", "seq": again.seq, "first_seq": first.seq,
                "round": 2, "asked_by": asking.seq})
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
