//! Import of servers from other MCP hosts' configs (the engine's `host_config`): the host files
//! found here, a preview of pasted text or of one of those files, and the import the user
//! confirmed, secret values to the secret store as the server form does.

use periscope_core::config::{ServerEntry, validate_entry};
use periscope_core::host_config::{
    self, Dialect, ImportContext, ImportPreview, ImportSource, locations, locations::HostFile,
};
use periscope_core::vocabulary::Problem;
use tauri::{AppHandle, Runtime, State};

use crate::{AppState, catalog_store};

/// The usual config files of installed hosts that exist here (offered, never read unasked).
#[tauri::command]
pub fn import_host_files() -> Vec<HostFile> {
    locations::Roots::of_this_process()
        .map(|roots| locations::found(&roots))
        .unwrap_or_default()
}

/// What importing pasted text (a host's config, one server's JSON, or a command line) would add.
#[tauri::command]
pub fn import_preview(text: String, dialect: Option<Dialect>) -> Result<ImportPreview, Problem> {
    let source = ImportSource {
        text: &text,
        file_name: None,
        dialect,
    };
    host_config::import(source, &ImportContext::of_this_process(None)).map_err(host_config_problem)
}

/// What importing one of the files [`import_host_files`] found would add. Only those files:
/// the UI never names an arbitrary path to read.
#[tauri::command]
pub fn import_preview_file(path: String) -> Result<ImportPreview, Problem> {
    let found = import_host_files();
    let Some(file) = found.iter().find(|f| f.path.to_string_lossy() == path) else {
        return Err(Problem::not_found(
            periscope_core::vocabulary::problem::Thing::HostConfigFile,
            path,
        ));
    };
    let text = host_config::read_config_file(&file.path).map_err(|e| Problem::io(&file.path, e))?;
    let source = ImportSource {
        text: &text,
        file_name: Some(&path),
        dialect: Some(file.dialect),
    };
    let context = ImportContext::of_this_process(locations::workspace_folder(&file.path));
    host_config::import(source, &context).map_err(host_config_problem)
}

fn host_config_problem(error: impl std::fmt::Display) -> Problem {
    Problem::InvalidInput {
        field: periscope_core::vocabulary::problem::Field::HostConfig,
        detail: Some(error.to_string()),
    }
}

/// Adds the entries the user confirmed, each with an id no catalog entry has; their secret
/// values go to the secret store. Checked first, all of them: none is added when one is
/// invalid.
#[tauri::command]
pub fn import_save<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    entries: Vec<ServerEntry>,
) -> Result<Vec<ServerEntry>, Problem> {
    for entry in &entries {
        validate_entry(entry).map_err(|e| Problem::NotImported {
            name: entry.name.clone(),
            imported: 0,
            cause: Box::new(Problem::from(e)),
        })?;
    }
    let mut taken: Vec<String> = state.catalog().into_iter().map(|e| e.id).collect();
    let mut catalog = state.catalog();
    let mut failure = None;
    for (done, mut entry) in entries.into_iter().enumerate() {
        entry.id = unique_id(&entry.id, &taken);
        taken.push(entry.id.clone());
        match state.save_entry(entry.clone()) {
            Ok(saved) => catalog = saved,
            Err(e) => {
                failure = Some(Problem::NotImported {
                    name: entry.name.clone(),
                    imported: done as u64,
                    cause: Box::new(e),
                });
                break;
            }
        }
    }
    catalog_store::save(&app, &state, &catalog)?;
    match failure {
        Some(e) => Err(e),
        None => Ok(catalog),
    }
}

/// `id`, or `id-2`, `id-3`… when taken.
fn unique_id(id: &str, taken: &[String]) -> String {
    let mut candidate = id.to_string();
    let mut n = 1;
    while taken.contains(&candidate) {
        n += 1;
        candidate = format!("{id}-{n}");
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_imported_id_the_catalog_has_gets_a_number() {
        let taken = vec![
            "demo".to_string(),
            "github".to_string(),
            "github-2".to_string(),
        ];
        assert_eq!(unique_id("fetch", &taken), "fetch");
        assert_eq!(unique_id("github", &taken), "github-3");
    }
}
