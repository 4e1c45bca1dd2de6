//! What an authorization server's metadata says, as the sign-in uses it: read by `discovery`,
//! consulted by every later stage.

/// Authorization server metadata: the fields the flow uses, read leniently.
#[derive(Debug, Clone, Default)]
pub(super) struct AsMeta {
    pub(super) issuer: String,
    pub(super) authorization_endpoint: String,
    pub(super) token_endpoint: String,
    pub(super) registration_endpoint: Option<String>,
    /// None: no metadata document was found (2025-03-26 default endpoints).
    pub(super) code_challenge_methods: Option<Vec<String>>,
    pub(super) token_auth_methods: Option<Vec<String>>,
    pub(super) scopes_supported: Option<Vec<String>>,
    pub(super) cimd_supported: bool,
    pub(super) iss_parameter_supported: bool,
    pub(super) grant_types: Option<Vec<String>>,
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the server binds tokens to a key.
    pub(super) dpop_algs: Option<Vec<String>>,
    pub(super) from_document: bool,
}

impl AsMeta {
    /// A machine-to-machine authorization server: client credentials only, no browser step.
    pub(super) fn client_credentials_only(&self) -> bool {
        self.grant_types.as_ref().is_some_and(|g| {
            g.iter().any(|x| x == "client_credentials")
                && !g.iter().any(|x| x == "authorization_code")
        })
    }
}
