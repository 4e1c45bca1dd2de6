//! The app's state: the catalog and one engine session per connected server. Connecting and
//! disconnecting are in `lifecycle`, sign-in and client secrets in `sign_in`, reads of a
//! connection's record in `record`, the task that tells the UI the record grew in `forward`,
//! and the session store files on disk in `store_files`.

mod forward;
mod lifecycle;
mod raw_command;
mod record;
mod sign_in;
mod store_files;

use periscope_core::vocabulary::Problem;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use periscope_core::auth::OAuthClient;
use periscope_core::auth::store::SecretStore;
use periscope_core::config::{ServerEntry, ServerTarget, validate_entry};
use periscope_core::server_secrets::{self, SecretSlot};
use periscope_core::session::{ServerIdentity, Session};
use periscope_core::view::{ConnectionInfo, ConnectionStatus};

use crate::asks::Asks;
use crate::catalog_store::LoadIssues;
use crate::events::EventHub;
use periscope_core::vocabulary::method::names;

/// How many stderr lines a failed status quotes.
const STDERR_TAIL: usize = 10;

#[derive(Default)]
pub struct AppState {
    catalog: Mutex<Vec<ServerEntry>>,
    conns: Mutex<HashMap<String, Arc<Conn>>>,
    /// One connect at a time per server: a second click (or the first-launch connect racing a
    /// user's) waits for the attempt in flight instead of spawning a second server.
    connecting: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    pub hub: EventHub,
    /// Server requests waiting for the user, and what the app answers by itself.
    pub asks: Arc<Asks>,
    /// OAuth tokens, client secrets and the secret values of server entries: the OS keychain,
    /// else an owner-only file.
    pub secrets: OnceLock<Arc<SecretStore>>,
    /// What loading the catalog file found wrong, and the entries it could not read.
    catalog_issues: Mutex<LoadIssues>,
    /// The app's settings (`settings.json`), loaded at start.
    pub settings: crate::app_settings::SettingsCell,
    /// Record files reopened read-only; `record.rs` serves their reads.
    pub recordings: crate::recordings::Recordings,
    /// Where each session's traffic store goes (`traffic/` in the app's data folder); unset
    /// (tests on the mock runtime), sessions keep their record in memory.
    pub traffic_dir: OnceLock<std::path::PathBuf>,
    /// The era each server was found to speak (`eras.json`), so a legacy server is not
    /// probed with `server/discover` on every connection.
    pub found_eras: crate::found_eras::FoundEras,
    /// Each server's tools as the user first saw them (`pins.json`): a tool that changed
    /// since is marked until accepted.
    pub tool_pins: crate::tool_pins::ToolPins,
}

struct Conn {
    /// `None` when the server could not even be started.
    session: Option<Arc<Session>>,
    status: Mutex<ConnectionStatus>,
    identity: Mutex<Option<ServerIdentity>>,
    /// Set when the user disconnects, so the ending is not reported as a failure.
    user_closed: AtomicBool,
    /// The sign-in of a remote server (its steps and token for the OAuth view).
    oauth: Option<Arc<OAuthClient>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl AppState {
    pub fn set_catalog(&self, entries: Vec<ServerEntry>) {
        *lock(&self.catalog) = entries;
    }

    pub fn catalog(&self) -> Vec<ServerEntry> {
        lock(&self.catalog).clone()
    }

    /// The catalog's entry of `server_id`.
    pub fn entry(&self, server_id: &str) -> Result<ServerEntry, Problem> {
        lock(&self.catalog)
            .iter()
            .find(|e| e.id == server_id)
            .cloned()
            .ok_or_else(|| Problem::ServerNotFound {
                id: server_id.into(),
            })
    }

    pub fn set_catalog_issues(&self, issues: LoadIssues) {
        *lock(&self.catalog_issues) = issues;
    }

    /// What loading the catalog found wrong.
    pub fn catalog_problems(&self) -> Vec<Problem> {
        lock(&self.catalog_issues).problems.clone()
    }

    /// The stored entries this build could not read, to write back unchanged.
    pub fn unreadable_entries(&self) -> Vec<serde_json::Value> {
        lock(&self.catalog_issues).unreadable.clone()
    }

    fn secret_store(&self) -> Option<&SecretStore> {
        self.secrets.get().map(|s| &**s)
    }

    /// Adds the entry, or replaces the one with its id; its secret values go to the secret
    /// store and the catalog keeps only their names. Returns the new catalog.
    pub fn save_entry(&self, entry: ServerEntry) -> Result<Vec<ServerEntry>, Problem> {
        validate_entry(&entry).map_err(Problem::from)?;
        let previous = lock(&self.catalog)
            .iter()
            .find(|e| e.id == entry.id)
            .cloned();
        let entry =
            server_secrets::keep(self.secret_store(), &entry, previous.as_ref()).map_err(|e| {
                Problem::not_saved(
                    periscope_core::vocabulary::problem::Stored::Secrets,
                    Problem::internal(e),
                )
            })?;
        let mut catalog = lock(&self.catalog);
        match catalog.iter_mut().find(|e| e.id == entry.id) {
            Some(existing) => *existing = entry,
            None => catalog.push(entry),
        }
        Ok(catalog.clone())
    }

    /// The host of a remote server's URL (a URL it names elsewhere is worth a warning); None
    /// for a local server or one not in the catalog.
    pub fn server_host(&self, server_id: &str) -> Option<String> {
        let entry = lock(&self.catalog)
            .iter()
            .find(|e| e.id == server_id)
            .cloned()?;
        match entry.target {
            ServerTarget::Http { target, .. } => tauri::Url::parse(&target.url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_string)),
            ServerTarget::Stdio(_) => None,
        }
    }

    /// Removes the entry and forgets its secret values.
    pub fn remove_entry(&self, id: &str) -> Result<Vec<ServerEntry>, Problem> {
        let removed = lock(&self.catalog).iter().find(|e| e.id == id).cloned();
        if let Some(entry) = &removed {
            server_secrets::forget(self.secret_store(), entry).map_err(|e| {
                Problem::not_saved(
                    periscope_core::vocabulary::problem::Stored::Secrets,
                    Problem::internal(e),
                )
            })?;
        }
        self.tool_pins.forget(id);
        let mut catalog = lock(&self.catalog);
        catalog.retain(|e| e.id != id);
        Ok(catalog.clone())
    }

    /// One stored secret value of a server entry, for the form's "show".
    pub fn reveal_secret(
        &self,
        server_id: &str,
        slot: SecretSlot,
        name: &str,
    ) -> Result<Option<String>, Problem> {
        let store = self.secret_store().ok_or(Problem::Unavailable {
            what: periscope_core::vocabulary::problem::Facility::SecretStore,
            detail: None,
        })?;
        server_secrets::reveal(store, server_id, slot, name).map_err(|e| Problem::Unavailable {
            what: periscope_core::vocabulary::problem::Facility::SecretStore,
            detail: Some(e.to_string()),
        })
    }

    /// The entry's target with its secret values filled in, to start a session with.
    pub(crate) fn resolved_target(&self, entry: &ServerEntry) -> Result<ServerTarget, Problem> {
        server_secrets::resolve(self.secret_store(), entry).map_err(|e| Problem::StartFailed {
            server: entry.id.clone(),
            cause: periscope_core::vocabulary::start::StartCause::SecretsUnresolved {
                name: entry.name.clone(),
                detail: e.to_string(),
            },
        })
    }

    /// The session of a ready connection.
    pub fn session(&self, server_id: &str) -> Result<Arc<Session>, Problem> {
        let conn = lock(&self.conns).get(server_id).cloned();
        let conn = conn.ok_or_else(|| Problem::NotConnected {
            server: server_id.into(),
        })?;
        match (&*lock(&conn.status), &conn.session) {
            (ConnectionStatus::Ready { .. }, Some(session)) => Ok(session.clone()),
            (ConnectionStatus::Connecting, _) => Err(Problem::StillConnecting {
                server: server_id.into(),
            }),
            (ConnectionStatus::Failed { error, .. }, _) => Err(Problem::ConnectionFailed {
                server: server_id.into(),
                cause: Box::new(error.clone()),
            }),
            _ => Err(Problem::NotConnected {
                server: server_id.into(),
            }),
        }
    }

    /// The record of a connection, whatever its state (a failed one keeps its traffic).
    fn recorded(&self, server_id: &str) -> Result<Arc<Conn>, Problem> {
        lock(&self.conns)
            .get(server_id)
            .cloned()
            .ok_or_else(|| Problem::NotConnected {
                server: server_id.into(),
            })
    }

    pub fn connections(&self) -> Vec<ConnectionInfo> {
        lock(&self.conns)
            .iter()
            .map(|(id, c)| ConnectionInfo {
                server_id: id.clone(),
                status: lock(&c.status).clone(),
                identity: lock(&c.identity).clone(),
            })
            .collect()
    }

    /// Tells a connected server its roots changed (`notifications/roots/list_changed`).
    pub async fn roots_changed(&self, server_id: &str) -> Result<(), Problem> {
        let Ok(session) = self.session(server_id) else {
            return Ok(()); // not connected: it will ask when it connects
        };
        session
            .notify(names::ROOTS_LIST_CHANGED, None)
            .await
            .map_err(|e| periscope_core::session::send_problem(names::ROOTS_LIST_CHANGED, &e))
    }
}
