//! The Models setting: the configured model providers (`models.json` in the data folder,
//! owner-only, written atomically) and their API keys, which live in the secret store (the OS
//! keychain, else the 0600 credentials file, beside the servers' secret values) under
//! `periscope_core::model::key_name` and never in `models.json`, an event, a log or an error.
//! Drafting sampling answers with a provider's model is in [`draft`].

pub mod draft;

use periscope_core::vocabulary::Problem;
use std::path::PathBuf;
use std::sync::Arc;

use periscope_core::auth::store::SecretStore;
use periscope_core::model::{ApiKey, ModelClient, Provider, key_name};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::json_file;

/// The key of the providers' list in `models.json`.
const PROVIDERS_KEY: &str = "providers";

/// A provider as the Models setting shows it: whether it has a key, never the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ProviderView {
    pub provider: Provider,
    pub has_key: bool,
}

/// What the user changes about a provider's key when saving it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum KeyChange {
    /// Leave the stored key as it is (the masked field was not touched).
    Keep,
    /// Store this key (replacing the old one).
    Set { key: String },
    /// Forget the stored key (a local runtime needs none).
    Clear,
}

/// The providers' file and the secret store their keys are in.
pub struct Models {
    file: PathBuf,
    secrets: Arc<SecretStore>,
}

impl Models {
    pub fn new(file: PathBuf, secrets: Arc<SecretStore>) -> Models {
        Models { file, secrets }
    }

    /// The configured providers, in the order the user added them. An unreadable file reads
    /// as none (the next save backs it up before replacing it).
    pub fn providers(&self) -> Vec<Provider> {
        match json_file::read_key(&self.file, PROVIDERS_KEY) {
            Value::Null => Vec::new(),
            value => serde_json::from_value(value).unwrap_or_default(),
        }
    }

    pub fn views(&self) -> Vec<ProviderView> {
        self.providers()
            .into_iter()
            .map(|provider| ProviderView {
                has_key: self.key(&provider.id).is_some(),
                provider,
            })
            .collect()
    }

    pub fn provider(&self, id: &str) -> Result<Provider, Problem> {
        self.providers()
            .into_iter()
            .find(|p| p.id == id)
            .ok_or_else(|| {
                Problem::not_found(
                    periscope_core::vocabulary::problem::Thing::ModelProvider,
                    id,
                )
            })
    }

    fn key(&self, id: &str) -> Option<ApiKey> {
        self.secrets
            .load_value(&key_name(id))
            .ok()
            .flatten()
            .map(ApiKey::new)
            .filter(|k| !k.expose().is_empty())
    }

    fn write(&self, providers: &[Provider]) -> Result<(), Problem> {
        let value = serde_json::to_value(providers).map_err(Problem::internal)?;
        json_file::write_key(&self.file, PROVIDERS_KEY, value)
    }

    /// Adds the provider or replaces the one with its id, and applies the key change. The
    /// provider must make a client (an http(s) URL; a key only over https or to this machine),
    /// so a saved provider can always be asked. Exactly one provider is the default.
    pub fn save(&self, provider: Provider, key: KeyChange) -> Result<Vec<ProviderView>, Problem> {
        let mut provider = provider;
        provider.name = provider.name.trim().to_string();
        provider.base_url = provider.base_url.trim().trim_end_matches('/').to_string();
        provider.model = provider.model.trim().to_string();
        if provider.id.trim().is_empty() {
            return Err(Problem::invalid(
                periscope_core::vocabulary::problem::Field::ProviderId,
            ));
        }
        if provider.name.is_empty() {
            return Err(Problem::invalid(
                periscope_core::vocabulary::problem::Field::ProviderName,
            ));
        }
        if provider.model.is_empty() {
            return Err(Problem::invalid(
                periscope_core::vocabulary::problem::Field::ModelName,
            ));
        }
        let new_key = match &key {
            KeyChange::Set { key } => Some(ApiKey::new(key.clone())),
            KeyChange::Keep => self.key(&provider.id),
            KeyChange::Clear => None,
        };
        ModelClient::new(provider.clone(), new_key).map_err(Problem::model)?;
        let name = key_name(&provider.id);
        match key {
            KeyChange::Keep => {}
            KeyChange::Set { key } => {
                let key = ApiKey::new(key);
                if key.expose().is_empty() {
                    self.secrets.delete_value(&name)
                } else {
                    self.secrets.save_value(&name, key.expose())
                }
                .map_err(|e| {
                    Problem::not_saved(
                        periscope_core::vocabulary::problem::Stored::ApiKey,
                        Problem::internal(e),
                    )
                })?
            }
            KeyChange::Clear => self.secrets.delete_value(&name).map_err(|e| {
                Problem::not_saved(
                    periscope_core::vocabulary::problem::Stored::ApiKey,
                    Problem::internal(e),
                )
            })?,
        }
        let mut providers = self.providers();
        match providers.iter_mut().find(|p| p.id == provider.id) {
            Some(existing) => *existing = provider.clone(),
            None => providers.push(provider.clone()),
        }
        one_default(
            &mut providers,
            provider.default.then_some(provider.id.as_str()),
        );
        self.write(&providers)?;
        Ok(self.views())
    }

    /// Removes the provider and forgets its key.
    pub fn remove(&self, id: &str) -> Result<Vec<ProviderView>, Problem> {
        self.secrets.delete_value(&key_name(id)).map_err(|e| {
            Problem::not_saved(
                periscope_core::vocabulary::problem::Stored::ApiKey,
                Problem::internal(e),
            )
        })?;
        let mut providers = self.providers();
        providers.retain(|p| p.id != id);
        one_default(&mut providers, None);
        self.write(&providers)?;
        Ok(self.views())
    }

    /// A client for the provider, with its key.
    pub fn client(&self, id: &str) -> Result<ModelClient, Problem> {
        let provider = self.provider(id)?;
        ModelClient::new(provider, self.key(id)).map_err(Problem::model)
    }

    /// The default provider, else the first (the playground's choice when none is named).
    pub fn default_provider(&self) -> Option<Provider> {
        let providers = self.providers();
        providers
            .iter()
            .find(|p| p.default)
            .or(providers.first())
            .cloned()
    }
}

/// Keeps exactly one default: `chosen` when given, else the one already marked, else the first.
fn one_default(providers: &mut [Provider], chosen: Option<&str>) {
    let keep = chosen
        .map(str::to_string)
        .or_else(|| providers.iter().find(|p| p.default).map(|p| p.id.clone()))
        .or_else(|| providers.first().map(|p| p.id.clone()));
    for p in providers.iter_mut() {
        p.default = Some(&p.id) == keep.as_ref();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use periscope_core::model::ProviderKind;

    fn provider(id: &str, default: bool) -> Provider {
        Provider {
            id: id.into(),
            name: format!("{id} model"),
            kind: ProviderKind::OpenAiCompatible,
            base_url: "http://127.0.0.1:11434/v1".into(),
            model: "m".into(),
            max_tokens: None,
            default,
        }
    }

    fn models() -> (Models, PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "periscope-models-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let secrets = Arc::new(SecretStore::open(dir.join("credentials.json"), true));
        (Models::new(dir.join("models.json"), secrets), dir)
    }

    #[test]
    fn a_providers_key_is_in_the_secret_store_and_never_in_models_json() {
        let (models, dir) = models();
        let views = models
            .save(
                provider("local", false),
                KeyChange::Set {
                    key: " sk-secret-123 \n".into(),
                },
            )
            .unwrap();
        assert!(views[0].has_key && views[0].provider.default);
        let file = std::fs::read_to_string(dir.join("models.json")).unwrap();
        assert!(!file.contains("sk-secret-123"), "{file}");
        assert!(file.contains("127.0.0.1:11434"));
        let credentials = std::fs::read_to_string(dir.join("credentials.json")).unwrap();
        assert!(credentials.contains("sk-secret-123"));
        // Saved again with the field untouched: the key stays; cleared: it goes.
        models
            .save(provider("local", false), KeyChange::Keep)
            .unwrap();
        assert!(models.views()[0].has_key);
        models
            .save(provider("local", false), KeyChange::Clear)
            .unwrap();
        assert!(!models.views()[0].has_key);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join("models.json"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_key_is_refused_over_plain_http_off_this_machine_and_nothing_is_kept() {
        let (models, dir) = models();
        let mut remote = provider("remote", false);
        remote.base_url = "http://models.example.com/v1".into();
        let error = models
            .save(
                remote,
                KeyChange::Set {
                    key: "sk-abc".into(),
                },
            )
            .unwrap_err()
            .to_string();
        assert!(error.contains("in clear"), "{error}");
        assert!(!error.contains("sk-abc"));
        assert!(!dir.join("models.json").exists());
        assert!(models.providers().is_empty());
    }

    #[test]
    fn exactly_one_provider_is_the_default() {
        let (models, _dir) = models();
        models.save(provider("a", false), KeyChange::Keep).unwrap();
        models.save(provider("b", true), KeyChange::Keep).unwrap();
        let defaults: Vec<_> = models
            .providers()
            .into_iter()
            .filter(|p| p.default)
            .map(|p| p.id)
            .collect();
        assert_eq!(defaults, ["b"]);
        models.remove("b").unwrap();
        assert!(models.providers()[0].default);
    }
}
