//! The app's own settings (`settings.json` in the data folder, owner-only, `json_file`): the
//! request timeout new connections get, the era a new server entry starts with, the theme and
//! the language.
//! Kept with the app's files, not in the web view's storage, so they survive a reinstall of the
//! web view and are read before the window exists.

use periscope_core::vocabulary::Problem;
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

/// The language of the UI. The web view resolves `System` from the desktop's languages (the
/// process locale: `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), falling back to English.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum Language {
    #[default]
    #[serde(rename = "system")]
    System,
    #[serde(rename = "en")]
    English,
    /// Simplified Chinese.
    #[serde(rename = "zh-Hans")]
    ChineseSimplified,
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
    pub language: Language,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            request_timeout_s: 60,
            default_era: EraChoice::Auto,
            theme: Theme::System,
            language: Language::System,
        }
    }
}

impl AppSettings {
    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(u64::from(self.request_timeout_s))
    }

    /// Why the settings cannot be saved, in words a user reads.
    pub fn problem(&self) -> Option<Problem> {
        let (low, high) = TIMEOUT_RANGE_S;
        (!(low..=high).contains(&self.request_timeout_s)).then(|| Problem::OutOfRange {
            field: periscope_core::vocabulary::problem::Field::RequestTimeoutSeconds,
            low: low.into(),
            high: high.into(),
        })
    }
}

/// The desktop's preferred languages, most preferred first, as BCP 47 tags ("zh-CN"), read the
/// way the C library reads them: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set, and
/// before it `LANGUAGE`'s list unless that locale is "C". Read here rather than from the web
/// view's `navigator.languages`, which WebKitGTK derives from the *installed* locale and so
/// says "en-US" on a machine where `zh_CN.UTF-8` was never generated.
pub fn system_languages() -> Vec<String> {
    system_languages_from(|name| std::env::var(name).ok())
}

fn system_languages_from(var: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .find_map(|name| var(name).filter(|value| !value.is_empty()));
    let is_c = |value: &str| matches!(value, "C" | "POSIX") || value.starts_with("C.");
    let mut raw: Vec<String> = Vec::new();
    if !locale.as_deref().is_some_and(is_c)
        && let Some(list) = var("LANGUAGE")
    {
        raw.extend(list.split(':').map(str::to_string));
    }
    raw.extend(locale);
    let mut tags: Vec<String> = Vec::new();
    for value in raw {
        // "zh_CN.UTF-8@pinyin" -> "zh-CN"
        let bare = value.split(['.', '@']).next().unwrap_or_default();
        if bare.is_empty() || is_c(bare) {
            continue;
        }
        let tag = bare.replace('_', "-");
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    tags
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

pub fn save<R: Runtime>(app: &AppHandle<R>, settings: &AppSettings) -> Result<(), Problem> {
    let path = json_file::path(app, FILE)?;
    let value = serde_json::to_value(settings).map_err(Problem::internal)?;
    json_file::write_key(&path, KEY, value)
        .map_err(|e| Problem::not_saved(periscope_core::vocabulary::problem::Stored::Settings, e))
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
        assert_eq!(settings.language, Language::System);
    }

    fn languages(vars: &[(&str, &str)]) -> Vec<String> {
        system_languages_from(|name| {
            vars.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        })
    }

    #[test]
    fn the_system_languages_are_read_like_the_c_library_reads_them() {
        assert_eq!(languages(&[("LANG", "zh_CN.UTF-8")]), ["zh-CN"]);
        assert_eq!(
            languages(&[("LANG", "en_US.UTF-8"), ("LC_ALL", "zh_TW.UTF-8")]),
            ["zh-TW"]
        );
        assert_eq!(
            languages(&[("LANGUAGE", "zh_CN:en"), ("LANG", "de_DE.UTF-8")]),
            ["zh-CN", "en", "de-DE"]
        );
        // Under the C locale LANGUAGE is ignored, as gettext ignores it.
        assert!(languages(&[("LANGUAGE", "zh_CN"), ("LANG", "C.UTF-8")]).is_empty());
        assert!(languages(&[]).is_empty());
    }

    #[test]
    fn the_language_is_stored_as_its_bcp47_tag() {
        let settings = AppSettings {
            language: Language::ChineseSimplified,
            ..AppSettings::default()
        };
        let value = serde_json::to_value(&settings).unwrap();
        assert_eq!(value["language"], "zh-Hans");
        let back: AppSettings = serde_json::from_value(value).unwrap();
        assert_eq!(back.language, Language::ChineseSimplified);
    }

    #[test]
    fn a_timeout_out_of_range_is_refused_with_the_range() {
        let zero = AppSettings {
            request_timeout_s: 0,
            ..AppSettings::default()
        };
        assert_eq!(
            zero.problem().map(|p| p.to_string()).as_deref(),
            Some("the request timeout in seconds must be between 1 and 3600")
        );
        assert_eq!(AppSettings::default().problem(), None);
    }
}
