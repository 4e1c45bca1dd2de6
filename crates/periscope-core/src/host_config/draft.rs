//! What every dialect shares: a server as read from a host's config ([`Draft`]), turned into a
//! catalog entry with placeholders filled, secrets marked and ids made unique ([`Collector`]),
//! plus the readers of JSON fields and the notes on what an export leaves out.

use serde_json::{Map, Value};

use super::variables::{Expanded, Expander};
use super::{
    Dialect, ExportFormat, ImportPreview, ImportRefusal, ImportedEntry, NeededValue, RefusedEntry,
    ValuePlace,
};
use crate::config::{EraChoice, HttpMode, HttpTarget, ServerEntry, ServerTarget, StdioTarget};
use crate::secret_hint::looks_secret;

/// Names and values (`env`, `headers`).
type Pairs = Vec<(String, String)>;

/// A server as a host's config describes it, before placeholders are filled.
#[derive(Debug, Clone, Default)]
pub(super) struct Draft {
    pub name: String,
    pub transport: DraftTransport,
    /// Names whose values the source says are secret (a registry's `isSecret`).
    pub declared_secret: Vec<String>,
    /// Values to be typed that the source itself declares (registry arguments without a value).
    pub needs: Vec<NeededValue>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone)]
pub(super) enum DraftTransport {
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
        cwd: Option<String>,
    },
    Http {
        url: String,
        headers: Vec<(String, String)>,
        mode: HttpMode,
    },
}

impl Default for DraftTransport {
    fn default() -> Self {
        DraftTransport::Stdio {
            command: String::new(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
        }
    }
}

impl Draft {
    /// The catalog entry, placeholders filled by `expander`.
    pub fn finish(self, expander: &Expander<'_>) -> Result<ImportedEntry, ImportRefusal> {
        let mut needs = self.needs;
        let text = |value: &str, place: ValuePlace, needs: &mut Vec<NeededValue>| match expander
            .expand(value, &place, needs)?
        {
            Expanded::Text(text) => Ok(text),
            Expanded::Hole(needed) => {
                needs.push(needed);
                Ok(String::new())
            }
        };
        // A pair's value: a hole is kept secret when its host would have hidden it.
        let pairs = |pairs: Vec<(String, String)>,
                     place: fn(String) -> ValuePlace,
                     needs: &mut Vec<NeededValue>|
         -> Result<(Pairs, Vec<String>), ImportRefusal> {
            let mut out = Vec::new();
            let mut secret = Vec::new();
            for (name, value) in pairs {
                let declared = self
                    .declared_secret
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(&name));
                let (value, is_secret) =
                    match expander.expand(&value, &place(name.clone()), needs)? {
                        Expanded::Text(text) => {
                            let inside_password = needs
                                .iter()
                                .any(|n| n.password && n.place == place(name.clone()));
                            let is_secret =
                                declared || inside_password || looks_secret(&name, &text);
                            (text, is_secret)
                        }
                        Expanded::Hole(needed) => {
                            let is_secret = declared || needed.password || looks_secret(&name, "");
                            needs.push(needed);
                            (String::new(), is_secret)
                        }
                    };
                if is_secret && !secret.contains(&name) {
                    secret.push(name.clone());
                }
                out.push((name, value));
            }
            Ok((out, secret))
        };
        let target = match self.transport {
            DraftTransport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let command = text(&command, ValuePlace::Command, &mut needs)?;
                if command.trim().is_empty() {
                    return Err(ImportRefusal::MissingCommand);
                }
                let args = args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| text(a, ValuePlace::Argument(i as u32 + 1), &mut needs))
                    .collect::<Result<Vec<_>, _>>()?;
                let cwd = cwd
                    .map(|c| text(&c, ValuePlace::Cwd, &mut needs))
                    .transpose()?
                    .filter(|c| !c.is_empty())
                    .map(Into::into);
                let (env, secret_env) = pairs(env, ValuePlace::Env, &mut needs)?;
                ServerTarget::Stdio(StdioTarget {
                    command,
                    args,
                    env,
                    cwd,
                    secret_env,
                    inherit_env: false,
                })
            }
            DraftTransport::Http { url, headers, mode } => {
                let url = text(&url, ValuePlace::Url, &mut needs)?;
                if url.trim().is_empty() {
                    return Err(ImportRefusal::MissingUrl);
                }
                let (headers, secret_headers) = pairs(headers, ValuePlace::Header, &mut needs)?;
                ServerTarget::Http {
                    target: HttpTarget {
                        url,
                        headers,
                        secret_headers,
                        ..HttpTarget::default()
                    },
                    mode,
                }
            }
        };
        Ok(ImportedEntry {
            entry: ServerEntry {
                id: String::new(),
                name: self.name,
                target,
                era: EraChoice::Auto,
            },
            needs,
            notes: self.notes,
        })
    }
}

/// Gathers a preview's entries, giving each a unique id made from its name.
pub(super) struct Collector {
    preview: ImportPreview,
}

impl Collector {
    pub fn new(dialect: Dialect) -> Self {
        Collector {
            preview: ImportPreview {
                dialect,
                entries: Vec::new(),
                refused: Vec::new(),
            },
        }
    }

    pub fn refuse(&mut self, name: &str, reason: ImportRefusal) {
        self.preview.refused.push(RefusedEntry {
            name: name.to_string(),
            message: reason.to_string(),
            reason,
        });
    }

    pub fn add(&mut self, draft: Draft, expander: &Expander<'_>) {
        let name = draft.name.clone();
        match draft.finish(expander) {
            Ok(imported) => self.push_unique(imported, id_for(&name)),
            Err(reason) => self.refuse(&name, reason),
        }
    }

    /// An entry another reader already finished (a `code --add-mcp` line's JSON).
    pub fn add_imported(&mut self, imported: ImportedEntry) {
        let base = id_for(&imported.entry.name);
        self.push_unique(imported, base);
    }

    fn push_unique(&mut self, mut imported: ImportedEntry, base: String) {
        let mut id = base.clone();
        let mut n = 1;
        while self.preview.entries.iter().any(|e| e.entry.id == id) {
            n += 1;
            id = format!("{base}-{n}");
        }
        imported.entry.id = id;
        self.preview.entries.push(imported);
    }

    pub fn finish(self) -> ImportPreview {
        self.preview
    }
}

/// An id from a server's name: lower case letters, digits and dashes. A host that already has
/// an entry with that id gives the imported one another.
pub fn id_for(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-').to_string();
    if id.is_empty() { "server".into() } else { id }
}

// --- Reading JSON fields ----------------------------------------------------------------

fn bad(field: &str, expected: &str) -> ImportRefusal {
    ImportRefusal::BadField {
        field: field.to_string(),
        expected: expected.to_string(),
    }
}

pub(super) fn string(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Option<String>, ImportRefusal> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(bad(field, "a string")),
    }
}

pub(super) fn strings(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Vec<String>, ImportRefusal> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| scalar(item).ok_or_else(|| bad(field, "a list of strings")))
            .collect(),
        Some(_) => Err(bad(field, "a list of strings")),
    }
}

/// An object of names to values (`env`, `headers`); numbers and booleans read as their text,
/// as the hosts do.
pub(super) fn pairs(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Vec<(String, String)>, ImportRefusal> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| {
                scalar(v)
                    .map(|v| (k.clone(), v))
                    .ok_or_else(|| bad(field, "an object of names to strings"))
            })
            .collect(),
        Some(_) => Err(bad(field, "an object of names to strings")),
    }
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A note naming the keys of a server's config that the entry does not carry.
pub(super) fn note_other_keys(
    object: &Map<String, Value>,
    known: &[&str],
    host: &str,
    notes: &mut Vec<String>,
) {
    let other: Vec<&str> = object
        .keys()
        .map(String::as_str)
        .filter(|k| !known.contains(k))
        .collect();
    if !other.is_empty() {
        notes.push(format!(
            "not carried over from {host}: {}",
            other.join(", ")
        ));
    }
}

/// The HTTP mode for a `type` / `transport` value, None for stdio; an unknown one is refused.
pub(super) fn transport_mode(kind: &str) -> Result<Option<HttpMode>, ImportRefusal> {
    match kind {
        "stdio" | "local" => Ok(None),
        "http" | "streamable-http" | "streamableHttp" | "streamable_http" | "remote" => {
            Ok(Some(HttpMode::Auto))
        }
        "sse" => Ok(Some(HttpMode::LegacySse)),
        other => Err(ImportRefusal::UnknownTransport {
            transport: other.to_string(),
        }),
    }
}

/// A stdio draft's command: `"npx -y pkg"` written as one string with no `args` is split into
/// words, as a shell would (hosts differ; a file that relies on it is common).
pub(super) fn split_command(
    command: String,
    args: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> String {
    if !args.is_empty()
        || !command.trim().contains(char::is_whitespace)
        || std::path::Path::new(&command).exists()
    {
        return command;
    }
    match shlex::split(&command) {
        Some(mut words) if words.len() > 1 => {
            notes.push(
                "the command was one string with spaces: split into a command and arguments".into(),
            );
            let first = words.remove(0);
            *args = words;
            first
        }
        _ => command,
    }
}

// --- Export -----------------------------------------------------------------------------

/// The value to write for a pair: a placeholder when the name is marked secret.
pub(super) fn exported_pairs(
    pairs: &[(String, String)],
    secret: &[String],
    header: bool,
    placeholder: impl Fn(&str) -> String,
) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(name, value)| {
            let is_secret = secret.iter().any(|s| {
                if header {
                    s.eq_ignore_ascii_case(name)
                } else {
                    s == name
                }
            });
            let value = if is_secret {
                placeholder(name)
            } else {
                value.clone()
            };
            (name.clone(), Value::String(value))
        })
        .collect()
}

/// Notes for what an entry has that no host's config carries.
pub(super) fn note_unexported(entry: &ServerEntry, format: ExportFormat, notes: &mut Vec<String>) {
    let name = &entry.name;
    if entry.era != EraChoice::Auto {
        notes.push(format!(
            "{name}: its protocol era ({:?}) is Periscope's setting and is not written",
            entry.era
        ));
    }
    match &entry.target {
        ServerTarget::Stdio(t) => {
            if t.inherit_env {
                notes.push(format!(
                    "{name}: passing Periscope's whole environment is Periscope's setting and is not written"
                ));
            }
        }
        ServerTarget::Http { target, mode } => {
            if target.oauth != Default::default() {
                notes.push(format!(
                    "{name}: its sign-in settings (client ID, DPoP, workload identity) are not written"
                ));
            }
            if *mode == HttpMode::Streamable && format != ExportFormat::File(Dialect::CommandLine) {
                notes.push(format!(
                    "{name}: written as http; Periscope reads that back as auto (Streamable HTTP with the legacy fallback)"
                ));
            }
        }
    }
}

/// A word as a POSIX shell reads it back.
pub(super) fn quote(word: &str) -> String {
    shlex::try_quote(word)
        .map(|q| q.into_owned())
        .unwrap_or_else(|_| format!("'{}'", word.replace('\0', "").replace('\'', r"'\''")))
}
