//! The About dialog: the app's and the engine's versions, the protocol revisions the engine
//! speaks, and a few fixed links the user may open in the browser.

use periscope_core::era::Era;
use periscope_core::revision::{
    LATEST_MODERN, LATEST_STATEFUL, MODERN_VERSIONS, STATEFUL_VERSIONS,
};
use periscope_core::vocabulary::Problem;
use serde::{Deserialize, Serialize};
use tauri::State;

use crate::AppState;

/// One protocol revision the engine speaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SpokenRevision {
    pub revision: String,
    pub era: Era,
    /// The one offered by default in its era.
    pub latest: bool,
}

/// The links the About dialog offers. An enum, not a URL: the UI can only ask for these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum AboutLink {
    /// The specification of the newest modern revision.
    SpecModern,
    /// The specification of the newest stateful revision.
    SpecStateful,
    /// The protocol's home page.
    ProtocolSite,
}

impl AboutLink {
    const ALL: [AboutLink; 3] = [Self::SpecModern, Self::SpecStateful, Self::ProtocolSite];

    pub fn url(self) -> String {
        match self {
            Self::SpecModern => {
                format!("https://modelcontextprotocol.io/specification/{LATEST_MODERN}")
            }
            Self::SpecStateful => {
                format!("https://modelcontextprotocol.io/specification/{LATEST_STATEFUL}")
            }
            Self::ProtocolSite => "https://modelcontextprotocol.io/".to_owned(),
        }
    }

    fn label(self) -> String {
        match self {
            Self::SpecModern => format!("MCP specification {LATEST_MODERN}"),
            Self::SpecStateful => format!("MCP specification {LATEST_STATEFUL}"),
            Self::ProtocolSite => "Model Context Protocol".to_owned(),
        }
    }
}

/// A link as the dialog shows it (the URL in full, so the user sees where a click goes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AboutLinkInfo {
    pub link: AboutLink,
    pub label: String,
    pub url: String,
}

/// What the About dialog shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AboutInfo {
    pub app_version: String,
    pub engine_version: String,
    /// Oldest first: the stateful era's, then the modern era's.
    pub revisions: Vec<SpokenRevision>,
    pub links: Vec<AboutLinkInfo>,
}

pub fn about_info() -> AboutInfo {
    let spoken = |list: &[&str], era: Era, latest: &str| -> Vec<SpokenRevision> {
        list.iter()
            .map(|r| SpokenRevision {
                revision: (*r).to_owned(),
                era,
                latest: *r == latest,
            })
            .collect()
    };
    let mut revisions = spoken(STATEFUL_VERSIONS, Era::Legacy, LATEST_STATEFUL);
    revisions.extend(spoken(MODERN_VERSIONS, Era::Modern, LATEST_MODERN));
    AboutInfo {
        app_version: env!("CARGO_PKG_VERSION").to_owned(),
        engine_version: periscope_core::ENGINE_VERSION.to_owned(),
        revisions,
        links: AboutLink::ALL
            .iter()
            .map(|&link| AboutLinkInfo {
                link,
                label: link.label(),
                url: link.url(),
            })
            .collect(),
    }
}

#[tauri::command]
pub fn about() -> AboutInfo {
    about_info()
}

/// Opens one of the About dialog's links after the user's click, through the app's one
/// browser path (http(s) only, never a shell).
#[tauri::command]
pub fn open_about_link(state: State<'_, AppState>, link: AboutLink) -> Result<(), Problem> {
    state.asks.open(&link.url())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_lists_every_revision_the_engine_speaks_with_one_latest_per_era() {
        let info = about_info();
        assert_eq!(
            info.revisions.len(),
            STATEFUL_VERSIONS.len() + MODERN_VERSIONS.len()
        );
        assert_eq!(info.revisions.iter().filter(|r| r.latest).count(), 2);
        assert!(
            info.revisions
                .iter()
                .any(|r| r.revision == LATEST_MODERN && r.era == Era::Modern)
        );
        assert_eq!(info.engine_version, periscope_core::ENGINE_VERSION);
    }

    #[test]
    fn about_links_are_https() {
        for link in about_info().links {
            assert!(link.url.starts_with("https://"), "{}", link.url);
        }
    }
}
