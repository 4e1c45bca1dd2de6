//! Raw sends: bytes the user typed go out exactly as given (flagged when they are not valid
//! JSON-RPC), and the responses to any requests among them are collected.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{Notify, oneshot};

use super::{Pending, Reply, Session};
use crate::record::GaveUp;
use crate::transport::SendError;
use crate::wire::{Frame, RequestId, Verdict};

/// A raw send's outcome: the frame as recorded and the responses to any requests it held.
#[derive(Debug)]
pub struct RawExchange {
    pub sent: Arc<Frame>,
    pub responses: Vec<Value>,
    /// The sequence numbers of `responses`' frames, in the same order.
    pub response_seqs: Vec<u64>,
    /// Request ids in the raw frame that got no response in time, or were already in use.
    pub unanswered: Vec<RequestId>,
}

impl Session {
    /// Sends bytes exactly as given. If they are not valid JSON-RPC they go out anyway, flagged.
    /// If they hold requests, waits up to `wait` for their responses.
    pub async fn send_raw(&self, bytes: Vec<u8>, wait: Duration) -> Result<RawExchange, SendError> {
        let s = &self.shared;
        let verdict = crate::wire::classify(&bytes);
        let ids: Vec<RequestId> = match &verdict {
            Verdict::Request { id, .. } => vec![id.clone()],
            Verdict::Batch { items } => items
                .iter()
                .filter_map(|v| match v {
                    Verdict::Request { id, .. } => Some(id.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut waiting = Vec::new();
        let mut unanswered = Vec::new();
        {
            let mut calls = s.lock_calls();
            for id in ids {
                if calls.pending.contains_key(&id) {
                    unanswered.push(id);
                    continue;
                }
                calls.finished.remove(&id);
                let (tx, rx) = oneshot::channel();
                calls.pending.insert(
                    id.clone(),
                    Pending {
                        method: "(raw)".into(),
                        sent_at: Instant::now(),
                        reply: tx,
                        progress: None,
                        progress_seen: Arc::new(Notify::new()),
                        progress_token: None,
                    },
                );
                waiting.push((id, rx));
            }
        }
        let sent = match s.send_frame(bytes, true, s.options.request_timeout).await {
            Ok(frame) => frame,
            Err(e) => {
                for (id, _) in &waiting {
                    s.forget(id, None);
                }
                return Err(e);
            }
        };
        let deadline = tokio::time::Instant::now() + wait;
        let mut responses = Vec::new();
        let mut response_seqs = Vec::new();
        for (id, rx) in waiting {
            match tokio::time::timeout_at(deadline, rx).await {
                Ok(Ok(Reply::Response { message, seq })) => {
                    responses.push(message);
                    response_seqs.push(seq);
                }
                _ => {
                    s.forget(&id, Some(GaveUp::TimedOut));
                    unanswered.push(id);
                }
            }
        }
        Ok(RawExchange {
            sent,
            responses,
            response_seqs,
            unanswered,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::test_support::sh_session;
    use super::*;
    use crate::record::Flag;

    #[tokio::test]
    async fn a_raw_send_is_recorded_byte_for_byte_and_flagged_when_invalid() {
        let session = sh_session("cat >/dev/null");
        let bytes = b"{\"jsonrpc\": \"2.0\",  \"method\": 7".to_vec();
        let exchange = session
            .send_raw(bytes.clone(), Duration::from_millis(10))
            .await
            .unwrap();
        assert_eq!(&exchange.sent.bytes[..], &bytes[..]);
        assert_eq!(session.traffic().frames()[0].bytes, exchange.sent.bytes);
        assert_eq!(
            session.traffic().flags_of(exchange.sent.seq),
            [Flag::InvalidUserFrame]
        );
        assert!(exchange.responses.is_empty());
        assert!(exchange.unanswered.is_empty());
        session.close().await;
    }

    #[tokio::test]
    async fn a_raw_request_collects_its_response() {
        let session = sh_session(
            r#"read line; printf '%s\n' '{"jsonrpc":"2.0","id":"r1","result":{"pong":1}}'; cat >/dev/null"#,
        );
        let bytes = br#"{"jsonrpc":"2.0","id":"r1","method":"ping"}"#.to_vec();
        let exchange = session
            .send_raw(bytes, Duration::from_secs(5))
            .await
            .unwrap();
        assert!(session.traffic().flags_of(exchange.sent.seq).is_empty());
        assert_eq!(
            exchange.responses,
            [json!({"jsonrpc": "2.0", "id": "r1", "result": {"pong": 1}})]
        );
        assert!(exchange.unanswered.is_empty());
        session.close().await;
    }

    #[tokio::test]
    async fn raw_requests_without_an_answer_in_time_are_named_unanswered() {
        let session = sh_session("cat >/dev/null");
        let bytes = br#"[{"jsonrpc":"2.0","id":5,"method":"a"},{"jsonrpc":"2.0","method":"n"}]"#;
        let exchange = session
            .send_raw(bytes.to_vec(), Duration::from_millis(30))
            .await
            .unwrap();
        assert_eq!(exchange.unanswered, [RequestId::Number(5)]);
        session.close().await;
    }
}
