//! The Agent Skills the demo serves (SEP-2640, extension `io.modelcontextprotocol/skills`,
//! declared with `directoryRead`).
//!
//! Two skills, their files compiled in from `crates/demo-server/skills/`:
//!
//! - `skill://release-notes/SKILL.md`: a `SKILL.md` alone.
//! - `skill://arithmetic/SKILL.md`: a `SKILL.md` with a supporting file,
//!   `skill://arithmetic/references/OPERATIONS.md`, and a folder,
//!   `skill://arithmetic/templates/` holding `receipt.md`.
//!
//! `skills/list` and `skills/get` give each skill's frontmatter and every one of its files
//! (`SKILL.md` included) with the SHA-256 digest and size of the exact bytes `resources/read`
//! serves, computed at run time. `resources/directory/read` lists the direct children of a
//! skill's directory or of a folder in it (directories have no trailing slash). The files are
//! read with `resources/read` but are not in `resources/list`: a host finds them through the
//! skills methods.

use std::fmt::Write;

use rmcp::{
    ErrorData as McpError,
    model::{
        DIRECTORY_MIME_TYPE, GetSkillResult, ListResourcesResult, ListSkillsResult,
        ReadResourceResult, Resource, ResourceContents, SKILL_MD, Skill, SkillFrontmatter,
        SkillResource, SkillResources,
    },
};
use serde_json::json;
use sha2::{Digest, Sha256};

/// The scheme of every skill URI.
const SCHEME: &str = "skill://";
/// The MIME type of every skill file (all Markdown).
const MARKDOWN: &str = "text/markdown";

/// One skill: its URI is `skill://<path>/SKILL.md`.
struct DemoSkill {
    path: &'static str,
    /// The frontmatter of its `SKILL.md`, as JSON (a unit test checks it against the file).
    frontmatter: fn() -> SkillFrontmatter,
    /// Its files by path relative to the skill's directory, `SKILL.md` first.
    files: &'static [(&'static str, &'static str)],
}

const SKILLS: [DemoSkill; 2] = [
    DemoSkill {
        path: "release-notes",
        frontmatter: || {
            SkillFrontmatter::new(
                "release-notes",
                "Write release notes for a version of the demo server from its changelog",
            )
            .with_field("license", "MIT")
        },
        files: &[(SKILL_MD, include_str!("../skills/release-notes/SKILL.md"))],
    },
    DemoSkill {
        path: "arithmetic",
        frontmatter: || {
            SkillFrontmatter::new(
                "arithmetic",
                "Add numbers with the demo server's add tool and show the working",
            )
            .with_field("metadata", json!({ "version": "1.0" }))
        },
        files: &[
            (SKILL_MD, include_str!("../skills/arithmetic/SKILL.md")),
            (
                "references/OPERATIONS.md",
                include_str!("../skills/arithmetic/references/OPERATIONS.md"),
            ),
            (
                "templates/receipt.md",
                include_str!("../skills/arithmetic/templates/receipt.md"),
            ),
        ],
    },
];

impl DemoSkill {
    /// `skill://<path>`, the skill's directory.
    fn root(&self) -> String {
        format!("{SCHEME}{}", self.path)
    }

    fn file_uri(&self, relative: &str) -> String {
        format!("{}/{relative}", self.root())
    }

    fn uri(&self) -> String {
        self.file_uri(SKILL_MD)
    }

    /// The `skills/list` / `skills/get` entry.
    fn entry(&self) -> Skill {
        let files = self
            .files
            .iter()
            .map(|(relative, text)| {
                SkillResource::new(
                    self.file_uri(relative),
                    digest(text.as_bytes()),
                    text.len() as u64,
                )
            })
            .collect();
        Skill::new(
            self.uri(),
            (self.frontmatter)(),
            SkillResources::Files(files),
        )
    }

    /// The path of `dir_uri` inside this skill followed by `/` (`""` for the skill's own
    /// directory), if `dir_uri` names this skill's directory or one below it.
    fn dir_prefix(&self, dir_uri: &str) -> Option<String> {
        let rest = dir_uri.strip_prefix(SCHEME)?.strip_prefix(self.path)?;
        if rest.is_empty() {
            return Some(String::new());
        }
        let inner = rest.strip_prefix('/')?;
        (!inner.is_empty() && !inner.ends_with('/')).then(|| format!("{inner}/"))
    }
}

/// `sha256:` and the 64 lowercase hex digits of `bytes`' SHA-256.
fn digest(bytes: &[u8]) -> String {
    let mut digest = String::with_capacity(7 + 64);
    digest.push_str("sha256:");
    for byte in Sha256::digest(bytes) {
        let _ = write!(digest, "{byte:02x}");
    }
    digest
}

/// `skills/list`: every skill, in one page.
pub fn list() -> ListSkillsResult {
    ListSkillsResult::with_all_items(SKILLS.iter().map(DemoSkill::entry).collect())
}

/// `skills/get` of the skill whose `SKILL.md` is `uri`; -32602 for any other URI.
pub fn get(uri: &str) -> Result<GetSkillResult, McpError> {
    SKILLS
        .iter()
        .find(|skill| skill.uri() == uri)
        .map(|skill| GetSkillResult::new(skill.entry()))
        .ok_or_else(|| {
            McpError::invalid_params(format!("no skill at {uri}"), Some(json!({ "uri": uri })))
        })
}

/// `resources/read` of a skill file, `None` if `uri` is none.
pub fn read(uri: &str) -> Option<ReadResourceResult> {
    SKILLS.iter().find_map(|skill| {
        skill
            .files
            .iter()
            .find(|(relative, _)| skill.file_uri(relative) == uri)
            .map(|(_, text)| {
                ReadResourceResult::new(vec![
                    ResourceContents::text(*text, uri).with_mime_type(MARKDOWN),
                ])
            })
    })
}

/// `resources/directory/read`: the direct children of a skill's directory or of a folder in
/// it, in the order of the skill's files, folders with the `inode/directory` MIME type.
/// -32602 for a URI that names no directory (a file, an unknown path, a trailing slash).
pub fn read_directory(uri: &str) -> Result<ListResourcesResult, McpError> {
    let children = SKILLS
        .iter()
        .find_map(|skill| {
            let prefix = skill.dir_prefix(uri)?;
            let mut children: Vec<Resource> = Vec::new();
            for (relative, _) in skill.files {
                let Some(below) = relative.strip_prefix(prefix.as_str()) else {
                    continue;
                };
                let (name, is_dir) = match below.split_once('/') {
                    Some((folder, _)) => (folder, true),
                    None => (below, false),
                };
                let child_uri = format!("{uri}/{name}");
                if children.iter().any(|child| child.uri == child_uri) {
                    continue;
                }
                let mime_type = if is_dir {
                    DIRECTORY_MIME_TYPE
                } else {
                    MARKDOWN
                };
                children.push(Resource::new(child_uri, name).with_mime_type(mime_type));
            }
            (!children.is_empty()).then_some(children)
        })
        .ok_or_else(|| {
            McpError::invalid_params(
                format!("not a directory: {uri}"),
                Some(json!({ "uri": uri })),
            )
        })?;
    Ok(ListResourcesResult::with_all_items(children))
}

#[cfg(test)]
mod tests {
    use rmcp::model::ErrorCode;
    use serde_json::{Map, Value};

    use super::*;

    /// The frontmatter block of `text` read as the little YAML the demo's skills use:
    /// `key: value` lines, and `key:` followed by `  key: value` lines (a map); a value may
    /// be double-quoted.
    fn frontmatter_of(text: &str) -> Value {
        let block = text
            .strip_prefix("---\n")
            .and_then(|rest| rest.split_once("\n---\n"))
            .map(|(block, _)| block)
            .expect("SKILL.md starts with a frontmatter block");
        let scalar = |value: &str| {
            let value = value.trim();
            Value::from(
                value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or(value),
            )
        };
        let mut top = Map::new();
        let mut open: Option<String> = None;
        for line in block.lines() {
            if let Some(nested) = line.strip_prefix("  ") {
                let (key, value) = nested.split_once(':').expect("key: value");
                let map = open.as_ref().expect("a nested line under a key");
                top[map.as_str()][key] = scalar(value);
                continue;
            }
            let (key, value) = line.split_once(':').expect("key: value");
            if value.trim().is_empty() {
                top.insert(key.to_string(), Value::Object(Map::new()));
                open = Some(key.to_string());
            } else {
                top.insert(key.to_string(), scalar(value));
                open = None;
            }
        }
        Value::Object(top)
    }

    #[test]
    fn frontmatter_is_the_files_frontmatter() {
        for skill in &SKILLS {
            let (name, text) = skill.files[0];
            assert_eq!(name, SKILL_MD);
            assert_eq!(
                serde_json::to_value((skill.frontmatter)()).unwrap(),
                frontmatter_of(text),
                "{}",
                skill.uri()
            );
        }
    }

    #[test]
    fn entries_are_valid_and_match_the_served_bytes() {
        let listed = list();
        assert_eq!(listed.skills.len(), 2);
        rmcp::model::validate_skills(&listed.skills).unwrap();
        for skill in &listed.skills {
            let SkillResources::Files(files) = &skill.resources else {
                panic!("{} is dynamic", skill.uri);
            };
            for file in files {
                let read = read(&file.uri).expect("a listed file is served");
                let value = serde_json::to_value(&read.contents[0]).unwrap();
                let served = value["text"].as_str().unwrap().as_bytes();
                file.verify(served).unwrap();
                assert_eq!(value["mimeType"], MARKDOWN);
            }
        }
    }

    #[test]
    fn directories_list_direct_children() {
        let names = |uri: &str| -> Vec<(String, Option<String>)> {
            read_directory(uri)
                .unwrap()
                .resources
                .into_iter()
                .map(|r| (r.name, r.mime_type))
                .collect()
        };
        let dir = Some(DIRECTORY_MIME_TYPE.to_string());
        let md = Some(MARKDOWN.to_string());
        assert_eq!(
            names("skill://arithmetic"),
            [
                ("SKILL.md".into(), md.clone()),
                ("references".into(), dir.clone()),
                ("templates".into(), dir),
            ]
        );
        assert_eq!(
            names("skill://arithmetic/references"),
            [("OPERATIONS.md".into(), md.clone())]
        );
        assert_eq!(names("skill://release-notes"), [("SKILL.md".into(), md)]);
        for not_a_dir in [
            "skill://arithmetic/",
            "skill://arithmetic/SKILL.md",
            "skill://arithmetic/templates/",
            "skill://arith",
            "skill://arithmetic-two",
            "skill://nope",
            "demo://text/1",
        ] {
            assert_eq!(
                read_directory(not_a_dir).unwrap_err().code,
                ErrorCode::INVALID_PARAMS,
                "{not_a_dir}"
            );
        }
    }

    #[test]
    fn digest_is_sha256_in_lowercase_hex() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
