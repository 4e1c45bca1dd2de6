//! What Periscope found when it checked a skill's file against the skill's manifest, and why it
//! refused a skill (SEP-2640, `crate::skills`): words of the vocabulary, since a refusal is a
//! [`Problem`](super::Problem) and a flag on a frame as well as a verdict of the skills module.

use serde::{Deserialize, Serialize};

/// The skills extension's key in `capabilities.extensions`, the client's and the server's.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// What the verification of one file found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FileCheck {
    /// The bytes match the manifest's digest (and size, where given).
    Verified { digest: String },
    /// The skill's entry lists no files (a dynamically generated skill): nothing to verify
    /// against. The content is handed over, marked so.
    Unverifiable { digest: String },
    /// The bytes' length is not the manifest's: the content is not what the listing promised.
    SizeMismatch {
        expected: u64,
        actual: u64,
        actual_digest: String,
    },
    /// The bytes' digest is not the manifest's.
    DigestMismatch { expected: String, actual: String },
    /// The file is not in the skill's manifest: while acting on a skill, a read of an unlisted
    /// file counts as a mismatch (SEP-2640).
    Unlisted { actual_digest: String },
    /// The manifest's digest is not `sha256:` and 64 lowercase hex digits: nothing can match it.
    BadDigest {
        digest: String,
        actual_digest: String,
    },
}

impl FileCheck {
    /// The content may be used: verified, or offered without a manifest to check it by.
    pub fn passed(&self) -> bool {
        matches!(
            self,
            FileCheck::Verified { .. } | FileCheck::Unverifiable { .. }
        )
    }

    /// One line for an error or a flag: what was expected and what came.
    pub fn describe(&self, uri: &str) -> String {
        match self {
            FileCheck::Verified { digest } => format!("{uri}: {digest} verified"),
            FileCheck::Unverifiable { digest } => {
                format!("{uri}: no manifest to verify against (read {digest})")
            }
            FileCheck::SizeMismatch {
                expected,
                actual,
                actual_digest,
            } => format!(
                "{uri}: size mismatch: the manifest says {expected} bytes, the server sent {actual} \
                 ({actual_digest})"
            ),
            FileCheck::DigestMismatch { expected, actual } => format!(
                "{uri}: digest mismatch: the manifest says {expected}, the server sent {actual}"
            ),
            FileCheck::Unlisted { actual_digest } => format!(
                "{uri}: not in the skill's manifest (read {actual_digest}): an unlisted file is a \
                 changed skill"
            ),
            FileCheck::BadDigest {
                digest,
                actual_digest,
            } => format!(
                "{uri}: the manifest's digest {digest:?} is not sha256:<64 hex digits> (the server \
                 sent {actual_digest})"
            ),
        }
    }
}

/// Why a skill (or one of its files) is not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LoadRefusal {
    /// The file does not match the skill's manifest.
    FileUnverified { check: FileCheck },
    /// The `SKILL.md` is not text.
    NotText,
    /// Its frontmatter cannot be read (`error`: why).
    FrontmatterUnreadable { error: String },
    /// Its frontmatter differs from the entry's in these fields: what the user approved from
    /// the listing is not what the model would receive.
    FrontmatterDiffers { fields: Vec<String> },
}

impl LoadRefusal {
    /// One line for an error or a flag.
    pub fn describe(&self, uri: &str) -> String {
        match self {
            LoadRefusal::FileUnverified { check } => check.describe(uri),
            LoadRefusal::NotText => format!("{uri}: SKILL.md is not UTF-8 text"),
            LoadRefusal::FrontmatterUnreadable { error } => {
                format!("{uri}: the frontmatter cannot be read: {error}")
            }
            LoadRefusal::FrontmatterDiffers { fields } => format!(
                "{uri}: the frontmatter differs from the skill's entry in {}",
                fields.join(", ")
            ),
        }
    }
}
