//! What a stdio server's environment lacks: the launchers on its PATH, and the proxy
//! variables it does not inherit.

use std::path::Path;

use crate::config::StdioTarget;

/// The programs MCP servers are usually started with; when a command is not found, which of
/// them are missing says what to install.
pub const LAUNCHERS: [&str; 4] = ["npx", "uvx", "node", "python3"];

/// Proxy variables, in both spellings programs read.
const PROXY_VARIABLES: [&str; 8] = [
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "https_proxy",
    "http_proxy",
    "all_proxy",
    "no_proxy",
];

/// The launchers not on the PATH the server starts with (its entry's own PATH, else
/// Periscope's, which it inherits).
pub(super) fn missing(target: &StdioTarget) -> Vec<String> {
    let path = target
        .env
        .iter()
        .rev()
        .find(|(name, _)| name == "PATH")
        .map(|(_, value)| std::ffi::OsString::from(value))
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default();
    LAUNCHERS
        .iter()
        .filter(|launcher| {
            !std::env::split_paths(&path).any(|dir| is_executable(&dir.join(launcher)))
        })
        .map(|l| l.to_string())
        .collect()
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file() || path.with_extension("exe").is_file() || path.with_extension("cmd").is_file()
}

/// Proxy variables set (not empty) in Periscope's environment that the server does not get:
/// it inherits only a few variables unless its entry passes everything or sets them itself.
pub(super) fn proxies_not_inherited(target: &StdioTarget) -> Vec<String> {
    if target.inherit_env {
        return Vec::new();
    }
    PROXY_VARIABLES
        .iter()
        .filter(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
        .filter(|name| !target.env.iter().any(|(n, _)| n == *name))
        .map(|n| n.to_string())
        .collect()
}
