//! Temporary catalog entries: servers opened from the command line (`launch_args`). They sit in
//! the catalog like any other, but are left out of `catalog.json` until the user saves them, so
//! trying a server once leaves nothing behind.

use periscope_core::vocabulary::Problem;
use std::path::PathBuf;
use std::sync::Mutex;

use periscope_core::view::AppEvent;
use serde::Serialize;
use tauri::{AppHandle, Manager, Runtime};

use crate::AppState;
use crate::launch_args::{self, LaunchRequest};

/// A temporary entry and where it came from, for the sidebar's "temporary · Save" mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TemporaryEntry {
    pub id: String,
    /// The command line that opened it, as typed (`periscope-app -- …` or `--url …`).
    pub source: String,
}

#[derive(Default)]
pub struct Temporary(Mutex<Vec<TemporaryEntry>>);

impl Temporary {
    fn entries(&self) -> std::sync::MutexGuard<'_, Vec<TemporaryEntry>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn list(&self) -> Vec<TemporaryEntry> {
        self.entries().clone()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.entries().iter().any(|e| e.id == id)
    }

    /// Drops the mark (the entry was saved or removed).
    pub fn forget(&self, id: &str) {
        self.entries().retain(|e| e.id != id);
    }
}

/// Opens the server `argv` names, if any (the app's own argv at startup, or a second launch's,
/// handed over by the single-instance plugin). A malformed request is reported on stderr: it
/// came from a terminal.
pub fn open_from_argv<R: Runtime>(app: &AppHandle<R>, argv: &[String], cwd: Option<PathBuf>) {
    if let Some(path) = launch_args::recording(argv, cwd.as_deref()) {
        // A recording reopened read-only (recordings.rs); the UI re-reads its list on Catalog.
        let state = app.state::<AppState>();
        match state.recordings.open(&path) {
            Ok(_) => state.hub.send(AppEvent::Catalog),
            Err(e) => eprintln!("periscope-app: could not open {}: {e}", path.display()),
        }
    }
    match launch_args::parse(argv) {
        Ok(Some(request)) => {
            if let Err(e) = open(app, &request, cwd) {
                eprintln!("periscope-app: could not open {}: {e}", request.source());
            }
        }
        Ok(None) => {}
        Err(e) => eprintln!("periscope-app: {e}"),
    }
}

/// Adds the server as a temporary entry, tells the UI, and connects it.
fn open<R: Runtime>(
    app: &AppHandle<R>,
    request: &LaunchRequest,
    cwd: Option<PathBuf>,
) -> Result<(), Problem> {
    let state = app.state::<AppState>();
    let catalog = state.catalog();
    let id = (1..)
        .map(|n| format!("cli-{n}"))
        .find(|id| !catalog.iter().any(|e| &e.id == id))
        .expect("some cli-N id is free");
    // In memory only: catalog_store::save leaves temporary entries out of the file.
    app.state::<Temporary>().entries().push(TemporaryEntry {
        id: id.clone(),
        source: request.source(),
    });
    if let Err(e) = state.save_entry(request.entry(id.clone(), cwd)) {
        app.state::<Temporary>().forget(&id);
        return Err(e);
    }
    state.hub.send(AppEvent::Catalog);
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        // A failure shows on the entry (its status), like any connect.
        let _ = handle.state::<AppState>().connect_if_idle(&id).await;
    });
    Ok(())
}
