//! MCP Apps (the `io.modelcontextprotocol/ui` extension, ext-apps 2026-01-26): a tool names a
//! `ui://` resource holding an HTML page, which the host renders in a sandbox and talks to over
//! JSON-RPC (`postMessage`). The engine side, without any GUI: what a tool's and a resource's
//! `_meta.ui` say (`meta`), the content security policy built from a resource's declared
//! domains (`csp`), the page read from a `resources/read` result (`resource`), and the
//! per-view protocol state machine (`bridge`). Hosts relay bytes and run the bridge's actions.
//! docs/apps.md.

pub mod bridge;
pub mod csp;
pub mod meta;
pub mod resource;

use serde_json::{Value, json};

/// The extension's id in `capabilities.extensions`.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an app's HTML resource.
pub const APP_MIME: &str = "text/html;profile=mcp-app";
/// The host ↔ view protocol version Periscope speaks.
pub const APPS_PROTOCOL_VERSION: &str = "2026-01-26";

/// What Periscope declares under `capabilities.extensions[UI_EXTENSION]` (both eras: the
/// 2026-07-28 per-request client capabilities carry the same object). `mimeTypes` is required.
pub fn client_capability() -> Value {
    json!({"mimeTypes": [APP_MIME]})
}

/// A fresh view token: 128 random bits as hex, one origin per open view
/// (`periscope-app://<token>/`). From the system's random source (aws-lc-rs, already linked).
pub fn new_token() -> String {
    use aws_lc_rs::rand::{SecureRandom, SystemRandom};
    let mut bytes = [0u8; 16];
    SystemRandom::new()
        .fill(&mut bytes)
        .expect("the system random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_hex_digits_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
