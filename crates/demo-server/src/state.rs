//! What one MCP session of the demo server remembers between requests: the bonus toggle,
//! subscriptions, the log level, elicitation ids, whether the client went away. It sits
//! below the handler and the tools, which all read it, so neither imports the other for it.

use std::{
    collections::BTreeSet,
    sync::{
        Mutex, PoisonError,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{SystemTime, UNIX_EPOCH},
};

use rmcp::model::LoggingLevel;
use tokio_util::sync::CancellationToken;

/// Per-session state shared by all requests of one connection.
#[derive(Debug, Default)]
pub struct DemoState {
    bonus: AtomicBool,
    subscriptions: Mutex<BTreeSet<String>>,
    log_level: Mutex<Option<LoggingLevel>>,
    elicitations: AtomicU64,
    client_gone: CancellationToken,
    /// Set once `needs_authorization`'s URL elicitation completed.
    authorized: AtomicBool,
    /// Sums the calculator app logged with `calculator_log`.
    calculator_logs: AtomicU64,
}

impl DemoState {
    /// Whether the bonus tool, resource and prompt are listed.
    pub fn bonus(&self) -> bool {
        self.bonus.load(Ordering::SeqCst)
    }

    /// Flips the bonus items in or out; returns whether they are now present.
    pub fn toggle_bonus(&self) -> bool {
        !self.bonus.fetch_xor(true, Ordering::SeqCst)
    }

    /// The minimum level set by `logging/setLevel`; `None` means "send all".
    pub fn log_level(&self) -> Option<LoggingLevel> {
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub fn set_log_level(&self, level: LoggingLevel) {
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// Whether the client subscribed to `uri`.
    pub fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(uri)
    }

    pub fn subscribe(&self, uri: String) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(uri)
    }

    pub fn unsubscribe(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(uri)
    }

    /// Cancelled once the transport knows the client cannot send anything
    /// more (stdin closed); tools then stop waiting for client replies.
    pub fn client_gone(&self) -> &CancellationToken {
        &self.client_gone
    }

    pub fn authorized(&self) -> bool {
        self.authorized.load(Ordering::SeqCst)
    }

    pub fn set_authorized(&self) {
        self.authorized.store(true, Ordering::SeqCst);
    }

    /// Counts one more `calculator_log` call; returns how many there were.
    pub fn log_sum(&self) -> u64 {
        self.calculator_logs.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// A fresh, unique id for a URL-mode elicitation.
    pub fn next_elicitation_id(&self) -> String {
        let n = self.elicitations.fetch_add(1, Ordering::SeqCst) + 1;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_nanos())
            .unwrap_or_default();
        format!("demo-{n}-{nanos:x}")
    }
}
