//! Signing in from the command line: the URL is printed (and opened in the browser unless
//! --no-browser), the redirect comes back to a loopback listener; tokens go to the same store
//! as the app's. For the conformance suite: headless, credentials from its context.

use std::sync::Arc;
use std::time::Duration;

use periscope_core::auth::browser::AuthorizationPrompt;
use periscope_core::auth::store::SecretStore;
use periscope_core::auth::{
    HeadlessBrowser, IdentityAssertion, LoopbackBrowser, OAuthClient, OAuthConfig,
    WorkloadAssertion,
};
use periscope_core::config::WorkloadTokenSource;
use serde_json::Value;

use crate::app_data::data_dir;
use crate::args::Cli;

/// `--workload-token-from-file` / `--workload-token-from-env`: where the workload identity
/// token is read at each sign-in.
fn workload_identity(cli: &Cli) -> Option<WorkloadAssertion> {
    let source = match (&cli.workload_token_from_file, &cli.workload_token_from_env) {
        (Some(path), _) => WorkloadTokenSource::File { path: path.clone() },
        (None, Some(name)) => WorkloadTokenSource::Env { name: name.clone() },
        (None, None) => return None,
    };
    Some(WorkloadAssertion::Source(source))
}

/// The store shared with the app: the OS keychain, else an owner-only file.
pub fn store() -> Arc<SecretStore> {
    // A test seam (`--features test-seams` only): tests keep their tokens out of the keychain.
    let force_file = cfg!(feature = "test-seams")
        && std::env::var_os("PERISCOPE_CREDENTIALS_FILE_ONLY").is_some();
    Arc::new(SecretStore::open(
        data_dir().join("credentials.json"),
        force_file,
    ))
}

pub fn for_cli(cli: &Cli, url: &str) -> Arc<OAuthClient> {
    let no_browser = cli.no_browser;
    let opener: periscope_core::auth::browser::Opener =
        Arc::new(move |prompt: AuthorizationPrompt| {
            Box::pin(async move {
                tell!(
                    "periscope: sign in at {} (scopes: {}):\n  {}",
                    prompt.auth_server_host,
                    prompt.scopes.as_deref().unwrap_or("none asked"),
                    prompt.url
                );
                if !no_browser {
                    crate::browser::open_url(&prompt.url)
                        .map_err(|e| {
                            format!("could not open the browser ({e}); open the URL above yourself")
                        })
                        .or_else(|e| {
                            tell!("periscope: {e}");
                            Ok::<(), String>(())
                        })?;
                }
                Ok(())
            })
        });
    let browser = Arc::new(LoopbackBrowser::new(opener, Duration::from_secs(300)));
    Arc::new(OAuthClient::new(
        OAuthConfig {
            server_url: url.to_string(),
            client_id: cli.client_id.clone(),
            client_secret: cli.client_secret.clone(),
            client_metadata_url: cli.client_metadata_url.clone(),
            client_name: "Periscope (CLI)".into(),
            dpop: cli.dpop.into(),
            workload_identity: workload_identity(cli),
            ..OAuthConfig::default()
        },
        browser,
        Some(store()),
    ))
}

/// The conformance suite's way: no browser, no store, the context's credentials (a client,
/// a private key, an IdP's ID token, a workload's JWT: `valid_jwt`), and its client metadata
/// document URL. DPoP as for anyone: when the authorization server offers it.
pub fn for_conformance(url: &str) -> Arc<OAuthClient> {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let field = |k: &str| context.get(k).and_then(Value::as_str).map(str::to_string);
    Arc::new(OAuthClient::new(
        OAuthConfig {
            server_url: url.to_string(),
            client_id: field("client_id"),
            client_secret: field("client_secret"),
            client_metadata_url: Some("https://conformance-test.local/client-metadata.json".into()),
            client_name: "Periscope conformance client".into(),
            private_key_pem: field("private_key_pem"),
            signing_algorithm: field("signing_algorithm"),
            identity_assertion: match (field("idp_token_endpoint"), field("idp_id_token")) {
                (Some(idp_token_endpoint), Some(id_token)) => Some(IdentityAssertion {
                    idp_token_endpoint,
                    id_token,
                    idp_client_id: field("idp_client_id"),
                }),
                _ => None,
            },
            workload_identity: field("valid_jwt").map(WorkloadAssertion::Value),
            ..OAuthConfig::default()
        },
        Arc::new(HeadlessBrowser::new("http://localhost:3000/callback")),
        None,
    ))
}
