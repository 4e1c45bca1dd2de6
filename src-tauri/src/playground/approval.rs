//! The user's answer to each tool call a model makes in the playground, asked before the call
//! runs: the turn waits on a one-shot channel per call until the UI answers (approve once,
//! always for this tool, reject) or the turn is stopped.

use periscope_core::vocabulary::Problem;
use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use periscope_core::model::agent::{Approval, Approver, ToolCall};
use tokio::sync::oneshot;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The calls waiting for the user, by (conversation, the model's call id).
#[derive(Default)]
pub struct Approvals {
    waiting: Mutex<HashMap<(String, String), oneshot::Sender<Approval>>>,
}

impl Approvals {
    fn wait(&self, conversation: &str, call_id: &str) -> oneshot::Receiver<Approval> {
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert((conversation.into(), call_id.into()), tx);
        rx
    }

    /// The user's answer to a waiting call.
    pub fn answer(
        &self,
        conversation: &str,
        call_id: &str,
        approval: Approval,
    ) -> Result<(), Problem> {
        if approval == Approval::Remembered {
            return Err(Problem::invalid(
                periscope_core::vocabulary::problem::Field::Approval,
            ));
        }
        let tx = lock(&self.waiting)
            .remove(&(conversation.to_string(), call_id.to_string()))
            .ok_or(Problem::NoLongerWaiting {
                what: periscope_core::vocabulary::problem::Waiting::ToolCall,
            })?;
        tx.send(approval).map_err(|_| Problem::NoLongerWaiting {
            what: periscope_core::vocabulary::problem::Waiting::Turn,
        })
    }

    /// Drops the waits of a conversation (its turn is stopped): each ends as a rejection.
    pub fn forget_conversation(&self, conversation: &str) {
        lock(&self.waiting).retain(|(c, _), _| c != conversation);
    }
}

/// Asks through the UI: `show` tells it a call waits (the call is already on screen, from the
/// turn's `ToolCall` event, with its arguments).
pub struct AskTheUser<'a, F: Fn(&ToolCall) + Send + Sync> {
    pub approvals: &'a Approvals,
    pub conversation: String,
    pub show: F,
}

#[async_trait]
impl<F: Fn(&ToolCall) + Send + Sync> Approver for AskTheUser<'_, F> {
    async fn approve(&self, call: &ToolCall) -> Approval {
        let rx = self.approvals.wait(&self.conversation, &call.id);
        (self.show)(call);
        // A wait that ends without an answer (the turn stopped) runs nothing.
        rx.await.unwrap_or(Approval::Reject)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn a_call_waits_for_the_users_answer_and_a_stopped_turn_rejects() {
        let approvals = Approvals::default();
        let shown = Mutex::new(Vec::new());
        let asker = AskTheUser {
            approvals: &approvals,
            conversation: "chat-1".into(),
            show: |c: &ToolCall| lock(&shown).push(c.id.clone()),
        };
        let call = ToolCall {
            id: "call-1".into(),
            name: "add".into(),
            input: json!({"a": 2, "b": 3}),
        };
        let (approval, ()) = tokio::join!(asker.approve(&call), async {
            while lock(&shown).is_empty() {
                tokio::task::yield_now().await;
            }
            approvals
                .answer("chat-1", "call-1", Approval::AlwaysThisTool)
                .unwrap();
        });
        assert_eq!(approval, Approval::AlwaysThisTool);
        assert!(
            approvals
                .answer("chat-1", "call-1", Approval::Once)
                .is_err()
        );
        let (approval, ()) = tokio::join!(asker.approve(&call), async {
            while lock(&shown).len() < 2 {
                tokio::task::yield_now().await;
            }
            approvals.forget_conversation("chat-1");
        });
        assert_eq!(approval, Approval::Reject);
    }
}
