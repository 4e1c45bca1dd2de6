//! The sign-in itself: discovery, client identity, PKCE, the browser round trip, the code
//! exchange and refresh. Lenient with odd servers (a warning step), strict where security is
//! at stake (resource mismatch, no S256, wrong `state`, wrong `iss`, non-loopback `http:`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use oauth2::basic::BasicClient;
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge,
    RedirectUrl, RefreshToken, Scope, TokenResponse, TokenUrl,
};
use serde_json::{Value, json};

use super::browser::{AuthorizationPrompt, Browser};
use super::store::{SecretStore, StoreBackend, StoredCredentials};
use super::{AuthReport, AuthStep, Authorizer, Challenge, StepOutcome, TokenSummary, mask};
use crate::traffic::wall_now_us;

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

/// Authorization server metadata: the fields the flow uses, read leniently.
#[derive(Debug, Clone, Default)]
struct AsMeta {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    registration_endpoint: Option<String>,
    /// None: no metadata document was found (2025-03-26 default endpoints).
    code_challenge_methods: Option<Vec<String>>,
    token_auth_methods: Option<Vec<String>>,
    scopes_supported: Option<Vec<String>>,
    cimd_supported: bool,
    iss_parameter_supported: bool,
    grant_types: Option<Vec<String>>,
    from_document: bool,
}

impl AsMeta {
    /// A machine-to-machine authorization server: client credentials only, no browser step.
    fn client_credentials_only(&self) -> bool {
        self.grant_types.as_ref().is_some_and(|g| {
            g.iter().any(|x| x == "client_credentials")
                && !g.iter().any(|x| x == "authorization_code")
        })
    }
}

#[derive(Default)]
struct State {
    creds: Option<StoredCredentials>,
    meta: Option<AsMeta>,
    client_source: String,
    redirect_uris: Vec<String>,
    token_auth: Option<String>,
    loaded: bool,
}

/// Runs the MCP authorization flow for one server; an [`Authorizer`] for its HTTP transport.
pub struct OAuthClient {
    config: OAuthConfig,
    browser: Arc<dyn Browser>,
    store: Option<Arc<SecretStore>>,
    http: reqwest::Client,
    state: tokio::sync::Mutex<State>,
    steps: Mutex<Vec<AuthStep>>,
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => {
            d.eq_ignore_ascii_case("localhost") || d.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// https anywhere, http only for loopback: the rule for every authorization endpoint.
fn check_endpoint(what: &str, raw: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(raw).map_err(|e| format!("the {what} {raw:?} is not a URL: {e}"))?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(format!(
            "refusing the {what} {raw}: plain http is allowed only for loopback hosts"
        )),
        other => Err(format!(
            "refusing the {what} {raw}: scheme {other:?} is not http(s)"
        )),
    }
}

fn origin(url: &url::Url) -> String {
    url.origin().ascii_serialization()
}

/// Does the metadata's `resource` name this server (equal, or a path prefix of it)?
fn resource_matches(resource: &str, server: &str) -> bool {
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

fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v?.as_array().map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    })
}

fn union_scopes(a: Option<&str>, b: Option<&str>) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for s in a.into_iter().chain(b).flat_map(|s| s.split_whitespace()) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    (!out.is_empty()).then(|| out.join(" "))
}

impl OAuthClient {
    pub fn new(
        config: OAuthConfig,
        browser: Arc<dyn Browser>,
        store: Option<Arc<SecretStore>>,
    ) -> OAuthClient {
        OAuthClient {
            config,
            browser,
            store,
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(30))
                .build()
                .expect("an HTTP client builds"),
            state: tokio::sync::Mutex::new(State::default()),
            steps: Mutex::new(Vec::new()),
        }
    }

    fn step(
        &self,
        outcome: StepOutcome,
        title: &str,
        detail: impl Into<String>,
        http: Option<String>,
    ) {
        let step = AuthStep {
            wall_us: wall_now_us(),
            title: title.into(),
            detail: detail.into(),
            http,
            outcome,
        };
        tracing::debug!(title = %step.title, detail = %step.detail, "oauth step");
        self.steps
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(step);
    }

    fn fail(&self, title: &str, why: String) -> String {
        self.step(StepOutcome::Failed, title, why.clone(), None);
        why
    }

    /// The steps of the last sign-in and the token it produced.
    pub async fn report(&self) -> AuthReport {
        let state = self.state.lock().await;
        let token = state.creds.as_ref().and_then(|c| {
            Some(TokenSummary {
                issuer: c.issuer.clone(),
                scope: c.scope.clone(),
                expires_at: c.expires_at,
                has_refresh_token: c.refresh_token.is_some(),
                access_token_masked: mask(c.access_token.as_deref()?),
                client_id: c.client_id.clone().unwrap_or_default(),
                client_source: state.client_source.clone(),
            })
        });
        AuthReport {
            steps: self.steps.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            token,
            store: self
                .store
                .as_ref()
                .map_or(StoreBackend::File, |s| s.backend()),
            store_note: self
                .store
                .as_ref()
                .map_or(Some("tokens are kept in memory only".into()), |s| {
                    s.fallback_reason().map(str::to_string)
                }),
        }
    }

    /// Forgets the tokens (and the stored ones). The client registration is kept.
    pub async fn sign_out(&self) -> Result<(), String> {
        let mut state = self.state.lock().await;
        self.load(&mut state).await;
        if let Some(creds) = state.creds.as_mut() {
            creds.access_token = None;
            creds.refresh_token = None;
            creds.expires_at = None;
            creds.scope = None;
            if let Some(store) = &self.store {
                store.save(creds).map_err(|e| e.to_string())?;
            }
        }
        self.step(
            StepOutcome::Ok,
            "Signed out",
            "the tokens were deleted",
            None,
        );
        Ok(())
    }

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
    async fn as_metadata(&self, issuer: &str) -> Result<Option<(Value, String)>, String> {
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

    fn read_meta(&self, issuer: &str, doc: &Value) -> Result<AsMeta, String> {
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

    /// Finds the authorization server and the scopes to ask for.
    async fn discover(&self, challenge: &Challenge) -> Result<(AsMeta, Option<String>), String> {
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
        // Scopes: the challenge's, else the resource's scopes_supported, else none.
        let mut scope = match (&challenge.scope, &prm_scopes) {
            (Some(s), _) if !s.trim().is_empty() => {
                self.step(
                    StepOutcome::Ok,
                    "Scopes",
                    format!("from the challenge: {s}"),
                    None,
                );
                Some(s.clone())
            }
            (_, Some(list)) if !list.is_empty() => {
                let s = list.join(" ");
                self.step(
                    StepOutcome::Ok,
                    "Scopes",
                    format!("no scope in the challenge → the resource's scopes_supported: {s}"),
                    None,
                );
                Some(s)
            }
            _ => {
                self.step(
                    StepOutcome::Ok,
                    "Scopes",
                    "none in the challenge or the metadata → asking for no scope",
                    None,
                );
                None
            }
        };
        if scope.is_some()
            && meta
                .scopes_supported
                .as_ref()
                .is_some_and(|s| s.iter().any(|x| x == "offline_access"))
            && !scope
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .any(|s| s == "offline_access")
        {
            scope = union_scopes(scope.as_deref(), Some("offline_access"));
            self.step(StepOutcome::Ok, "Scopes", "the authorization server offers offline_access → asking for it too (a refresh token)", None);
        }
        Ok((meta, scope))
    }

    /// Who we are to this authorization server.
    async fn identify(
        &self,
        state: &mut State,
        meta: &AsMeta,
        redirect_uri: &str,
    ) -> Result<(), String> {
        if let Some(id) = &self.config.client_id {
            state.client_source = "pre-registered".into();
            let creds = state.creds.get_or_insert_with(StoredCredentials::default);
            creds.client_id = Some(id.clone());
            creds.client_secret = self.config.client_secret.clone();
            state.token_auth = Some(if self.config.client_secret.is_some() {
                pick_secret_method(meta)
            } else {
                "none".into()
            });
            self.step(
                StepOutcome::Ok,
                "Client",
                format!("pre-registered client ID {id}"),
                None,
            );
            return Ok(());
        }
        if let Some(creds) = &state.creds
            && creds.client_id.is_some()
            && creds.issuer == meta.issuer
            && state.redirect_uris.iter().any(|u| u == redirect_uri)
        {
            self.step(
                StepOutcome::Ok,
                "Client",
                "the registration from before",
                None,
            );
            return Ok(());
        }
        if meta.cimd_supported
            && let Some(url) = &self.config.client_metadata_url
        {
            state.client_source = "client ID metadata document".into();
            let creds = state.creds.get_or_insert_with(StoredCredentials::default);
            creds.client_id = Some(url.clone());
            creds.client_secret = None;
            state.token_auth = Some("none".into());
            self.step(
                StepOutcome::Ok,
                "Client",
                format!("the server supports client ID metadata documents → client_id is {url}"),
                None,
            );
            return Ok(());
        }
        let Some(endpoint) = meta.registration_endpoint.clone() else {
            return Err(self.fail(
                "Client",
                "the authorization server offers no dynamic registration and no client ID was entered: enter a pre-registered client ID (and secret) for this server".into(),
            ));
        };
        check_endpoint("registration endpoint", &endpoint)
            .map_err(|e| self.fail("Dynamic client registration", e))?;
        let method = match &meta.token_auth_methods {
            Some(list) if list.iter().any(|m| m == "none") => "none".to_string(),
            Some(list) => list
                .iter()
                .find(|m| *m == "client_secret_basic" || *m == "client_secret_post")
                .cloned()
                .unwrap_or_else(|| "client_secret_basic".into()),
            None => "none".into(),
        };
        let body = json!({
            "client_name": self.config.client_name,
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
            "application_type": "native",
        });
        let response = self
            .http
            .post(&endpoint)
            .header("content-type", "application/json")
            .body(serde_json::to_vec(&body).expect("JSON serializes"))
            .send()
            .await
            .map_err(|e| {
                self.fail(
                    "Dynamic client registration",
                    format!("POST {endpoint} failed: {e}"),
                )
            })?;
        let status = response.status();
        let line = Some(format!("POST {endpoint} → {}", status.as_u16()));
        let doc: Value = json_body(response).await;
        if !status.is_success() {
            let why = error_text(&doc);
            self.step(
                StepOutcome::Failed,
                "Dynamic client registration",
                format!("refused: {why}"),
                line,
            );
            return Err(format!(
                "dynamic client registration was refused (HTTP {status}) {why}"
            ));
        }
        let client_id = doc
            .get("client_id")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                self.fail(
                    "Dynamic client registration",
                    "the answer has no client_id".into(),
                )
            })?
            .to_string();
        let secret = doc
            .get("client_secret")
            .and_then(Value::as_str)
            .map(str::to_string);
        let granted_method = doc
            .get("token_endpoint_auth_method")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| {
                if secret.is_some() {
                    "client_secret_basic".into()
                } else {
                    "none".into()
                }
            });
        self.step(
            StepOutcome::Ok,
            "Dynamic client registration",
            format!("registered as {client_id}, token endpoint authentication {granted_method}"),
            line,
        );
        state.client_source = "dynamic registration".into();
        state.redirect_uris = vec![redirect_uri.to_string()];
        state.token_auth = Some(granted_method);
        let creds = state.creds.get_or_insert_with(StoredCredentials::default);
        creds.client_id = Some(client_id);
        creds.client_secret = secret;
        Ok(())
    }

    fn oauth_client(
        &self,
        state: &State,
        meta: &AsMeta,
        redirect_uri: Option<&str>,
    ) -> Result<OauthClient, String> {
        let creds = state.creds.as_ref().ok_or("no client identity")?;
        let mut client =
            BasicClient::new(ClientId::new(creds.client_id.clone().unwrap_or_default()))
                .set_auth_uri(
                    AuthUrl::new(meta.authorization_endpoint.clone()).map_err(|e| e.to_string())?,
                )
                .set_token_uri(
                    TokenUrl::new(meta.token_endpoint.clone()).map_err(|e| e.to_string())?,
                )
                .set_auth_type(match state.token_auth.as_deref() {
                    Some("client_secret_post") => AuthType::RequestBody,
                    _ => AuthType::BasicAuth,
                });
        if state.token_auth.as_deref() != Some("none")
            && let Some(secret) = &creds.client_secret
        {
            client = client.set_client_secret(ClientSecret::new(secret.clone()));
        }
        let redirect = redirect_uri.unwrap_or("http://127.0.0.1/callback");
        Ok(client
            .set_redirect_uri(RedirectUrl::new(redirect.to_string()).map_err(|e| e.to_string())?))
    }

    async fn store_tokens(
        &self,
        state: &mut State,
        meta: &AsMeta,
        token: &oauth2::basic::BasicTokenResponse,
        asked: Option<&str>,
    ) {
        let creds = state.creds.get_or_insert_with(StoredCredentials::default);
        creds.issuer = meta.issuer.clone();
        creds.server_url = self.config.server_url.clone();
        creds.access_token = Some(token.access_token().secret().clone());
        if let Some(refresh) = token.refresh_token() {
            creds.refresh_token = Some(refresh.secret().clone());
        }
        creds.expires_at = token.expires_in().map(|d| now_s() + d.as_secs());
        creds.scope = token
            .scopes()
            .map(|s| {
                s.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .or_else(|| asked.map(str::to_string));
        if let Some(store) = &self.store
            && let Err(e) = store.save(creds)
        {
            self.step(
                StepOutcome::Warning,
                "Token storage",
                format!("could not store the tokens: {e}; they are kept in memory"),
                None,
            );
        }
    }

    async fn refresh(&self, state: &mut State) -> Result<String, String> {
        let meta = match state.meta.clone() {
            Some(m) => m,
            None => {
                let issuer = state
                    .creds
                    .as_ref()
                    .map(|c| c.issuer.clone())
                    .unwrap_or_default();
                let (doc, _) = self
                    .as_metadata(&issuer)
                    .await?
                    .ok_or("no metadata for the stored issuer")?;
                let m = self.read_meta(&issuer, &doc)?;
                state.meta = Some(m.clone());
                m
            }
        };
        let refresh = state
            .creds
            .as_ref()
            .and_then(|c| c.refresh_token.clone())
            .ok_or("no refresh token")?;
        if state.token_auth.is_none() {
            state.token_auth = Some(
                if state
                    .creds
                    .as_ref()
                    .is_some_and(|c| c.client_secret.is_some())
                {
                    pick_secret_method(&meta)
                } else {
                    "none".into()
                },
            );
        }
        let client = self.oauth_client(state, &meta, None)?;
        let http = self.oauth_http();
        let token = client
            .exchange_refresh_token(&RefreshToken::new(refresh))
            .add_extra_param("resource", self.config.server_url.clone())
            .request_async(&http)
            .await
            .map_err(|e| {
                self.fail(
                    "Refresh",
                    format!(
                        "the token endpoint refused the refresh: {}",
                        describe_token_error(&e)
                    ),
                )
            })?;
        self.step(
            StepOutcome::Ok,
            "Refresh",
            "a new access token from the refresh token",
            Some(format!("POST {} → 200", meta.token_endpoint)),
        );
        self.store_tokens(state, &meta, &token, None).await;
        Ok(token.access_token().secret().clone())
    }

    fn oauth_http(&self) -> OauthHttp {
        OauthHttp(self.http.clone())
    }

    async fn sign_in(&self, state: &mut State, challenge: &Challenge) -> Result<String, String> {
        self.steps.lock().unwrap_or_else(|p| p.into_inner()).clear();
        self.step(
            StepOutcome::Ok,
            "Challenge",
            format!(
                "HTTP {}{}{}",
                challenge.status,
                challenge
                    .error
                    .as_deref()
                    .map(|e| format!(", error {e}"))
                    .unwrap_or_default(),
                challenge
                    .scope
                    .as_deref()
                    .map(|s| format!(", scope {s:?}"))
                    .unwrap_or_default()
            ),
            None,
        );
        let (meta, mut scope) = self.discover(challenge).await?;
        if challenge.is_insufficient_scope() {
            let granted = state.creds.as_ref().and_then(|c| c.scope.clone());
            scope = union_scopes(granted.as_deref(), scope.as_deref());
            self.step(
                StepOutcome::Ok,
                "Step-up",
                format!(
                    "the token lacks scope → asking again for {}",
                    scope.as_deref().unwrap_or("")
                ),
                None,
            );
        }
        if let Some(assertion) = self.config.identity_assertion.clone()
            && meta
                .grant_types
                .as_ref()
                .is_some_and(|g| g.iter().any(|x| x == JWT_BEARER))
        {
            return self.cross_app(state, &meta, scope, &assertion).await;
        }
        if meta.client_credentials_only()
            && self.config.client_id.is_some()
            && (self.config.client_secret.is_some() || self.config.private_key_pem.is_some())
        {
            return self.client_credentials(state, &meta, scope).await;
        }
        let redirect_uri = self
            .browser
            .redirect_uri()
            .await
            .map_err(|e| self.fail("Redirect", e))?;
        self.identify(state, &meta, &redirect_uri).await?;
        state.meta = Some(meta.clone());
        let client = self.oauth_client(state, &meta, Some(&redirect_uri))?;
        let (challenge_pkce, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(CsrfToken::new_random)
            .set_pkce_challenge(challenge_pkce)
            .add_extra_param("resource", self.config.server_url.clone());
        if let Some(s) = &scope {
            request = request.add_scopes(s.split_whitespace().map(|x| Scope::new(x.to_string())));
        }
        let (url, csrf) = request.url();
        let host = url.host_str().unwrap_or("").to_string();
        self.step(
            StepOutcome::Ok,
            "Authorization request",
            format!(
                "PKCE S256, state, resource {}; opening {host}",
                self.config.server_url
            ),
            Some(format!("GET {}", redact_url(url.as_str()))),
        );
        let query = self
            .browser
            .visit(&AuthorizationPrompt {
                auth_server_host: host,
                scopes: scope.clone(),
                url: url.to_string(),
            })
            .await
            .map_err(|e| self.fail("Authorization", e))?;
        let get = |k: &str| {
            query
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        if let Some(error) = get("error") {
            let description = get("error_description").unwrap_or_default();
            return Err(self.fail(
                "Authorization",
                format!("the authorization server said {error}: {description}"),
            ));
        }
        if get("state").as_deref() != Some(csrf.secret().as_str()) {
            return Err(self.fail("Authorization", "the redirect's state does not match the one sent: refusing the code (a forged or mixed-up redirect)".into()));
        }
        match get("iss") {
            Some(iss) if iss.trim_end_matches('/') != meta.issuer.trim_end_matches('/') => {
                return Err(self.fail("Authorization", format!("the redirect's iss {iss:?} is not the authorization server {:?}: refusing the code before redeeming it (mix-up attack)", meta.issuer)));
            }
            None if meta.iss_parameter_supported => {
                return Err(self.fail("Authorization", "the authorization server promises an iss parameter but the redirect has none: refusing the code".into()));
            }
            _ => {}
        }
        let code = get("code")
            .ok_or_else(|| self.fail("Authorization", "the redirect has no code".into()))?;
        self.step(
            StepOutcome::Ok,
            "Authorization",
            "the redirect came back: state matches, code received",
            None,
        );
        let http = self.oauth_http();
        let token = client
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(verifier)
            .add_extra_param("resource", self.config.server_url.clone())
            .request_async(&http)
            .await
            .map_err(|e| {
                self.fail(
                    "Token",
                    format!("the code exchange failed: {}", describe_token_error(&e)),
                )
            })?;
        self.step(
            StepOutcome::Ok,
            "Token",
            format!(
                "access token received{}{}",
                token
                    .expires_in()
                    .map(|d| format!(", expires in {} s", d.as_secs()))
                    .unwrap_or_default(),
                if token.refresh_token().is_some() {
                    ", with a refresh token"
                } else {
                    ""
                }
            ),
            Some(format!("POST {} → 200", meta.token_endpoint)),
        );
        self.store_tokens(state, &meta, &token, scope.as_deref())
            .await;
        Ok(token.access_token().secret().clone())
    }

    /// The client credentials grant (OAuth 2.1 §4.2, SEP-1046): a pre-registered confidential
    /// client and an authorization server that offers nothing else; no browser involved.
    async fn client_credentials(
        &self,
        state: &mut State,
        meta: &AsMeta,
        scope: Option<String>,
    ) -> Result<String, String> {
        self.identify(state, meta, "http://127.0.0.1/unused")
            .await?;
        state.meta = Some(meta.clone());
        let jwt = match &self.config.private_key_pem {
            Some(pem) => {
                state.token_auth = Some("none".into());
                Some(self.client_assertion(meta, pem)?)
            }
            None => None,
        };
        let client = self.oauth_client(state, meta, None)?;
        let mut request = client
            .exchange_client_credentials()
            .add_extra_param("resource", self.config.server_url.clone());
        if let Some(jwt) = jwt {
            request = request
                .add_extra_param(
                    "client_assertion_type",
                    "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                )
                .add_extra_param("client_assertion", jwt);
        }
        if let Some(s) = &scope {
            request = request.add_scopes(s.split_whitespace().map(|x| Scope::new(x.to_string())));
        }
        let http = self.oauth_http();
        let token = request.request_async(&http).await.map_err(|e| {
            self.fail(
                "Token",
                format!(
                    "the client credentials grant failed: {}",
                    describe_token_error(&e)
                ),
            )
        })?;
        self.step(
            StepOutcome::Ok,
            "Token",
            "client credentials grant: the server offers only machine-to-machine sign-in, and a client ID and secret were entered",
            Some(format!("POST {} → 200", meta.token_endpoint)),
        );
        self.store_tokens(state, meta, &token, scope.as_deref())
            .await;
        Ok(token.access_token().secret().clone())
    }

    /// A signed client assertion (RFC 7523 §2.2): iss = sub = the client ID, aud = the
    /// authorization server, five minutes of validity, a fresh jti.
    fn client_assertion(&self, meta: &AsMeta, pem: &str) -> Result<String, String> {
        let alg = self.config.signing_algorithm.as_deref().unwrap_or("ES256");
        let algorithm: jsonwebtoken::Algorithm = alg.parse().map_err(|_| {
            self.fail(
                "Client assertion",
                format!("unknown signing algorithm {alg:?}"),
            )
        })?;
        let key = match algorithm {
            jsonwebtoken::Algorithm::ES256 | jsonwebtoken::Algorithm::ES384 => {
                jsonwebtoken::EncodingKey::from_ec_pem(pem.as_bytes())
            }
            jsonwebtoken::Algorithm::EdDSA => {
                jsonwebtoken::EncodingKey::from_ed_pem(pem.as_bytes())
            }
            _ => jsonwebtoken::EncodingKey::from_rsa_pem(pem.as_bytes()),
        }
        .map_err(|e| {
            self.fail(
                "Client assertion",
                format!("the private key is not usable: {e}"),
            )
        })?;
        let now = now_s();
        let claims = json!({
            "iss": self.config.client_id,
            "sub": self.config.client_id,
            "aud": meta.issuer,
            "iat": now,
            "exp": now + 300,
            "jti": CsrfToken::new_random().secret(),
        });
        let jwt = jsonwebtoken::encode(&jsonwebtoken::Header::new(algorithm), &claims, &key)
            .map_err(|e| self.fail("Client assertion", format!("could not sign: {e}")))?;
        self.step(
            StepOutcome::Ok,
            "Client assertion",
            format!(
                "private_key_jwt signed with {alg} for audience {}",
                meta.issuer
            ),
            None,
        );
        Ok(jwt)
    }

    /// POSTs a form and reads a JSON answer; the step log gets the exchange, never the values.
    async fn post_form(
        &self,
        title: &str,
        url: &str,
        form: &[(&str, &str)],
        basic: Option<(&str, &str)>,
    ) -> Result<Value, String> {
        check_endpoint("token endpoint", url).map_err(|e| self.fail(title, e))?;
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let mut request = self
            .http
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(body);
        if let Some((id, secret)) = basic {
            request = request.basic_auth(id, Some(secret));
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.fail(title, format!("POST {url} failed: {e}")))?;
        let status = response.status();
        let doc: Value = json_body(response).await;
        let line = Some(format!("POST {url} → {}", status.as_u16()));
        if !status.is_success() {
            let why = error_text(&doc);
            self.step(StepOutcome::Failed, title, format!("refused: {why}"), line);
            return Err(format!("{title}: HTTP {status} {why}"));
        }
        self.step(StepOutcome::Ok, title, "answered", line);
        Ok(doc)
    }

    /// SEP-990 cross-app access: the IdP's ID token → an identity assertion JWT grant (RFC
    /// 8693 token exchange at the IdP) → an access token (RFC 7523 JWT bearer grant at the
    /// authorization server). No browser.
    async fn cross_app(
        &self,
        state: &mut State,
        meta: &AsMeta,
        scope: Option<String>,
        assertion: &IdentityAssertion,
    ) -> Result<String, String> {
        let client_id = self
            .config
            .client_id
            .clone()
            .ok_or_else(|| self.fail("Client", "cross-app access needs a client ID".into()))?;
        let mut form = vec![
            (
                "grant_type",
                "urn:ietf:params:oauth:grant-type:token-exchange",
            ),
            ("subject_token", assertion.id_token.as_str()),
            (
                "subject_token_type",
                "urn:ietf:params:oauth:token-type:id_token",
            ),
            (
                "requested_token_type",
                "urn:ietf:params:oauth:token-type:id-jag",
            ),
            ("audience", meta.issuer.as_str()),
            ("resource", self.config.server_url.as_str()),
        ];
        if let Some(id) = &assertion.idp_client_id {
            form.push(("client_id", id.as_str()));
        }
        if let Some(s) = &scope {
            form.push(("scope", s.as_str()));
        }
        let exchanged = self
            .post_form(
                "Identity assertion (token exchange at the IdP)",
                &assertion.idp_token_endpoint,
                &form,
                None,
            )
            .await?;
        let jag = exchanged
            .get("access_token")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                self.fail(
                    "Identity assertion",
                    "the IdP's answer has no access_token".into(),
                )
            })?
            .to_string();
        let mut form = vec![
            ("grant_type", JWT_BEARER),
            ("assertion", jag.as_str()),
            ("resource", self.config.server_url.as_str()),
        ];
        if let Some(s) = &scope {
            form.push(("scope", s.as_str()));
        }
        let secret = self.config.client_secret.clone().unwrap_or_default();
        let doc = self
            .post_form(
                "Token (JWT bearer grant)",
                &meta.token_endpoint,
                &form,
                Some((&client_id, &secret)),
            )
            .await?;
        let token: oauth2::basic::BasicTokenResponse = serde_json::from_value(doc)
            .map_err(|e| self.fail("Token", format!("the answer is not a token response: {e}")))?;
        state.client_source = "pre-registered".into();
        let creds = state.creds.get_or_insert_with(StoredCredentials::default);
        creds.client_id = Some(client_id);
        creds.client_secret = self.config.client_secret.clone();
        state.meta = Some(meta.clone());
        self.store_tokens(state, meta, &token, scope.as_deref())
            .await;
        Ok(token.access_token().secret().clone())
    }

    async fn load(&self, state: &mut State) {
        if state.loaded {
            return;
        }
        state.loaded = true;
        let Some(store) = &self.store else { return };
        let issuers = store.issuers(&self.config.server_url).unwrap_or_default();
        for issuer in issuers {
            if let Ok(Some(creds)) = store.load(&self.config.server_url, &issuer) {
                // A pre-registered client the user entered wins over a stored one.
                if self.config.client_id.is_none() || creds.client_id == self.config.client_id {
                    state.client_source = "stored registration".into();
                    state.creds = Some(creds);
                    break;
                }
            }
        }
    }
}

/// oauth2's HTTP hook over our reqwest (0.13) client, with a `Send` future.
struct OauthHttp(reqwest::Client);

impl<'c> oauth2::AsyncHttpClient<'c> for OauthHttp {
    type Error = oauth2::HttpClientError<reqwest::Error>;
    type Future = std::pin::Pin<
        Box<
            dyn std::future::Future<Output = Result<oauth2::HttpResponse, Self::Error>> + Send + 'c,
        >,
    >;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let response = self
                .0
                .request(parts.method, parts.uri.to_string())
                .headers(parts.headers)
                .body(body)
                .send()
                .await
                .map_err(Box::new)?;
            let mut builder = oauth2::http::Response::builder().status(response.status());
            for (k, v) in response.headers() {
                builder = builder.header(k, v);
            }
            let bytes = response.bytes().await.map_err(Box::new)?;
            Ok(builder.body(bytes.to_vec())?)
        })
    }
}

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

type OauthClient = oauth2::Client<
    oauth2::basic::BasicErrorResponse,
    oauth2::basic::BasicTokenResponse,
    oauth2::basic::BasicTokenIntrospectionResponse,
    oauth2::StandardRevocableToken,
    oauth2::basic::BasicRevocationErrorResponse,
    oauth2::EndpointSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointSet,
>;

/// A response body as JSON; `null` when it is not JSON (the caller says what was expected).
async fn json_body(response: reqwest::Response) -> Value {
    response
        .bytes()
        .await
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null)
}

/// The OAuth error of an error body (RFC 6749 §5.2): its description, else its code.
fn error_text(doc: &Value) -> &str {
    doc.get("error_description")
        .or(doc.get("error"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn pick_secret_method(meta: &AsMeta) -> String {
    match &meta.token_auth_methods {
        Some(list)
            if !list.iter().any(|m| m == "client_secret_basic")
                && list.iter().any(|m| m == "client_secret_post") =>
        {
            "client_secret_post".into()
        }
        _ => "client_secret_basic".into(),
    }
}

/// The authorization URL without what could be replayed (nothing there is a secret, but the
/// state and challenge are single-use; shown shortened).
fn redact_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            let pairs: Vec<(String, String)> = u
                .query_pairs()
                .map(|(k, v)| {
                    let v = if k == "state" || k == "code_challenge" {
                        "…".to_string()
                    } else {
                        v.into_owned()
                    };
                    (k.into_owned(), v)
                })
                .collect();
            u.query_pairs_mut().clear().extend_pairs(pairs);
            u.to_string()
        }
        Err(_) => "(not a URL)".into(),
    }
}

fn describe_token_error<RE: std::error::Error + 'static>(
    e: &oauth2::RequestTokenError<RE, oauth2::basic::BasicErrorResponse>,
) -> String {
    match e {
        oauth2::RequestTokenError::ServerResponse(r) => format!(
            "{}{}",
            r.error(),
            r.error_description()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        ),
        oauth2::RequestTokenError::Request(e) => format!("the request failed: {e}"),
        oauth2::RequestTokenError::Parse(e, _) => {
            format!("the answer is not a token response: {e}")
        }
        oauth2::RequestTokenError::Other(s) => s.clone(),
    }
}

#[async_trait]
impl Authorizer for OAuthClient {
    async fn current(&self) -> Option<String> {
        let mut state = self.state.lock().await;
        self.load(&mut state).await;
        let creds = state.creds.clone()?;
        let token = creds.access_token.clone()?;
        match creds.expires_at {
            Some(at) if at <= now_s() + 60 => {
                if creds.refresh_token.is_some() {
                    self.refresh(&mut state).await.ok()
                } else {
                    None
                }
            }
            _ => Some(token),
        }
    }

    async fn authorize(&self, challenge: &Challenge) -> Result<String, String> {
        let mut state = self.state.lock().await;
        self.load(&mut state).await;
        // A 401 with a refresh token in hand: try that first, quietly.
        if !challenge.is_insufficient_scope()
            && state
                .creds
                .as_ref()
                .is_some_and(|c| c.refresh_token.is_some())
            && let Ok(token) = self.refresh(&mut state).await
        {
            return Ok(token);
        }
        self.sign_in(&mut state, challenge).await
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

    #[test]
    fn endpoints_must_be_https_or_loopback_http() {
        assert!(check_endpoint("x", "https://as.example.com/token").is_ok());
        assert!(check_endpoint("x", "http://127.0.0.1:9/token").is_ok());
        assert!(check_endpoint("x", "http://localhost:9/token").is_ok());
        assert!(check_endpoint("x", "http://[::1]:9/token").is_ok());
        let refused = check_endpoint("x", "http://as.example.com/token").unwrap_err();
        assert!(refused.contains("only for loopback"), "{refused}");
        assert!(check_endpoint("x", "javascript:alert(1)").is_err());
    }

    #[test]
    fn scopes_unite_without_repeats() {
        assert_eq!(
            union_scopes(Some("a b"), Some("b c")).as_deref(),
            Some("a b c")
        );
        assert_eq!(union_scopes(None, None), None);
    }

    #[test]
    fn masking_keeps_only_the_ends() {
        assert_eq!(mask("abcdefghijklmnopqrstuvwxyz"), "abcd…wxyz");
        assert_eq!(mask("short"), "•••••");
    }
}
