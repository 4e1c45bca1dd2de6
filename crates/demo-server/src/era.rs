//! Which protocol eras the server serves (`--eras legacy|modern|dual`).
//!
//! *Legacy* is the `initialize` handshake of revisions 2024-11-05 … 2025-11-25;
//! *modern* is revision 2026-07-28, where every request carries its version,
//! capabilities and client identity in `_meta` and there is no handshake. A
//! dual-era server picks the era per request from how the client opens
//! (spec: basic/versioning, "Backward Compatibility").

use std::borrow::Cow;

use clap::ValueEnum;
use rmcp::{RoleServer, model::ProtocolVersion, service::RequestContext};

/// The eras the server was started to serve.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Eras {
    /// Only the `initialize` era: `server/discover` is "method not found",
    /// exactly as before the dual-era work (the default for now).
    #[default]
    Legacy,
    /// Only 2026-07-28: `initialize` is refused with the supported versions.
    Modern,
    /// Both: `initialize` opens a legacy session, a request with modern
    /// `_meta` is served statelessly.
    Dual,
}

impl Eras {
    /// Whether requests carrying modern `_meta` get the modern features.
    pub fn serves_modern(self) -> bool {
        matches!(self, Self::Modern | Self::Dual)
    }

    /// Whether `initialize` opens a session.
    pub fn serves_legacy(self) -> bool {
        matches!(self, Self::Legacy | Self::Dual)
    }

    /// The versions `initialize` may agree to, `server/discover` advertises
    /// and per-request versions are checked against (-32022 otherwise).
    pub fn supported_versions(self) -> Cow<'static, [ProtocolVersion]> {
        match self {
            // Legacy keeps 2026-07-28 listed, as before: a discover probe
            // then reaches the handler and gets "method not found" rather
            // than a version error.
            Self::Legacy | Self::Dual => Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS),
            Self::Modern => Cow::Owned(vec![ProtocolVersion::V_2026_07_28]),
        }
    }
}

/// Whether `context` is a modern request: its version (from `_meta`, or the
/// session's negotiated one) has no `initialize` handshake.
pub fn is_modern_request(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
}
