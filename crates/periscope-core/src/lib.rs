//! The Periscope engine: everything an MCP client does, with no GUI.
//!
//! A [`Session`](session::Session) opens a [`transport`], records every frame in its
//! [`Traffic`](traffic::Traffic) before anything interprets it, then pairs responses, delivers
//! notifications and hands the server's requests to a host-supplied
//! [`HostHandler`](session::HostHandler). Hosts (the desktop app, the CLI) subscribe to
//! [`Event`](event::Event)s. See docs/engine.md.

// Request errors carry the close report and server error a user needs to see; they are rare,
// so their size does not matter.
#![allow(clippy::result_large_err)]

/// The engine's version (this crate's), which the app's About dialog shows beside its own.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod answering;
pub mod apps;
pub mod audit;
pub mod auth;
pub mod cache_hint;
pub mod check;
pub mod config;
pub mod diff;
pub mod doctor;
pub mod era;
pub mod evals;
pub mod event;
pub mod export;
pub mod features;
pub mod hidden_text;
pub mod host_config;
pub mod limits;
pub mod live_logs;
pub mod load;
pub mod model;
pub mod name_scripts;
pub mod net_guard;
pub mod private_file;
pub mod protocol_check;
pub mod record;
pub mod redact;
pub mod replay;
pub mod request_headers;
pub mod resource_template;
pub mod revision;
pub mod rows;
mod sarif;
pub mod saved_calls;
pub mod schema_check;
pub mod schema_worker;
pub mod secret_hint;
pub mod server_secrets;
pub mod session;
pub mod skills;
pub mod store;
pub mod subscription;
pub mod summary;
pub mod tasks;
pub mod timeline;
pub mod traffic;
pub mod traffic_window;
pub mod transport;
pub mod view;
pub mod views;
pub mod vocabulary;
pub mod wire;
