//! The commands the UI invokes, one file per concern. Each is a thin call into the app state
//! or the engine; errors are user-readable strings (or a `CallError` where the UI needs the
//! JSON-RPC code).

pub mod about;
pub mod asks;
pub mod catalog;
pub mod connection;
pub mod export;
pub mod host_import;
pub mod icons;
pub mod lists;
pub mod mcp_apps;
pub mod models;
pub mod oauth;
pub mod playground;
pub mod prompts;
pub mod recordings;
pub mod resources;
pub mod saved_calls;
pub mod settings;
pub mod tasks;
pub mod timeline;
pub mod tools;
pub mod traffic;
pub mod utilities;
