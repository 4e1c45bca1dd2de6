//! OAuth protection for Streamable HTTP (`--http ADDR --oauth`): a small,
//! in-memory OAuth 2.1 authorization server on the MCP server's own origin, and
//! the bearer check in front of `/mcp`.
//!
//! - `GET /.well-known/oauth-protected-resource/mcp` (RFC 9728) names this
//!   origin as the authorization server (also served at the root
//!   `/.well-known/oauth-protected-resource`).
//! - `GET /.well-known/oauth-authorization-server` (RFC 8414).
//! - `POST /register`: dynamic client registration (RFC 7591).
//! - `GET /authorize`: authorization code + PKCE (S256 only), **auto-approved**
//!   (a demo: there is no login or consent page); answers with a `302` to the
//!   client's redirect URI carrying `code`, `state` and `iss` (RFC 9207).
//! - `POST /token`: `authorization_code` and `refresh_token` grants; refresh
//!   tokens rotate.
//!
//! `/mcp` then needs `Authorization: Bearer <access token>` on every request;
//! anything else gets `401` with a `WWW-Authenticate` challenge pointing at the
//! protected resource metadata. Tokens, codes and client secrets are random,
//! opaque and kept only as SHA-256 digests; they are never logged.

use std::{
    collections::HashMap,
    fmt,
    net::Ipv4Addr,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use axum::{
    Router,
    body::Bytes,
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, StatusCode, Uri, header},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::{get, post},
};
use base64::{
    Engine,
    engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD},
};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use url::{Host, Url, form_urlencoded};

use crate::endpoints::MCP_PATH;

/// Protected resource metadata of `/mcp` (RFC 9728, path-suffixed form).
pub const PROTECTED_RESOURCE_PATH: &str = "/.well-known/oauth-protected-resource/mcp";
/// The same document at the root well-known URI, for clients that try it.
const PROTECTED_RESOURCE_ROOT_PATH: &str = "/.well-known/oauth-protected-resource";
/// Authorization server metadata (RFC 8414).
pub const AUTHORIZATION_SERVER_PATH: &str = "/.well-known/oauth-authorization-server";
pub const AUTHORIZE_PATH: &str = "/authorize";
pub const TOKEN_PATH: &str = "/token";
pub const REGISTER_PATH: &str = "/register";

/// Default access token lifetime (`--token-ttl`).
pub const DEFAULT_TOKEN_TTL_SECS: u64 = 3600;
/// Default supported scopes (`--scopes`).
pub const DEFAULT_SCOPES: &str = "mcp:read mcp:write";
/// How long an authorization code may be exchanged.
const CODE_TTL: Duration = Duration::from_secs(60);
/// `resource_name` in the protected resource metadata.
const RESOURCE_NAME: &str = "Periscope demo server";

const GRANT_AUTHORIZATION_CODE: &str = "authorization_code";
const GRANT_REFRESH_TOKEN: &str = "refresh_token";

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

/// Settings of the OAuth mode.
#[derive(Debug, Clone)]
pub struct OAuthConfig {
    /// Lifetime of access tokens.
    pub token_ttl: Duration,
    /// The scopes this server supports (and grants by default).
    pub scopes: Scopes,
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self {
            token_ttl: Duration::from_secs(DEFAULT_TOKEN_TTL_SECS),
            scopes: Scopes::parse(DEFAULT_SCOPES).expect("valid default scopes"),
        }
    }
}

/// A non-empty, duplicate-free list of OAuth scope tokens (RFC 6749 §3.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scopes(Vec<String>);

impl Scopes {
    /// Parses a space-separated scope string.
    pub fn parse(value: &str) -> Result<Self, String> {
        let mut scopes: Vec<String> = Vec::new();
        for scope in value.split(' ').filter(|scope| !scope.is_empty()) {
            // scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
            let valid = scope
                .bytes()
                .all(|byte| matches!(byte, 0x21 | 0x23..=0x5B | 0x5D..=0x7E));
            if !valid {
                return Err(format!("invalid scope token {scope:?}"));
            }
            if !scopes.iter().any(|known| known == scope) {
                scopes.push(scope.to_string());
            }
        }
        if scopes.is_empty() {
            return Err("at least one scope is required".to_string());
        }
        Ok(Self(scopes))
    }

    /// Whether every scope of `other` is in `self`.
    fn contains_all(&self, other: &Scopes) -> bool {
        other.0.iter().all(|scope| self.0.contains(scope))
    }

    fn as_slice(&self) -> &[String] {
        &self.0
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(" "))
    }
}

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------

/// The authorization server and resource server state, shared by all routes.
#[derive(Clone)]
pub struct OAuth(Arc<Inner>);

struct Inner {
    token_ttl: Duration,
    scopes: Scopes,
    /// `http://HOST:PORT`: the issuer, and the origin of every endpoint.
    issuer: String,
    /// The MCP endpoint's URL: the only resource tokens are issued for.
    resource: String,
    /// URL of the protected resource metadata.
    resource_metadata: String,
    store: Mutex<Store>,
}

/// SHA-256 of a secret value: what the store keeps instead of the value.
type Fingerprint = [u8; 32];

/// Identifies the tokens descending from one authorization code.
type GrantId = u64;

#[derive(Default)]
struct Store {
    clients: HashMap<String, Client>,
    codes: HashMap<Fingerprint, AuthorizationCode>,
    /// Redeemed codes until they would have expired: a replay revokes the
    /// tokens issued for them (RFC 6749 §4.1.2).
    used_codes: HashMap<Fingerprint, (Instant, GrantId)>,
    access_tokens: HashMap<Fingerprint, AccessToken>,
    refresh_tokens: HashMap<Fingerprint, RefreshToken>,
    next_grant: GrantId,
}

#[derive(Debug, Clone)]
struct Client {
    id: String,
    secret: Option<Fingerprint>,
    auth_method: AuthMethod,
    redirect_uris: Vec<String>,
    grant_types: Vec<String>,
    /// Scopes the client registered for, if it named any.
    scope: Option<Scopes>,
}

impl Client {
    fn allows_refresh(&self) -> bool {
        self.grant_types
            .iter()
            .any(|grant| grant == GRANT_REFRESH_TOKEN)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AuthMethod {
    None,
    ClientSecretBasic,
    ClientSecretPost,
}

impl AuthMethod {
    const ALL: [AuthMethod; 3] = [Self::None, Self::ClientSecretBasic, Self::ClientSecretPost];

    fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::ClientSecretBasic => "client_secret_basic",
            Self::ClientSecretPost => "client_secret_post",
        }
    }

    fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|method| method.as_str() == value)
    }
}

struct AuthorizationCode {
    client_id: String,
    redirect_uri: String,
    code_challenge: String,
    scope: Scopes,
    resource: Option<String>,
    expires: Instant,
    grant: GrantId,
}

struct AccessToken {
    client_id: String,
    expires: Instant,
    grant: GrantId,
}

struct RefreshToken {
    client_id: String,
    /// The scope of the grant: a refresh may narrow it, never widen it.
    scope: Scopes,
    grant: GrantId,
}

impl Store {
    fn new_grant(&mut self) -> GrantId {
        self.next_grant += 1;
        self.next_grant
    }

    fn revoke_grant(&mut self, grant: GrantId) -> usize {
        let before = self.access_tokens.len() + self.refresh_tokens.len();
        self.access_tokens.retain(|_, token| token.grant != grant);
        self.refresh_tokens.retain(|_, token| token.grant != grant);
        before - self.access_tokens.len() - self.refresh_tokens.len()
    }

    fn prune(&mut self, now: Instant) {
        self.codes.retain(|_, code| code.expires > now);
        self.used_codes.retain(|_, (expires, _)| *expires > now);
        self.access_tokens.retain(|_, token| token.expires > now);
    }
}

impl OAuth {
    /// The OAuth state of a server whose origin is `origin`
    /// (`http://HOST:PORT`).
    pub fn new(config: OAuthConfig, origin: &str) -> Self {
        let issuer = origin.trim_end_matches('/').to_string();
        Self(Arc::new(Inner {
            token_ttl: config.token_ttl,
            scopes: config.scopes,
            resource: format!("{issuer}{MCP_PATH}"),
            resource_metadata: format!("{issuer}{PROTECTED_RESOURCE_PATH}"),
            issuer,
            store: Mutex::default(),
        }))
    }

    /// The authorization server's routes (metadata, registration, authorize,
    /// token). The bearer check on `/mcp` is [`require_bearer`].
    pub fn router(&self) -> Router {
        Router::new()
            .route(PROTECTED_RESOURCE_PATH, get(protected_resource_metadata))
            .route(
                PROTECTED_RESOURCE_ROOT_PATH,
                get(protected_resource_metadata),
            )
            .route(
                AUTHORIZATION_SERVER_PATH,
                get(authorization_server_metadata),
            )
            .route(REGISTER_PATH, post(register))
            .route(AUTHORIZE_PATH, get(authorize))
            .route(TOKEN_PATH, post(token))
            .with_state(self.clone())
    }

    pub fn issuer(&self) -> &str {
        &self.0.issuer
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.0.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn expires_in(&self) -> u64 {
        self.0.token_ttl.as_secs_f64().ceil() as u64
    }

    /// Issues an access token (and a refresh token if the client may refresh)
    /// for `grant`; returns the token response body.
    fn issue_tokens(
        &self,
        store: &mut Store,
        client: &Client,
        access_scope: &Scopes,
        grant_scope: &Scopes,
        grant: GrantId,
    ) -> Value {
        let now = Instant::now();
        store.prune(now);
        let access_token = random_token();
        store.access_tokens.insert(
            fingerprint(&access_token),
            AccessToken {
                client_id: client.id.clone(),
                expires: now + self.0.token_ttl,
                grant,
            },
        );
        let mut body = json!({
            "access_token": access_token,
            "token_type": "Bearer",
            "expires_in": self.expires_in(),
        });
        if client.allows_refresh() {
            let refresh_token = random_token();
            store.refresh_tokens.insert(
                fingerprint(&refresh_token),
                RefreshToken {
                    client_id: client.id.clone(),
                    scope: grant_scope.clone(),
                    grant,
                },
            );
            body["refresh_token"] = refresh_token.into();
        }
        body["scope"] = access_scope.to_string().into();
        tracing::info!(
            client_id = %client.id,
            grant,
            scope = %access_scope,
            expires_in = self.expires_in(),
            refresh = client.allows_refresh(),
            "issued an access token"
        );
        body
    }
}

// ---------------------------------------------------------------------------
// Resource server: the bearer check on /mcp
// ---------------------------------------------------------------------------

/// Middleware in front of `/mcp`: lets the request through only with a valid
/// `Authorization: Bearer` access token; answers `401` otherwise.
pub async fn require_bearer(State(oauth): State<OAuth>, request: Request, next: Next) -> Response {
    match oauth.check_bearer(&request) {
        Ok(()) => next.run(request).await,
        Err(rejection) => oauth.unauthorized(rejection),
    }
}

enum BearerRejection {
    Missing,
    Invalid(&'static str),
}

impl OAuth {
    /// Whether `request` carries a valid access token.
    fn check_bearer(&self, request: &Request) -> Result<(), BearerRejection> {
        let method = request.method();
        let Some(token) = bearer_token(request.headers()) else {
            tracing::info!(%method, "rejected an MCP request without a bearer token");
            return Err(BearerRejection::Missing);
        };
        let key = fingerprint(token);
        let mut store = self.store();
        let Some(access) = store.access_tokens.get(&key) else {
            tracing::info!(%method, "rejected an MCP request with an unknown access token");
            return Err(BearerRejection::Invalid(
                "The access token is unknown or was revoked",
            ));
        };
        if access.expires <= Instant::now() {
            tracing::info!(
                client_id = %access.client_id,
                %method,
                "rejected an MCP request with an expired access token"
            );
            store.access_tokens.remove(&key);
            return Err(BearerRejection::Invalid("The access token expired"));
        }
        tracing::debug!(client_id = %access.client_id, %method, "authorized an MCP request");
        Ok(())
    }

    /// The `401` answer to an MCP request lacking a valid token.
    fn unauthorized(&self, rejection: BearerRejection) -> Response {
        let mut challenge = format!(
            "Bearer resource_metadata=\"{}\", scope=\"{}\"",
            self.0.resource_metadata, self.0.scopes
        );
        let body = match rejection {
            BearerRejection::Missing => json!({
                "error": "unauthorized",
                "error_description": "This MCP server requires an OAuth access token: \
                                      Authorization: Bearer <token>",
            }),
            BearerRejection::Invalid(description) => {
                challenge.push_str(&format!(
                    ", error=\"invalid_token\", error_description=\"{description}\""
                ));
                json!({ "error": "invalid_token", "error_description": description })
            }
        };
        let mut response = json_response(StatusCode::UNAUTHORIZED, &body);
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// The token of an `Authorization: Bearer <token>` header; `Some("")` for a
/// Bearer header without a token, `None` without a Bearer header.
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

// ---------------------------------------------------------------------------
// Metadata
// ---------------------------------------------------------------------------

/// `GET /.well-known/oauth-protected-resource/mcp` (RFC 9728).
async fn protected_resource_metadata(State(oauth): State<OAuth>) -> Response {
    tracing::debug!("served the protected resource metadata");
    let inner = &oauth.0;
    json_response(
        StatusCode::OK,
        &json!({
            "resource": inner.resource,
            "authorization_servers": [inner.issuer],
            "scopes_supported": inner.scopes.as_slice(),
            "bearer_methods_supported": ["header"],
            "resource_name": RESOURCE_NAME,
        }),
    )
}

/// `GET /.well-known/oauth-authorization-server` (RFC 8414).
async fn authorization_server_metadata(State(oauth): State<OAuth>) -> Response {
    tracing::debug!("served the authorization server metadata");
    let issuer = &oauth.0.issuer;
    let auth_methods: Vec<_> = AuthMethod::ALL.iter().map(|m| m.as_str()).collect();
    json_response(
        StatusCode::OK,
        &json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{issuer}{AUTHORIZE_PATH}"),
            "token_endpoint": format!("{issuer}{TOKEN_PATH}"),
            "registration_endpoint": format!("{issuer}{REGISTER_PATH}"),
            "response_types_supported": ["code"],
            "grant_types_supported": [GRANT_AUTHORIZATION_CODE, GRANT_REFRESH_TOKEN],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": auth_methods,
            "scopes_supported": oauth.0.scopes.as_slice(),
            "authorization_response_iss_parameter_supported": true,
        }),
    )
}

// ---------------------------------------------------------------------------
// Dynamic client registration (RFC 7591)
// ---------------------------------------------------------------------------

/// The client metadata this server understands; anything else is ignored.
#[derive(Debug, Deserialize)]
struct RegistrationRequest {
    redirect_uris: Option<Vec<String>>,
    client_name: Option<String>,
    token_endpoint_auth_method: Option<String>,
    grant_types: Option<Vec<String>>,
    response_types: Option<Vec<String>>,
    application_type: Option<String>,
    scope: Option<String>,
}

/// `POST /register`.
async fn register(State(oauth): State<OAuth>, body: Bytes) -> Response {
    match register_client(&oauth, &body) {
        Ok(response) => response,
        Err((error, description)) => {
            tracing::warn!(error, description, "rejected a client registration");
            json_response(
                StatusCode::BAD_REQUEST,
                &json!({ "error": error, "error_description": description }),
            )
        }
    }
}

fn register_client(oauth: &OAuth, body: &[u8]) -> Result<Response, (&'static str, String)> {
    let invalid_metadata = |description: String| ("invalid_client_metadata", description);
    let request: RegistrationRequest = serde_json::from_slice(body).map_err(|error| {
        invalid_metadata(format!("the body is not valid client metadata: {error}"))
    })?;

    let redirect_uris = request.redirect_uris.unwrap_or_default();
    if redirect_uris.is_empty() {
        return Err((
            "invalid_redirect_uri",
            "redirect_uris must name at least one URI".to_string(),
        ));
    }
    for uri in &redirect_uris {
        check_redirect_uri(uri)
            .map_err(|reason| ("invalid_redirect_uri", format!("{uri:?}: {reason}")))?;
    }

    let auth_method = match request.token_endpoint_auth_method.as_deref() {
        None => AuthMethod::None,
        Some(method) => AuthMethod::parse(method).ok_or_else(|| {
            invalid_metadata(format!(
                "unsupported token_endpoint_auth_method {method:?} (none, client_secret_basic \
                 or client_secret_post)"
            ))
        })?,
    };

    let grant_types = request
        .grant_types
        .unwrap_or_else(|| vec![GRANT_AUTHORIZATION_CODE.into(), GRANT_REFRESH_TOKEN.into()]);
    if let Some(grant) = grant_types
        .iter()
        .find(|grant| *grant != GRANT_AUTHORIZATION_CODE && *grant != GRANT_REFRESH_TOKEN)
    {
        return Err(invalid_metadata(format!(
            "unsupported grant type {grant:?} (authorization_code, refresh_token)"
        )));
    }
    if !grant_types
        .iter()
        .any(|grant| grant == GRANT_AUTHORIZATION_CODE)
    {
        return Err(invalid_metadata(
            "grant_types must include authorization_code".to_string(),
        ));
    }

    let response_types = request
        .response_types
        .unwrap_or_else(|| vec!["code".to_string()]);
    if response_types.iter().any(|kind| kind != "code") {
        return Err(invalid_metadata(
            "only the \"code\" response type is supported".to_string(),
        ));
    }

    let application_type = request
        .application_type
        .unwrap_or_else(|| "web".to_string());
    if application_type != "web" && application_type != "native" {
        return Err(invalid_metadata(format!(
            "unsupported application_type {application_type:?} (web or native)"
        )));
    }

    let scope = match request.scope.as_deref() {
        None | Some("") => None,
        Some(scope) => {
            let scope = Scopes::parse(scope).map_err(invalid_metadata)?;
            if !oauth.0.scopes.contains_all(&scope) {
                return Err(invalid_metadata(format!(
                    "scope {scope:?} is not a subset of the supported scopes \"{}\"",
                    oauth.0.scopes
                )));
            }
            Some(scope)
        }
    };

    let client_id = random_token();
    let secret = (auth_method != AuthMethod::None).then(random_token);
    let issued_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());

    let mut answer = json!({ "client_id": client_id });
    if let Some(secret) = &secret {
        answer["client_secret"] = secret.clone().into();
        answer["client_secret_expires_at"] = 0.into();
    }
    answer["client_id_issued_at"] = issued_at.into();
    answer["redirect_uris"] = json!(redirect_uris);
    if let Some(name) = &request.client_name {
        answer["client_name"] = name.clone().into();
    }
    answer["token_endpoint_auth_method"] = auth_method.as_str().into();
    answer["grant_types"] = json!(grant_types);
    answer["response_types"] = json!(response_types);
    answer["application_type"] = application_type.into();
    if let Some(scope) = &scope {
        answer["scope"] = scope.to_string().into();
    }

    tracing::info!(
        client_id,
        client_name = request.client_name.as_deref().unwrap_or(""),
        auth_method = auth_method.as_str(),
        ?redirect_uris,
        ?grant_types,
        "registered an OAuth client"
    );
    oauth.store().clients.insert(
        client_id.clone(),
        Client {
            id: client_id,
            secret: secret.as_deref().map(fingerprint),
            auth_method,
            redirect_uris,
            grant_types,
            scope,
        },
    );
    Ok(json_response(StatusCode::CREATED, &answer))
}

/// Redirect URIs must be absolute, without a fragment, and either `https` or
/// `http` on a loopback host (`127.0.0.1`, `[::1]` or `localhost`, any port).
fn check_redirect_uri(uri: &str) -> Result<(), &'static str> {
    let url = Url::parse(uri).map_err(|_| "not an absolute URI")?;
    if url.fragment().is_some() {
        return Err("must not contain a fragment");
    }
    match (url.scheme(), url.host()) {
        ("https", Some(_)) => Ok(()),
        ("http", Some(Host::Ipv4(ip))) if ip == Ipv4Addr::LOCALHOST => Ok(()),
        ("http", Some(Host::Ipv6(ip))) if ip.is_loopback() => Ok(()),
        ("http", Some(Host::Domain(name))) if name.eq_ignore_ascii_case("localhost") => Ok(()),
        ("http", _) => Err("http is only allowed on 127.0.0.1, [::1] or localhost"),
        _ => Err("must be https, or http on a loopback host"),
    }
}

// ---------------------------------------------------------------------------
// Authorization endpoint
// ---------------------------------------------------------------------------

/// `GET /authorize`: validates the request and, a demo, approves it at once.
async fn authorize(State(oauth): State<OAuth>, uri: Uri) -> Response {
    let params = Params::parse(uri.query().unwrap_or("").as_bytes());

    // Until client and redirect URI are known good, errors are shown here,
    // never redirected (RFC 6749 §4.1.2.1).
    let client_id = match params.single("client_id") {
        Ok(Some(id)) => id,
        Ok(None) => return error_page("client_id is required."),
        Err(_) => return error_page("client_id must not be repeated."),
    };
    let Some(client) = oauth.store().clients.get(client_id).cloned() else {
        tracing::warn!(client_id, "authorization request from an unknown client");
        return error_page("Unknown client_id: register the client first.");
    };
    let redirect_uri = match params.single("redirect_uri") {
        Ok(Some(uri)) => uri,
        Ok(None) => return error_page("redirect_uri is required."),
        Err(_) => return error_page("redirect_uri must not be repeated."),
    };
    if !client
        .redirect_uris
        .iter()
        .any(|known| known == redirect_uri)
    {
        tracing::warn!(
            client_id,
            redirect_uri,
            "authorization request with an unregistered redirect_uri"
        );
        return error_page("redirect_uri is not one of the client's registered redirect URIs.");
    }
    let Ok(mut target) = Url::parse(redirect_uri) else {
        return error_page("redirect_uri is not a valid URI.");
    };
    let state = params.single("state").ok().flatten();

    match check_authorization_request(&oauth, &client, &params) {
        Ok((code_challenge, scope, resource)) => {
            let code = random_token();
            let mut store = oauth.store();
            let now = Instant::now();
            store.prune(now);
            let grant = store.new_grant();
            store.codes.insert(
                fingerprint(&code),
                AuthorizationCode {
                    client_id: client.id.clone(),
                    redirect_uri: redirect_uri.to_string(),
                    code_challenge,
                    scope: scope.clone(),
                    resource,
                    expires: now + CODE_TTL,
                    grant,
                },
            );
            drop(store);
            tracing::info!(
                client_id,
                grant,
                %scope,
                "auto-approved an authorization request; issued a code"
            );
            target.query_pairs_mut().append_pair("code", &code);
        }
        Err((error, description)) => {
            tracing::warn!(
                client_id,
                error,
                description,
                "rejected an authorization request"
            );
            target
                .query_pairs_mut()
                .append_pair("error", error)
                .append_pair("error_description", &description);
        }
    }
    {
        let mut query = target.query_pairs_mut();
        if let Some(state) = state {
            query.append_pair("state", state);
        }
        query.append_pair("iss", &oauth.0.issuer);
    }
    (
        StatusCode::FOUND,
        [
            (header::LOCATION, target.as_str()),
            (header::CACHE_CONTROL, "no-store"),
        ],
    )
        .into_response()
}

/// Checks an authorization request of a known client with a registered
/// redirect URI; returns the code challenge, granted scope and resource, or
/// the error to redirect with.
fn check_authorization_request(
    oauth: &OAuth,
    client: &Client,
    params: &Params,
) -> Result<(String, Scopes, Option<String>), (&'static str, String)> {
    let invalid_request = |description: String| ("invalid_request", description);
    if let Some(name) = params.repeated(&["resource"]) {
        return Err(invalid_request(format!("{name} must not be repeated")));
    }
    let single = |name: &str| params.single(name).ok().flatten();
    match single("response_type") {
        None => return Err(invalid_request("response_type is required".to_string())),
        Some("code") => {}
        Some(other) => {
            return Err((
                "unsupported_response_type",
                format!("response_type {other:?} is not supported; use \"code\""),
            ));
        }
    }
    let Some(code_challenge) = single("code_challenge") else {
        return Err(invalid_request(
            "code_challenge is required (PKCE with S256)".to_string(),
        ));
    };
    match single("code_challenge_method") {
        Some("S256") => {}
        None => {
            return Err(invalid_request(
                "code_challenge_method is required and must be S256".to_string(),
            ));
        }
        Some(other) => {
            return Err(invalid_request(format!(
                "code_challenge_method {other:?} is not supported; use S256"
            )));
        }
    }
    if code_challenge.len() != 43 || !code_challenge.bytes().all(is_base64url_byte) {
        return Err(invalid_request(
            "code_challenge must be BASE64URL(SHA256(code_verifier)) without padding (43 \
             characters)"
                .to_string(),
        ));
    }
    let resources = params.all("resource");
    if let Some(wrong) = resources.iter().find(|r| **r != oauth.0.resource) {
        return Err((
            "invalid_target",
            format!(
                "unknown resource {wrong:?}; this server only issues tokens for {}",
                oauth.0.resource
            ),
        ));
    }
    let allowed = client.scope.as_ref().unwrap_or(&oauth.0.scopes);
    let scope = match single("scope") {
        None => allowed.clone(),
        Some(scope) => {
            let scope = Scopes::parse(scope).map_err(|error| ("invalid_scope", error))?;
            if !allowed.contains_all(&scope) {
                return Err((
                    "invalid_scope",
                    format!("scope must be a subset of \"{allowed}\""),
                ));
            }
            scope
        }
    };
    Ok((
        code_challenge.to_string(),
        scope,
        resources.first().cloned(),
    ))
}

/// The `400` page for authorization requests that cannot be redirected.
fn error_page(message: &'static str) -> Response {
    tracing::warn!(message, "authorization request rejected without a redirect");
    let page = format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Authorization \
         error</title></head>\n<body><h1>Authorization error</h1><p>{message}</p><p>{RESOURCE_NAME} \
         did not redirect back to the client.</p></body></html>\n"
    );
    (
        StatusCode::BAD_REQUEST,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response()
}

// ---------------------------------------------------------------------------
// Token endpoint
// ---------------------------------------------------------------------------

/// An error answer of the token endpoint (RFC 6749 §5.2).
#[derive(Debug)]
struct TokenError {
    status: StatusCode,
    error: &'static str,
    description: String,
    /// The client tried HTTP Basic: a 401 then carries a Basic challenge.
    basic_challenge: bool,
}

impl TokenError {
    fn new(error: &'static str, description: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            error,
            description: description.into(),
            basic_challenge: false,
        }
    }

    fn invalid_request(description: impl Into<String>) -> Self {
        Self::new("invalid_request", description)
    }

    fn invalid_grant(description: impl Into<String>) -> Self {
        Self::new("invalid_grant", description)
    }

    fn invalid_client(description: impl Into<String>, basic_challenge: bool) -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            basic_challenge,
            ..Self::new("invalid_client", description)
        }
    }

    fn into_response(self) -> Response {
        let mut response = json_response(
            self.status,
            &json!({ "error": self.error, "error_description": self.description }),
        );
        if self.basic_challenge {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"periscope-demo-server\""),
            );
        }
        response
    }
}

/// `POST /token`.
async fn token(State(oauth): State<OAuth>, headers: HeaderMap, body: Bytes) -> Response {
    match exchange(&oauth, &headers, &body) {
        Ok(answer) => json_response(StatusCode::OK, &answer),
        Err(error) => {
            tracing::warn!(
                error = error.error,
                description = error.description,
                "token request rejected"
            );
            error.into_response()
        }
    }
}

fn exchange(oauth: &OAuth, headers: &HeaderMap, body: &[u8]) -> Result<Value, TokenError> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        });
    if !form {
        return Err(TokenError::invalid_request(
            "the body must be application/x-www-form-urlencoded",
        ));
    }
    let params = Params::parse(body);
    if let Some(name) = params.repeated(&[]) {
        return Err(TokenError::invalid_request(format!(
            "{name} must not be repeated"
        )));
    }
    let single = |name: &str| params.single(name).ok().flatten();

    let mut store = oauth.store();
    let client = authenticate_client(&store, headers, &params)?;
    match single("grant_type") {
        None => Err(TokenError::invalid_request("grant_type is required")),
        Some(GRANT_AUTHORIZATION_CODE) => exchange_code(oauth, &mut store, &client, &single),
        Some(GRANT_REFRESH_TOKEN) => refresh(oauth, &mut store, &client, &single),
        Some(other) => Err(TokenError::new(
            "unsupported_grant_type",
            format!("grant_type {other:?} is not supported"),
        )),
    }
}

/// Authenticates the client per its registered method: HTTP Basic
/// (`client_secret_basic`), `client_id` + `client_secret` in the body
/// (`client_secret_post`) or `client_id` alone (`none`).
fn authenticate_client(
    store: &Store,
    headers: &HeaderMap,
    params: &Params,
) -> Result<Client, TokenError> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Presented {
        Basic,
        Post,
        IdOnly,
    }
    let basic =
        match headers.get(header::AUTHORIZATION) {
            None => None,
            Some(value) => {
                let value = value.to_str().unwrap_or("");
                let (scheme, credentials) = value.split_once(' ').unwrap_or((value, ""));
                if !scheme.eq_ignore_ascii_case("basic") {
                    return Err(TokenError::invalid_request(
                        "the token endpoint accepts only Basic client authentication",
                    ));
                }
                Some(decode_basic(credentials.trim()).ok_or_else(|| {
                    TokenError::invalid_client("malformed Basic credentials", true)
                })?)
            }
        };
    let body_id = params.single("client_id").ok().flatten();
    let body_secret = params.single("client_secret").ok().flatten();
    let (client_id, secret, presented) = match &basic {
        Some((id, secret)) => {
            if body_secret.is_some() {
                return Err(TokenError::invalid_request(
                    "use one client authentication method: Basic or client_secret, not both",
                ));
            }
            if body_id.is_some_and(|body_id| body_id != id) {
                return Err(TokenError::invalid_request(
                    "client_id does not match the Basic credentials",
                ));
            }
            (id.as_str(), Some(secret.as_str()), Presented::Basic)
        }
        None => match (body_id, body_secret) {
            (None, _) => {
                return Err(TokenError::invalid_client(
                    "client authentication is required (client_id, client_secret or Basic)",
                    false,
                ));
            }
            (Some(id), Some(secret)) => (id, Some(secret), Presented::Post),
            (Some(id), None) => (id, None, Presented::IdOnly),
        },
    };
    let tried_basic = presented == Presented::Basic;
    let Some(client) = store.clients.get(client_id) else {
        return Err(TokenError::invalid_client("unknown client", tried_basic));
    };
    let expected = match client.auth_method {
        AuthMethod::None => Presented::IdOnly,
        AuthMethod::ClientSecretBasic => Presented::Basic,
        AuthMethod::ClientSecretPost => Presented::Post,
    };
    if presented != expected {
        return Err(TokenError::invalid_client(
            format!(
                "this client is registered with token_endpoint_auth_method \"{}\"",
                client.auth_method.as_str()
            ),
            tried_basic,
        ));
    }
    if let (Some(expected), Some(secret)) = (&client.secret, secret)
        && !constant_time_eq(expected, &fingerprint(secret))
    {
        tracing::warn!(client_id, "wrong client secret");
        return Err(TokenError::invalid_client(
            "wrong client secret",
            tried_basic,
        ));
    }
    Ok(client.clone())
}

/// `grant_type=authorization_code`.
fn exchange_code<'a>(
    oauth: &OAuth,
    store: &mut Store,
    client: &Client,
    single: &impl Fn(&str) -> Option<&'a str>,
) -> Result<Value, TokenError> {
    let Some(code) = single("code") else {
        return Err(TokenError::invalid_request("code is required"));
    };
    let Some(redirect_uri) = single("redirect_uri") else {
        return Err(TokenError::invalid_request("redirect_uri is required"));
    };
    let Some(verifier) = single("code_verifier") else {
        return Err(TokenError::invalid_request(
            "code_verifier is required (PKCE)",
        ));
    };
    if !(43..=128).contains(&verifier.len())
        || !verifier
            .bytes()
            .all(|byte| is_base64url_byte(byte) || byte == b'.' || byte == b'~')
    {
        return Err(TokenError::invalid_request(
            "code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]",
        ));
    }

    let now = Instant::now();
    let key = fingerprint(code);
    if let Some(&(_, grant)) = store.used_codes.get(&key) {
        let revoked = store.revoke_grant(grant);
        tracing::warn!(
            client_id = %client.id,
            grant,
            revoked,
            "authorization code replayed: revoked the tokens issued for it"
        );
        return Err(TokenError::invalid_grant(
            "the authorization code was already used; tokens issued for it are revoked",
        ));
    }
    let Some(issued) = store.codes.remove(&key) else {
        return Err(TokenError::invalid_grant(
            "unknown or expired authorization code",
        ));
    };
    // Single use, whatever happens next.
    store.used_codes.insert(key, (issued.expires, issued.grant));
    if issued.expires <= now {
        return Err(TokenError::invalid_grant("the authorization code expired"));
    }
    if issued.client_id != client.id {
        return Err(TokenError::invalid_grant(
            "the authorization code was issued to another client",
        ));
    }
    if issued.redirect_uri != redirect_uri {
        return Err(TokenError::invalid_grant(
            "redirect_uri does not match the authorization request",
        ));
    }
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    if !constant_time_eq(challenge.as_bytes(), issued.code_challenge.as_bytes()) {
        return Err(TokenError::invalid_grant(
            "code_verifier does not match the code_challenge",
        ));
    }
    if let Some(resource) = single("resource")
        && (resource != oauth.0.resource
            || issued.resource.as_deref().is_some_and(|r| r != resource))
    {
        return Err(TokenError::new(
            "invalid_target",
            "resource does not match the authorization request",
        ));
    }
    Ok(oauth.issue_tokens(store, client, &issued.scope, &issued.scope, issued.grant))
}

/// `grant_type=refresh_token`: rotates the refresh token.
fn refresh<'a>(
    oauth: &OAuth,
    store: &mut Store,
    client: &Client,
    single: &impl Fn(&str) -> Option<&'a str>,
) -> Result<Value, TokenError> {
    if !client.allows_refresh() {
        return Err(TokenError::new(
            "unauthorized_client",
            "the client did not register the refresh_token grant type",
        ));
    }
    let Some(refresh_token) = single("refresh_token") else {
        return Err(TokenError::invalid_request("refresh_token is required"));
    };
    let key = fingerprint(refresh_token);
    let Some(current) = store.refresh_tokens.get(&key) else {
        return Err(TokenError::invalid_grant(
            "unknown, revoked or already used refresh token",
        ));
    };
    if current.client_id != client.id {
        return Err(TokenError::invalid_grant(
            "the refresh token was issued to another client",
        ));
    }
    let grant_scope = current.scope.clone();
    let scope = match single("scope") {
        None => grant_scope.clone(),
        Some(scope) => {
            let scope =
                Scopes::parse(scope).map_err(|error| TokenError::new("invalid_scope", error))?;
            if !grant_scope.contains_all(&scope) {
                return Err(TokenError::new(
                    "invalid_scope",
                    format!("scope must be a subset of the granted \"{grant_scope}\""),
                ));
            }
            scope
        }
    };
    if single("resource").is_some_and(|resource| resource != oauth.0.resource) {
        return Err(TokenError::new(
            "invalid_target",
            format!("this server only issues tokens for {}", oauth.0.resource),
        ));
    }
    let grant = current.grant;
    store.refresh_tokens.remove(&key);
    tracing::info!(client_id = %client.id, grant, "refresh token used and rotated");
    Ok(oauth.issue_tokens(store, client, &scope, &grant_scope, grant))
}

/// Decodes `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1).
fn decode_basic(credentials: &str) -> Option<(String, String)> {
    let decoded = String::from_utf8(STANDARD.decode(credentials).ok()?).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    Some((form_decode(id)?, form_decode(secret)?))
}

/// Decodes one `application/x-www-form-urlencoded` value.
fn form_decode(value: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(value.len());
    let mut input = value.bytes();
    while let Some(byte) = input.next() {
        bytes.push(match byte {
            b'+' => b' ',
            b'%' => {
                let high = char::from(input.next()?).to_digit(16)?;
                let low = char::from(input.next()?).to_digit(16)?;
                (high * 16 + low) as u8
            }
            other => other,
        });
    }
    String::from_utf8(bytes).ok()
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Form or query parameters; empty values count as absent (RFC 6749 §3.1).
struct Params(HashMap<String, Vec<String>>);

impl Params {
    fn parse(input: &[u8]) -> Self {
        let mut params: HashMap<String, Vec<String>> = HashMap::new();
        for (name, value) in form_urlencoded::parse(input) {
            if !value.is_empty() {
                params
                    .entry(name.into_owned())
                    .or_default()
                    .push(value.into_owned());
            }
        }
        Self(params)
    }

    /// The value of `name`; `Err` if it is repeated.
    fn single(&self, name: &str) -> Result<Option<&str>, ()> {
        match self.0.get(name).map(Vec::as_slice) {
            None | Some([]) => Ok(None),
            Some([value]) => Ok(Some(value)),
            Some(_) => Err(()),
        }
    }

    fn all(&self, name: &str) -> &[String] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }

    /// A parameter given more than once, other than those in `allowed`.
    fn repeated(&self, allowed: &[&str]) -> Option<&str> {
        self.0
            .iter()
            .find(|(name, values)| values.len() > 1 && !allowed.contains(&name.as_str()))
            .map(|(name, _)| name.as_str())
    }
}

/// 32 random bytes, base64url without padding (43 characters).
fn random_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS random number generator failed");
    URL_SAFE_NO_PAD.encode(bytes)
}

fn fingerprint(secret: &str) -> Fingerprint {
    Sha256::digest(secret.as_bytes()).into()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}

fn is_base64url_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'
}

/// A JSON answer that caches nowhere (RFC 6749 §5.1).
fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
            (header::PRAGMA, "no-cache"),
        ],
        body.to_string(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_parse_and_compare() {
        let all = Scopes::parse(" mcp:read  mcp:write mcp:read").unwrap();
        assert_eq!(all.to_string(), "mcp:read mcp:write");
        assert!(all.contains_all(&Scopes::parse("mcp:write").unwrap()));
        assert!(!all.contains_all(&Scopes::parse("mcp:admin").unwrap()));
        assert!(Scopes::parse("  ").is_err());
        assert!(Scopes::parse("bad\"scope").is_err());
    }

    #[test]
    fn redirect_uri_rules() {
        for good in [
            "http://127.0.0.1:8765/callback",
            "http://127.0.0.1/callback",
            "http://localhost:3000/cb?x=1",
            "http://[::1]:9/cb",
            "https://app.example.com/oauth/callback",
        ] {
            assert_eq!(check_redirect_uri(good), Ok(()), "{good}");
        }
        for bad in [
            "http://example.com/cb",
            "http://127.0.0.2/cb",
            "http://localhost.example.com/cb",
            "https://app.example.com/cb#frag",
            "com.example.app:/callback",
            "/relative",
        ] {
            assert!(check_redirect_uri(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn basic_credentials_are_form_decoded() {
        let header = STANDARD.encode("my%20id:s%3Acret+x");
        assert_eq!(
            decode_basic(&header),
            Some(("my id".to_string(), "s:cret x".to_string()))
        );
        assert_eq!(decode_basic("!!"), None);
    }

    #[test]
    fn bearer_header_parsing() {
        let mut headers = HeaderMap::new();
        assert_eq!(bearer_token(&headers), None);
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer_token(&headers), None);
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer  tok "),
        );
        assert_eq!(bearer_token(&headers), Some("tok"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer"));
        assert_eq!(bearer_token(&headers), Some(""));
    }
}
