//! The MCP protocol revisions Periscope speaks, and the one it offers by default.

/// The stateful-era revisions (with the `initialize` handshake), oldest first.
pub const STATEFUL_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// What `initialize` offers unless the user picks another revision.
pub const LATEST_STATEFUL: &str = "2025-11-25";
