//! A pasted command line: `FOO=1 npx -y some-server` (one server per line, a `# name` line
//! before it names it), a bare URL, or a host's own one-liner, `claude mcp add …` or
//! `code --add-mcp '{…}'`. Words are split as a POSIX shell would (no expansion: `$VAR` stays
//! as written, since the shell that would expand it is not the one that will run the server).

use super::draft::{self, Collector, Draft, DraftTransport, quote};
use super::variables::{Expander, Syntax};
use super::{
    Dialect, ImportContext, ImportError, ImportPreview, ImportRefusal, secret_placeholder,
};
use crate::config::{HttpMode, ServerEntry, ServerTarget};

pub(super) fn import(
    text: &str,
    context: &ImportContext<'_>,
) -> Result<ImportPreview, ImportError> {
    let expander = Expander {
        syntax: Syntax::Literal,
        context,
        inputs: &[],
    };
    let mut collector = Collector::new(Dialect::CommandLine);
    let mut name: Option<String> = None;
    for line in lines(text) {
        if let Some(comment) = line.strip_prefix('#') {
            name = Some(comment.trim().to_string()).filter(|n| !n.is_empty());
            continue;
        }
        let words = shlex::split(&line)
            .ok_or_else(|| ImportError::BadCommandLine("a quote is not closed".into()))?;
        if words.is_empty() {
            continue;
        }
        if words.len() >= 2 && words[0] == "code" && words[1] == "--add-mcp" {
            let json = words.get(2).ok_or_else(|| {
                ImportError::BadCommandLine("code --add-mcp needs the server's JSON".into())
            })?;
            let value = super::parse_jsonc(json)?;
            let preview = super::vscode::import(&value, context)?;
            for entry in preview.entries {
                collector.add_imported(entry);
            }
            for refused in preview.refused {
                collector.refuse(&refused.name, refused.reason);
            }
            continue;
        }
        let draft = if words.len() >= 3 && words[..3] == ["claude", "mcp", "add"] {
            claude_mcp_add(&words[3..])
        } else {
            Ok(plain(words, name.take()))
        };
        match draft {
            Ok(draft) => collector.add(draft, &expander),
            Err((shown, reason)) => collector.refuse(&shown, reason),
        }
    }
    Ok(collector.finish())
}

/// Non-empty lines, with `\` line continuations joined.
fn lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(start) = line.strip_suffix('\\') {
            current.push_str(start);
            current.push(' ');
            continue;
        }
        current.push_str(line);
        if !current.trim().is_empty() {
            out.push(current.trim().to_string());
        }
        current.clear();
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// `FOO=1 BAR=2 command args…`, or a URL.
fn plain(mut words: Vec<String>, name: Option<String>) -> Draft {
    let mut env = Vec::new();
    while words.len() > 1 {
        match words[0].split_once('=') {
            Some((key, value)) if is_env_name(key) => {
                env.push((key.to_string(), value.to_string()));
                words.remove(0);
            }
            _ => break,
        }
    }
    let command = words.remove(0);
    if env.is_empty()
        && words.is_empty()
        && (command.starts_with("http://") || command.starts_with("https://"))
    {
        return Draft {
            name: name.unwrap_or_else(|| host_of(&command)),
            transport: DraftTransport::Http {
                url: command,
                headers: Vec::new(),
                mode: HttpMode::Auto,
            },
            ..Draft::default()
        };
    }
    Draft {
        name: name.unwrap_or_else(|| name_from(&command, &words)),
        transport: DraftTransport::Stdio {
            command,
            args: words,
            env,
            cwd: None,
        },
        ..Draft::default()
    }
}

fn is_env_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "server".into())
}

/// A name for a server from its command: the package a runner runs (`npx -y @scope/pkg@1` →
/// `pkg`), the script an interpreter runs (`python server.py` → `server.py`), else the program.
fn name_from(command: &str, args: &[String]) -> String {
    let program = command.rsplit('/').next().unwrap_or(command);
    let runners = [
        "npx", "uvx", "bunx", "pipx", "dnx", "python", "python3", "node", "deno", "bun", "uv",
    ];
    if runners.contains(&program)
        && let Some(first) = args.iter().find(|a| !a.starts_with('-') && *a != "run")
    {
        let last = first
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(first);
        // A version after the name: pkg@1.2.3, pkg==1.2.
        let bare = match last.find(['@', '=']) {
            Some(0) | None => last,
            Some(at) => &last[..at],
        };
        return bare.to_string();
    }
    program.to_string()
}

/// `claude mcp add [options] NAME COMMAND|URL [ARGS…]` and `… NAME -- COMMAND ARGS…`.
fn claude_mcp_add(words: &[String]) -> Result<Draft, (String, ImportRefusal)> {
    let mut transport = None;
    let mut env = Vec::new();
    let mut headers = Vec::new();
    let mut positional = Vec::new();
    let mut notes = Vec::new();
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        let mut value = |flag: &str| {
            rest.next().cloned().ok_or_else(|| {
                (
                    "claude mcp add".to_string(),
                    ImportRefusal::BadField {
                        field: flag.to_string(),
                        expected: "followed by a value".into(),
                    },
                )
            })
        };
        match word.as_str() {
            "--" => {
                positional.extend(rest.by_ref().cloned());
                break;
            }
            "-t" | "--transport" => transport = Some(value(word)?),
            "-e" | "--env" => {
                let pair = value(word)?;
                let (k, v) = pair.split_once('=').unwrap_or((&pair, ""));
                env.push((k.to_string(), v.to_string()));
            }
            "-H" | "--header" => {
                let pair = value(word)?;
                let (k, v) = pair.split_once(':').unwrap_or((&pair, ""));
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
            "-s" | "--scope" => {
                let scope = value(word)?;
                notes.push(format!("scope {scope} is Claude Code's: not carried over"));
            }
            other => positional.push(other.to_string()),
        }
    }
    let mut positional = positional.into_iter();
    let name = positional.next().unwrap_or_else(|| "server".into());
    let mode = draft::transport_mode(transport.as_deref().unwrap_or("stdio"))
        .map_err(|r| (name.clone(), r))?;
    let transport = match mode {
        Some(mode) => DraftTransport::Http {
            url: positional.next().unwrap_or_default(),
            headers,
            mode,
        },
        None => DraftTransport::Stdio {
            command: positional.next().unwrap_or_default(),
            args: positional.collect(),
            env,
            cwd: None,
        },
    };
    Ok(Draft {
        name,
        transport,
        notes,
        ..Draft::default()
    })
}

fn env_words(pairs: &[(String, String)], secret: &[String]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| {
            let v = if secret.contains(k) {
                secret_placeholder(k)
            } else {
                v.clone()
            };
            (k.clone(), v)
        })
        .collect()
}

/// Each server as `# name` then its command line (`K=V command args`), or its URL.
pub(super) fn export(entries: &[ServerEntry], notes: &mut Vec<String>) -> String {
    let mut text = String::new();
    for entry in entries {
        text.push_str(&format!("# {}\n", entry.name));
        let mut words = Vec::new();
        match &entry.target {
            ServerTarget::Stdio(t) => {
                for (k, v) in env_words(&t.env, &t.secret_env) {
                    words.push(format!("{k}={}", quote(&v)));
                }
                words.push(quote(&t.command));
                words.extend(t.args.iter().map(|a| quote(a)));
                if t.cwd.is_some() {
                    notes.push(format!(
                        "{}: a command line has no working directory: not written",
                        entry.name
                    ));
                }
            }
            ServerTarget::Http { target, .. } => {
                words.push(quote(&target.url));
                if !target.headers.is_empty() {
                    notes.push(format!(
                        "{}: a URL line has no headers: not written",
                        entry.name
                    ));
                }
            }
        }
        text.push_str(&words.join(" "));
        text.push('\n');
    }
    text
}

/// `claude mcp add …`, one line per server.
pub(super) fn export_claude_mcp_add(entries: &[ServerEntry], notes: &mut Vec<String>) -> String {
    let mut text = String::new();
    for entry in entries {
        let mut words: Vec<String> = vec!["claude".into(), "mcp".into(), "add".into()];
        match &entry.target {
            ServerTarget::Stdio(t) => {
                words.extend(["--transport".into(), "stdio".into()]);
                for (k, v) in env_words(&t.env, &t.secret_env) {
                    words.extend(["--env".into(), quote(&format!("{k}={v}"))]);
                }
                words.push(quote(&entry.name));
                words.push("--".into());
                words.push(quote(&t.command));
                words.extend(t.args.iter().map(|a| quote(a)));
                if t.cwd.is_some() {
                    notes.push(format!(
                        "{}: claude mcp add has no working directory: not written",
                        entry.name
                    ));
                }
            }
            ServerTarget::Http { target, mode } => {
                let kind = if *mode == HttpMode::LegacySse {
                    "sse"
                } else {
                    "http"
                };
                words.extend(["--transport".into(), kind.into()]);
                for (k, v) in &target.headers {
                    let secret = target
                        .secret_headers
                        .iter()
                        .any(|s| s.eq_ignore_ascii_case(k));
                    let v = if secret {
                        secret_placeholder(k)
                    } else {
                        v.clone()
                    };
                    words.extend(["--header".into(), quote(&format!("{k}: {v}"))]);
                }
                words.push(quote(&entry.name));
                words.push(quote(&target.url));
            }
        }
        text.push_str(&words.join(" "));
        text.push('\n');
    }
    text
}
