//! Streamable HTTP: the rules of the transport itself, asked with requests built by hand
//! (a session would never send them): session ids, a request without one or with one the
//! server never gave or already deleted, `Accept` and `Content-Type`, `MCP-Protocol-Version`,
//! DNS-rebinding protection (`Origin`), the GET stream, notifications answered 202, the
//! 2026-07-28 `Mcp-Method` header checked against the body, and a protected server's 401.
//! Each request and what came back is recorded in the first era's record (frames and the
//! HTTP exchange), so a verdict names its frames like any other.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::{CheckOptions, CheckTarget};
use crate::config::HttpTarget;
use crate::era::Era;
use crate::record::HttpExchange;
use crate::revision;
use crate::traffic::Traffic;
use crate::vocabulary::method::names;
use crate::wire::Direction;

/// Most of a response body read.
const MAX_BODY: usize = 1024 * 1024;

const ALL: [Rule; 13] = [
    Rule::SessionIdAscii,
    Rule::UnknownSession,
    Rule::MissingSession,
    Rule::DeletedSession,
    Rule::ProtocolVersionHeader,
    Rule::AcceptHeader,
    Rule::ContentType,
    Rule::GetStream,
    Rule::NotificationAccepted,
    Rule::MethodHeader,
    Rule::Origin,
    Rule::AuthChallenge,
    Rule::TokenInQuery,
];

/// One raw exchange: what came back, and where it is in the record.
struct Reply {
    frames: Vec<u64>,
    status: Option<u16>,
    headers: reqwest::header::HeaderMap,
    body: String,
    error: Option<String>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn said(&self) -> String {
        match (self.status, &self.error) {
            (Some(status), _) => format!("HTTP {status}"),
            (None, Some(e)) => format!("no response ({e})"),
            (None, None) => "no response".into(),
        }
    }

    /// The JSON-RPC messages of the body (JSON, or the `data:` of SSE events).
    fn messages(&self) -> Vec<Value> {
        if let Ok(value) = serde_json::from_str::<Value>(&self.body) {
            return vec![value];
        }
        self.body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect()
    }
}

struct Raw<'a> {
    client: reqwest::Client,
    target: &'a HttpTarget,
    traffic: Arc<Traffic>,
    wait: Duration,
}

/// What a request leaves out or puts in place of the usual headers.
#[derive(Default, Clone)]
struct Headers {
    session: Option<String>,
    version: Option<String>,
    accept: Option<&'static str>,
    content_type: Option<&'static str>,
    extra: Vec<(&'static str, String)>,
}

impl Raw<'_> {
    async fn send(
        &self,
        method: reqwest::Method,
        body: Option<&Value>,
        headers: &Headers,
    ) -> Reply {
        let mut request = self.client.request(method.clone(), &self.target.url);
        let mut sent_headers: Vec<(String, String)> = Vec::new();
        let mut add = |name: &str, value: &str, request: reqwest::RequestBuilder| {
            sent_headers.push((name.to_string(), value.to_string()));
            request.header(name, value)
        };
        for (name, value) in &self.target.headers {
            request = add(name, value, request);
        }
        request = add(
            "accept",
            headers
                .accept
                .unwrap_or("application/json, text/event-stream"),
            request,
        );
        if body.is_some() {
            request = add(
                "content-type",
                headers.content_type.unwrap_or("application/json"),
                request,
            );
        }
        if let Some(session) = &headers.session {
            request = add("mcp-session-id", session, request);
        }
        if let Some(version) = &headers.version {
            request = add("mcp-protocol-version", version, request);
        }
        for (name, value) in &headers.extra {
            request = add(name, value, request);
        }
        let mut frames = Vec::new();
        let sent_frame = body.map(|b| {
            let bytes = serde_json::to_vec(b).expect("JSON");
            let frame = self
                .traffic
                .append_frame(Direction::Out, bytes.clone(), None);
            frames.push(frame.seq);
            request = std::mem::replace(&mut request, self.client.get("http://unused.invalid"))
                .body(bytes);
            frame.seq
        });
        let seq = self.traffic.reserve_seq();
        frames.push(seq);
        let started = Instant::now();
        let wall_us = crate::traffic::wall_now_us();
        let mono_us = self.traffic.mono_now_us();
        let response = tokio::time::timeout(self.wait, request.send()).await;
        let (status, response_headers, mut response, error) = match response {
            Ok(Ok(r)) => (
                Some(r.status().as_u16()),
                r.headers().clone(),
                Some(r),
                None,
            ),
            // reqwest names the URL, and a URL may carry a secret (the token-in-query rule's).
            Ok(Err(e)) => (
                None,
                Default::default(),
                None,
                Some(crate::redact::urls_in_text(&e.to_string())),
            ),
            Err(_) => (
                None,
                Default::default(),
                None,
                Some("no response in time".into()),
            ),
        };
        let configured: Vec<(&str, &str)> = self
            .target
            .headers
            .iter()
            .filter(|(n, _)| {
                self.target
                    .secret_headers
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(n))
            })
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let recorded_response: Vec<(&str, &str)> = response_headers
            .iter()
            .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
            .collect();
        self.traffic.append_http_reserved(HttpExchange {
            seq,
            wall_us,
            mono_us,
            method: method.to_string(),
            url: crate::redact::url(&self.target.url),
            status,
            error: error.clone(),
            request_headers: crate::redact::headers(
                sent_headers.iter().map(|(n, v)| (n.as_str(), v.as_str())),
                &configured,
            ),
            response_headers: crate::redact::headers(recorded_response, &configured),
            duration_us: started.elapsed().as_micros() as u64,
            sent_frame,
        });
        // A GET of the event stream never ends: its body is not read.
        let stream = method == reqwest::Method::GET
            && headers
                .accept
                .unwrap_or("")
                .starts_with("text/event-stream");
        let mut body = Vec::new();
        if !stream && let Some(r) = response.as_mut() {
            let deadline = tokio::time::Instant::now() + self.wait;
            while body.len() < MAX_BODY {
                match tokio::time::timeout_at(deadline, r.chunk()).await {
                    Ok(Ok(Some(chunk))) => body.extend_from_slice(&chunk),
                    _ => break,
                }
            }
        }
        let body = String::from_utf8_lossy(&body).into_owned();
        let reply = Reply {
            frames,
            status,
            headers: response_headers,
            body,
            error,
        };
        // The answer (the first message of a JSON body or an SSE stream) goes in the record.
        if let Some(message) = reply.messages().into_iter().next() {
            let bytes = serde_json::to_vec(&message).expect("JSON");
            let frame = self
                .traffic
                .append_frame_via(Direction::In, bytes, None, Some(seq));
            let mut frames = reply.frames.clone();
            frames.push(frame.seq);
            return Reply { frames, ..reply };
        }
        reply
    }

    async fn post(&self, body: &Value, headers: &Headers) -> Reply {
        self.send(reqwest::Method::POST, Some(body), headers).await
    }
}

fn request(id: &str, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialize(id: &str) -> Value {
    request(
        id,
        names::INITIALIZE,
        json!({
            "protocolVersion": revision::LATEST_STATEFUL,
            "capabilities": {},
            "clientInfo": {"name": "periscope-check", "version": crate::ENGINE_VERSION},
        }),
    )
}

/// A modern request: its metadata in `_meta`.
fn modern(id: &str, method: &str) -> Value {
    let mut params = None;
    crate::era::stamp_request_meta(
        &mut params,
        revision::LATEST_MODERN,
        &json!({}),
        &json!({"name": "periscope-check", "version": crate::ENGINE_VERSION}),
        None,
    );
    request(id, method, params.unwrap_or(json!({})))
}

fn is_4xx(reply: &Reply, expected: u16) -> Outcome {
    match reply.status {
        Some(s) if s == expected => Outcome::pass(reply.frames.clone(), format!("HTTP {s}")),
        _ => Outcome::broken(
            reply.frames.clone(),
            format!("got {} (expected {expected})", reply.said()),
        ),
    }
}

fn skip_all(reason: NotAsked, why: &str, options: &CheckOptions) -> Vec<(Rule, Outcome)> {
    ALL.into_iter()
        .filter(|r| options.selects(*r))
        .map(|r| (r, Outcome::skip(reason.clone(), why)))
        .collect()
}

pub(crate) async fn ask(
    target: &CheckTarget,
    options: &CheckOptions,
    spoken: &[Era],
    traffic: Arc<Traffic>,
) -> Vec<(Rule, Outcome)> {
    let CheckTarget::Http { target, .. } = target else {
        return skip_all(
            NotAsked::OtherTransport,
            "a rule of Streamable HTTP",
            options,
        );
    };
    if !ALL.iter().any(|r| options.selects(*r)) {
        return Vec::new();
    }
    let client = match reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(options.wait)
        .build()
    {
        Ok(c) => c,
        Err(e) => return skip_all(NotAsked::NoSession, &e.to_string(), options),
    };
    let raw = Raw {
        client,
        target,
        traffic,
        wait: options.wait,
    };
    let legacy = spoken.contains(&Era::Legacy);
    let mut found = Vec::new();
    // The first question: does the server answer without a sign-in?
    let opening = if legacy {
        initialize("check-http-1")
    } else {
        modern("check-http-1", names::SERVER_DISCOVER)
    };
    let opening_headers = Headers {
        version: (!legacy).then(|| revision::LATEST_MODERN.to_string()),
        extra: modern_method_header(legacy, names::SERVER_DISCOVER),
        ..Headers::default()
    };
    let mut opened = raw.post(&opening, &opening_headers).await;
    // A protected server: its challenge, then the rest asked with the check's bearer token
    // (the sign-in's), when it has one.
    let signed_in: HttpTarget;
    let mut raw = raw;
    if opened.status == Some(401) {
        found.push((Rule::AuthChallenge, auth_challenge(&raw, &opened).await));
        found.push((
            Rule::TokenInQuery,
            token_in_query(&raw, options, &opening, true).await,
        ));
        let rest = ALL
            .into_iter()
            .filter(|r| !matches!(r, Rule::AuthChallenge | Rule::TokenInQuery));
        let Some(bearer) = bearer_of(options, &raw.target.url).await else {
            for rule in rest {
                found.push((
                    rule,
                    Outcome::skip(
                        NotAsked::NoSession,
                        "the server requires a sign-in, and the check holds no bearer token for it",
                    ),
                ));
            }
            return found;
        };
        let mut headers = raw.target.headers.clone();
        headers.push(bearer);
        signed_in = HttpTarget {
            headers,
            ..raw.target.clone()
        };
        raw = Raw {
            target: &signed_in,
            ..raw
        };
        opened = raw.post(&opening, &opening_headers).await;
        if opened.status == Some(401) {
            for rule in rest {
                found.push((
                    rule,
                    Outcome::skip(
                        NotAsked::NoSession,
                        format!(
                            "the server refused the check's token too ({})",
                            opened.said()
                        ),
                    ),
                ));
            }
            return found;
        }
    } else {
        found.push((
            Rule::AuthChallenge,
            Outcome::skip(
                NotAsked::NothingToAsk,
                format!("the server answered without a sign-in ({})", opened.said()),
            ),
        ));
        found.push((
            Rule::TokenInQuery,
            token_in_query(&raw, options, &opening, false).await,
        ));
    }
    let session = opened.header("mcp-session-id").map(str::to_string);
    let version = if legacy {
        revision::LATEST_STATEFUL
    } else {
        revision::LATEST_MODERN
    };
    let usual = Headers {
        session: session.clone(),
        version: Some(version.to_string()),
        ..Headers::default()
    };
    // A request every server of the era answers, and its method.
    let (cheap, cheap_method) = if legacy {
        (
            request("check-http-ping", names::PING, json!({})),
            names::PING,
        )
    } else {
        (
            modern("check-http-ping", names::SERVER_DISCOVER),
            names::SERVER_DISCOVER,
        )
    };
    let with_method = |mut headers: Headers| {
        headers
            .extra
            .extend(modern_method_header(legacy, cheap_method));
        headers
    };
    if legacy {
        let initialized = json!({"jsonrpc": "2.0", "method": names::INITIALIZED});
        let reply = raw.post(&initialized, &usual).await;
        found.push((
            Rule::NotificationAccepted,
            match (reply.status, reply.body.trim().is_empty()) {
                (Some(202), true) => Outcome::pass(reply.frames, "HTTP 202, no body"),
                _ => Outcome::broken(
                    reply.frames.clone(),
                    format!(
                        "notifications/initialized got {}{} (expected 202 and no body)",
                        reply.said(),
                        if reply.body.trim().is_empty() {
                            ""
                        } else {
                            " with a body"
                        }
                    ),
                ),
            },
        ));
    } else {
        found.push((
            Rule::NotificationAccepted,
            Outcome::skip(
                NotAsked::OtherEra,
                "asked in the legacy era (its notifications/initialized)",
            ),
        ));
    }
    match &session {
        None => {
            for rule in [
                Rule::SessionIdAscii,
                Rule::UnknownSession,
                Rule::MissingSession,
                Rule::DeletedSession,
            ] {
                found.push((
                    rule,
                    Outcome::skip(
                        NotAsked::NothingToAsk,
                        "the server gave no Mcp-Session-Id (it keeps no sessions)",
                    ),
                ));
            }
        }
        Some(id) => {
            let visible = !id.is_empty() && id.bytes().all(|b| (0x21..=0x7e).contains(&b));
            found.push((
                Rule::SessionIdAscii,
                if visible {
                    Outcome::pass(opened.frames.clone(), "a session id of visible ASCII")
                } else {
                    Outcome::broken(
                        opened.frames.clone(),
                        format!("Mcp-Session-Id {id:?} holds characters outside 0x21-0x7E"),
                    )
                },
            ));
            let unknown = raw
                .post(
                    &cheap,
                    &Headers {
                        session: Some("periscope-check-no-such-session".into()),
                        ..usual.clone()
                    },
                )
                .await;
            found.push((Rule::UnknownSession, is_4xx(&unknown, 404)));
            let missing = raw
                .post(
                    &cheap,
                    &Headers {
                        session: None,
                        ..usual.clone()
                    },
                )
                .await;
            found.push((Rule::MissingSession, is_4xx(&missing, 400)));
        }
    }
    let bad_version = raw
        .post(
            &cheap,
            &with_method(Headers {
                version: Some("1999-01-01".into()),
                ..usual.clone()
            }),
        )
        .await;
    found.push((Rule::ProtocolVersionHeader, is_4xx(&bad_version, 400)));
    let accept = raw
        .post(
            &cheap,
            &with_method(Headers {
                accept: Some("text/plain"),
                ..usual.clone()
            }),
        )
        .await;
    found.push((Rule::AcceptHeader, is_4xx(&accept, 406)));
    let content_type = raw
        .post(
            &cheap,
            &with_method(Headers {
                content_type: Some("text/plain"),
                ..usual.clone()
            }),
        )
        .await;
    found.push((Rule::ContentType, is_4xx(&content_type, 415)));
    let stream = raw
        .send(
            reqwest::Method::GET,
            None,
            &Headers {
                accept: Some("text/event-stream"),
                ..usual.clone()
            },
        )
        .await;
    let content = stream.header("content-type").unwrap_or("").to_string();
    found.push((
        Rule::GetStream,
        match stream.status {
            Some(405) => Outcome::pass(stream.frames.clone(), "HTTP 405: no GET stream"),
            Some(200) if content.starts_with("text/event-stream") => {
                Outcome::pass(stream.frames.clone(), "HTTP 200, text/event-stream")
            }
            _ => Outcome::broken(
                stream.frames.clone(),
                format!(
                    "GET got {}{} (expected an SSE stream or 405)",
                    stream.said(),
                    if content.is_empty() {
                        String::new()
                    } else {
                        format!(", {content}")
                    }
                ),
            ),
        },
    ));
    if spoken.contains(&Era::Modern) {
        let body = modern("check-http-method", names::SERVER_DISCOVER);
        let reply = raw
            .post(
                &body,
                &Headers {
                    session: None,
                    version: Some(revision::LATEST_MODERN.into()),
                    extra: vec![("mcp-method", names::TOOLS_LIST.into())],
                    ..Headers::default()
                },
            )
            .await;
        let code = reply
            .messages()
            .iter()
            .find_map(|m| m.pointer("/error/code").and_then(Value::as_i64));
        found.push((
            Rule::MethodHeader,
            if reply.status == Some(400) || code == Some(crate::wire::error_code::HEADER_MISMATCH) {
                Outcome::pass(reply.frames.clone(), format!("refused: {}", reply.said()))
            } else {
                Outcome::broken(
                    reply.frames.clone(),
                    format!(
                        "server/discover sent with Mcp-Method: tools/list got {}",
                        reply.said()
                    ),
                )
            },
        ));
    } else {
        found.push((
            Rule::MethodHeader,
            Outcome::skip(NotAsked::OtherEra, "a rule of 2026-07-28"),
        ));
    }
    found.push((Rule::Origin, origin(&raw, legacy).await));
    if let Some(id) = &session {
        let deleted = raw
            .send(
                reqwest::Method::DELETE,
                None,
                &Headers {
                    session: Some(id.clone()),
                    ..usual.clone()
                },
            )
            .await;
        found.push((
            Rule::DeletedSession,
            match deleted.status {
                Some(405) => Outcome::pass(deleted.frames.clone(), "HTTP 405: sessions are not deleted by clients"),
                Some(s) if (200..300).contains(&s) => {
                    let after = raw.post(&cheap, &usual).await;
                    let mut frames = deleted.frames.clone();
                    frames.extend(after.frames.iter().copied());
                    match after.status {
                        Some(404) => Outcome::pass(frames, format!("DELETE got {s}, then the session's requests 404")),
                        _ => Outcome::broken(
                            frames,
                            format!("after DELETE ({s}) the session's next request got {} (expected 404)", after.said()),
                        ),
                    }
                }
                _ => Outcome::broken(
                    deleted.frames.clone(),
                    format!("DELETE got {} (expected 2xx or 405)", deleted.said()),
                ),
            },
        ));
    }
    found.retain(|(rule, _)| options.selects(*rule));
    found
}

/// The 2026-07-28 `Mcp-Method` header that mirrors the body's method.
fn modern_method_header(legacy: bool, method: &str) -> Vec<(&'static str, String)> {
    if legacy {
        Vec::new()
    } else {
        vec![("mcp-method", method.to_string())]
    }
}

/// DNS-rebinding protection: a server on loopback refuses a foreign Origin with 403.
async fn origin(raw: &Raw<'_>, legacy: bool) -> Outcome {
    let loopback = url::Url::parse(&raw.target.url)
        .map(|u| crate::net_guard::is_loopback(&u))
        .unwrap_or(false);
    if !loopback {
        return Outcome::skip(
            NotAsked::NothingToAsk,
            "the server is not on loopback (the rule guards local servers)",
        );
    }
    let body = if legacy {
        initialize("check-http-origin")
    } else {
        modern("check-http-origin", names::SERVER_DISCOVER)
    };
    let reply = raw
        .post(
            &body,
            &Headers {
                version: (!legacy).then(|| revision::LATEST_MODERN.to_string()),
                extra: {
                    let mut extra = vec![("origin", "http://periscope-check.invalid".to_string())];
                    extra.extend(modern_method_header(legacy, names::SERVER_DISCOVER));
                    extra
                },
                ..Headers::default()
            },
        )
        .await;
    is_4xx(&reply, 403)
}

/// The sign-in's token as the one header a raw request carries it in: a plain bearer token
/// (a DPoP-bound one needs a proof made for each request, which these requests do not make).
async fn bearer_of(options: &CheckOptions, url: &str) -> Option<(String, String)> {
    let authorizer = options.session.authorizer.as_ref()?;
    let token = authorizer.current().await?;
    let mut headers = authorizer.present(&token, "POST", url);
    match (headers.pop(), headers.is_empty()) {
        (Some((name, value)), true)
            if name.eq_ignore_ascii_case("authorization") && value.starts_with("Bearer ") =>
        {
            Some((name, value))
        }
        _ => None,
    }
}

/// `http.token-in-query`: the token the check holds (a configured `Authorization: Bearer`
/// header, else the sign-in's) sent as `?access_token=` instead of the header must not open
/// the server. `refused_bare`: the opening request, sent without a token, got 401 already.
/// The URL is recorded with the token redacted; no message carries it.
async fn token_in_query(
    raw: &Raw<'_>,
    options: &CheckOptions,
    opening: &Value,
    refused_bare: bool,
) -> Outcome {
    let is_auth = |name: &str| name.eq_ignore_ascii_case("authorization");
    let configured = raw
        .target
        .headers
        .iter()
        .find(|(n, _)| is_auth(n))
        .and_then(|(_, v)| v.strip_prefix("Bearer ").map(str::to_string));
    let token = match (&configured, &options.session.authorizer) {
        (Some(token), _) => Some(token.clone()),
        (None, Some(authorizer)) if refused_bare => authorizer.current().await,
        _ => None,
    };
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Outcome::skip(
            NotAsked::NothingToAsk,
            "no token to try: the server answers without one, or the check is not signed in",
        );
    };
    let bare = HttpTarget {
        headers: raw
            .target
            .headers
            .iter()
            .filter(|(n, _)| !is_auth(n))
            .cloned()
            .collect(),
        ..raw.target.clone()
    };
    let bare_raw = Raw {
        client: raw.client.clone(),
        target: &bare,
        traffic: raw.traffic.clone(),
        wait: raw.wait,
    };
    let legacy = opening.get("method").and_then(Value::as_str) == Some(names::INITIALIZE);
    let headers = Headers {
        version: (!legacy).then(|| revision::LATEST_MODERN.to_string()),
        extra: modern_method_header(legacy, names::SERVER_DISCOVER),
        ..Headers::default()
    };
    let mut frames = Vec::new();
    if !refused_bare {
        let without = bare_raw.post(opening, &headers).await;
        frames.extend(without.frames.iter().copied());
        if without.status != Some(401) {
            return Outcome::skip(
                NotAsked::NothingToAsk,
                format!("the server answers without a token ({})", without.said()),
            );
        }
    }
    let separator = if bare.url.contains('?') { '&' } else { '?' };
    let in_query = HttpTarget {
        url: format!(
            "{}{separator}access_token={}",
            bare.url,
            url::form_urlencoded::byte_serialize(token.as_bytes()).collect::<String>()
        ),
        ..bare.clone()
    };
    let query_raw = Raw {
        target: &in_query,
        ..bare_raw
    };
    let reply = query_raw.post(opening, &headers).await;
    frames.extend(reply.frames.iter().copied());
    match reply.status {
        Some(status) if (400..500).contains(&status) => Outcome::pass(
            frames,
            format!("HTTP {status}: a token in the query string opens nothing"),
        ),
        _ => Outcome::broken(
            frames,
            format!(
                "the token sent as ?access_token= instead of the Authorization header got {}",
                reply.said()
            ),
        ),
    }
}

/// A protected server's 401: a `WWW-Authenticate: Bearer` challenge whose `resource_metadata`
/// (or the well-known path) serves a protected-resource document naming authorization servers.
async fn auth_challenge(raw: &Raw<'_>, opened: &Reply) -> Outcome {
    let mut frames = opened.frames.clone();
    let Some(challenge) = opened.header("www-authenticate") else {
        return Outcome::broken(frames, "HTTP 401 without a WWW-Authenticate header");
    };
    if !challenge.to_ascii_lowercase().starts_with("bearer") {
        return Outcome::broken(
            frames,
            format!("WWW-Authenticate is {challenge:?}, not a Bearer challenge"),
        );
    }
    let metadata = challenge
        .split("resource_metadata=")
        .nth(1)
        .map(|rest| {
            rest.trim_start_matches('"')
                .split(['"', ','])
                .next()
                .unwrap_or("")
                .to_string()
        })
        .or_else(|| {
            let url = url::Url::parse(&raw.target.url).ok()?;
            Some(format!(
                "{}://{}/.well-known/oauth-protected-resource{}",
                url.scheme(),
                url.host_str()?.to_string()
                    + &url.port().map(|p| format!(":{p}")).unwrap_or_default(),
                url.path().trim_end_matches('/')
            ))
        });
    let Some(metadata) = metadata else {
        return Outcome::broken(frames, "no protected-resource metadata URL");
    };
    let target = HttpTarget {
        url: metadata.clone(),
        ..HttpTarget::default()
    };
    let fetcher = Raw {
        client: raw.client.clone(),
        target: &target,
        traffic: raw.traffic.clone(),
        wait: raw.wait,
    };
    let document = fetcher
        .send(
            reqwest::Method::GET,
            None,
            &Headers {
                accept: Some("application/json"),
                ..Headers::default()
            },
        )
        .await;
    frames.extend(document.frames.iter().copied());
    let body = document.body.clone();
    let doc: Option<Value> = serde_json::from_str(&body).ok();
    let servers = doc
        .as_ref()
        .and_then(|d| d.get("authorization_servers"))
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    let resource = doc
        .as_ref()
        .and_then(|d| d.get("resource"))
        .is_some_and(Value::is_string);
    if servers && resource {
        Outcome::pass(
            frames,
            format!("401 with a Bearer challenge; {metadata} names its authorization servers"),
        )
    } else {
        Outcome::broken(
            frames,
            format!(
                "the protected-resource document at {metadata} lacks resource or authorization_servers ({})",
                document.said()
            ),
        )
    }
}
