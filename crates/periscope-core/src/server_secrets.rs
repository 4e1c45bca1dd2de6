//! The environment and header values a server entry marks secret. They live in the secret store
//! (the OS keychain, else the owner-only file: `auth::store`, beside OAuth tokens and client
//! secrets) under the entry's id; the catalog keeps only the name, marked secret, with an empty
//! value. A host keeps them when an entry is saved ([`keep`]), fills them in when a session
//! starts ([`resolve`]) and forgets them with the entry ([`forget`]).

use serde::{Deserialize, Serialize};

use crate::auth::store::{SecretStore, StoreError};
use crate::config::{ServerEntry, ServerTarget};

/// Which list of a server entry a secret value belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum SecretSlot {
    /// An environment variable of a local server.
    Env,
    /// A request header of a remote server.
    Header,
}

impl std::fmt::Display for SecretSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SecretSlot::Env => "the environment variable",
            SecretSlot::Header => "the header",
        })
    }
}

/// Why a secret value could not be kept, found or forgotten. Never carries the value.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    /// Marked secret, but no value was given and none is stored (e.g. a catalog copied from
    /// another computer, whose keychain stayed there).
    #[error(
        "{slot} {name} is marked secret but no value is stored for it: edit the server and type it again"
    )]
    Missing { slot: SecretSlot, name: String },
    /// The entry has secret values and there is no secret store to keep them in.
    #[error("{slot} {name} is marked secret, but the secret store is not open")]
    NoStore { slot: SecretSlot, name: String },
    #[error("the secret store failed for {slot} {name}: {source}")]
    Store {
        slot: SecretSlot,
        name: String,
        #[source]
        source: StoreError,
    },
}

/// The store key of one secret value. Header names are case-insensitive, so their key is in
/// lower case; environment names are not.
pub fn key(server_id: &str, slot: SecretSlot, name: &str) -> String {
    match slot {
        SecretSlot::Env => format!("server:{server_id}\nenv\n{name}"),
        SecretSlot::Header => format!("server:{server_id}\nheader\n{}", name.to_lowercase()),
    }
}

/// The names of a target's secret values, each once, in the order of its list.
pub fn secret_names(target: &ServerTarget) -> Vec<(SecretSlot, String)> {
    let mut names: Vec<(SecretSlot, String)> = Vec::new();
    let (slot, pairs, marked) = match target {
        ServerTarget::Stdio(t) => (SecretSlot::Env, &t.env, &t.secret_env),
        ServerTarget::Http { target, .. } => {
            (SecretSlot::Header, &target.headers, &target.secret_headers)
        }
    };
    for (name, _) in pairs {
        let is_marked = marked.iter().any(|m| same_name(slot, m, name));
        let seen = names.iter().any(|(_, n)| same_name(slot, n, name));
        if is_marked && !seen {
            names.push((slot, name.clone()));
        }
    }
    names
}

fn same_name(slot: SecretSlot, a: &str, b: &str) -> bool {
    match slot {
        SecretSlot::Env => a == b,
        SecretSlot::Header => a.eq_ignore_ascii_case(b),
    }
}

/// The entry's target with every secret value replaced by `f(slot, name, value)`.
fn map_secrets(
    entry: &ServerEntry,
    mut f: impl FnMut(SecretSlot, &str, &str) -> Result<String, SecretError>,
) -> Result<ServerEntry, SecretError> {
    let names = secret_names(&entry.target);
    let is_secret = |slot: SecretSlot, name: &str| {
        names
            .iter()
            .any(|(s, n)| *s == slot && same_name(slot, n, name))
    };
    let mut entry = entry.clone();
    match &mut entry.target {
        ServerTarget::Stdio(t) => {
            for (name, value) in &mut t.env {
                if is_secret(SecretSlot::Env, name) {
                    *value = f(SecretSlot::Env, name, value)?;
                }
            }
            t.secret_env = names.iter().map(|(_, n)| n.clone()).collect();
        }
        ServerTarget::Http { target, .. } => {
            for (name, value) in &mut target.headers {
                if is_secret(SecretSlot::Header, name) {
                    *value = f(SecretSlot::Header, name, value)?;
                }
            }
            target.secret_headers = names.iter().map(|(_, n)| n.clone()).collect();
        }
    }
    Ok(entry)
}

/// The entry as the catalog keeps it: every secret value empty, the marks only on names the
/// entry has.
pub fn without_values(entry: &ServerEntry) -> ServerEntry {
    map_secrets(entry, |_, _, _| Ok(String::new())).unwrap_or_else(|_| entry.clone())
}

/// Keeps the secret values of `entry` in `store` and returns the entry as the catalog keeps it
/// ([`without_values`]). A secret given empty keeps the value stored before (the form shows
/// it masked and sends it back empty unless the user changed it). Values `previous` (the entry
/// this one replaces) kept secret that `entry` no longer marks are forgotten.
pub fn keep(
    store: Option<&SecretStore>,
    entry: &ServerEntry,
    previous: Option<&ServerEntry>,
) -> Result<ServerEntry, SecretError> {
    let id = entry.id.clone();
    let kept = map_secrets(entry, |slot, name, value| {
        let store = store.ok_or_else(|| SecretError::NoStore {
            slot,
            name: name.to_string(),
        })?;
        let store_error = |source| SecretError::Store {
            slot,
            name: name.to_string(),
            source,
        };
        let key = key(&id, slot, name);
        if value.is_empty() {
            if store.load_value(&key).map_err(store_error)?.is_none() {
                return Err(SecretError::Missing {
                    slot,
                    name: name.to_string(),
                });
            }
        } else {
            store.save_value(&key, value).map_err(store_error)?;
        }
        Ok(String::new())
    })?;
    if let (Some(previous), Some(store)) = (previous, store) {
        let now = secret_names(&kept.target);
        for (slot, name) in secret_names(&previous.target) {
            let still = now
                .iter()
                .any(|(s, n)| *s == slot && same_name(slot, n, &name));
            if !still {
                forget_one(store, &previous.id, slot, &name)?;
            }
        }
    }
    Ok(kept)
}

/// Forgets every secret value of `entry` (it left the catalog).
pub fn forget(store: Option<&SecretStore>, entry: &ServerEntry) -> Result<(), SecretError> {
    let Some(store) = store else {
        return Ok(());
    };
    for (slot, name) in secret_names(&entry.target) {
        forget_one(store, &entry.id, slot, &name)?;
    }
    Ok(())
}

fn forget_one(
    store: &SecretStore,
    server_id: &str,
    slot: SecretSlot,
    name: &str,
) -> Result<(), SecretError> {
    store
        .delete_value(&key(server_id, slot, name))
        .map_err(|source| SecretError::Store {
            slot,
            name: name.to_string(),
            source,
        })
}

/// The target to start a session with: the entry's with every secret value filled in from the
/// store. The marks stay, so the transport redacts those headers whatever their names.
pub fn resolve(
    store: Option<&SecretStore>,
    entry: &ServerEntry,
) -> Result<ServerTarget, SecretError> {
    map_secrets(entry, |slot, name, _| {
        let store = store.ok_or_else(|| SecretError::NoStore {
            slot,
            name: name.to_string(),
        })?;
        store
            .load_value(&key(&entry.id, slot, name))
            .map_err(|source| SecretError::Store {
                slot,
                name: name.to_string(),
                source,
            })?
            .ok_or_else(|| SecretError::Missing {
                slot,
                name: name.to_string(),
            })
    })
    .map(|entry| entry.target)
}

/// One stored secret value of a server entry (the form's "show"), None when nothing is stored.
pub fn reveal(
    store: &SecretStore,
    server_id: &str,
    slot: SecretSlot,
    name: &str,
) -> Result<Option<String>, SecretError> {
    store
        .load_value(&key(server_id, slot, name))
        .map_err(|source| SecretError::Store {
            slot,
            name: name.to_string(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{HttpMode, HttpTarget, StdioTarget};

    const KEY_VALUE: &str = "sk-live-server-secrets-0001";
    const TOKEN_VALUE: &str = "ghp_server_secrets_header_0002";

    fn store() -> (SecretStore, std::path::PathBuf) {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "periscope-server-secrets-{}-{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        (SecretStore::open(dir.join("credentials.json"), true), dir)
    }

    fn stdio_entry(env: &[(&str, &str)], secret: &[&str]) -> ServerEntry {
        ServerEntry {
            id: "local".into(),
            name: "Local".into(),
            target: ServerTarget::Stdio(StdioTarget {
                command: "server".into(),
                env: env
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                secret_env: secret.iter().map(|s| s.to_string()).collect(),
                ..StdioTarget::default()
            }),
            era: Default::default(),
        }
    }

    fn env_of(target: &ServerTarget) -> Vec<(String, String)> {
        match target {
            ServerTarget::Stdio(t) => t.env.clone(),
            ServerTarget::Http { .. } => unreachable!(),
        }
    }

    #[test]
    fn a_secret_value_goes_to_the_store_and_the_catalog_keeps_an_empty_marked_name() {
        let (store, dir) = store();
        let entry = stdio_entry(&[("API_KEY", KEY_VALUE), ("LEVEL", "debug")], &["API_KEY"]);
        let kept = keep(Some(&store), &entry, None).unwrap();
        let json = serde_json::to_string(&kept).unwrap();
        assert!(!json.contains(KEY_VALUE), "{json}");
        assert_eq!(
            env_of(&kept.target),
            [
                ("API_KEY".into(), String::new()),
                ("LEVEL".into(), "debug".into())
            ]
        );
        let resolved = resolve(Some(&store), &kept).unwrap();
        assert_eq!(
            env_of(&resolved),
            [
                ("API_KEY".into(), KEY_VALUE.into()),
                ("LEVEL".into(), "debug".into())
            ]
        );
        assert_eq!(
            reveal(&store, "local", SecretSlot::Env, "API_KEY")
                .unwrap()
                .as_deref(),
            Some(KEY_VALUE)
        );
        let file = std::fs::read_to_string(dir.join("credentials.json")).unwrap();
        assert!(file.contains(KEY_VALUE), "the file backend holds the value");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_empty_secret_keeps_the_stored_value_and_unmarking_forgets_it() {
        let (store, dir) = store();
        let first = keep(
            Some(&store),
            &stdio_entry(&[("API_KEY", KEY_VALUE)], &["API_KEY"]),
            None,
        )
        .unwrap();
        // Saved again from the form without touching the masked value.
        let again = keep(Some(&store), &first, Some(&first)).unwrap();
        assert_eq!(
            env_of(&resolve(Some(&store), &again).unwrap())[0].1,
            KEY_VALUE
        );
        // No longer secret: the value moves into the entry and out of the store.
        let plain = keep(
            Some(&store),
            &stdio_entry(&[("API_KEY", "now-plain")], &[]),
            Some(&again),
        )
        .unwrap();
        assert_eq!(env_of(&plain.target)[0].1, "now-plain");
        assert_eq!(
            reveal(&store, "local", SecretSlot::Env, "API_KEY").unwrap(),
            None
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_marked_secret_without_any_value_is_refused_in_words() {
        let (store, dir) = store();
        let entry = stdio_entry(&[("API_KEY", "")], &["API_KEY"]);
        let error = keep(Some(&store), &entry, None).unwrap_err();
        assert!(matches!(error, SecretError::Missing { .. }));
        assert_eq!(
            error.to_string(),
            "the environment variable API_KEY is marked secret but no value is stored for it: edit the server and type it again"
        );
        let error = resolve(Some(&store), &entry).unwrap_err();
        assert!(matches!(error, SecretError::Missing { .. }));
        assert!(matches!(
            resolve(None, &entry).unwrap_err(),
            SecretError::NoStore { .. }
        ));
        // An entry without secrets needs no store.
        assert!(resolve(None, &stdio_entry(&[("A", "1")], &[])).is_ok());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn header_secrets_match_names_case_insensitively_and_go_with_the_entry() {
        let (store, dir) = store();
        let entry = ServerEntry {
            id: "remote".into(),
            name: "Remote".into(),
            target: ServerTarget::Http {
                target: HttpTarget {
                    url: "https://h/mcp".into(),
                    headers: vec![
                        ("X-Tenant-Auth".into(), TOKEN_VALUE.into()),
                        ("Accept-Language".into(), "en".into()),
                    ],
                    secret_headers: vec!["x-tenant-auth".into(), "not-a-header".into()],
                    ..HttpTarget::default()
                },
                mode: HttpMode::Auto,
            },
            era: Default::default(),
        };
        let kept = keep(Some(&store), &entry, None).unwrap();
        let ServerTarget::Http { target, .. } = &kept.target else {
            unreachable!()
        };
        assert_eq!(target.secret_headers, ["X-Tenant-Auth"]);
        assert_eq!(target.headers[0].1, "");
        let ServerTarget::Http { target, .. } = resolve(Some(&store), &kept).unwrap() else {
            unreachable!()
        };
        assert_eq!(target.headers[0].1, TOKEN_VALUE);
        assert_eq!(
            target.secret_header_values(),
            [("X-Tenant-Auth", TOKEN_VALUE)]
        );
        forget(Some(&store), &kept).unwrap();
        assert_eq!(
            reveal(&store, "remote", SecretSlot::Header, "x-tenant-auth").unwrap(),
            None
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
