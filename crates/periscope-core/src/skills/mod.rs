//! Skills (SEP-2640, the `io.modelcontextprotocol/skills` extension): a server publishes Agent
//! Skills — folders of files led by a `SKILL.md` — over the same connection as its tools.
//! `skills/list` and `skills/get` give each skill's entry (its `SKILL.md` URI, its frontmatter
//! verbatim, and a manifest of its files with a SHA-256 digest and size each); the files come
//! through `resources/read`, folders through `resources/directory/read` where the server says
//! `directoryRead`.
//!
//! What the engine guarantees a host: nothing is fetched before it is asked for (listing reads
//! only the listing: no prefetch); every file is verified against the entry's manifest before
//! its content is handed over (a mismatch withholds the content, flags the response frame and
//! names the file, the expected and the actual digest); a `SKILL.md` is loaded only when its
//! frontmatter, parsed, equals the entry's field by field.

mod entry;
mod frontmatter;
mod session;
mod verify;

pub use crate::vocabulary::skill_check::{FileCheck, LoadRefusal, SKILLS_EXTENSION};
pub use entry::{EntryProblem, SkillEntry, SkillFile, SkillsListing};
pub use frontmatter::{FieldDifference, FrontmatterProblem, FrontmatterReading};
pub use session::{DirectoryListing, FileContent, LoadedSkill, SkillFileRead, SkillsOffer};
pub use verify::digest_of;

/// The file every skill has at its root.
pub const SKILL_MD: &str = "SKILL.md";

/// The MIME type of a directory resource (`resources/directory/read`).
pub const DIRECTORY_MIME: &str = "inode/directory";
