//! Fixtures for the session's unit tests: a small `sh` script as the server.

use std::time::Duration;

use serde_json::Value;

use super::{Session, SessionOptions};
use crate::config::StdioTarget;
use crate::transport::stdio::StdioOptions;
use crate::wire::Direction;

/// A session with `sh -c script` as its server (no handshake). `cat >/dev/null` never answers.
pub(crate) fn sh_session(script: &str) -> Session {
    sh_session_with(script, SessionOptions::default())
}

pub(crate) fn sh_session_with(script: &str, mut options: SessionOptions) -> Session {
    options.stdio = StdioOptions {
        shutdown_grace: Duration::from_millis(200),
    };
    Session::spawn_stdio(&StdioTarget::new("sh", ["-c", script]), options).unwrap()
}

/// What Periscope sent, as JSON, in order.
pub(crate) fn sent(session: &Session) -> Vec<Value> {
    session
        .traffic()
        .frames()
        .iter()
        .filter(|f| f.direction == Direction::Out)
        .map(|f| serde_json::from_slice(&f.bytes).unwrap_or(Value::Null))
        .collect()
}
