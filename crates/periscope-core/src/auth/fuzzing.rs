//! Entry points for the fuzz targets (fuzz/, docs/fuzzing.md) into discovery's reading of what
//! a resource server and an authorization server publish, without a network. Compiled only with
//! the `fuzzing` feature, which only the fuzz crate turns on.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::discovery::{IssuerSource, resource_matches, strings};
use super::{HeadlessBrowser, OAuthClient, OAuthConfig};
use crate::net_guard::{NetGuard, UrlRole};

/// Runs discovery's (async) checks to completion. They never touch the network here: with no
/// MCP server URL the guard resolves nothing, and checks names and literal addresses only.
fn block_on<T>(work: impl Future<Output = T>) -> T {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a current-thread runtime starts")
        })
        .block_on(work)
}

/// What the sign-in takes from an authorization server's metadata document.
#[derive(Debug)]
pub struct AsMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub code_challenge_methods: Option<Vec<String>>,
    pub client_credentials_only: bool,
}

/// A metadata body as discovery's GET takes it: a JSON object, else nothing.
pub fn json_object(body: &[u8]) -> Option<Value> {
    serde_json::from_slice::<Value>(body)
        .ok()
        .filter(Value::is_object)
}

/// Does the protected resource metadata's `resource` name the server at `server_url`?
pub fn resource_names_server(resource: &str, server_url: &str) -> bool {
    resource_matches(resource, server_url)
}

/// The first authorization server protected resource metadata names, checked as discovery
/// checks it, and the scopes it lists.
pub fn protected_resource(
    server_url: &str,
    doc: &Value,
) -> Result<(String, Option<Vec<String>>), String> {
    let resource = doc.get("resource").and_then(Value::as_str).unwrap_or("");
    if !resource_matches(resource, server_url) {
        return Err(format!("its resource {resource:?} is not this server"));
    }
    let issuer = strings(doc.get("authorization_servers"))
        .and_then(|a| a.into_iter().next())
        .ok_or("it names no authorization server")?;
    // The guard of a sign-in whose server is unknown: only public https (or loopback http,
    // refused by address) passes; what the target checks is that nothing else does.
    let guard = NetGuard::new("", &[]);
    block_on(guard.check(UrlRole::AuthorizationServer, &issuer)).map_err(|r| r.to_string())?;
    Ok((issuer, strings(doc.get("scopes_supported"))))
}

/// Authorization server metadata for `issuer`, read by the sign-in's own reader.
pub fn authorization_server(issuer: &str, doc: &Value) -> Result<AsMetadata, String> {
    static CLIENT: OnceLock<OAuthClient> = OnceLock::new();
    let client = CLIENT.get_or_init(|| {
        OAuthClient::new(
            OAuthConfig::default(),
            Arc::new(HeadlessBrowser::new("http://127.0.0.1:1/callback")),
            None,
        )
    });
    let meta = block_on(client.read_meta(issuer, IssuerSource::Named, issuer, doc));
    // The step log would otherwise grow with every input.
    client.clear_steps();
    let meta = meta?;
    Ok(AsMetadata {
        client_credentials_only: meta.client_credentials_only(),
        issuer: meta.issuer,
        authorization_endpoint: meta.authorization_endpoint,
        token_endpoint: meta.token_endpoint,
        registration_endpoint: meta.registration_endpoint,
        code_challenge_methods: meta.code_challenge_methods,
    })
}
