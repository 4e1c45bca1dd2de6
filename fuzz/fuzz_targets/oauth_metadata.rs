//! OAuth discovery's reading of protected resource metadata (RFC 9728) and authorization server
//! metadata (RFC 8414) bodies (auth/discovery.rs, auth/metadata.rs through the `fuzzing` entry
//! points): any body, any URLs, no panic; what is accepted is safe to use (https endpoints, or
//! http on loopback only); a resource always names itself.
//!
//! The input: the MCP server's URL on the first line, the issuer on the second, then a body,
//! read both as protected resource metadata and as authorization server metadata.
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::auth::fuzzing::{
    authorization_server, json_object, protected_resource, resource_names_server,
};

/// https anywhere, http only to loopback: what the sign-in may talk to.
fn safe_endpoint(raw: &str) -> bool {
    let Ok(url) = url::Url::parse(raw) else {
        return false;
    };
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => {
            d.eq_ignore_ascii_case("localhost") || d.to_ascii_lowercase().ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    url.scheme() == "https" || (url.scheme() == "http" && loopback)
}

fuzz_target!(|bytes: &[u8]| {
    let mut parts = bytes.splitn(3, |&b| b == b'\n');
    let server_url = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let issuer = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let body = parts.next().unwrap_or_default();
    let parses = url::Url::parse(&server_url).is_ok();
    assert_eq!(
        resource_names_server(&server_url, &server_url),
        parses,
        "a server URL does not name itself"
    );
    let Some(doc) = json_object(body) else {
        return;
    };
    if let Ok((issuer, _scopes)) = protected_resource(&server_url, &doc) {
        assert!(parses);
        assert!(
            safe_endpoint(&issuer),
            "accepted the authorization server {issuer:?}"
        );
    }
    if let Ok(meta) = authorization_server(&issuer, &doc) {
        assert!(safe_endpoint(&meta.authorization_endpoint));
        assert!(safe_endpoint(&meta.token_endpoint));
        assert!(meta.code_challenge_methods.is_some());
        let _ = (
            meta.issuer,
            meta.registration_endpoint,
            meta.client_credentials_only,
        );
    }
});
