//! What the user configured for a server's sign-in.

use crate::config::{DpopMode, OAuthSettings, WorkloadTokenSource};

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
    /// DPoP-bound tokens (RFC 9449): when the server offers them (the default), always, never.
    pub dpop: DpopMode,
    /// Workload identity federation (SEP-1933): the workload's JWT, presented in an RFC 7523
    /// JWT bearer grant instead of a browser sign-in.
    pub workload_identity: Option<WorkloadAssertion>,
}

impl OAuthConfig {
    /// The configuration a catalog entry's OAuth settings give for the server at `server_url`
    /// (the host adds the client secret from its secret store, and its `client_name`).
    pub fn from_settings(server_url: &str, settings: &OAuthSettings) -> OAuthConfig {
        OAuthConfig {
            server_url: server_url.to_string(),
            client_id: settings.client_id.clone(),
            client_metadata_url: settings.client_metadata_url.clone(),
            dpop: settings.dpop,
            workload_identity: settings
                .workload_identity
                .clone()
                .map(WorkloadAssertion::Source),
            ..OAuthConfig::default()
        }
    }
}

/// What SEP-990's cross-app access needs from the user's identity provider.
#[derive(Debug, Clone, Default)]
pub struct IdentityAssertion {
    pub idp_token_endpoint: String,
    pub id_token: String,
    pub idp_client_id: Option<String>,
}

/// The largest workload token read from a file or the environment (platform JWTs are a few
/// KiB).
const MAX_WORKLOAD_TOKEN: u64 = 64 * 1024;

/// The workload's identity token, or where to read it at each sign-in.
#[derive(Clone)]
pub enum WorkloadAssertion {
    /// The token itself (the conformance suite hands one over; a host that was given one).
    Value(String),
    Source(WorkloadTokenSource),
}

impl std::fmt::Debug for WorkloadAssertion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkloadAssertion::Value(_) => f.write_str("Value([redacted])"),
            WorkloadAssertion::Source(source) => write!(f, "Source({source:?})"),
        }
    }
}

impl WorkloadAssertion {
    /// Where the token comes from, in words (never the token).
    pub fn describe(&self) -> String {
        match self {
            WorkloadAssertion::Value(_) => "the workload token given".into(),
            WorkloadAssertion::Source(WorkloadTokenSource::File { path }) => {
                format!("the workload token in {path}")
            }
            WorkloadAssertion::Source(WorkloadTokenSource::Env { name }) => {
                format!("the workload token in ${name}")
            }
        }
    }

    /// The token, read now (surrounding whitespace trimmed: files often end with a newline).
    pub fn read(&self) -> Result<String, String> {
        let token = match self {
            WorkloadAssertion::Value(token) => token.clone(),
            WorkloadAssertion::Source(WorkloadTokenSource::File { path }) => {
                use std::io::Read;
                let file = std::fs::File::open(path)
                    .map_err(|e| format!("could not open {}: {e}", self.describe()))?;
                let mut text = String::new();
                file.take(MAX_WORKLOAD_TOKEN + 1)
                    .read_to_string(&mut text)
                    .map_err(|e| format!("could not read {}: {e}", self.describe()))?;
                if text.len() as u64 > MAX_WORKLOAD_TOKEN {
                    return Err(format!(
                        "{} is bigger than {} KiB: not a token",
                        self.describe(),
                        MAX_WORKLOAD_TOKEN / 1024
                    ));
                }
                text
            }
            WorkloadAssertion::Source(WorkloadTokenSource::Env { name }) => std::env::var(name)
                .map_err(|_| format!("{} is not set (or not UTF-8)", self.describe()))?,
        };
        let token = token.trim();
        if token.is_empty() {
            return Err(format!("{} is empty", self.describe()));
        }
        Ok(token.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workload_token_is_read_afresh_trimmed_and_bounded() {
        let dir = std::env::temp_dir().join(format!("periscope-wif-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("token");
        let source = WorkloadAssertion::Source(WorkloadTokenSource::File {
            path: path.display().to_string(),
        });
        assert!(source.read().unwrap_err().contains("could not open"));
        std::fs::write(&path, "eyJ.first.sig\n").unwrap();
        assert_eq!(source.read().unwrap(), "eyJ.first.sig");
        std::fs::write(&path, "eyJ.rotated.sig").unwrap();
        assert_eq!(source.read().unwrap(), "eyJ.rotated.sig");
        std::fs::write(&path, "  \n").unwrap();
        assert!(source.read().unwrap_err().contains("is empty"));
        std::fs::write(&path, vec![b'a'; MAX_WORKLOAD_TOKEN as usize + 1]).unwrap();
        assert!(source.read().unwrap_err().contains("bigger than"));
        std::fs::remove_dir_all(&dir).unwrap();
        let missing = WorkloadAssertion::Source(WorkloadTokenSource::Env {
            name: "PERISCOPE_TEST_NO_SUCH_VARIABLE".into(),
        });
        assert!(missing.read().unwrap_err().contains("is not set"));
        let given = WorkloadAssertion::Value("eyJ.secret.sig".into());
        assert!(!format!("{given:?}").contains("secret"));
    }

    #[test]
    fn settings_carry_over_to_the_sign_in() {
        let settings = OAuthSettings {
            client_id: Some("id".into()),
            dpop: DpopMode::Required,
            workload_identity: Some(WorkloadTokenSource::Env { name: "T".into() }),
            ..OAuthSettings::default()
        };
        let config = OAuthConfig::from_settings("https://mcp.example.com/mcp", &settings);
        assert_eq!(config.server_url, "https://mcp.example.com/mcp");
        assert_eq!(config.client_id.as_deref(), Some("id"));
        assert_eq!(config.dpop, DpopMode::Required);
        assert_eq!(
            config.workload_identity.unwrap().describe(),
            "the workload token in $T"
        );
    }
}
