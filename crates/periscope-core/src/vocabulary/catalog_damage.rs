//! What loading the server catalog found wrong ([`CatalogDamage`]), and whether the file was
//! copied aside before anything replaced it ([`CopyKept`]). Typed, so hosts word it; `Display`
//! is the English the app logs.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What was wrong with the catalog file; the list was read as far as it could be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CatalogDamage {
    /// The file could not be read (`detail`: the system's or the JSON parser's words): the list
    /// starts empty.
    Unreadable { detail: String },
    /// The file holds no list of servers: the list starts empty.
    NoList,
    /// These entries could not be read and were left out of the list (kept in the file).
    EntriesLeftOut { entries: Vec<LeftOutEntry> },
}

/// A stored catalog entry this build could not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LeftOutEntry {
    /// Its position in the list, from 1.
    pub position: u64,
    pub name: Option<String>,
    pub id: Option<String>,
    /// Why, in the JSON reader's words, without any value from the entry (it may hold a secret).
    pub detail: String,
}

/// Whether the damaged file was copied aside: where to, or why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CopyKept {
    Copied {
        path: String,
    },
    /// `detail`: the system's words.
    NotCopied {
        detail: String,
    },
}

impl fmt::Display for LeftOutEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}", self.position)?;
        match (&self.name, &self.id) {
            (Some(name), Some(id)) => write!(f, " ({name:?}, id {id:?})")?,
            (Some(name), None) => write!(f, " ({name:?})")?,
            (None, Some(id)) => write!(f, " (id {id:?})")?,
            (None, None) => {}
        }
        write!(f, ": {}", self.detail)
    }
}

impl fmt::Display for CopyKept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CopyKept::Copied { path } => write!(f, "a copy is in {path}"),
            CopyKept::NotCopied { detail } => write!(f, "no copy could be made: {detail}"),
        }
    }
}

/// The catalog file `path`, damaged as `damage` says, in English.
pub fn english(path: &str, damage: &CatalogDamage) -> String {
    const STARTS_EMPTY: &str =
        "The list starts empty; the file is replaced when you next change a server";
    match damage {
        CatalogDamage::Unreadable { detail } => {
            format!("The server catalog {path} could not be read: {detail}. {STARTS_EMPTY}")
        }
        CatalogDamage::NoList => {
            format!("The server catalog {path} has no list of servers. {STARTS_EMPTY}")
        }
        CatalogDamage::EntriesLeftOut { entries } => {
            let (verb, kept) = if entries.len() == 1 {
                ("is", "it was")
            } else {
                ("are", "they were")
            };
            format!(
                "{} server{} in {path} could not be read and {verb} left out of the list (kept in the file as {kept}): {}",
                entries.len(),
                if entries.len() == 1 { "" } else { "s" },
                entries
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        }
    }
}
