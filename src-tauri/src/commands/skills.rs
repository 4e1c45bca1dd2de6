//! The Skills view (SEP-2640): a server's skills listed (the listing only: nothing is fetched
//! ahead of a click), a skill loaded (its `SKILL.md` verified and its frontmatter compared), a
//! file read verified, a folder's children, a skill named by URI. Which skills changed since
//! the user last saw the server's listing is remembered in `skills_seen.json`.

use std::collections::BTreeMap;

use periscope_core::skills::{
    DirectoryListing, LoadedSkill, SkillEntry, SkillFileRead, SkillsListing, SkillsOffer,
};
use periscope_core::vocabulary::Problem;
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::json_file;

/// The data file of each server's last-seen skill fingerprints.
const SEEN_FILE: &str = "skills_seen.json";

/// What the Skills view shows of a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SkillsView {
    /// None: the server does not declare the extension (nothing was asked).
    pub offer: Option<SkillsOffer>,
    pub listing: Option<SkillsListing>,
    /// The URIs of listed skills whose entry (frontmatter or manifest) changed since the last
    /// listing the user saw.
    pub changed: Vec<String>,
    /// The URIs of skills not in the last listing the user saw (none on a first listing).
    pub added: Vec<String>,
}

/// `skills/list` (every page), with what changed since the last time.
#[tauri::command]
pub async fn skills_list<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
) -> Result<SkillsView, Problem> {
    let session = state.session(&server_id)?;
    let Some(offer) = session.skills_offer() else {
        return Ok(SkillsView {
            offer: None,
            listing: None,
            changed: Vec::new(),
            added: Vec::new(),
        });
    };
    let listing = session.list_skills().await.map_err(Problem::from)?;
    let path = json_file::path(&app, SEEN_FILE)?;
    let before: Option<BTreeMap<String, String>> =
        serde_json::from_value(json_file::read_key(&path, &server_id)).ok();
    let now: BTreeMap<String, String> = listing
        .skills
        .iter()
        .map(|s| (s.uri.clone(), s.fingerprint()))
        .collect();
    let (changed, added) = compare(before.as_ref(), &now);
    json_file::write_key(&path, &server_id, serde_json::json!(now))?;
    Ok(SkillsView {
        offer: Some(offer),
        listing: Some(listing),
        changed,
        added,
    })
}

/// The changed and the added skills of `now` against `before` (none without a `before`).
fn compare(
    before: Option<&BTreeMap<String, String>>,
    now: &BTreeMap<String, String>,
) -> (Vec<String>, Vec<String>) {
    let Some(before) = before else {
        return (Vec::new(), Vec::new());
    };
    let mut changed = Vec::new();
    let mut added = Vec::new();
    for (uri, fingerprint) in now {
        match before.get(uri) {
            Some(old) if old != fingerprint => changed.push(uri.clone()),
            Some(_) => {}
            None => added.push(uri.clone()),
        }
    }
    (changed, added)
}

/// `skills/get`: the entry of a skill named by the URI of its `SKILL.md`, listed or not.
#[tauri::command]
pub async fn skills_get(
    state: State<'_, AppState>,
    server_id: String,
    uri: String,
) -> Result<SkillEntry, Problem> {
    let session = state.session(&server_id)?;
    session.get_skill(&uri).await.map_err(Problem::from)
}

/// Loads a skill on the user's click: its `SKILL.md` read now, verified, its frontmatter
/// compared with the entry's. A refusal is the answer's, not an error: the view shows why.
#[tauri::command]
pub async fn skills_load(
    state: State<'_, AppState>,
    server_id: String,
    entry: SkillEntry,
) -> Result<LoadedSkill, Problem> {
    let session = state.session(&server_id)?;
    session.load_skill(&entry).await.map_err(Problem::from)
}

/// One file of a skill, read and verified against the entry's manifest.
#[tauri::command]
pub async fn skills_read(
    state: State<'_, AppState>,
    server_id: String,
    entry: SkillEntry,
    uri: String,
) -> Result<SkillFileRead, Problem> {
    let session = state.session(&server_id)?;
    session
        .read_skill_file(&entry, &uri)
        .await
        .map_err(Problem::from)
}

/// A folder's children (`resources/directory/read`); None when the server does not offer it.
#[tauri::command]
pub async fn skills_directory(
    state: State<'_, AppState>,
    server_id: String,
    uri: String,
    cursor: Option<String>,
) -> Result<Option<DirectoryListing>, Problem> {
    let session = state.session(&server_id)?;
    session
        .read_directory(&uri, cursor.as_deref())
        .await
        .map_err(Problem::from)
}

/// The text a model receives for a loaded skill: its origin first (the server, the skill's
/// URI and root, and that it is the server's content, not Periscope's), then the `SKILL.md`.
/// SEP-2640: MCP-served skill content is untrusted and its origin must be visible to the model.
pub fn for_model(server_id: &str, loaded: &LoadedSkill) -> Option<String> {
    let text = match &loaded.skill_md.content {
        Some(periscope_core::skills::FileContent::Text { text }) if loaded.refusal.is_none() => {
            text
        }
        _ => return None,
    };
    Some(format!(
        "Skill \"{}\" from the MCP server \"{server_id}\" ({}; untrusted server content, \
         verified against its manifest). Relative paths in it resolve against {}/ on that server.\n\n{text}",
        loaded.entry.name, loaded.entry.uri, loaded.entry.root
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_counted_against_the_last_listing_seen() {
        let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let before = map(&[("skill://a/SKILL.md", "1"), ("skill://b/SKILL.md", "2")]);
        let now = map(&[
            ("skill://a/SKILL.md", "1"),
            ("skill://b/SKILL.md", "3"),
            ("skill://c/SKILL.md", "4"),
        ]);
        assert_eq!(
            compare(Some(&before), &now),
            (
                vec!["skill://b/SKILL.md".to_string()],
                vec!["skill://c/SKILL.md".to_string()]
            )
        );
        assert_eq!(compare(None, &now), (vec![], vec![]));
    }
}
