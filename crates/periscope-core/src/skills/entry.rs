//! A skill's entry as `skills/list` and `skills/get` give it, read leniently: whatever the
//! server sent becomes an entry, and what is wrong with it is said in `problems` (an inspector
//! shows a broken entry; it does not drop it).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::SKILL_MD;
use super::frontmatter::{FrontmatterProblem, rule_problems};
use super::verify::well_formed;
use crate::cache_hint::CacheHint;

/// One line of a skill's manifest: a file, its digest and (where given) its size in bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SkillFile {
    pub uri: String,
    pub digest: String,
    pub size: Option<u64>,
}

/// A skill as its entry describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SkillEntry {
    /// The URI of its `SKILL.md`, as sent (empty when the entry had none).
    pub uri: String,
    /// The skill's name as its URI says it: the last segment of the skill path.
    pub name: String,
    /// The skill's root folder: the URI without `/SKILL.md`.
    pub root: String,
    /// The frontmatter as the entry gives it (an object; `{}` when the entry had none).
    pub frontmatter: Value,
    /// The manifest: every file of the skill. None: the entry lists none (a skill generated on
    /// the fly, whose files cannot be verified).
    pub resources: Option<Vec<SkillFile>>,
    pub problems: Vec<EntryProblem>,
}

/// What is wrong with an entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EntryProblem {
    /// The entry is not a JSON object.
    NotAnObject,
    /// No `uri` string.
    NoUri,
    /// `uri` does not end in `/SKILL.md`.
    NotSkillMd,
    /// No `frontmatter` object.
    NoFrontmatter,
    /// The frontmatter breaks a rule of the Agent Skills specification.
    Frontmatter { problem: FrontmatterProblem },
    /// No `resources`: the skill's files cannot be verified (allowed only for a skill generated
    /// on the fly).
    NoManifest,
    /// `resources` is there but not a list.
    ManifestNotAList,
    /// A manifest line without a `uri` or a `digest` string (its place in the list).
    BadManifestLine { index: u64 },
    /// A manifest line whose digest is not `sha256:` and 64 lowercase hex digits.
    BadDigest { uri: String, digest: String },
    /// A manifest line for a file outside the skill's folder.
    FileOutsideSkill { uri: String },
    /// A file listed twice.
    FileListedTwice { uri: String },
    /// The manifest does not list the skill's own `SKILL.md`.
    SkillMdNotListed,
}

/// Every page of `skills/list`, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SkillsListing {
    pub skills: Vec<SkillEntry>,
    /// Modern era: the listing's caching hints.
    pub cache: Option<CacheHint>,
}

impl SkillEntry {
    /// Reads one entry as sent.
    pub fn read(value: &Value) -> SkillEntry {
        let mut problems = Vec::new();
        let Some(object) = value.as_object() else {
            return SkillEntry {
                uri: String::new(),
                name: String::new(),
                root: String::new(),
                frontmatter: Value::Object(Default::default()),
                resources: None,
                problems: vec![EntryProblem::NotAnObject],
            };
        };
        let uri = match object.get("uri").and_then(Value::as_str) {
            Some(uri) => uri.to_string(),
            None => {
                problems.push(EntryProblem::NoUri);
                String::new()
            }
        };
        let root = match uri.strip_suffix(SKILL_MD).and_then(|r| r.strip_suffix('/')) {
            Some(root) => root.to_string(),
            None => {
                if !uri.is_empty() {
                    problems.push(EntryProblem::NotSkillMd);
                }
                uri.clone()
            }
        };
        let name = skill_name(&root);
        let frontmatter = match object.get("frontmatter") {
            Some(Value::Object(fields)) => Value::Object(fields.clone()),
            _ => {
                problems.push(EntryProblem::NoFrontmatter);
                Value::Object(Default::default())
            }
        };
        if let Value::Object(fields) = &frontmatter
            && !fields.is_empty()
        {
            problems.extend(
                rule_problems(fields, &name)
                    .into_iter()
                    .map(|problem| EntryProblem::Frontmatter { problem }),
            );
        }
        let resources = match object.get("resources") {
            None | Some(Value::Null) => {
                problems.push(EntryProblem::NoManifest);
                None
            }
            Some(Value::Array(lines)) => Some(manifest(lines, &uri, &root, &mut problems)),
            Some(_) => {
                problems.push(EntryProblem::ManifestNotAList);
                None
            }
        };
        SkillEntry {
            uri,
            name,
            root,
            frontmatter,
            resources,
            problems,
        }
    }

    /// What the entry promises, as one digest: its frontmatter and its manifest. Two listings
    /// of the same skill with different fingerprints mean the skill changed in between.
    pub fn fingerprint(&self) -> String {
        let promised = serde_json::json!({
            "frontmatter": self.frontmatter,
            "resources": self.resources,
        });
        super::digest_of(promised.to_string().as_bytes())
    }

    /// The manifest line of `uri`, if the entry lists it.
    pub fn file(&self, uri: &str) -> Option<&SkillFile> {
        self.resources.as_ref()?.iter().find(|f| f.uri == uri)
    }

    /// The frontmatter's `description`, if it is a string.
    pub fn description(&self) -> Option<&str> {
        self.frontmatter.get("description").and_then(Value::as_str)
    }

    /// A file's path inside the skill (`references/FORMS.md`), or the URI when it is not in
    /// the skill's folder.
    pub fn relative<'a>(&self, uri: &'a str) -> &'a str {
        uri.strip_prefix(self.root.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(uri)
    }
}

/// The skill name a root says: its last path segment (`skill://acme/billing/refunds` →
/// `refunds`; `skill://git-workflow` → `git-workflow`).
fn skill_name(root: &str) -> String {
    let path = root.split_once("://").map_or(root, |(_, rest)| rest);
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string()
}

fn manifest(
    lines: &[Value],
    uri: &str,
    root: &str,
    problems: &mut Vec<EntryProblem>,
) -> Vec<SkillFile> {
    let mut files: Vec<SkillFile> = Vec::with_capacity(lines.len());
    let inside = format!("{root}/");
    for (index, line) in lines.iter().enumerate() {
        let (Some(file_uri), Some(digest)) = (
            line.get("uri").and_then(Value::as_str),
            line.get("digest").and_then(Value::as_str),
        ) else {
            problems.push(EntryProblem::BadManifestLine {
                index: index as u64,
            });
            continue;
        };
        if !well_formed(digest) {
            problems.push(EntryProblem::BadDigest {
                uri: file_uri.into(),
                digest: digest.into(),
            });
        }
        if !root.is_empty() && !file_uri.starts_with(&inside) {
            problems.push(EntryProblem::FileOutsideSkill {
                uri: file_uri.into(),
            });
        }
        if files.iter().any(|f| f.uri == file_uri) {
            problems.push(EntryProblem::FileListedTwice {
                uri: file_uri.into(),
            });
            continue;
        }
        files.push(SkillFile {
            uri: file_uri.into(),
            digest: digest.into(),
            size: line.get("size").and_then(Value::as_u64),
        });
    }
    if !uri.is_empty() && !files.iter().any(|f| f.uri == uri) {
        problems.push(EntryProblem::SkillMdNotListed);
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DIGEST: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000000";

    #[test]
    fn a_good_entry_reads_without_problems() {
        let entry = SkillEntry::read(&json!({
            "uri": "skill://acme/billing/refunds/SKILL.md",
            "frontmatter": {"name": "refunds", "description": "Refund per policy"},
            "resources": [
                {"uri": "skill://acme/billing/refunds/SKILL.md", "digest": DIGEST, "size": 12},
                {"uri": "skill://acme/billing/refunds/examples/email.md", "digest": DIGEST}
            ]
        }));
        assert_eq!(entry.problems, []);
        assert_eq!(entry.name, "refunds");
        assert_eq!(entry.root, "skill://acme/billing/refunds");
        assert_eq!(
            entry.relative("skill://acme/billing/refunds/examples/email.md"),
            "examples/email.md"
        );
        assert_eq!(entry.resources.as_ref().unwrap()[0].size, Some(12));
        assert_eq!(entry.description(), Some("Refund per policy"));
    }

    #[test]
    fn what_is_wrong_with_an_entry_is_said_and_the_entry_kept() {
        let entry = SkillEntry::read(&json!({
            "uri": "skill://pdf/SKILL.md",
            "frontmatter": {"name": "pdf-tools"},
            "resources": [
                {"uri": "skill://other/x.md", "digest": "md5:abc"},
                {"uri": "skill://pdf/a.md", "digest": DIGEST},
                {"uri": "skill://pdf/a.md", "digest": DIGEST},
                {"digest": DIGEST}
            ]
        }));
        let kinds: Vec<_> = entry.problems.iter().collect();
        assert!(kinds.contains(&&EntryProblem::Frontmatter {
            problem: FrontmatterProblem::NameNotFolder {
                name: "pdf-tools".into(),
                folder: "pdf".into()
            }
        }));
        assert!(kinds.contains(&&EntryProblem::Frontmatter {
            problem: FrontmatterProblem::DescriptionMissing
        }));
        assert!(kinds.contains(&&EntryProblem::BadDigest {
            uri: "skill://other/x.md".into(),
            digest: "md5:abc".into()
        }));
        assert!(kinds.contains(&&EntryProblem::FileOutsideSkill {
            uri: "skill://other/x.md".into()
        }));
        assert!(kinds.contains(&&EntryProblem::FileListedTwice {
            uri: "skill://pdf/a.md".into()
        }));
        assert!(kinds.contains(&&EntryProblem::BadManifestLine { index: 3 }));
        assert!(kinds.contains(&&EntryProblem::SkillMdNotListed));
        assert_eq!(entry.resources.unwrap().len(), 2);
    }

    #[test]
    fn an_entry_without_a_manifest_or_a_skill_md_uri_is_read_all_the_same() {
        let entry = SkillEntry::read(&json!({"uri": "skill://x/README.md", "frontmatter": {}}));
        assert!(entry.problems.contains(&EntryProblem::NotSkillMd));
        assert!(entry.problems.contains(&EntryProblem::NoManifest));
        assert!(entry.resources.is_none());
        assert_eq!(
            SkillEntry::read(&json!("nope")).problems,
            [EntryProblem::NotAnObject]
        );
    }
}
