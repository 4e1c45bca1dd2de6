//! Finding the authorization server: RFC 9728 protected resource metadata, then RFC 8414 /
//! OpenID discovery for its issuer, with the 2025-03-26 fallbacks when a server publishes
//! neither. Refuses metadata that names another resource and a server without PKCE S256.

use serde_json::Value;

use super::client::OAuthClient;
use super::endpoint::check_endpoint;
use super::metadata::AsMeta;
use super::{Challenge, StepOutcome};

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

impl OAuthClient {
    /// GET a JSON document; Ok(None) when it is not there (4xx, or not JSON).
    async fn get_json(&self, title: &str, url: &str) -> Result<Option<Value>, String> {
        let response = self
            .http
            .get(url)
            .header("accept", "application/json")
            .header("mcp-protocol-version", crate::revision::LATEST_STATEFUL)
            .send()
            .await;
        match response {
            Err(e) => {
                self.step(
                    StepOutcome::Warning,
                    title,
                    format!("not reachable: {e}"),
                    Some(format!("GET {url} → failed")),
                );
                Ok(None)
            }
            Ok(r) => {
                let status = r.status();
                let line = Some(format!("GET {url} → {}", status.as_u16()));
                if !status.is_success() {
                    self.step(StepOutcome::Warning, title, "not found here", line);
                    return Ok(None);
                }
                match r
                    .bytes()
                    .await
                    .ok()
                    .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                {
                    Some(v) if v.is_object() => {
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
            if let Some(doc) = self.get_json("Protected resource metadata", &url).await? {
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
                .get_json("Authorization server metadata", &candidate)
                .await?
            {
                return Ok(Some((doc, candidate)));
            }
        }
        Ok(None)
    }

    pub(super) fn read_meta(&self, issuer: &str, doc: &Value) -> Result<AsMeta, String> {
        let field = |k: &str| doc.get(k).and_then(Value::as_str).map(str::to_string);
        let doc_issuer = field("issuer").unwrap_or_else(|| issuer.to_string());
        if doc_issuer.trim_end_matches('/') != issuer.trim_end_matches('/') {
            self.step(
                StepOutcome::Warning,
                "Authorization server metadata",
                format!("the document's issuer {doc_issuer:?} differs from {issuer:?}; using the document's"),
                None,
            );
        }
        let authorization_endpoint = field("authorization_endpoint")
            .ok_or("the authorization server metadata has no authorization_endpoint")?;
        let token_endpoint = field("token_endpoint")
            .ok_or("the authorization server metadata has no token_endpoint")?;
        check_endpoint("authorization endpoint", &authorization_endpoint)?;
        check_endpoint("token endpoint", &token_endpoint)?;
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
            from_document: true,
        })
    }

    /// Finds the authorization server, and the scopes the resource metadata lists (for
    /// [`OAuthClient::choose_scopes`]).
    pub(super) async fn discover(
        &self,
        challenge: &Challenge,
    ) -> Result<(AsMeta, Option<Vec<String>>), String> {
        let server = url::Url::parse(&self.config.server_url).map_err(|e| e.to_string())?;
        let prm = self.protected_resource(challenge).await?;
        let (issuer, prm_scopes) = match &prm {
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
                (issuer, strings(doc.get("scopes_supported")))
            }
            None => {
                self.step(StepOutcome::Warning, "Protected resource metadata", "none found → 2025-03-26 behaviour: the server's origin is the authorization server", None);
                (origin(&server), None)
            }
        };
        check_endpoint("authorization server", &issuer)
            .map_err(|e| self.fail("Authorization server", e))?;
        let meta = match self.as_metadata(&issuer).await? {
            Some((doc, _)) => self
                .read_meta(&issuer, &doc)
                .map_err(|e| self.fail("Authorization server metadata", e))?,
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
        Ok((meta, prm_scopes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
