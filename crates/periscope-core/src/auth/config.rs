//! What the user configured for a server's sign-in.

/// What the user configured for a server's sign-in.
#[derive(Debug, Clone, Default)]
pub struct OAuthConfig {
    /// The MCP server's URL (the protected resource).
    pub server_url: String,
    /// Pre-registered client credentials the user entered.
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// A Client ID Metadata Document URL (used when the AS supports CIMD).
    pub client_metadata_url: Option<String>,
    /// `client_name` for dynamic registration.
    pub client_name: String,
    /// A pre-registered client's private key (PEM), for `private_key_jwt` client
    /// authentication (RFC 7523) where the server asks for it.
    pub private_key_pem: Option<String>,
    /// The key's JWS algorithm, e.g. "ES256" (the default).
    pub signing_algorithm: Option<String>,
    /// Enterprise-managed sign-in (SEP-990): an identity provider's ID token to exchange for
    /// an identity assertion grant, then a token at the authorization server.
    pub identity_assertion: Option<IdentityAssertion>,
}

/// What SEP-990's cross-app access needs from the user's identity provider.
#[derive(Debug, Clone, Default)]
pub struct IdentityAssertion {
    pub idp_token_endpoint: String,
    pub id_token: String,
    pub idp_client_id: Option<String>,
}
