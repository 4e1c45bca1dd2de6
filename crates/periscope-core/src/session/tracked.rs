//! Calls a host follows by an id of its own choosing (the app's "call id"), so the user can
//! cancel a running call by that id. The registry lives with the session: an id is unique per
//! session, and forgotten as soon as the call ends, however it ends.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use tokio_util::sync::CancellationToken;

use super::Session;

/// Running calls by call id.
#[derive(Default)]
pub(super) struct Tracked {
    running: Mutex<HashMap<String, CancellationToken>>,
}

/// A call id that is still in use by a running call of the same session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a call with id {0} is already running")]
pub struct DuplicateCallId(pub String);

/// A running call's registration: its cancel token, and the id dropped from the registry when
/// this is dropped (the call ended, or its future was dropped).
pub struct TrackedCall<'a> {
    tracked: &'a Tracked,
    call_id: String,
    token: CancellationToken,
}

impl TrackedCall<'_> {
    /// The token to put in [`CallOptions::cancel`](super::CallOptions::cancel).
    pub fn token(&self) -> CancellationToken {
        self.token.clone()
    }
}

impl Drop for TrackedCall<'_> {
    fn drop(&mut self) {
        self.tracked.lock().remove(&self.call_id);
    }
}

impl Tracked {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn register(&self, call_id: String) -> Result<TrackedCall<'_>, DuplicateCallId> {
        let mut running = self.lock();
        if running.contains_key(&call_id) {
            return Err(DuplicateCallId(call_id));
        }
        let token = CancellationToken::new();
        running.insert(call_id.clone(), token.clone());
        Ok(TrackedCall {
            tracked: self,
            call_id,
            token,
        })
    }

    fn cancel(&self, call_id: &str) -> bool {
        match self.lock().get(call_id) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }
}

impl Session {
    /// Registers a call under `call_id` until the returned guard is dropped; refuses an id a
    /// running call of this session already holds.
    pub fn track_call(&self, call_id: String) -> Result<TrackedCall<'_>, DuplicateCallId> {
        self.shared.tracked.register(call_id)
    }

    /// Cancels the running call registered as `call_id` (it sends `notifications/cancelled`
    /// and ends); false when no such call is running (it ended, or never ran).
    pub fn cancel_call(&self, call_id: &str) -> bool {
        self.shared.tracked.cancel(call_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancel_reaches_a_registered_call_and_forgets_it_when_it_ends() {
        let tracked = Tracked::default();
        assert!(!tracked.cancel("nope"));
        let call = tracked.register("c1".into()).unwrap();
        let token = call.token();
        // Another session's registry does not know the id.
        assert!(!Tracked::default().cancel("c1"));
        assert!(!token.is_cancelled());
        assert!(tracked.cancel("c1"));
        assert!(token.is_cancelled());
        drop(call);
        assert!(!tracked.cancel("c1"));
    }

    #[test]
    fn a_running_id_is_refused_until_its_call_ends() {
        let tracked = Tracked::default();
        let call = tracked.register("c1".into()).unwrap();
        let refused = tracked.register("c1".into()).err().unwrap();
        assert_eq!(refused, DuplicateCallId("c1".into()));
        assert_eq!(refused.to_string(), "a call with id c1 is already running");
        // The refusal did not unregister the running call.
        assert!(tracked.cancel("c1"));
        drop(call);
        assert!(tracked.register("c1".into()).is_ok());
    }
}
