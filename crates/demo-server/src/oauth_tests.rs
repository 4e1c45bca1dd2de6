//! End-to-end tests of the OAuth mode (`--http ADDR --oauth`): the real server
//! on an ephemeral port in this process, signed in to by hand over HTTP
//! (reqwest, redirects not followed).

use std::{collections::HashMap, time::Duration};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use reqwest::{
    StatusCode,
    header::{AUTHORIZATION, CONTENT_TYPE, LOCATION, WWW_AUTHENTICATE},
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use url::{Url, form_urlencoded};

use crate::{
    http::HttpServer,
    oauth::{OAuthConfig, Scopes},
};

const TIMEOUT: Duration = Duration::from_secs(10);
const REDIRECT_URI: &str = "http://127.0.0.1:7777/callback";

/// An OAuth-protected server running on `127.0.0.1:0` until [`Running::stop`].
struct Running {
    /// The MCP URL, e.g. `http://127.0.0.1:1234/mcp`.
    url: String,
    /// The origin and issuer, e.g. `http://127.0.0.1:1234`.
    base: String,
    http: reqwest::Client,
    shutdown: CancellationToken,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    async fn start(config: OAuthConfig) -> Self {
        let server = HttpServer::bind_oauth("127.0.0.1:0", config).await.unwrap();
        let url = server.url();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
            "{url}"
        );
        let base = url.trim_end_matches("/mcp").to_string();
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(server.run(shutdown.clone().cancelled_owned()));
        let http = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(TIMEOUT)
            .build()
            .unwrap();
        Self {
            url,
            base,
            http,
            shutdown,
            task,
        }
    }

    async fn start_default() -> Self {
        Self::start(OAuthConfig::default()).await
    }

    async fn stop(self) {
        self.shutdown.cancel();
        let result = tokio::time::timeout(TIMEOUT, self.task)
            .await
            .expect("server did not stop")
            .unwrap();
        result.unwrap();
    }

    fn resource_metadata_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource/mcp", self.base)
    }

    async fn get_json(&self, url: &str) -> Value {
        let response = self.http.get(url).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{url}");
        assert!(
            response.headers()[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("application/json")
        );
        response.json_value().await
    }

    /// `POST /register`; returns the status and JSON body.
    async fn register(&self, metadata: Value) -> (StatusCode, Value) {
        let response = self
            .http
            .post(format!("{}/register", self.base))
            .header(CONTENT_TYPE, "application/json")
            .body(metadata.to_string())
            .send()
            .await
            .unwrap();
        (response.status(), response.json_value().await)
    }

    /// Registers a public client (`none`) with [`REDIRECT_URI`].
    async fn register_public(&self) -> String {
        let (status, client) = self
            .register(json!({
                "redirect_uris": [REDIRECT_URI],
                "client_name": "oauth-tests",
                "grant_types": ["authorization_code", "refresh_token"],
                "application_type": "native",
            }))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{client}");
        client["client_id"].as_str().unwrap().to_string()
    }

    /// `GET /authorize` with `params` (not following the redirect).
    async fn authorize(&self, params: &[(&str, &str)]) -> reqwest::Response {
        let mut url = Url::parse(&format!("{}/authorize", self.base)).unwrap();
        url.query_pairs_mut().extend_pairs(params);
        self.http.get(url).send().await.unwrap()
    }

    /// The standard authorization request of `client_id` for `pkce`.
    async fn authorize_code(&self, client_id: &str, pkce: &Pkce) -> HashMap<String, String> {
        let response = self
            .authorize(&[
                ("response_type", "code"),
                ("client_id", client_id),
                ("redirect_uri", REDIRECT_URI),
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
                ("state", "xyz"),
                ("resource", &self.url),
            ])
            .await;
        let (target, params) = redirected(&response);
        assert!(target.starts_with(REDIRECT_URI), "{target}");
        assert!(params.contains_key("code"), "{params:?}");
        params
    }

    /// `POST /token` with `params`, optionally with HTTP Basic client auth.
    async fn token(
        &self,
        params: &[(&str, &str)],
        basic: Option<(&str, &str)>,
    ) -> (StatusCode, Value, reqwest::header::HeaderMap) {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        let mut request = self
            .http
            .post(format!("{}/token", self.base))
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body);
        if let Some((id, secret)) = basic {
            request = request.basic_auth(id, Some(secret));
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        if status == StatusCode::OK {
            assert_eq!(headers["cache-control"], "no-store");
        }
        (status, response.json_value().await, headers)
    }

    /// Exchanges `code` for tokens as public client `client_id`.
    async fn exchange(&self, client_id: &str, code: &str, verifier: &str) -> (StatusCode, Value) {
        let (status, body, _) = self
            .token(
                &[
                    ("grant_type", "authorization_code"),
                    ("code", code),
                    ("redirect_uri", REDIRECT_URI),
                    ("code_verifier", verifier),
                    ("client_id", client_id),
                    ("resource", &self.url),
                ],
                None,
            )
            .await;
        (status, body)
    }

    /// Registers a public client and signs it in; returns client id and the
    /// token response.
    async fn sign_in(&self) -> (String, Value) {
        let client_id = self.register_public().await;
        let pkce = Pkce::new();
        let params = self.authorize_code(&client_id, &pkce).await;
        let (status, tokens) = self
            .exchange(&client_id, &params["code"], &pkce.verifier)
            .await;
        assert_eq!(status, StatusCode::OK, "{tokens}");
        (client_id, tokens)
    }

    async fn refresh(&self, client_id: &str, refresh_token: &str) -> (StatusCode, Value) {
        let (status, body, _) = self
            .token(
                &[
                    ("grant_type", "refresh_token"),
                    ("refresh_token", refresh_token),
                    ("client_id", client_id),
                ],
                None,
            )
            .await;
        (status, body)
    }

    /// `POST /mcp` with an `initialize` request and an optional bearer token.
    async fn initialize(&self, token: Option<&str>) -> reqwest::Response {
        let mut request = self
            .http
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(
                json!({
                    "jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": { "name": "oauth-tests", "version": "0" }
                    }
                })
                .to_string(),
            );
        if let Some(token) = token {
            request = request.header(AUTHORIZATION, format!("Bearer {token}"));
        }
        request.send().await.unwrap()
    }

    /// Asserts that `token` opens an MCP session; returns the session id.
    async fn assert_initializes(&self, token: &str) -> String {
        let response = self.initialize(Some(token)).await;
        assert_eq!(response.status(), StatusCode::OK);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_string();
        let body = response.text().await.unwrap();
        assert!(body.contains("\"periscope-demo-server\""), "{body}");
        session
    }

    /// Asserts a `401` with the challenge (and `error="invalid_token"` when
    /// `invalid` is set).
    fn assert_challenge(&self, response: &reqwest::Response, invalid: bool) {
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let challenge = response.headers()[WWW_AUTHENTICATE].to_str().unwrap();
        let expected = format!(
            "Bearer resource_metadata=\"{}\", scope=\"mcp:read mcp:write\"",
            self.resource_metadata_url()
        );
        if invalid {
            assert!(
                challenge.starts_with(&format!("{expected}, error=\"invalid_token\"")),
                "{challenge}"
            );
        } else {
            assert_eq!(challenge, expected);
        }
    }
}

trait JsonValue {
    async fn json_value(self) -> Value;
}

impl JsonValue for reqwest::Response {
    async fn json_value(self) -> Value {
        let bytes = self.bytes().await.unwrap();
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|error| panic!("not JSON ({error}): {bytes:?}"))
    }
}

/// A PKCE verifier and its S256 challenge.
struct Pkce {
    verifier: String,
    challenge: String,
}

impl Pkce {
    fn new() -> Self {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).unwrap();
        let verifier = URL_SAFE_NO_PAD.encode(bytes);
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        Self {
            verifier,
            challenge,
        }
    }
}

/// The `Location` of a `302` (without its query) and its query parameters.
fn redirected(response: &reqwest::Response) -> (String, HashMap<String, String>) {
    assert_eq!(response.status(), StatusCode::FOUND);
    let location = Url::parse(response.headers()[LOCATION].to_str().unwrap()).unwrap();
    let params = location.query_pairs().into_owned().collect();
    let mut target = location.clone();
    target.set_query(None);
    (target.to_string(), params)
}

#[tokio::test]
async fn full_sign_in_flow_with_refresh() {
    let server = Running::start_default().await;

    // 1. Unauthenticated: 401 pointing at the protected resource metadata.
    let response = server.initialize(None).await;
    server.assert_challenge(&response, false);
    let body = response.json_value().await;
    assert_eq!(body["error"], "unauthorized");
    let get = server.http.get(&server.url).send().await.unwrap();
    server.assert_challenge(&get, false);

    // 2. Protected resource metadata.
    let prm = server.get_json(&server.resource_metadata_url()).await;
    assert_eq!(
        prm,
        json!({
            "resource": server.url,
            "authorization_servers": [server.base],
            "scopes_supported": ["mcp:read", "mcp:write"],
            "bearer_methods_supported": ["header"],
            "resource_name": "Periscope demo server",
        })
    );

    let root = format!("{}/.well-known/oauth-protected-resource", server.base);
    assert_eq!(server.get_json(&root).await, prm);

    // 3. Authorization server metadata.
    let issuer = prm["authorization_servers"][0].as_str().unwrap();
    let metadata = server
        .get_json(&format!("{issuer}/.well-known/oauth-authorization-server"))
        .await;
    assert_eq!(metadata["issuer"], issuer);
    assert_eq!(
        metadata["authorization_endpoint"],
        format!("{issuer}/authorize")
    );
    assert_eq!(metadata["token_endpoint"], format!("{issuer}/token"));
    assert_eq!(
        metadata["registration_endpoint"],
        format!("{issuer}/register")
    );
    assert_eq!(metadata["response_types_supported"], json!(["code"]));
    assert_eq!(
        metadata["grant_types_supported"],
        json!(["authorization_code", "refresh_token"])
    );
    assert_eq!(
        metadata["code_challenge_methods_supported"],
        json!(["S256"])
    );
    assert_eq!(
        metadata["token_endpoint_auth_methods_supported"],
        json!(["none", "client_secret_basic", "client_secret_post"])
    );
    assert_eq!(
        metadata["scopes_supported"],
        json!(["mcp:read", "mcp:write"])
    );
    assert_eq!(
        metadata["authorization_response_iss_parameter_supported"],
        true
    );

    // 4. Dynamic client registration.
    let (status, client) = server
        .register(json!({
            "redirect_uris": [REDIRECT_URI],
            "client_name": "oauth-tests",
            "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"],
            "application_type": "native",
        }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{client}");
    let client_id = client["client_id"].as_str().unwrap();
    assert!(client_id.len() >= 32, "{client_id}");
    assert!(client.get("client_secret").is_none(), "{client}");
    assert!(client["client_id_issued_at"].as_u64().unwrap() > 0);
    assert_eq!(client["redirect_uris"], json!([REDIRECT_URI]));
    assert_eq!(client["client_name"], "oauth-tests");
    assert_eq!(client["token_endpoint_auth_method"], "none");
    assert_eq!(client["application_type"], "native");

    // 5. Authorization: auto-approved, 302 back with code, state and iss.
    let pkce = Pkce::new();
    let response = server
        .authorize(&[
            ("response_type", "code"),
            ("client_id", client_id),
            ("redirect_uri", REDIRECT_URI),
            ("code_challenge", &pkce.challenge),
            ("code_challenge_method", "S256"),
            ("scope", "mcp:read mcp:write"),
            ("state", "opaque state/+="),
            ("resource", &server.url),
        ])
        .await;
    let (target, params) = redirected(&response);
    assert_eq!(target, REDIRECT_URI);
    assert_eq!(params["state"], "opaque state/+=");
    assert_eq!(params["iss"], issuer);
    let code = &params["code"];
    assert_eq!(code.len(), 43, "{code}");

    // 6. Token exchange with PKCE.
    let (status, tokens) = server.exchange(client_id, code, &pkce.verifier).await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["expires_in"], 3600);
    assert_eq!(tokens["scope"], "mcp:read mcp:write");
    let access = tokens["access_token"].as_str().unwrap();
    let refresh = tokens["refresh_token"].as_str().unwrap();
    assert_ne!(access, refresh);

    // 7. MCP with the bearer token: initialize, then the session's GET and
    //    DELETE need the token too.
    let session = server.assert_initializes(access).await;
    let delete = server
        .http
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    server.assert_challenge(&delete, false);
    let delete = server
        .http
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .header(AUTHORIZATION, format!("Bearer {access}"))
        .send()
        .await
        .unwrap();
    assert!(delete.status().is_success(), "{}", delete.status());

    // 8. Refresh: new tokens, the old refresh token is spent.
    let (status, refreshed) = server.refresh(client_id, refresh).await;
    assert_eq!(status, StatusCode::OK, "{refreshed}");
    let new_access = refreshed["access_token"].as_str().unwrap();
    let new_refresh = refreshed["refresh_token"].as_str().unwrap();
    assert_ne!(new_access, access);
    assert_ne!(new_refresh, refresh);
    assert_eq!(refreshed["scope"], "mcp:read mcp:write");
    server.assert_initializes(new_access).await;
    let (status, error) = server.refresh(client_id, refresh).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_grant");

    // A refresh may narrow the scope, never widen it; the next refresh token
    // keeps the full grant.
    let (status, narrowed, _) = server
        .token(
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", new_refresh),
                ("client_id", client_id),
                ("scope", "mcp:read"),
            ],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{narrowed}");
    assert_eq!(narrowed["scope"], "mcp:read");
    let (status, widened, _) = server
        .token(
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", narrowed["refresh_token"].as_str().unwrap()),
                ("client_id", client_id),
                ("scope", "mcp:read mcp:admin"),
            ],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(widened["error"], "invalid_scope");
    server.stop().await;
}

#[tokio::test]
async fn expired_access_token_gets_invalid_token_until_refreshed() {
    let server = Running::start(OAuthConfig {
        token_ttl: Duration::from_secs(1),
        scopes: Scopes::parse("mcp:read mcp:write").unwrap(),
    })
    .await;
    let (client_id, tokens) = server.sign_in().await;
    assert_eq!(tokens["expires_in"], 1);
    let access = tokens["access_token"].as_str().unwrap();
    server.assert_initializes(access).await;

    tokio::time::sleep(Duration::from_millis(1200)).await;
    let response = server.initialize(Some(access)).await;
    server.assert_challenge(&response, true);
    assert_eq!(response.json_value().await["error"], "invalid_token");

    let (status, refreshed) = server
        .refresh(&client_id, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(status, StatusCode::OK, "{refreshed}");
    server
        .assert_initializes(refreshed["access_token"].as_str().unwrap())
        .await;
    server.stop().await;
}

#[tokio::test]
async fn unknown_or_malformed_bearer_tokens_get_invalid_token() {
    let server = Running::start_default().await;
    for token in ["not-a-token", ""] {
        let response = server.initialize(Some(token)).await;
        server.assert_challenge(&response, true);
    }
    // Another scheme counts as no token at all.
    let response = server
        .http
        .post(&server.url)
        .header(AUTHORIZATION, "Basic Zm9vOmJhcg==")
        .body("{}")
        .send()
        .await
        .unwrap();
    server.assert_challenge(&response, false);
    server.stop().await;
}

#[tokio::test]
async fn code_exchange_checks_pkce_and_single_use() {
    let server = Running::start_default().await;
    let client_id = server.register_public().await;

    // Wrong verifier: invalid_grant, and the code is spent.
    let pkce = Pkce::new();
    let params = server.authorize_code(&client_id, &pkce).await;
    let (status, error) = server
        .exchange(&client_id, &params["code"], &Pkce::new().verifier)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_grant", "{error}");
    let (status, error) = server
        .exchange(&client_id, &params["code"], &pkce.verifier)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_grant", "{error}");

    // Reuse of a redeemed code: invalid_grant, and its tokens are revoked.
    let pkce = Pkce::new();
    let params = server.authorize_code(&client_id, &pkce).await;
    let (status, tokens) = server
        .exchange(&client_id, &params["code"], &pkce.verifier)
        .await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    let access = tokens["access_token"].as_str().unwrap();
    server.assert_initializes(access).await;
    let (status, error) = server
        .exchange(&client_id, &params["code"], &pkce.verifier)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_grant", "{error}");
    let response = server.initialize(Some(access)).await;
    server.assert_challenge(&response, true);
    let (status, error) = server
        .refresh(&client_id, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_grant");

    // Redirect URI and resource must match the authorization request.
    let pkce = Pkce::new();
    let params = server.authorize_code(&client_id, &pkce).await;
    let (status, error, _) = server
        .token(
            &[
                ("grant_type", "authorization_code"),
                ("code", &params["code"]),
                ("redirect_uri", "http://127.0.0.1:7777/other"),
                ("code_verifier", &pkce.verifier),
                ("client_id", &client_id),
            ],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_grant");
    let pkce = Pkce::new();
    let params = server.authorize_code(&client_id, &pkce).await;
    let (status, error, _) = server
        .token(
            &[
                ("grant_type", "authorization_code"),
                ("code", &params["code"]),
                ("redirect_uri", REDIRECT_URI),
                ("code_verifier", &pkce.verifier),
                ("client_id", &client_id),
                ("resource", "http://127.0.0.1:1/elsewhere"),
            ],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_target");

    // Malformed requests.
    let (status, error, _) = server
        .token(
            &[("grant_type", "password"), ("client_id", &client_id)],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "unsupported_grant_type");
    let (status, error, _) = server
        .token(
            &[
                ("grant_type", "authorization_code"),
                ("client_id", &client_id),
            ],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid_request");
    let (status, error, _) = server
        .token(&[("grant_type", "authorization_code")], None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error["error"], "invalid_client");
    server.stop().await;
}

#[tokio::test]
async fn authorize_rejects_bad_requests() {
    let server = Running::start_default().await;
    let client_id = server.register_public().await;
    let pkce = Pkce::new();
    let good = [
        ("response_type", "code"),
        ("client_id", client_id.as_str()),
        ("redirect_uri", REDIRECT_URI),
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("state", "s1"),
    ];
    let with = |name: &'static str, value: Option<&'static str>| {
        let mut params: Vec<(&str, &str)> = good
            .iter()
            .copied()
            .filter(|(key, _)| *key != name)
            .collect();
        if let Some(value) = value {
            params.push((name, value));
        }
        params
    };

    // Unknown client or unregistered redirect URI: a 400 page, no redirect.
    for params in [
        with("client_id", Some("no-such-client")),
        with("client_id", None),
        with("redirect_uri", Some("http://127.0.0.1:7777/elsewhere")),
        with("redirect_uri", Some("https://attacker.example/cb")),
        with("redirect_uri", None),
    ] {
        let response = server.authorize(&params).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{params:?}");
        assert!(response.headers().get(LOCATION).is_none());
        assert!(
            response.headers()[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
    }

    // Everything else: an error redirect carrying state and iss.
    for (params, error) in [
        (with("code_challenge", None), "invalid_request"),
        (with("code_challenge_method", None), "invalid_request"),
        (
            with("code_challenge_method", Some("plain")),
            "invalid_request",
        ),
        (with("code_challenge", Some("too-short")), "invalid_request"),
        (with("response_type", None), "invalid_request"),
        (
            with("response_type", Some("token")),
            "unsupported_response_type",
        ),
        (
            with("resource", Some("http://127.0.0.1:1/mcp")),
            "invalid_target",
        ),
        (with("scope", Some("mcp:read mcp:admin")), "invalid_scope"),
    ] {
        let response = server.authorize(&params).await;
        let (target, query) = redirected(&response);
        assert_eq!(target, REDIRECT_URI);
        assert_eq!(query["error"], error, "{params:?}: {query:?}");
        assert!(!query.contains_key("code"), "{query:?}");
        assert_eq!(query["state"], "s1");
        assert_eq!(query["iss"], server.base);
    }

    // A narrower scope is granted as asked.
    let response = server.authorize(&with("scope", Some("mcp:read"))).await;
    let (_, query) = redirected(&response);
    let (status, tokens) = server
        .exchange(&client_id, &query["code"], &pkce.verifier)
        .await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    assert_eq!(tokens["scope"], "mcp:read");
    server.stop().await;
}

#[tokio::test]
async fn registration_validates_client_metadata() {
    let server = Running::start_default().await;
    for (metadata, error) in [
        (json!({ "client_name": "x" }), "invalid_redirect_uri"),
        (json!({ "redirect_uris": [] }), "invalid_redirect_uri"),
        (
            json!({ "redirect_uris": ["http://example.com/cb"] }),
            "invalid_redirect_uri",
        ),
        (
            json!({ "redirect_uris": ["https://example.com/cb#fragment"] }),
            "invalid_redirect_uri",
        ),
        (
            json!({ "redirect_uris": [REDIRECT_URI], "token_endpoint_auth_method": "private_key_jwt" }),
            "invalid_client_metadata",
        ),
        (
            json!({ "redirect_uris": [REDIRECT_URI], "grant_types": ["client_credentials"] }),
            "invalid_client_metadata",
        ),
        (
            json!({ "redirect_uris": [REDIRECT_URI], "scope": "mcp:admin" }),
            "invalid_client_metadata",
        ),
        (
            json!({ "redirect_uris": "not a list" }),
            "invalid_client_metadata",
        ),
    ] {
        let (status, body) = server.register(metadata.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{metadata}");
        assert_eq!(body["error"], error, "{metadata}: {body}");
    }
    let response = server
        .http
        .post(format!("{}/register", server.base))
        .body("not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        response.json_value().await["error"],
        "invalid_client_metadata"
    );

    // Accepted redirect URIs: loopback http (any port) and https.
    let (status, client) = server
        .register(json!({
            "redirect_uris": [
                "http://localhost:3000/cb",
                "http://127.0.0.1/cb",
                "https://app.example.com/oauth/callback"
            ],
        }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{client}");
    assert_eq!(client["token_endpoint_auth_method"], "none");
    assert_eq!(
        client["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );
    assert_eq!(client["application_type"], "web");
    server.stop().await;
}

#[tokio::test]
async fn confidential_clients_authenticate_per_their_registered_method() {
    let server = Running::start_default().await;

    // client_secret_basic.
    let (status, client) = server
        .register(json!({
            "redirect_uris": [REDIRECT_URI],
            "token_endpoint_auth_method": "client_secret_basic",
        }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{client}");
    let id = client["client_id"].as_str().unwrap();
    let secret = client["client_secret"].as_str().unwrap();
    assert_eq!(client["client_secret_expires_at"], 0);
    let pkce = Pkce::new();
    let params = server.authorize_code(id, &pkce).await;
    let exchange = [
        ("grant_type", "authorization_code"),
        ("code", params["code"].as_str()),
        ("redirect_uri", REDIRECT_URI),
        ("code_verifier", pkce.verifier.as_str()),
    ];
    let (status, error, headers) = server.token(&exchange, Some((id, "wrong"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error["error"], "invalid_client");
    assert!(
        headers[WWW_AUTHENTICATE]
            .to_str()
            .unwrap()
            .starts_with("Basic "),
        "{headers:?}"
    );
    // The secret in the body is the wrong method for this client.
    let mut in_body = exchange.to_vec();
    in_body.extend([("client_id", id), ("client_secret", secret)]);
    let (status, error, _) = server.token(&in_body, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error["error"], "invalid_client");
    let (status, tokens, _) = server.token(&exchange, Some((id, secret))).await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    server
        .assert_initializes(tokens["access_token"].as_str().unwrap())
        .await;
    let (status, refreshed, _) = server
        .token(
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", tokens["refresh_token"].as_str().unwrap()),
            ],
            Some((id, secret)),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{refreshed}");

    // client_secret_post.
    let (status, client) = server
        .register(json!({
            "redirect_uris": [REDIRECT_URI],
            "token_endpoint_auth_method": "client_secret_post",
            "grant_types": ["authorization_code"],
        }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{client}");
    let id = client["client_id"].as_str().unwrap();
    let secret = client["client_secret"].as_str().unwrap();
    let pkce = Pkce::new();
    let params = server.authorize_code(id, &pkce).await;
    let mut exchange = vec![
        ("grant_type", "authorization_code"),
        ("code", params["code"].as_str()),
        ("redirect_uri", REDIRECT_URI),
        ("code_verifier", pkce.verifier.as_str()),
        ("client_id", id),
    ];
    let (status, error, _) = server.token(&exchange, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "no secret: {error}");
    exchange.push(("client_secret", secret));
    let (status, tokens, _) = server.token(&exchange, None).await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    // Registered without the refresh_token grant: no refresh token.
    assert!(tokens.get("refresh_token").is_none(), "{tokens}");
    server.stop().await;
}
