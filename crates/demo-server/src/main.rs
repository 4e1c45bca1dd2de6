//! `periscope-demo-server`: the demo MCP server Periscope is tested against.
//!
//! This file handles the command line, logging and the transport; the MCP
//! behaviour lives in [`server::DemoServer`] and is transport-independent.
//! Over stdio, stdout carries the protocol; over HTTP it carries only the
//! server's URL. Everything else is logged to stderr.

// Sampling, roots and logging are deprecated by SEP-2577 in rmcp 3.x, but
// they are part of every protocol revision this server speaks (2024-11-05 to
// 2025-11-25) and exercising them is the point of this fixture.
#![allow(deprecated)]

mod addition;
mod app;
#[cfg(test)]
mod app_tests;
#[cfg(test)]
mod e2e_tests;
mod endpoints;
mod era;
mod http;
mod http_gate;
#[cfg(test)]
mod http_tests;
mod media;
mod modern;
#[cfg(test)]
mod modern_http_tests;
#[cfg(test)]
mod modern_stdio_tests;
mod oauth;
#[cfg(test)]
mod oauth_tests;
mod prompts;
mod resources;
mod server;
mod skills;
#[cfg(test)]
mod skills_tests;
mod state;
mod stdio;
mod tool_result;
mod tools;

use std::{io::Write, process::ExitCode, sync::Arc, time::Duration};

use clap::{Parser, ValueEnum};
use rmcp::{ServiceExt, service::ServerInitializeError};
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

use crate::{
    era::Eras,
    http::{HttpMode, HttpServer},
    oauth::OAuthConfig,
    server::DemoServer,
};

/// Demo MCP server that exercises every client-facing MCP feature.
#[derive(Debug, Parser)]
#[command(
    name = "periscope-demo-server",
    version,
    after_help = "With no arguments the server speaks MCP over stdio (newline-delimited JSON-RPC \
                  on stdin/stdout) and exits when stdin closes. With --http it serves MCP over \
                  HTTP instead, prints \"listening on URL\" on stderr and the URL alone on \
                  stdout, and runs until SIGTERM or Ctrl-C; add --oauth to require a bearer \
                  token from the built-in, auto-approving authorization server on the same \
                  origin. Logs go to stderr; set RUST_LOG \
                  (default \"info,rmcp=warn\") to change their verbosity.\n\n\
                  Protocol eras (--eras): legacy (the default for now) speaks the initialize \
                  handshake of 2024-11-05 to 2025-11-25 and answers server/discover with \
                  \"method not found\"; modern speaks only 2026-07-28 (server/discover, \
                  per-request _meta, no sessions, initialize refused with -32022); dual speaks \
                  both, choosing per request: initialize opens a legacy session, a request with \
                  2026-07-28 _meta is served statelessly. The modern era adds the tools \
                  mrtr_form, mrtr_two_inputs, mrtr_two_rounds (input_required), long_job (a \
                  task), regional_lookup and broken_headers (x-mcp-header), subscriptions/listen \
                  and caching hints; see crates/demo-server/README.md."
)]
struct Cli {
    /// Transport to serve MCP over (without --http).
    #[arg(long, value_enum, default_value_t = Transport::Stdio, conflicts_with = "http")]
    transport: Transport,

    /// Protocol eras to serve: legacy (initialize, 2024-11-05 to
    /// 2025-11-25), modern (2026-07-28 only) or dual (both). The legacy
    /// HTTP+SSE transport (--sse) is always legacy.
    #[arg(long, value_enum, default_value_t = Eras::Legacy)]
    eras: Eras,

    /// Serve MCP over HTTP on this address instead of stdio: Streamable HTTP
    /// at /mcp (port 0 picks a free port).
    #[arg(long, value_name = "HOST:PORT")]
    http: Option<String>,

    /// With --http: serve the legacy HTTP+SSE transport (protocol 2024-11-05)
    /// at /sse and /message instead of Streamable HTTP.
    #[arg(long, requires = "http")]
    sse: bool,

    /// With --http: protect /mcp with OAuth. The same origin serves an
    /// in-memory authorization server (metadata, dynamic client registration,
    /// /authorize with PKCE, auto-approved, and /token); /mcp then needs
    /// "Authorization: Bearer <access token>".
    #[arg(long, requires = "http", conflicts_with = "sse")]
    oauth: bool,

    /// With --oauth: access token lifetime in seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = oauth::DEFAULT_TOKEN_TTL_SECS,
        value_parser = clap::value_parser!(u64).range(1..),
        requires = "oauth"
    )]
    token_ttl: u64,

    /// With --oauth: the supported scopes, space-separated (all are granted
    /// when a client asks for none).
    #[arg(
        long,
        value_name = "SCOPES",
        default_value = oauth::DEFAULT_SCOPES,
        value_parser = oauth::Scopes::parse,
        requires = "oauth"
    )]
    scopes: oauth::Scopes,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Transport {
    /// Newline-delimited JSON-RPC over stdin/stdout.
    Stdio,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging();

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "failed to start the tokio runtime");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async {
        if let Some(addr) = &cli.http {
            let mode = if cli.sse {
                HttpMode::LegacySse
            } else {
                HttpMode::Streamable
            };
            let oauth = cli.oauth.then(|| OAuthConfig {
                token_ttl: Duration::from_secs(cli.token_ttl),
                scopes: cli.scopes.clone(),
            });
            return serve_http(addr, mode, oauth, cli.eras).await;
        }
        tokio::select! {
            code = run(cli.transport, cli.eras) => code,
            () = shutdown_signal() => {
                tracing::info!("received a shutdown signal");
                ExitCode::SUCCESS
            }
        }
    });
    // A blocking read of stdin cannot be cancelled; don't wait for it.
    runtime.shutdown_timeout(Duration::from_millis(200));
    code
}

fn init_logging() {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,rmcp=warn"));
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .init();
}

async fn run(transport: Transport, eras: Eras) -> ExitCode {
    match transport {
        Transport::Stdio => serve_stdio(eras).await,
    }
}

async fn serve_stdio(eras: Eras) -> ExitCode {
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        ?eras,
        "{} serving MCP on stdio",
        server::SERVER_NAME
    );
    let server = DemoServer::with_eras(eras, Arc::default());
    let abort = CancellationToken::new();
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = stdio::transport(stdin, stdout, server.client_gone_token(), abort.clone());
    let service = match server.serve_with_ct(transport, abort).await {
        Ok(service) => service,
        Err(ServerInitializeError::ConnectionClosed(_) | ServerInitializeError::Cancelled) => {
            tracing::info!("stdin closed before initialization");
            return ExitCode::SUCCESS;
        }
        Err(ServerInitializeError::InitializeFailed(error)) if !eras.serves_legacy() => {
            // The refusal went to the client; nothing else can follow it.
            tracing::warn!(%error, "a legacy client sent initialize to a modern-only server");
            return ExitCode::FAILURE;
        }
        Err(error) => {
            tracing::error!(%error, "MCP initialization failed");
            return ExitCode::FAILURE;
        }
    };
    match service.waiting().await {
        Ok(reason) => {
            tracing::info!(?reason, "session ended");
            ExitCode::SUCCESS
        }
        Err(error) => {
            tracing::error!(%error, "the MCP service task failed");
            ExitCode::FAILURE
        }
    }
}

/// Serves MCP over HTTP on `addr` until SIGTERM / Ctrl-C.
async fn serve_http(
    addr: &str,
    mode: HttpMode,
    oauth: Option<OAuthConfig>,
    eras: Eras,
) -> ExitCode {
    let oauth_on = oauth.is_some();
    let bound = match oauth {
        Some(config) => HttpServer::bind_oauth_eras(addr, config, eras).await,
        None => HttpServer::bind_eras(addr, mode, eras).await,
    };
    let server = match bound {
        Ok(server) => server,
        Err(error) => {
            tracing::error!(%error, addr, "cannot listen for HTTP");
            return ExitCode::FAILURE;
        }
    };
    let url = server.url();
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        ?mode,
        ?eras,
        oauth = oauth_on,
        "{} serving MCP over HTTP",
        server::SERVER_NAME
    );
    // Both lines are a contract: tests and tools parse them.
    eprintln!("listening on {url}");
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = writeln!(stdout, "{url}").and_then(|()| stdout.flush()) {
        tracing::warn!(%error, "cannot write the URL to stdout");
    }
    drop(stdout);
    let signal = async {
        shutdown_signal().await;
        tracing::info!("received a shutdown signal");
    };
    match server.run(signal).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "the HTTP server failed");
            ExitCode::FAILURE
        }
    }
}

/// Resolves on Ctrl-C, or SIGTERM on Unix.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    () = ctrl_c() => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    ctrl_c().await;
}

/// Resolves on Ctrl-C; never resolves if Ctrl-C cannot be listened for.
async fn ctrl_c() {
    if let Err(error) = tokio::signal::ctrl_c().await {
        tracing::warn!(%error, "cannot listen for Ctrl-C");
        std::future::pending::<()>().await;
    }
}
