//! The bounds on what a server can make Periscope hold or wait for, in one place: every buffer
//! filled from the wire and every wait on a server has one (docs/security.md lists them).
//!
//! Over a size limit, a frame is kept in part with its true size and flagged, never dropped;
//! past a time limit, the wait ends with an error that says which limit it was.

use std::time::Duration;

/// Size and time limits of one session. The defaults suit a developer's machine; a host may
/// lower or raise any of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// One frame: a stdio line, an HTTP JSON body, one SSE event's data. Longer ones are
    /// recorded cut to this size, with their true size, and flagged.
    pub max_frame_bytes: usize,
    /// One stderr line; the rest of a longer line is counted, not kept.
    pub max_stderr_line_bytes: usize,
    /// The body of an HTTP error answer (4xx/5xx) read to quote it.
    pub max_error_body_bytes: usize,
    /// Frames queued for a stdio server's stdin while an earlier one is still being written.
    /// (A queued frame costs no memory of its own: it is the recorded frame, shared.)
    pub max_queued_frames: usize,
    /// Requests from the server (sampling, elicitation, roots, …) being answered at once; the
    /// excess is refused with a JSON-RPC error and flagged.
    pub max_server_requests_in_flight: usize,
    /// From an SSE event's first byte to its end: a stream that drips an event slower than this
    /// (slowloris) is cut. (An SSE stream answering a POST is also cut after a silence as long
    /// as the request's timeout: by then the request has been given up on.)
    pub sse_event_time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame_bytes: 64 * 1024 * 1024,
            max_stderr_line_bytes: 64 * 1024,
            max_error_body_bytes: 64 * 1024,
            max_queued_frames: 65_536,
            max_server_requests_in_flight: 64,
            sse_event_time: Duration::from_secs(60),
        }
    }
}

/// The OAuth and metadata answers (they come from servers the MCP server named).
/// The most of one OAuth or metadata answer Periscope reads: real documents are a few KiB; a
/// server sending more is cut off with an error, not read into memory whole.
pub const OAUTH_BODY_LIMIT: usize = 1024 * 1024;
/// How long one OAuth or metadata request may take, from connecting to the body's last byte.
pub const OAUTH_REQUEST_DEADLINE: Duration = Duration::from_secs(30);
/// How long connecting to an OAuth or metadata server may take.
pub const OAUTH_CONNECT_DEADLINE: Duration = Duration::from_secs(10);

/// How long an idle kept-alive HTTP connection stays in the pool. Below the 5 s that Node's
/// HTTP server (Express, the SDKs' servers, the conformance suite's mocks) keeps an idle
/// connection: a connection reused after the server's own timer fired is reset by the peer
/// as the request goes out, and the request fails though the server is fine. The default (90 s)
/// made that race reachable whenever two requests were over 5 s apart, as when a sign-in sits
/// between a 401 and its retry.
pub const HTTP_POOL_IDLE: Duration = Duration::from_secs(4);

/// A byte count as people read it: "512 B", "3.0 MB".
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if n < 1000 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A duration as people read it: "5 s", "1.5 s", "250 ms".
pub fn human_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations_read_as_people_write_them() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 * 1024 * 1024), "3.1 MB");
        assert_eq!(human_bytes(3_000_000), "3.0 MB");
        assert_eq!(human_bytes(1_000_000_000), "1.0 GB");
        assert_eq!(human_duration(Duration::from_secs(5)), "5 s");
        assert_eq!(human_duration(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(human_duration(Duration::from_millis(250)), "250 ms");
    }
}
