//! Signing in to remote servers: the OAuth 2.1 authorization code flow with PKCE as the MCP
//! authorization spec describes it (RFC 9728 resource metadata, RFC 8414 / OpenID discovery
//! with the 2025-03-26 fallbacks and exact issuer checks, pre-registered / CIMD / dynamic client
//! registration bound to the issuer, RFC 8707 `resource`, scope selection and step-up, RFC 9207
//! `iss`), the extensions' grants (client credentials, cross-app access, workload identity),
//! DPoP-bound tokens (RFC 9449), tokens kept in a [`store::SecretStore`], and a step log a host
//! can show.
//!
//! The HTTP transport asks an [`Authorizer`] for a bearer token when a server answers 401 or
//! 403; [`OAuthClient`] is the authorizer that runs the flow. How the user's browser is
//! reached is the host's [`Browser`]: a loopback listener for people, a headless follower for
//! the conformance suite.

mod binding;
pub mod browser;
pub mod challenge;
mod client;
mod config;
mod discovery;
mod dpop;
mod flow;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod grants;
mod identity;
mod metadata;
mod oauth_http;
mod registration;
mod scopes;
pub mod store;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

pub use browser::{Browser, HeadlessBrowser, LoopbackBrowser};
pub use challenge::Challenge;
pub use client::OAuthClient;
pub use config::{IdentityAssertion, OAuthConfig, WorkloadAssertion};

/// Gives the HTTP transport bearer tokens.
#[async_trait]
pub trait Authorizer: Send + Sync {
    /// A token to send before any challenge (a stored one, refreshed if it is about to
    /// expire), if there is one.
    async fn current(&self) -> Option<String>;
    /// The server refused with `challenge`; returns a token to retry with, or why not.
    async fn authorize(&self, challenge: &Challenge) -> Result<String, SignInError>;
    /// The headers that carry `token` on one HTTP request (`method` to `url`), as (lowercase
    /// name, value). A bearer token: `authorization: Bearer …`. A DPoP-bound token (RFC 9449
    /// §7.1): `authorization: DPoP …` and a `dpop` proof made for this very request, so this
    /// is called for every request, never cached.
    fn present(&self, token: &str, method: &str, url: &str) -> Vec<(String, String)> {
        let _ = (method, url);
        vec![bearer(token)]
    }
    /// A response from `url` carried a `DPoP-Nonce` header (RFC 9449 §8, §9: a server may hand
    /// out a new nonce on any response); the next proof to that server carries it.
    fn remember_dpop_nonce(&self, url: &str, nonce: &str) {
        let _ = (url, nonce);
    }
    /// The steps of the last sign-in, for the session's record (which redacts them again).
    fn steps(&self) -> Vec<AuthStep> {
        Vec::new()
    }
}

/// A sign-in's steps are record entries too (record files keep them): their shapes live in
/// `record`, so the record need not import the auth code.
pub use crate::record::{AuthStep, StepOutcome};

/// `authorization: Bearer <token>` (RFC 6750 §2.1).
pub fn bearer(token: &str) -> (String, String) {
    ("authorization".into(), format!("Bearer {token}"))
}

/// Why a sign-in gave no token: the words for the user, and the URL refused on the way, if
/// that is what stopped it (the session flags it on the exchange that was refused).
#[derive(Debug, Clone, PartialEq)]
pub struct SignInError {
    pub message: String,
    pub refused: Option<crate::net_guard::RefusedUrl>,
}

impl std::fmt::Display for SignInError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for SignInError {
    fn from(message: String) -> SignInError {
        SignInError {
            message,
            refused: None,
        }
    }
}

impl From<&str> for SignInError {
    fn from(message: &str) -> SignInError {
        message.to_string().into()
    }
}

/// The token a sign-in produced, as the OAuth view shows it: values masked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TokenSummary {
    pub issuer: String,
    pub scope: Option<String>,
    /// Unix seconds.
    pub expires_at: Option<u64>,
    pub has_refresh_token: bool,
    /// The first and last characters of the access token, the rest masked.
    pub access_token_masked: String,
    pub client_id: String,
    /// How the client identified itself: "pre-registered", "client ID metadata document",
    /// "dynamic registration", "stored registration".
    pub client_source: String,
}

/// What the OAuth view shows for a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AuthReport {
    pub steps: Vec<AuthStep>,
    pub token: Option<TokenSummary>,
    pub store: store::StoreBackend,
    /// Why the OS keychain is not used, when it is not.
    pub store_note: Option<String>,
}

/// `abcd…wxyz`: enough to tell tokens apart, not enough to use one.
pub fn mask(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() <= 12 {
        return "•".repeat(chars.len().max(4));
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masking_keeps_only_the_ends() {
        assert_eq!(mask("abcdefghijklmnopqrstuvwxyz"), "abcd…wxyz");
        assert_eq!(mask("short"), "•••••");
    }
}
