//! The extension's requests on a [`Session`]: list, get, read a file (verified), load a skill
//! (its `SKILL.md` verified and its frontmatter compared), read a folder. Each fetches only what
//! it is asked for.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::frontmatter::FrontmatterReading;
use super::verify::check;
use super::{SKILLS_EXTENSION, SkillEntry, SkillsListing};
use crate::record::Flag;
use crate::session::{CallOptions, RequestError, Session};
use crate::vocabulary::breach::Breach;
use crate::vocabulary::method::names;
use crate::vocabulary::skill_check::{FileCheck, LoadRefusal};

/// What a server offers of the extension (its `capabilities.extensions` entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SkillsOffer {
    /// It answers `resources/directory/read` (`directoryRead: true`).
    pub directory_read: bool,
}

/// A file's content, handed over only once verified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FileContent {
    Text {
        text: String,
    },
    /// Bytes that are not UTF-8 text, in base64.
    Binary {
        base64: String,
    },
}

/// One skill file read through `resources/read`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SkillFileRead {
    pub uri: String,
    /// Its path inside the skill (`references/FORMS.md`).
    pub path: String,
    pub mime_type: Option<String>,
    /// Bytes read.
    pub size: u64,
    pub check: FileCheck,
    /// None when the check failed: unverified content is never handed over as if it were good
    /// (the frame in the traffic record keeps what the server sent, flagged).
    pub content: Option<FileContent>,
}

/// A skill loaded (or refused): its `SKILL.md` read, verified and its frontmatter compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadedSkill {
    pub entry: SkillEntry,
    pub skill_md: SkillFileRead,
    /// The frontmatter read from the file (None when the file was withheld or is not text).
    pub frontmatter: Option<FrontmatterReading>,
    /// None: loaded. Some: why it must not be used.
    pub refusal: Option<LoadRefusal>,
}

impl LoadedSkill {
    /// The Markdown body, when the skill loaded.
    pub fn body(&self) -> Option<&str> {
        match (&self.refusal, &self.frontmatter) {
            (None, Some(frontmatter)) => Some(&frontmatter.body),
            _ => None,
        }
    }
}

/// A page of a folder's children (`resources/directory/read`): resources as the server sent
/// them; folders have the MIME type `inode/directory`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct DirectoryListing {
    pub uri: String,
    pub children: Vec<Value>,
    pub next_cursor: Option<String>,
}

impl Session {
    /// What the server offers of the extension; None when it does not declare it (or the
    /// session is not open yet).
    pub fn skills_offer(&self) -> Option<SkillsOffer> {
        let identity = self.identity()?;
        let offer = identity
            .capabilities
            .get("extensions")?
            .get(SKILLS_EXTENSION)?;
        Some(SkillsOffer {
            directory_read: offer.get("directoryRead") == Some(&Value::Bool(true)),
        })
    }

    /// `skills/list`, every page. Reads only the listing: no skill file is fetched.
    pub async fn list_skills(&self) -> Result<SkillsListing, RequestError> {
        let listed = self.list_all_cached(names::SKILLS_LIST, "skills").await?;
        Ok(SkillsListing {
            skills: listed.items.iter().map(SkillEntry::read).collect(),
            cache: listed.cache,
        })
    }

    /// `skills/get`: one skill's entry by the URI of its `SKILL.md`, listed or not.
    pub async fn get_skill(&self, uri: &str) -> Result<SkillEntry, RequestError> {
        let result = self
            .request(
                names::SKILLS_GET,
                Some(json!({"uri": uri})),
                CallOptions::default(),
            )
            .await?;
        match result.get("skill") {
            Some(skill @ Value::Object(_)) => Ok(SkillEntry::read(skill)),
            _ => Err(RequestError::Protocol {
                method: names::SKILLS_GET.into(),
                breach: Breach::MissingMember {
                    member: "skill".into(),
                    expected: "object".into(),
                },
            }),
        }
    }

    /// Reads one file of `entry`'s skill and verifies it against the entry's manifest. A file
    /// that fails is withheld, and its response frame flagged.
    pub async fn read_skill_file(
        &self,
        entry: &SkillEntry,
        uri: &str,
    ) -> Result<SkillFileRead, RequestError> {
        let (read, _) = self.read_verified(entry, uri).await?;
        Ok(read)
    }

    /// Loads `entry`'s skill: reads its `SKILL.md` (now, not before), verifies it, parses its
    /// frontmatter and compares it field by field with the entry's. Any failure refuses the
    /// load, flags the response frame, and hands over no content.
    pub async fn load_skill(&self, entry: &SkillEntry) -> Result<LoadedSkill, RequestError> {
        let (mut skill_md, seq) = self.read_verified(entry, &entry.uri).await?;
        if !skill_md.check.passed() {
            return Ok(LoadedSkill {
                entry: entry.clone(),
                refusal: Some(LoadRefusal::FileUnverified {
                    check: skill_md.check.clone(),
                }),
                skill_md,
                frontmatter: None,
            });
        }
        let Some(FileContent::Text { text }) = &skill_md.content else {
            let refusal = LoadRefusal::NotText;
            self.flag_refusal(seq, &entry.uri, &refusal);
            skill_md.content = None;
            return Ok(LoadedSkill {
                entry: entry.clone(),
                skill_md,
                frontmatter: None,
                refusal: Some(refusal),
            });
        };
        let frontmatter = FrontmatterReading::read(text, &entry.name, &entry.frontmatter);
        let refusal = match (&frontmatter.error, frontmatter.differences.is_empty()) {
            (Some(error), _) => Some(LoadRefusal::FrontmatterUnreadable {
                error: error.clone(),
            }),
            (None, false) => Some(LoadRefusal::FrontmatterDiffers {
                fields: frontmatter
                    .differences
                    .iter()
                    .map(|d| d.field.clone())
                    .collect(),
            }),
            (None, true) => None,
        };
        let mut frontmatter = frontmatter;
        if let Some(refusal) = &refusal {
            self.flag_refusal(seq, &entry.uri, refusal);
            // The raw frontmatter stays (an inspector shows what was wrong with it); nothing
            // else of the file is handed over: not its content, not its body.
            skill_md.content = None;
            frontmatter.body.clear();
        }
        Ok(LoadedSkill {
            entry: entry.clone(),
            skill_md,
            frontmatter: Some(frontmatter),
            refusal,
        })
    }

    /// `resources/directory/read`: one page of a folder's children. None (nothing sent) when
    /// the server did not declare `directoryRead`: the extension forbids asking then.
    pub async fn read_directory(
        &self,
        uri: &str,
        cursor: Option<&str>,
    ) -> Result<Option<DirectoryListing>, RequestError> {
        if !self.skills_offer().is_some_and(|o| o.directory_read) {
            return Ok(None);
        }
        let mut params = json!({"uri": uri});
        if let Some(cursor) = cursor {
            params["cursor"] = json!(cursor);
        }
        let result = self
            .request(
                names::RESOURCES_DIRECTORY_READ,
                Some(params),
                CallOptions::default(),
            )
            .await?;
        let children = result
            .get("resources")
            .and_then(Value::as_array)
            .ok_or_else(|| RequestError::Protocol {
                method: names::RESOURCES_DIRECTORY_READ.into(),
                breach: Breach::MissingMember {
                    member: "resources".into(),
                    expected: "array".into(),
                },
            })?
            .clone();
        let next_cursor = result
            .get("nextCursor")
            .and_then(Value::as_str)
            .map(str::to_string);
        Ok(Some(DirectoryListing {
            uri: uri.to_string(),
            children,
            next_cursor,
        }))
    }

    /// Reads `uri` and checks it against `entry`'s manifest; the response frame's seq with it
    /// (none when the read came from the cache).
    async fn read_verified(
        &self,
        entry: &SkillEntry,
        uri: &str,
    ) -> Result<(SkillFileRead, Option<u64>), RequestError> {
        let answered = self
            .request_answered(
                names::RESOURCES_READ,
                Some(json!({"uri": uri})),
                CallOptions::default(),
            )
            .await?;
        let (bytes, mime_type) = content_bytes(&answered.result, uri)?;
        let check = check(entry.resources.as_deref(), uri, &bytes);
        let content = check
            .passed()
            .then(|| match String::from_utf8(bytes.clone()) {
                Ok(text) => FileContent::Text { text },
                Err(_) => FileContent::Binary {
                    base64: base64::engine::general_purpose::STANDARD.encode(&bytes),
                },
            });
        if !check.passed() {
            self.flag_refusal(
                answered.seq,
                uri,
                &LoadRefusal::FileUnverified {
                    check: check.clone(),
                },
            );
        }
        Ok((
            SkillFileRead {
                uri: uri.to_string(),
                path: entry.relative(uri).to_string(),
                mime_type,
                size: bytes.len() as u64,
                check,
                content,
            },
            answered.seq,
        ))
    }

    fn flag_refusal(&self, seq: Option<u64>, uri: &str, refusal: &LoadRefusal) {
        if let Some(seq) = seq {
            self.traffic().flag(
                seq,
                Flag::SkillRefused {
                    uri: uri.to_string(),
                    refusal: refusal.clone(),
                },
            );
        }
    }
}

/// The bytes of the content item for `uri` in a `resources/read` result (the first item when
/// none names it): `text` as UTF-8, `blob` decoded from base64.
fn content_bytes(result: &Value, uri: &str) -> Result<(Vec<u8>, Option<String>), RequestError> {
    let breach = |breach| RequestError::Protocol {
        method: names::RESOURCES_READ.into(),
        breach,
    };
    let contents = result
        .get("contents")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            breach(Breach::MissingMember {
                member: "contents".into(),
                expected: "array".into(),
            })
        })?;
    let item = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .or_else(|| contents.first())
        .ok_or_else(|| {
            breach(Breach::MissingMember {
                member: "contents".into(),
                expected: "non-empty array".into(),
            })
        })?;
    let mime = item
        .get("mimeType")
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(text) = item.get("text").and_then(Value::as_str) {
        return Ok((text.as_bytes().to_vec(), mime));
    }
    if let Some(blob) = item.get("blob").and_then(Value::as_str) {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(blob)
            .map_err(|e| {
                breach(Breach::BadBase64 {
                    detail: e.to_string(),
                })
            })?;
        return Ok((bytes, mime));
    }
    Err(breach(Breach::NoBody))
}
