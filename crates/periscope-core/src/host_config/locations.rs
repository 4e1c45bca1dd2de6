//! Where installed hosts keep their server configs on Linux, and which of those files exist.
//! Found files are offered to the user; nothing is imported without their say.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Dialect;

/// A host's config file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HostFile {
    pub dialect: Dialect,
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub path: PathBuf,
    /// Which of the host's files it is ("user settings", "project").
    pub scope: &'static str,
}

/// The folders the usual locations hang from.
pub struct Roots {
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub config: PathBuf,
    /// The folder project files (`.mcp.json`, `.vscode/mcp.json`) are looked for in.
    pub project: Option<PathBuf>,
}

impl Roots {
    /// From this process's environment (`HOME`, `XDG_CONFIG_HOME`) and working directory.
    pub fn of_this_process() -> Option<Roots> {
        let home = PathBuf::from(std::env::var_os("HOME")?);
        let config = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| home.join(".config"));
        Some(Roots {
            home,
            config,
            project: std::env::current_dir().ok(),
        })
    }
}

/// Every usual location, whether or not it exists.
pub fn candidates(roots: &Roots) -> Vec<HostFile> {
    let file = |dialect, path: PathBuf, scope| HostFile {
        dialect,
        path,
        scope,
    };
    let (home, config) = (&roots.home, &roots.config);
    let mut files = vec![
        file(
            Dialect::ClaudeDesktop,
            config.join("Claude/claude_desktop_config.json"),
            "user",
        ),
        file(
            Dialect::ClaudeCode,
            home.join(".claude.json"),
            "user and projects",
        ),
        file(Dialect::Cursor, home.join(".cursor/mcp.json"), "user"),
        file(
            Dialect::Windsurf,
            home.join(".codeium/windsurf/mcp_config.json"),
            "user",
        ),
        file(Dialect::VsCode, config.join("Code/User/mcp.json"), "user"),
        file(
            Dialect::VsCode,
            config.join("Code/User/settings.json"),
            "user settings",
        ),
        file(
            Dialect::Cline,
            config.join(
                "Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
            ),
            "user",
        ),
        file(
            Dialect::Zed,
            config.join("zed/settings.json"),
            "user settings",
        ),
    ];
    if let Some(project) = &roots.project {
        files.extend([
            file(Dialect::ClaudeCode, project.join(".mcp.json"), "project"),
            file(Dialect::Cursor, project.join(".cursor/mcp.json"), "project"),
            file(Dialect::VsCode, project.join(".vscode/mcp.json"), "project"),
            file(Dialect::Zed, project.join(".zed/settings.json"), "project"),
        ]);
    }
    files
}

/// The usual locations that exist as files.
pub fn found(roots: &Roots) -> Vec<HostFile> {
    candidates(roots)
        .into_iter()
        .filter(|f| f.path.is_file())
        .collect()
}

/// The workspace folder of a project file (`…/proj/.vscode/mcp.json` → `…/proj`), for
/// `${workspaceFolder}`; a file not in a dot-folder has its own folder.
pub fn workspace_folder(path: &Path) -> Option<PathBuf> {
    let parent = path.parent()?;
    let in_dot_folder = parent
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'));
    Some(if in_dot_folder {
        parent.parent()?.to_path_buf()
    } else {
        parent.to_path_buf()
    })
}
