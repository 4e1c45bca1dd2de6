//! The era each server was found to speak, remembered across connections and restarts
//! (`eras.json` in the app's data folder). A legacy server that ignores or refuses
//! `server/discover` costs the probe's wait, or its error, on every connection; remembered, the
//! next connection speaks the legacy era at once, says so in Overview (with **Probe again**),
//! and probes afresh when the remembered era fails or the entry's target changed.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use periscope_core::config::ServerEntry;
use periscope_core::era::{Era, EraChoice, EraReason};
use periscope_core::session::ServerIdentity;
use serde::{Deserialize, Serialize};

use crate::json_file;

/// The key of `eras.json` that holds the map.
const KEY: &str = "found_eras";

/// What one server was found to speak, and for which target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Found {
    /// A digest of the entry's target (its command or URL and their settings): an edited
    /// entry is a new server, probed again.
    target: String,
    era: Era,
}

#[derive(Default)]
pub struct FoundEras {
    path: OnceLock<PathBuf>,
    found: Mutex<HashMap<String, Found>>,
}

/// A digest of what the entry connects to (not its name or era).
fn target_digest(entry: &ServerEntry) -> String {
    let mut hasher = DefaultHasher::new();
    serde_json::to_string(&entry.target)
        .unwrap_or_default()
        .hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

impl FoundEras {
    /// Reads `eras.json` (once, at start); a missing or unreadable file remembers nothing.
    pub fn load(&self, path: PathBuf) {
        let value = json_file::read_key(&path, KEY);
        if let Ok(found) = serde_json::from_value::<HashMap<String, Found>>(value) {
            *self.lock() = found;
        }
        let _ = self.path.set(path);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Found>> {
        self.found.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The era to connect in: the entry's choice, or legacy where auto found legacy before
    /// for this very target. The second value says whether it was remembered.
    pub fn choice(&self, entry: &ServerEntry) -> (EraChoice, bool) {
        if entry.era != EraChoice::Auto {
            return (entry.era, false);
        }
        let remembered = self
            .lock()
            .get(&entry.id)
            .is_some_and(|f| f.era == Era::Legacy && f.target == target_digest(entry));
        if remembered {
            (EraChoice::Legacy, true)
        } else {
            (EraChoice::Auto, false)
        }
    }

    /// Notes what an auto connection found: legacy after a failed probe is remembered, a
    /// discovered modern era forgets any remembered one. Pinned eras say nothing.
    pub fn note(&self, entry: &ServerEntry, identity: &ServerIdentity) {
        let found = match identity.era_reason {
            EraReason::ProbeFailed { .. } => Some(Found {
                target: target_digest(entry),
                era: Era::Legacy,
            }),
            EraReason::Discovered => None,
            EraReason::Pinned | EraReason::Remembered => return,
        };
        let changed = {
            let mut map = self.lock();
            match found {
                Some(found) => map.insert(entry.id.clone(), found.clone()) != Some(found),
                None => map.remove(&entry.id).is_some(),
            }
        };
        if changed {
            self.save();
        }
    }

    /// Remembers the legacy era for an entry the user moved there (the doctor's **Reconnect in
    /// the legacy era**), as a failed probe would have.
    pub fn remember_legacy(&self, entry: &ServerEntry) {
        let found = Found {
            target: target_digest(entry),
            era: Era::Legacy,
        };
        let changed = self.lock().insert(entry.id.clone(), found.clone()) != Some(found);
        if changed {
            self.save();
        }
    }

    /// Forgets a server's era (it failed when remembered, the user asked to probe again, or
    /// the entry is gone).
    pub fn forget(&self, id: &str) {
        if self.lock().remove(id).is_some() {
            self.save();
        }
    }

    fn save(&self) {
        let Some(path) = self.path.get() else { return };
        let value = serde_json::to_value(&*self.lock()).unwrap_or_default();
        // A failed write costs one probe next time: worth a line on stderr, not an error.
        if let Err(e) = json_file::write_key(path, KEY, value) {
            eprintln!("periscope-app: could not remember the servers' eras: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use periscope_core::transport::TransportKind;

    fn entry(id: &str, era: EraChoice, command: &str) -> ServerEntry {
        serde_json::from_value(serde_json::json!({"id": id, "name": id, "era": era,
            "target": {"transport": "stdio", "command": command, "args": [], "env": [], "cwd": null}}))
        .unwrap()
    }

    fn identity(reason: EraReason) -> ServerIdentity {
        let era = if reason == EraReason::Discovered {
            "modern"
        } else {
            "legacy"
        };
        serde_json::from_value(serde_json::json!({
            "protocol_version": "2025-11-25", "supported_versions": [], "server_info": {},
            "capabilities": {}, "instructions": null, "warnings": [], "latency_us": 1,
            "transport": TransportKind::Stdio, "era": era, "era_reason": reason
        }))
        .unwrap()
    }

    #[test]
    fn a_failed_probe_is_remembered_for_the_same_target_only() {
        let eras = FoundEras::default();
        let auto = entry("s", EraChoice::Auto, "server-a");
        assert_eq!(eras.choice(&auto), (EraChoice::Auto, false));
        eras.note(
            &auto,
            &identity(EraReason::ProbeFailed {
                answer: periscope_core::era::ProbeAnswer::NotDiscoverResult,
            }),
        );
        assert_eq!(eras.choice(&auto), (EraChoice::Legacy, true));
        // The entry now runs another command: probed again.
        assert_eq!(
            eras.choice(&entry("s", EraChoice::Auto, "server-b")),
            (EraChoice::Auto, false)
        );
        // A pinned entry keeps its pin.
        assert_eq!(
            eras.choice(&entry("s", EraChoice::Modern, "server-a")),
            (EraChoice::Modern, false)
        );
    }

    #[test]
    fn a_discovered_modern_era_or_a_forget_drops_what_was_remembered() {
        let eras = FoundEras::default();
        let auto = entry("s", EraChoice::Auto, "server-a");
        eras.note(
            &auto,
            &identity(EraReason::ProbeFailed {
                answer: periscope_core::era::ProbeAnswer::NotDiscoverResult,
            }),
        );
        eras.note(&auto, &identity(EraReason::Discovered));
        assert_eq!(eras.choice(&auto), (EraChoice::Auto, false));
        eras.note(
            &auto,
            &identity(EraReason::ProbeFailed {
                answer: periscope_core::era::ProbeAnswer::NotDiscoverResult,
            }),
        );
        eras.forget("s");
        assert_eq!(eras.choice(&auto), (EraChoice::Auto, false));
    }

    #[test]
    fn what_was_found_survives_a_restart() {
        let dir = std::env::temp_dir().join(format!("periscope-eras-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("eras.json");
        let auto = entry("s", EraChoice::Auto, "server-a");
        let eras = FoundEras::default();
        eras.load(path.clone());
        eras.note(
            &auto,
            &identity(EraReason::ProbeFailed {
                answer: periscope_core::era::ProbeAnswer::NotDiscoverResult,
            }),
        );
        let again = FoundEras::default();
        again.load(path);
        assert_eq!(again.choice(&auto), (EraChoice::Legacy, true));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
