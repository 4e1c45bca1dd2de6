//! Finding the authorization server: RFC 9728 protected resource metadata, then RFC 8414 /
//! OpenID discovery for its issuer, with the 2025-03-26 fallbacks when a server publishes
//! neither. Refuses metadata that names another resource, metadata for another issuer, a
//! server without PKCE S256, and any URL the net guard refuses, before fetching it.

use serde_json::Value;

use super::client::OAuthClient;
use super::metadata::AsMeta;
use super::oauth_http::{describe, read_capped};
use super::{Challenge, StepOutcome};
use crate::net_guard::{Refusal, RefusedUrl, UrlRole};

fn origin(url: &url::Url) -> String {
    url.origin().ascii_serialization()
}

/// Does the metadata's `resource` name this server (equal, or a path prefix of it)?
pub(super) fn resource_matches(resource: &str, server: &str) -> bool {
    let norm = |s: &str| -> Option<(String, String)> {
        let u = url::Url::parse(s).ok()?;
        let path = u.path().trim_end_matches('/').to_string();
        Some((origin(&u), path))
    };
    match (norm(resource), norm(server)) {
        (Some((ro, rp)), Some((so, sp))) => {
            ro == so && (sp == rp || rp.is_empty() || sp.starts_with(&format!("{rp}/")))
        }
        _ => false,
    }
}

pub(super) fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v?.as_array().map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    })
}

/// What discovery found for a sign-in.
pub(super) struct Discovered {
    pub(super) meta: AsMeta,
    /// The resource metadata's `scopes_supported`.
    pub(super) prm_scopes: Option<Vec<String>>,
    /// The resource metadata's `resource`, when there is resource metadata.
    pub(super) resource: Option<String>,
}

/// Where the issuer a metadata document must name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IssuerSource {
    /// Named by the resource metadata, or stored from an earlier sign-in: the document must
    /// name exactly it.
    Named,
    /// Only derived from the server's origin (2025-03-26, no resource metadata): nobody named
    /// one, so the document's own issuer is taken when it is on that origin.
    ServerOrigin,
}

impl OAuthClient {
    /// GET a JSON document; Ok(None) when it is not there (4xx, unreachable, or not JSON).
    /// Err when the guard refuses the URL (before the request, or its address when connecting)
    /// or the answer passes the body limit.
    async fn get_json(
        &self,
        title: &str,
        role: UrlRole,
        url: &str,
    ) -> Result<Option<Value>, String> {
        self.checked(title, role, url).await?;
        let response = self
            .http
            .get(url)
            .header("accept", "application/json")
            .header("mcp-protocol-version", crate::revision::LATEST_STATEFUL)
            .send()
            .await;
        let response = match response {
            Ok(r) => r,
            Err(e) => {
                if let Some(why) = self.refused_by_dns(title, role, url) {
                    return Err(why);
                }
                self.step(
                    StepOutcome::Warning,
                    title,
                    format!("not reachable: {}", describe(&e)),
                    Some(format!("GET {url} → failed")),
                );
                return Ok(None);
            }
        };
        let status = response.status();
        let line = Some(format!("GET {url} → {}", status.as_u16()));
        if !status.is_success() {
            self.step(StepOutcome::Warning, title, "not found here", line);
            return Ok(None);
        }
        let body = match read_capped(response).await {
            Ok(body) => body,
            Err(e) => {
                self.step(StepOutcome::Failed, title, e.to_string(), line);
                return Err(format!("{title}: GET {url}: {e}"));
            }
        };
        match serde_json::from_slice::<Value>(&body) {
            Ok(v) if v.is_object() => {
                self.step(StepOutcome::Ok, title, "found", line);
                Ok(Some(v))
            }
            _ => {
                self.step(
                    StepOutcome::Warning,
                    title,
                    "answered, but not with a JSON object",
                    line,
                );
                Ok(None)
            }
        }
    }

    /// RFC 9728: from the challenge's `resource_metadata`, else path-based, else root.
    async fn protected_resource(&self, challenge: &Challenge) -> Result<Option<Value>, String> {
        let server = url::Url::parse(&self.config.server_url).map_err(|e| e.to_string())?;
        let mut candidates = Vec::new();
        if let Some(url) = &challenge.resource_metadata {
            candidates.push(url.clone());
        } else {
            self.step(
                StepOutcome::Ok,
                "Protected resource metadata",
                "no resource_metadata in the challenge → trying the well-known locations",
                None,
            );
        }
        let path = server.path().trim_end_matches('/');
        if !path.is_empty() {
            candidates.push(format!(
                "{}/.well-known/oauth-protected-resource{path}",
                origin(&server)
            ));
        }
        candidates.push(format!(
            "{}/.well-known/oauth-protected-resource",
            origin(&server)
        ));
        for url in candidates {
            if let Some(doc) = self
                .get_json(
                    "Protected resource metadata",
                    UrlRole::ResourceMetadata,
                    &url,
                )
                .await?
            {
                return Ok(Some(doc));
            }
        }
        Ok(None)
    }

    /// RFC 8414 / OpenID discovery for an issuer, path-aware (never the root document for an
    /// issuer with a path).
    pub(super) async fn as_metadata(
        &self,
        issuer: &str,
    ) -> Result<Option<(Value, String)>, String> {
        let url = url::Url::parse(issuer).map_err(|e| format!("issuer {issuer:?}: {e}"))?;
        let base = origin(&url);
        let path = url.path().trim_end_matches('/');
        let candidates = if path.is_empty() {
            vec![
                format!("{base}/.well-known/oauth-authorization-server"),
                format!("{base}/.well-known/openid-configuration"),
            ]
        } else {
            vec![
                format!("{base}/.well-known/oauth-authorization-server{path}"),
                format!("{base}/.well-known/openid-configuration{path}"),
                format!("{base}{path}/.well-known/openid-configuration"),
            ]
        };
        for candidate in candidates {
            if let Some(doc) = self
                .get_json(
                    "Authorization server metadata",
                    UrlRole::AuthorizationServerMetadata,
                    &candidate,
                )
                .await?
            {
                return Ok(Some((doc, candidate)));
            }
        }
        Ok(None)
    }

    /// Reads the metadata document found at `doc_url` for `issuer`. Refused when the document
    /// is another issuer's (RFC 8414 §3.3, and the 2026-07-28 discovery rules: identical to the
    /// issuer the well-known URL was built from, by simple string comparison, so not even a
    /// trailing slash differs; for an issuer only derived from the server's origin, on that
    /// origin), and when an endpoint it names is refused by the guard.
    pub(super) async fn read_meta(
        &self,
        issuer: &str,
        source: IssuerSource,
        doc_url: &str,
        doc: &Value,
    ) -> Result<AsMeta, String> {
        let title = "Authorization server metadata";
        let field = |k: &str| doc.get(k).and_then(Value::as_str).map(str::to_string);
        // No normalization at all: a look-alike that only URL normalization would equate is
        // exactly what an attacker's document would try.
        let same = |named: &str| named == issuer;
        let on_server_origin = |named: &str| {
            url::Url::parse(named)
                .is_ok_and(|u| Some(origin(&u)) == url::Url::parse(issuer).ok().map(|i| origin(&i)))
        };
        let doc_issuer = match field("issuer") {
            Some(named) if same(&named) => named,
            Some(named) if source == IssuerSource::ServerOrigin && on_server_origin(&named) => {
                self.step(
                    StepOutcome::Ok,
                    title,
                    format!("no resource metadata named an issuer; the document's own, {named}, is on the server's origin"),
                    None,
                );
                named
            }
            document => {
                return Err(self.refuse(
                    title,
                    RefusedUrl::new(
                        UrlRole::AuthorizationServerMetadata,
                        doc_url,
                        Refusal::IssuerMismatch {
                            document,
                            expected: issuer.to_string(),
                        },
                    ),
                ));
            }
        };
        let authorization_endpoint = field("authorization_endpoint").ok_or_else(|| {
            self.fail(
                title,
                "the authorization server metadata has no authorization_endpoint".into(),
            )
        })?;
        let token_endpoint = field("token_endpoint").ok_or_else(|| {
            self.fail(
                title,
                "the authorization server metadata has no token_endpoint".into(),
            )
        })?;
        self.checked(
            title,
            UrlRole::AuthorizationEndpoint,
            &authorization_endpoint,
        )
        .await?;
        self.checked(title, UrlRole::TokenEndpoint, &token_endpoint)
            .await?;
        Ok(AsMeta {
            issuer: doc_issuer,
            authorization_endpoint,
            token_endpoint,
            registration_endpoint: field("registration_endpoint"),
            code_challenge_methods: strings(doc.get("code_challenge_methods_supported"))
                .or(Some(Vec::new())),
            token_auth_methods: strings(doc.get("token_endpoint_auth_methods_supported")),
            scopes_supported: strings(doc.get("scopes_supported")),
            cimd_supported: doc
                .get("client_id_metadata_document_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            iss_parameter_supported: doc
                .get("authorization_response_iss_parameter_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            grant_types: strings(doc.get("grant_types_supported")),
            dpop_algs: strings(doc.get("dpop_signing_alg_values_supported")),
            from_document: true,
        })
    }

    /// Finds the authorization server, the scopes the resource metadata lists (for
    /// [`OAuthClient::choose_scopes`]) and the resource identifier it publishes (sent as
    /// `resource` exactly as published: RFC 8707 / RFC 9728 identifiers are compared as
    /// strings, and a parser's added "/" would make it another one).
    pub(super) async fn discover(&self, challenge: &Challenge) -> Result<Discovered, String> {
        let server = url::Url::parse(&self.config.server_url).map_err(|e| e.to_string())?;
        let prm = self.protected_resource(challenge).await?;
        let (issuer, prm_scopes, resource) = match &prm {
            Some(doc) => {
                let resource = doc.get("resource").and_then(Value::as_str).unwrap_or("");
                if !resource_matches(resource, &self.config.server_url) {
                    return Err(self.fail(
                        "Protected resource metadata",
                        format!(
                            "its resource {resource:?} is not this server ({}): refusing to sign in, the metadata may be someone else's",
                            self.config.server_url
                        ),
                    ));
                }
                let issuer = strings(doc.get("authorization_servers"))
                    .and_then(|a| a.into_iter().next())
                    .ok_or_else(|| {
                        self.fail(
                            "Protected resource metadata",
                            "it names no authorization server".into(),
                        )
                    })?;
                self.step(
                    StepOutcome::Ok,
                    "Protected resource metadata",
                    format!("resource matches; authorization server {issuer}"),
                    None,
                );
                (
                    issuer,
                    strings(doc.get("scopes_supported")),
                    Some(resource.to_string()),
                )
            }
            None => {
                self.step(StepOutcome::Warning, "Protected resource metadata", "none found → 2025-03-26 behaviour: the server's origin is the authorization server", None);
                (origin(&server), None, None)
            }
        };
        self.checked(
            "Authorization server",
            UrlRole::AuthorizationServer,
            &issuer,
        )
        .await?;
        let meta = match self.as_metadata(&issuer).await? {
            Some((doc, doc_url)) => {
                let source = if prm.is_some() {
                    IssuerSource::Named
                } else {
                    IssuerSource::ServerOrigin
                };
                self.read_meta(&issuer, source, &doc_url, &doc).await?
            }
            None if prm.is_none() => {
                self.step(StepOutcome::Warning, "Authorization server metadata", "none found → the 2025-03-26 default endpoints /authorize, /token, /register at the server's origin", None);
                let base = origin(&server);
                AsMeta {
                    issuer: base.clone(),
                    authorization_endpoint: format!("{base}/authorize"),
                    token_endpoint: format!("{base}/token"),
                    registration_endpoint: Some(format!("{base}/register")),
                    ..AsMeta::default()
                }
            }
            None => {
                return Err(self.fail(
                    "Authorization server metadata",
                    format!("no metadata for {issuer} at any well-known location"),
                ));
            }
        };
        if meta.from_document
            && !meta
                .code_challenge_methods
                .as_ref()
                .is_some_and(|m| m.iter().any(|x| x == "S256"))
        {
            return Err(self.fail(
                "PKCE",
                "the authorization server does not advertise S256 in code_challenge_methods_supported: refusing to continue without PKCE".into(),
            ));
        }
        Ok(Discovered {
            meta,
            prm_scopes,
            resource,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::auth::{HeadlessBrowser, OAuthConfig};

    #[tokio::test]
    async fn metadata_must_name_the_expected_issuer() {
        let client = OAuthClient::new(
            OAuthConfig {
                server_url: "http://127.0.0.1:9/mcp".into(),
                ..OAuthConfig::default()
            },
            Arc::new(HeadlessBrowser::new("http://127.0.0.1:9/callback")),
            None,
        );
        let doc = |issuer: Option<&str>| {
            let mut d = json!({
                "authorization_endpoint": "http://127.0.0.1:9/authorize",
                "token_endpoint": "http://127.0.0.1:9/token",
            });
            if let Some(i) = issuer {
                d["issuer"] = json!(i);
            }
            d
        };
        let read = |issuer: Option<&'static str>, source| {
            let client = &client;
            let doc = doc(issuer);
            async move {
                client
                    .read_meta(
                        "http://127.0.0.1:9",
                        source,
                        "http://127.0.0.1:9/.well-known/oauth-authorization-server",
                        &doc,
                    )
                    .await
                    .map(|m| m.issuer)
            }
        };
        use IssuerSource::*;
        assert_eq!(
            read(Some("http://127.0.0.1:9"), Named).await.unwrap(),
            "http://127.0.0.1:9"
        );
        for (issuer, source) in [
            // Equal after normalization only: still another string, still refused.
            (Some("http://127.0.0.1:9/"), Named),
            (Some("HTTP://127.0.0.1:9"), Named),
            (Some("https://evil.example"), Named),
            (None, Named),
            (Some("http://127.0.0.1:9/oauth"), Named),
            (Some("http://127.0.0.1:10"), ServerOrigin),
        ] {
            let error = read(issuer, source).await.unwrap_err();
            assert!(error.contains("RFC 8414 §3.3"), "{issuer:?}: {error}");
        }
        // 2025-03-26 discovery: nobody named an issuer; the document's own on the origin is taken.
        assert_eq!(
            read(Some("http://127.0.0.1:9/oauth"), ServerOrigin)
                .await
                .unwrap(),
            "http://127.0.0.1:9/oauth"
        );
    }

    #[test]
    fn resource_matching_accepts_the_server_or_a_path_prefix_only() {
        let server = "http://localhost:3000/mcp";
        assert!(resource_matches("http://localhost:3000/mcp", server));
        assert!(resource_matches("http://localhost:3000/mcp/", server));
        assert!(resource_matches("http://localhost:3000", server));
        assert!(!resource_matches("https://evil.example.com/mcp", server));
        assert!(!resource_matches("http://localhost:3001/mcp", server));
        assert!(!resource_matches("http://localhost:3000/mc", server));
        assert!(!resource_matches("http://localhost:3000/mcp/other", server));
        assert!(!resource_matches("", server));
    }
}
