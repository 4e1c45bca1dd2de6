//! The HTTP transports (`--http ADDR`), served with axum.
//!
//! - [`HttpMode::Streamable`]: MCP Streamable HTTP (protocol 2025-03-26 and
//!   later) at `/mcp`, using rmcp's [`StreamableHttpService`] in stateful mode:
//!   `initialize` creates a session named by the `Mcp-Session-Id` header, each
//!   request POST is answered with an SSE stream (progress notifications of a
//!   request arrive on it before its result), `GET /mcp` opens the standalone
//!   stream and `DELETE /mcp` ends the session.
//! - [`HttpMode::LegacySse`]: the HTTP+SSE transport of protocol 2024-11-05,
//!   which rmcp no longer ships. `GET /sse` opens a session; its first event is
//!   `endpoint` with the relative URL `/message?sessionId=<id>` to POST client
//!   messages to (answered `202 Accepted`); everything the server sends arrives
//!   as `message` events on the GET stream. The session ends when that stream
//!   closes.
//!
//! Either way every session gets its own [`DemoServer`], and a POST naming an
//! unknown session gets `404 Not Found`.
//!
//! [`HttpServer::bind_oauth`] serves Streamable HTTP behind OAuth: `/mcp`
//! needs a bearer token issued by the authorization server that
//! [`crate::oauth`] runs on the same origin.
//!
//! The eras ([`Eras`]) shape Streamable HTTP: `legacy` is the above; `dual`
//! keeps sessions for `initialize` and serves requests carrying modern
//! `_meta` statelessly (rmcp routes each POST by its body and
//! `MCP-Protocol-Version`); `modern` has no sessions at all: GET and DELETE
//! get 405, every request must carry `MCP-Protocol-Version` (-32020 and 400
//! otherwise). Modern requests share one [`ModernState`] per server.

use std::{
    collections::HashMap,
    convert::Infallible,
    future::Future,
    io,
    net::SocketAddr,
    pin::Pin,
    sync::{Arc, Mutex, PoisonError},
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    Router,
    body::Bytes,
    extract::{Query, Request, State},
    http::{HeaderMap, StatusCode, header},
    middleware::{self, Next},
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
    routing::{get, post},
};
use futures::{SinkExt, Stream, StreamExt, channel::mpsc, stream::BoxStream};
use rmcp::{
    ServiceExt,
    model::{ClientJsonRpcMessage, ServerJsonRpcMessage},
    service::ServerInitializeError,
    transport::{
        StreamableHttpServerConfig, StreamableHttpService,
        common::server_side_http::{SessionId, session_id},
        sink_stream::SinkStreamTransport,
        streamable_http_server::session::local::LocalSessionManager,
    },
};
use serde::Deserialize;
use tokio::net::TcpListener;
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::{
    endpoints::{MCP_PATH, MESSAGE_PATH, SSE_PATH},
    era::Eras,
    http_gate,
    modern::ModernState,
    oauth::{self, OAuth, OAuthConfig},
    server::DemoServer,
};

/// How long open streams may take to wind down after a shutdown signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);
/// A Streamable HTTP session with no traffic for this long is closed (rmcp's
/// default is 5 minutes, short for someone poking at an inspector).
const SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(60 * 60);
/// SSE comment interval that keeps idle streams (and proxies) alive.
const SSE_KEEP_ALIVE: Duration = Duration::from_secs(15);
/// Capacity of each legacy session's channels, in messages.
const LEGACY_CHANNEL_CAPACITY: usize = 64;
/// `Host` names accepted when bound to a loopback address (DNS-rebinding
/// protection, as rmcp's default for Streamable HTTP).
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// Which HTTP transport to serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMode {
    /// Streamable HTTP at [`MCP_PATH`].
    Streamable,
    /// The legacy HTTP+SSE transport at [`SSE_PATH`] and [`MESSAGE_PATH`].
    LegacySse,
}

impl HttpMode {
    /// The path clients connect to.
    pub fn path(self) -> &'static str {
        match self {
            Self::Streamable => MCP_PATH,
            Self::LegacySse => SSE_PATH,
        }
    }
}

/// A bound, not yet running, HTTP server.
pub struct HttpServer {
    listener: TcpListener,
    local_addr: SocketAddr,
    mode: HttpMode,
    router: Router,
    /// Cancelled on shutdown: ends every session and open stream.
    shutdown: CancellationToken,
}

impl HttpServer {
    /// Binds `addr` (`host:port`; port 0 picks a free port), legacy era.
    #[cfg(test)]
    pub async fn bind(addr: &str, mode: HttpMode) -> io::Result<Self> {
        Self::bind_with(addr, mode, None, Eras::Legacy).await
    }

    /// Binds `addr` serving `eras` (Streamable HTTP; the legacy HTTP+SSE
    /// transport is legacy whatever `eras` says).
    pub async fn bind_eras(addr: &str, mode: HttpMode, eras: Eras) -> io::Result<Self> {
        Self::bind_with(addr, mode, None, eras).await
    }

    /// Binds `addr` for Streamable HTTP protected by OAuth: `/mcp` needs a
    /// bearer token from the authorization server served on the same origin.
    #[cfg(test)]
    pub async fn bind_oauth(addr: &str, config: OAuthConfig) -> io::Result<Self> {
        Self::bind_oauth_eras(addr, config, Eras::Legacy).await
    }

    /// [`Self::bind_oauth`] serving `eras`.
    pub async fn bind_oauth_eras(addr: &str, config: OAuthConfig, eras: Eras) -> io::Result<Self> {
        Self::bind_with(addr, HttpMode::Streamable, Some(config), eras).await
    }

    async fn bind_with(
        addr: &str,
        mode: HttpMode,
        oauth: Option<OAuthConfig>,
        eras: Eras,
    ) -> io::Result<Self> {
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        // On a loopback address only loopback Host headers are accepted; a
        // server bound to a public address is meant to be reached by any name.
        let check_host = local_addr.ip().is_loopback();
        if !check_host {
            tracing::warn!(%local_addr, "not a loopback address: Host header validation is off");
        }
        let shutdown = CancellationToken::new();
        let router = match (mode, oauth) {
            (HttpMode::Streamable, None) => streamable_router(check_host, shutdown.clone(), eras),
            (HttpMode::Streamable, Some(config)) => {
                let oauth = OAuth::new(config, &format!("http://{local_addr}"));
                tracing::info!(
                    issuer = oauth.issuer(),
                    "OAuth is on: /mcp needs a bearer token"
                );
                oauth_router(check_host, shutdown.clone(), oauth, eras)
            }
            (HttpMode::LegacySse, None) => legacy_router(check_host, shutdown.clone()),
            (HttpMode::LegacySse, Some(_)) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "OAuth protects only Streamable HTTP",
                ));
            }
        };
        Ok(Self {
            listener,
            local_addr,
            mode,
            router,
            shutdown,
        })
    }

    /// The URL clients connect to, e.g. `http://127.0.0.1:8080/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.local_addr, self.mode.path())
    }

    /// Serves until `signal` resolves, then ends every session, closes open
    /// streams and returns once connections are done (or after
    /// [`SHUTDOWN_GRACE`]).
    pub async fn run(self, signal: impl Future<Output = ()> + Send + 'static) -> io::Result<()> {
        let shutdown = self.shutdown;
        let serve = axum::serve(self.listener, self.router).with_graceful_shutdown({
            let shutdown = shutdown.clone();
            async move {
                signal.await;
                tracing::info!("shutting down the HTTP server");
                shutdown.cancel();
            }
        });
        tokio::select! {
            result = serve.into_future() => result,
            () = async {
                shutdown.cancelled().await;
                tokio::time::sleep(SHUTDOWN_GRACE).await;
            } => {
                tracing::warn!("connections still open after the shutdown grace period");
                Ok(())
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Streamable HTTP
// ---------------------------------------------------------------------------

fn streamable_router(check_host: bool, shutdown: CancellationToken, eras: Eras) -> Router {
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown)
        .with_sse_keep_alive(Some(SSE_KEEP_ALIVE));
    config = if check_host {
        config.with_allowed_hosts(LOOPBACK_HOSTS)
    } else {
        config.disable_allowed_hosts()
    };
    if eras.serves_modern() {
        // A modern answer without notifications before it is plain JSON;
        // one with progress (or a listen stream) stays SSE.
        config = config.with_json_response(true);
    }
    if !eras.serves_legacy() {
        // No sessions, no GET stream; a request must name its version.
        config = config
            .with_legacy_session_mode(false)
            .with_stateless_protocol_metadata_required(true);
    }
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE_TIMEOUT);
    let modern = Arc::new(ModernState::default());
    let service = StreamableHttpService::new(
        {
            let modern = modern.clone();
            move || Ok(DemoServer::with_eras(eras, modern.clone()))
        },
        Arc::new(sessions),
        config,
    );
    let router = Router::new()
        .route_service(MCP_PATH, service)
        .route_layer(middleware::from_fn_with_state(
            modern,
            crate::modern::stream_break::cut_if_armed,
        ))
        .route_layer(middleware::from_fn(http_gate::require_jsonrpc));
    if check_host {
        router.route_layer(middleware::from_fn(http_gate::require_local_origin))
    } else {
        router
    }
}

/// Streamable HTTP behind a bearer check, plus the authorization server's
/// routes. Bound to loopback, every route checks the `Host` header first.
fn oauth_router(check_host: bool, shutdown: CancellationToken, oauth: OAuth, eras: Eras) -> Router {
    let router = streamable_router(check_host, shutdown, eras)
        .route_layer(middleware::from_fn_with_state(
            oauth.clone(),
            oauth::require_bearer,
        ))
        .merge(oauth.router());
    if check_host {
        router.layer(middleware::from_fn(require_loopback_host))
    } else {
        router
    }
}

async fn require_loopback_host(request: Request, next: Next) -> Response {
    if !loopback_host(request.headers()) {
        return host_forbidden(request.headers());
    }
    next.run(request).await
}

// ---------------------------------------------------------------------------
// Legacy HTTP+SSE (2024-11-05)
// ---------------------------------------------------------------------------

/// The open legacy sessions, by id: where to send each one's client messages.
type Sessions = Arc<Mutex<HashMap<SessionId, mpsc::Sender<ClientJsonRpcMessage>>>>;

#[derive(Clone)]
struct LegacyState {
    sessions: Sessions,
    check_host: bool,
    shutdown: CancellationToken,
}

fn legacy_router(check_host: bool, shutdown: CancellationToken) -> Router {
    let state = LegacyState {
        sessions: Sessions::default(),
        check_host,
        shutdown,
    };
    Router::new()
        .route(SSE_PATH, get(open_legacy_session))
        .route(MESSAGE_PATH, post(post_legacy_message))
        .with_state(state)
}

/// `GET /sse`: starts a session and streams its server messages.
async fn open_legacy_session(State(state): State<LegacyState>, headers: HeaderMap) -> Response {
    if state.check_host && !loopback_host(&headers) {
        return host_forbidden(&headers);
    }
    let id = session_id();
    let (to_server, from_client) = mpsc::channel::<ClientJsonRpcMessage>(LEGACY_CHANNEL_CAPACITY);
    let (to_client, from_server) = mpsc::channel::<ServerJsonRpcMessage>(LEGACY_CHANNEL_CAPACITY);
    lock(&state.sessions).insert(id.clone(), to_server);
    let session_ct = state.shutdown.child_token();
    tracing::info!(session_id = %id, "legacy SSE session opened");
    tokio::spawn(run_legacy_session(
        state.sessions.clone(),
        id.clone(),
        SinkStreamTransport::new(to_client, from_client),
        session_ct.clone(),
    ));

    let endpoint = Event::default()
        .event("endpoint")
        .data(format!("{MESSAGE_PATH}?sessionId={id}"));
    let messages = from_server.filter_map(|message| async move {
        match serde_json::to_string(&message) {
            Ok(json) => Some(Event::default().event("message").data(json)),
            Err(error) => {
                tracing::error!(%error, "cannot serialize a server message");
                None
            }
        }
    });
    let events = futures::stream::once(async move { endpoint })
        .chain(messages)
        .take_until(session_ct.clone().cancelled_owned())
        .map(Ok::<_, Infallible>)
        .boxed();
    // Dropping the stream (the client went away) ends the session.
    let events = GuardedStream {
        inner: events,
        _guard: session_ct.drop_guard(),
    };
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(SSE_KEEP_ALIVE))
        .into_response()
}

/// Serves one legacy session until its stream closes (or the service ends,
/// which then closes the stream), then forgets it.
async fn run_legacy_session(
    sessions: Sessions,
    id: SessionId,
    transport: SinkStreamTransport<
        mpsc::Sender<ServerJsonRpcMessage>,
        mpsc::Receiver<ClientJsonRpcMessage>,
    >,
    ct: CancellationToken,
) {
    let server = DemoServer::new();
    // Tools waiting for a client reply stop waiting once the stream is gone.
    let client_gone = server.client_gone_token();
    tokio::spawn({
        let ct = ct.clone();
        async move {
            ct.cancelled().await;
            client_gone.cancel();
        }
    });
    match server.serve_with_ct(transport, ct.clone()).await {
        Ok(service) => match service.waiting().await {
            Ok(reason) => tracing::info!(session_id = %id, ?reason, "legacy SSE session ended"),
            Err(error) => tracing::error!(session_id = %id, %error, "the MCP service task failed"),
        },
        Err(ServerInitializeError::ConnectionClosed(_) | ServerInitializeError::Cancelled) => {
            tracing::info!(session_id = %id, "legacy SSE session closed before initialization");
        }
        Err(error) => tracing::warn!(session_id = %id, %error, "MCP initialization failed"),
    }
    ct.cancel();
    lock(&sessions).remove(&id);
}

#[derive(Debug, Deserialize)]
struct MessageQuery {
    #[serde(rename = "sessionId")]
    session_id: String,
}

/// `POST /message?sessionId=<id>`: one JSON-RPC message for that session.
async fn post_legacy_message(
    State(state): State<LegacyState>,
    Query(query): Query<MessageQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if state.check_host && !loopback_host(&headers) {
        return host_forbidden(&headers);
    }
    let sender = lock(&state.sessions)
        .get(query.session_id.as_str())
        .cloned();
    let Some(mut sender) = sender else {
        return session_not_found();
    };
    let message: ClientJsonRpcMessage = match serde_json::from_slice(&body) {
        Ok(message) => message,
        Err(error) => {
            return (
                StatusCode::BAD_REQUEST,
                format!("Bad Request: not a JSON-RPC message: {error}"),
            )
                .into_response();
        }
    };
    if sender.send(message).await.is_err() {
        // The session ended after the lookup.
        return session_not_found();
    }
    StatusCode::ACCEPTED.into_response()
}

fn session_not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response()
}

/// Whether the `Host` header names a loopback host.
fn loopback_host(headers: &HeaderMap) -> bool {
    headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<axum::http::uri::Authority>().ok())
        .is_some_and(|authority| {
            let name = authority
                .host()
                .trim_start_matches('[')
                .trim_end_matches(']');
            LOOPBACK_HOSTS
                .iter()
                .any(|allowed| name.eq_ignore_ascii_case(allowed))
        })
}

fn host_forbidden(headers: &HeaderMap) -> Response {
    tracing::warn!(
        host = ?headers.get(header::HOST),
        "rejected a request with a disallowed Host header"
    );
    (
        StatusCode::FORBIDDEN,
        "Forbidden: Host header is not allowed",
    )
        .into_response()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A stream that cancels a token when dropped.
struct GuardedStream<T> {
    inner: BoxStream<'static, T>,
    _guard: DropGuard,
}

impl<T> Stream for GuardedStream<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        self.inner.poll_next_unpin(cx)
    }
}
