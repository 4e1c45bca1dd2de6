//! The server catalog, `catalog.json` in the app's data folder (owner-only, `json_file`).
//!
//! A catalog that cannot be read in full never costs the user their servers: the file is copied
//! to `catalog.json.bak-<unix seconds>`, the entries that can be read load, the others are named
//! in a problem the UI shows and written back unchanged on every save.

use periscope_core::config::{self, ServerEntry, ServerTarget, StdioTarget};
use periscope_core::era::EraChoice;
use periscope_core::vocabulary::Problem;
use periscope_core::vocabulary::catalog_damage::{CatalogDamage, CopyKept};
use serde_json::Value;
use tauri::{AppHandle, Manager, Runtime};

use crate::AppState;
use crate::json_file::{self, Contents};
use crate::temporary::Temporary;

const STORE: &str = "catalog.json";
const KEY: &str = "servers";
/// Per-server roots and reply rules.
const HOST_KEY: &str = "host_settings";
pub const DEMO_ID: &str = "demo";
/// The same demo server, pinned to the legacy era (the `initialize` handshake), so both eras
/// can be explored from the first launch.
pub const DEMO_LEGACY_ID: &str = "demo-legacy";

/// What loading the catalog found wrong, for the UI, and the stored entries this build cannot
/// read, kept to be written back as they were.
#[derive(Debug, Default)]
pub struct LoadIssues {
    pub problems: Vec<Problem>,
    pub unreadable: Vec<Value>,
}

/// The built-in demo server entries: "Demo server" (era auto, which lands in 2026-07-28) and
/// "Demo server (legacy era)" (pinned legacy). Both run the demo with `--eras dual`, which
/// speaks both eras.
pub fn demo_entries() -> Vec<ServerEntry> {
    let command = demo_command();
    let entry = |id: &str, name: &str, era: EraChoice| ServerEntry {
        id: id.into(),
        name: name.into(),
        target: ServerTarget::Stdio(StdioTarget::new(command.clone(), ["--eras", "dual"])),
        era,
    };
    vec![
        entry(DEMO_ID, "Demo server", EraChoice::Auto),
        entry(
            DEMO_LEGACY_ID,
            "Demo server (legacy era)",
            EraChoice::Legacy,
        ),
    ]
}

/// The demo server's path, from beside the app's own binary (where the build and the package
/// put it), else its name (found on PATH).
fn demo_command() -> String {
    let name = "periscope-demo-server";
    let exe = std::env::current_exe().ok();
    exe.iter()
        .flat_map(|e| e.ancestors().skip(1).take(2))
        .map(|dir| dir.join(name))
        .find(|p| p.exists())
        .map_or_else(|| name.to_string(), |p| p.to_string_lossy().into_owned())
}

/// How the catalog file reads: the entries, whether this is the first launch (no file, or no
/// list in it), and what was wrong.
pub fn read(path: &std::path::Path) -> (Vec<ServerEntry>, bool, LoadIssues) {
    let mut issues = LoadIssues::default();
    let back_up = |issues: &mut LoadIssues, damage: CatalogDamage| {
        let copy = match json_file::back_up(path) {
            Ok(backup) => CopyKept::Copied {
                path: backup.display().to_string(),
            },
            Err(e) => CopyKept::NotCopied {
                detail: e.to_string(),
            },
        };
        issues.problems.push(Problem::CatalogDamaged {
            path: path.display().to_string(),
            damage,
            copy,
        });
    };
    let map = match json_file::read(path) {
        Contents::Missing => return (Vec::new(), true, issues),
        Contents::Object(map) => map,
        Contents::Unreadable(reason) => {
            back_up(
                &mut issues,
                CatalogDamage::Unreadable {
                    detail: reason.to_string(),
                },
            );
            return (Vec::new(), false, issues);
        }
    };
    let Some(stored) = map.get(KEY).cloned() else {
        return (Vec::new(), true, issues);
    };
    let Some(parsed) = config::parse_entries(stored) else {
        back_up(&mut issues, CatalogDamage::NoList);
        return (Vec::new(), false, issues);
    };
    if !parsed.unreadable.is_empty() {
        back_up(
            &mut issues,
            CatalogDamage::EntriesLeftOut {
                entries: parsed.unreadable.iter().map(|u| u.left_out()).collect(),
            },
        );
        issues.unreadable = parsed.unreadable.into_iter().map(|u| u.raw).collect();
    }
    (parsed.entries, false, issues)
}

/// Loads the catalog into `state`; on first launch, seeds it with the demo server entries. Returns
/// whether this was the first launch.
pub fn load<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
) -> Result<bool, Box<dyn std::error::Error>> {
    let path = json_file::path(app, STORE)?;
    let (entries, first_launch, issues) = read(&path);
    for problem in &issues.problems {
        eprintln!("periscope: {problem}");
    }
    let entries = if first_launch {
        demo_entries()
    } else {
        entries
    };
    state.set_catalog(entries.clone());
    if let Ok(settings) = serde_json::from_value(json_file::read_key(&path, HOST_KEY)) {
        state.asks.set_all_settings(settings);
    }
    state.set_catalog_issues(issues);
    if first_launch {
        save(app, state, &entries)?;
    }
    Ok(first_launch)
}

/// Writes the catalog: `entries` (secret values already in the secret store), then the stored
/// entries this build could not read, unchanged.
pub fn save<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
    entries: &[ServerEntry],
) -> Result<(), Problem> {
    let path = json_file::path(app, STORE)?;
    // Servers opened from the command line stay out of the file until the user saves them.
    let temporary = app.try_state::<Temporary>();
    let entries: Vec<&ServerEntry> = entries
        .iter()
        .filter(|e| !temporary.as_ref().is_some_and(|t| t.contains(&e.id)))
        .collect();
    let Value::Array(mut list) = serde_json::to_value(entries).map_err(Problem::internal)? else {
        return Err(Problem::internal("the catalog did not encode as a list"));
    };
    list.extend(state.unreadable_entries());
    json_file::write_key(&path, KEY, Value::Array(list)).map_err(|e| {
        Problem::not_saved(
            periscope_core::vocabulary::problem::Stored::ServerCatalog,
            e,
        )
    })
}

pub fn save_host_settings<R: Runtime>(app: &AppHandle<R>, state: &AppState) -> Result<(), Problem> {
    let path = json_file::path(app, STORE)?;
    let settings = serde_json::to_value(state.asks.all_settings()).map_err(Problem::internal)?;
    json_file::write_key(&path, HOST_KEY, settings).map_err(|e| {
        Problem::not_saved(
            periscope_core::vocabulary::problem::Stored::ServerSettings,
            e,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "periscope-catalog-store-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn backups(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().contains("catalog.json.bak-"))
            .collect()
    }

    #[test]
    fn one_broken_entry_keeps_the_file_backs_it_up_and_loads_the_rest() {
        let dir = scratch("one-broken");
        let path = dir.join("catalog.json");
        let text = serde_json::json!({"servers": [
            {"id": "a", "name": "Good", "target": {"transport": "stdio", "command": "x"}},
            {"id": "b", "name": "Broken", "target": {"transport": "stdio", "args": 5}},
        ]})
        .to_string();
        std::fs::write(&path, &text).unwrap();
        let (entries, first_launch, issues) = read(&path);
        assert!(!first_launch);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].id, "a");
        assert_eq!(issues.problems.len(), 1);
        let Problem::CatalogDamaged {
            damage: CatalogDamage::EntriesLeftOut { entries },
            copy: CopyKept::Copied { .. },
            ..
        } = &issues.problems[0]
        else {
            panic!("{:?}", issues.problems)
        };
        assert_eq!(
            (
                entries[0].position,
                entries[0].name.as_deref(),
                entries[0].id.as_deref()
            ),
            (2, Some("Broken"), Some("b"))
        );
        assert!(
            issues.problems[0]
                .to_string()
                .contains(r#"entry 2 ("Broken", id "b")"#),
            "{:?}",
            issues.problems
        );
        assert_eq!(issues.unreadable.len(), 1);
        // The file is untouched and a copy sits beside it.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let copies = backups(&dir);
        assert_eq!(copies.len(), 1);
        assert!(
            issues.problems[0]
                .to_string()
                .contains(&copies[0].display().to_string())
        );
        assert_eq!(std::fs::read_to_string(&copies[0]).unwrap(), text);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_that_is_not_json_is_not_a_first_launch_and_is_backed_up() {
        let dir = scratch("not-json");
        let path = dir.join("catalog.json");
        std::fs::write(&path, "{\"servers\": [ oops").unwrap();
        let (entries, first_launch, issues) = read(&path);
        assert!(entries.is_empty() && !first_launch);
        assert!(
            issues.problems[0].to_string().contains("not valid JSON"),
            "{:?}",
            issues.problems
        );
        assert_eq!(backups(&dir).len(), 1);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"servers\": [ oops"
        );

        let (_, first_launch, issues) = read(&dir.join("missing.json"));
        assert!(first_launch && issues.problems.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
