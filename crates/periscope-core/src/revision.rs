//! The MCP protocol revisions Periscope speaks, and the one it offers by default.

/// The stateful-era revisions (with the `initialize` handshake), oldest first.
pub const STATEFUL_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// What `initialize` offers unless the user picks another revision.
pub const LATEST_STATEFUL: &str = "2025-11-25";

/// The modern revisions (no handshake: version, capabilities and identity on every request),
/// oldest first.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// What a modern request carries unless the server asks for another.
pub const LATEST_MODERN: &str = "2026-07-28";
