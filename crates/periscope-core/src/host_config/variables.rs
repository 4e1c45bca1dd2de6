//! The `${…}` placeholders hosts fill in when they start a server. Periscope starts servers
//! without them, so an import fills in what it can (`${env:X}` from this environment, the home
//! and workspace folders), keeps what the user must type (`${input:id}`, `<secret: NAME>`) and
//! refuses what only the host knows (`${command:…}`).

use super::{ImportContext, ImportRefusal, NeededValue, ValuePlace};

/// Which placeholders a dialect's host expands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Syntax {
    /// None: the text is passed as written (Claude Desktop, Cline, Zed, the registry).
    Literal,
    /// Claude Code: `${VAR}` and `${VAR:-default}`.
    Shell,
    /// VS Code, Cursor, Windsurf: `${env:VAR}`, `${input:id}`, `${userHome}`,
    /// `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}`, `${/}`.
    Editor,
}

/// A VS Code input: what `${input:id}` asks for.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Input {
    pub id: String,
    pub description: Option<String>,
    pub password: bool,
}

pub(super) struct Expander<'a> {
    pub syntax: Syntax,
    pub context: &'a ImportContext<'a>,
    pub inputs: &'a [Input],
}

/// A value after expansion.
pub(super) enum Expanded {
    Text(String),
    /// The whole value is a placeholder to be typed (left empty in the entry).
    Hole(NeededValue),
}

impl Expander<'_> {
    /// Expands `text` at `place`. Placeholders to be typed that sit inside a longer value are
    /// kept as written and listed in `needs`.
    pub fn expand(
        &self,
        text: &str,
        place: &ValuePlace,
        needs: &mut Vec<NeededValue>,
    ) -> Result<Expanded, ImportRefusal> {
        if let Some(name) = secret_placeholder_name(text) {
            let _ = name;
            return Ok(Expanded::Hole(NeededValue {
                place: place.clone(),
                placeholder: text.to_string(),
                prompt: None,
                password: true,
            }));
        }
        if self.syntax == Syntax::Literal {
            return Ok(Expanded::Text(text.to_string()));
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let Some(len) = rest[start..].find('}') else {
                out.push_str(&rest[start..]);
                rest = "";
                break;
            };
            let whole = &rest[start..start + len + 1];
            let inner = &whole[2..whole.len() - 1];
            rest = &rest[start + len + 1..];
            match self.one(inner, whole)? {
                Filled::Text(value) => out.push_str(&value),
                Filled::Input(needed) => {
                    if out.is_empty() && rest.is_empty() {
                        return Ok(Expanded::Hole(NeededValue {
                            place: place.clone(),
                            ..needed
                        }));
                    }
                    out.push_str(whole);
                    needs.push(NeededValue {
                        place: place.clone(),
                        ..needed
                    });
                }
            }
        }
        out.push_str(rest);
        Ok(Expanded::Text(out))
    }

    fn one(&self, inner: &str, whole: &str) -> Result<Filled, ImportRefusal> {
        let env = |name: &str, default: Option<&str>| match (self.context.env)(name) {
            Some(value) => Ok(Filled::Text(value)),
            None => default.map(|d| Filled::Text(d.to_string())).ok_or_else(|| {
                ImportRefusal::UnsetVariable {
                    variable: name.to_string(),
                }
            }),
        };
        let folder = |path: &Option<std::path::PathBuf>| {
            path.as_ref()
                .map(|p| Filled::Text(p.to_string_lossy().into_owned()))
                .ok_or_else(|| ImportRefusal::UnsupportedVariable {
                    placeholder: whole.to_string(),
                })
        };
        match self.syntax {
            Syntax::Literal => Ok(Filled::Text(whole.to_string())),
            Syntax::Shell => match inner.split_once(":-") {
                Some((name, default)) if is_var_name(name) => env(name, Some(default)),
                None if is_var_name(inner) => env(inner, None),
                _ => Err(ImportRefusal::UnsupportedVariable {
                    placeholder: whole.to_string(),
                }),
            },
            Syntax::Editor => {
                if let Some(name) = inner.strip_prefix("env:") {
                    return env(name, None);
                }
                if let Some(id) = inner.strip_prefix("input:") {
                    let input = self.inputs.iter().find(|i| i.id == id);
                    return Ok(Filled::Input(NeededValue {
                        place: ValuePlace::Command,
                        placeholder: whole.to_string(),
                        prompt: input.and_then(|i| i.description.clone()),
                        password: input.is_some_and(|i| i.password),
                    }));
                }
                match inner {
                    "userHome" => folder(&self.context.home),
                    "workspaceFolder" => folder(&self.context.workspace_folder),
                    "workspaceFolderBasename" => folder(
                        &self
                            .context
                            .workspace_folder
                            .as_ref()
                            .and_then(|p| p.file_name())
                            .map(std::path::PathBuf::from),
                    ),
                    "pathSeparator" | "/" => Ok(Filled::Text("/".into())),
                    _ => Err(ImportRefusal::UnsupportedVariable {
                        placeholder: whole.to_string(),
                    }),
                }
            }
        }
    }
}

enum Filled {
    Text(String),
    Input(NeededValue),
}

fn is_var_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// `NAME` of a whole value `<secret: NAME>`, the placeholder exports write for secrets.
pub(super) fn secret_placeholder_name(text: &str) -> Option<&str> {
    text.strip_prefix("<secret: ")?.strip_suffix('>')
}
