//! What is kept for one (server, issuer) pair, and how it shows in `Debug`: never a secret.

use std::fmt;

use serde::{Deserialize, Serialize};

pub(super) const REDACTED: &str = "[redacted]";

/// What is kept for one (server, issuer) pair.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StoredCredentials {
    pub issuer: String,
    pub server_url: String,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub access_token: Option<String>,
    pub refresh_token: Option<String>,
    /// Unix seconds.
    pub expires_at: Option<u64>,
    pub scope: Option<String>,
    /// The access token's `token_type` when it is not a bearer token: "DPoP" for a token bound
    /// to `dpop_key` (RFC 9449).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_type: Option<String>,
    /// The private key a DPoP-bound token (and its refresh token) is bound to, as a base64url
    /// PKCS#8 document: without it the tokens are of no use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_key: Option<String>,
}

impl StoredCredentials {
    /// The secret values held, for scrubbing them out of platform messages.
    pub(super) fn secrets(&self) -> impl Iterator<Item = &str> {
        [
            &self.client_secret,
            &self.access_token,
            &self.refresh_token,
            &self.dpop_key,
        ]
        .into_iter()
        .filter_map(|s| s.as_deref())
        .filter(|s| !s.is_empty())
    }
}

/// Shows `Some("[redacted]")` for a present secret, `None` for an absent one.
fn redact(secret: &Option<String>) -> Option<&'static str> {
    secret.as_ref().map(|_| REDACTED)
}

impl fmt::Debug for StoredCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoredCredentials")
            .field("issuer", &self.issuer)
            .field("server_url", &self.server_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &redact(&self.client_secret))
            .field("access_token", &redact(&self.access_token))
            .field("refresh_token", &redact(&self.refresh_token))
            .field("expires_at", &self.expires_at)
            .field("scope", &self.scope)
            .field("token_type", &self.token_type)
            .field("dpop_key", &redact(&self.dpop_key))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::store::test_support::{assert_no_secret, creds};

    #[test]
    fn debug_output_redacts_secrets() {
        let c = creds("https://s", "https://i");
        let debug = format!("{c:?}");
        let pretty = format!("{c:#?}");
        assert_no_secret(&debug);
        assert_no_secret(&pretty);
        assert!(debug.contains("[redacted]"));
        assert!(debug.contains("client-123") && debug.contains("https://i"));
        // Absent secrets show as None, not as redacted.
        let empty = format!("{:?}", StoredCredentials::default());
        assert!(!empty.contains("[redacted]"));
    }
}
