//! The app's own settings (`settings.json` in the data folder, owner-only, `json_file`): the
//! request timeout new connections get, the era a new server entry starts with, and the theme.
//! Kept with the app's files, not in the web view's storage, so they survive a reinstall of the
//! web view and are read before the window exists.

use std::sync::Mutex;
use std::time::Duration;

use periscope_core::era::EraChoice;
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Runtime};

use crate::json_file;

const FILE: &str = "settings.json";
const KEY: &str = "settings";

/// The bounds of the request timeout a user may set: below 1 s nothing answers, above an hour a
/// stalled server holds a call for longer than anyone waits.
pub const TIMEOUT_RANGE_S: (u32, u32) = (1, 3600);

/// How the app looks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// Follows the desktop's light or dark preference.
    #[default]
    System,
    Light,
    Dark,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(default)]
pub struct AppSettings {
    /// How long a request waits for its answer (each new connection; a connected server keeps
    /// the timeout it was connected with).
    pub request_timeout_s: u32,
    /// The era a new server entry starts with in the server form.
    pub default_era: EraChoice,
    pub theme: Theme,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            request_timeout_s: 60,
            default_era: EraChoice::Auto,
            theme: Theme::System,
        }
    }
}

impl AppSettings {
    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(u64::from(self.request_timeout_s))
    }

    /// Why the settings cannot be saved, in words a user reads.
    pub fn problem(&self) -> Option<String> {
        let (low, high) = TIMEOUT_RANGE_S;
        (!(low..=high).contains(&self.request_timeout_s))
            .then(|| format!("the request timeout must be between {low} and {high} seconds"))
    }
}

/// The settings in force, shared by the commands and the connections.
#[derive(Debug, Default)]
pub struct SettingsCell(Mutex<AppSettings>);

impl SettingsCell {
    pub fn get(&self) -> AppSettings {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn set(&self, settings: AppSettings) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = settings;
    }
}

/// The stored settings; defaults where the file or a field is missing or unreadable (a
/// settings file is never worth refusing to start over).
pub fn load<R: Runtime>(app: &AppHandle<R>) -> AppSettings {
    let Ok(path) = json_file::path(app, FILE) else {
        return AppSettings::default();
    };
    serde_json::from_value(json_file::read_key(&path, KEY)).unwrap_or_default()
}

pub fn save<R: Runtime>(app: &AppHandle<R>, settings: &AppSettings) -> Result<(), String> {
    let path = json_file::path(app, FILE)?;
    let value = serde_json::to_value(settings).map_err(|e| e.to_string())?;
    json_file::write_key(&path, KEY, value).map_err(|e| format!("could not save the settings: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_or_old_file_reads_with_defaults_for_the_rest() {
        let settings: AppSettings =
            serde_json::from_value(serde_json::json!({"theme": "dark"})).unwrap();
        assert_eq!(settings.theme, Theme::Dark);
        assert_eq!(settings.request_timeout_s, 60);
        assert_eq!(settings.default_era, EraChoice::Auto);
    }

    #[test]
    fn a_timeout_out_of_range_is_refused_with_the_range() {
        let zero = AppSettings {
            request_timeout_s: 0,
            ..AppSettings::default()
        };
        assert_eq!(
            zero.problem().as_deref(),
            Some("the request timeout must be between 1 and 3600 seconds")
        );
        assert_eq!(AppSettings::default().problem(), None);
    }
}
