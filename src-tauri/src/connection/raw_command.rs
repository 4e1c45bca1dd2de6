//! A frame as a `periscope raw` command line (docs/cli.md): the frame's text, sent again to
//! the same server from a terminal. Secret values never appear: a secret environment variable
//! or header becomes `--env-from-env` / `--header-from-env` naming a variable of the same name
//! for the user to set, and a secret in a URL is masked (rule 5).

use periscope_core::config::{ServerEntry, ServerTarget};
use periscope_core::era::EraChoice;
use periscope_core::vocabulary::Problem;

use super::AppState;

impl AppState {
    /// The `periscope raw` command line that sends frame `seq` of `server_id` again.
    pub fn raw_command(&self, server_id: &str, seq: u64) -> Result<String, Problem> {
        let frame = self.traffic_of(server_id)?.frame(seq).ok_or_else(|| {
            Problem::not_found(periscope_core::vocabulary::problem::Thing::Frame, seq)
        })?;
        let text = std::str::from_utf8(&frame.bytes)
            .map_err(|_| Problem::invalid(periscope_core::vocabulary::problem::Field::Frame))?;
        let entry = self.entry(server_id)?;
        Ok(command_line(text, &entry))
    }
}

fn command_line(json: &str, entry: &ServerEntry) -> String {
    let mut words: Vec<String> = vec!["periscope".into(), "raw".into(), quote(json)];
    match entry.era {
        EraChoice::Auto => {}
        EraChoice::Modern => words.extend(["--era".into(), "modern".into()]),
        EraChoice::Legacy => words.extend(["--era".into(), "legacy".into()]),
    }
    match &entry.target {
        ServerTarget::Stdio(target) => {
            for (name, value) in &target.env {
                if target.secret_env.contains(name) {
                    words.extend(["--env-from-env".into(), quote(&format!("{name}={name}"))]);
                } else {
                    words.extend(["--env".into(), quote(&format!("{name}={value}"))]);
                }
            }
            if let Some(cwd) = &target.cwd {
                words.extend(["--cwd".into(), quote(&cwd.to_string_lossy())]);
            }
            words.push("--".into());
            words.push(quote(&target.command));
            words.extend(target.args.iter().map(|a| quote(a)));
        }
        ServerTarget::Http { target, .. } => {
            // A secret in the URL (a key in its query, a password) is masked like everywhere
            // the URL is shown: the user puts it back.
            words.extend([
                "--url".into(),
                quote(&periscope_core::redact::url(&target.url)),
            ]);
            for (name, value) in &target.headers {
                if target.secret_headers.contains(name) {
                    let var = env_name(name);
                    words.extend(["--header-from-env".into(), quote(&format!("{name}={var}"))]);
                } else {
                    words.extend(["--header".into(), quote(&format!("{name}: {value}"))]);
                }
            }
        }
    }
    words.join(" ")
}

/// A header's name as an environment variable's (`X-Api-Key` → `X_API_KEY`).
fn env_name(header: &str) -> String {
    header
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// One word for a POSIX shell: as is when nothing in it is special, else in single quotes
/// (a quote inside closes, escapes and reopens them).
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(target: serde_json::Value) -> ServerEntry {
        serde_json::from_value(
            serde_json::json!({"id": "x", "name": "X", "era": "legacy", "target": target}),
        )
        .unwrap()
    }

    #[test]
    fn a_stdio_server_gets_its_command_and_secrets_only_by_name() {
        let stdio = entry(serde_json::json!({"transport": "stdio", "command": "npx",
            "args": ["-y", "my server"], "env": [["LEVEL", "debug"], ["API_KEY", ""]],
            "secret_env": ["API_KEY"], "cwd": "/tmp/work dir"}));
        assert_eq!(
            command_line(r#"{"jsonrpc":"2.0","id":1,"method":"it's"}"#, &stdio),
            r#"periscope raw '{"jsonrpc":"2.0","id":1,"method":"it'\''s"}' --era legacy --env LEVEL=debug --env-from-env API_KEY=API_KEY --cwd '/tmp/work dir' -- npx -y 'my server'"#
        );
    }

    #[test]
    fn a_remote_server_gets_its_url_and_secret_headers_only_by_name() {
        let http = entry(
            serde_json::json!({"transport": "http", "url": "https://mcp.example/mcp",
            "headers": [["X-Api-Key", ""], ["X-Team", "blue"]], "secret_headers": ["X-Api-Key"]}),
        );
        let line = command_line("{}", &http);
        assert_eq!(
            line,
            "periscope raw '{}' --era legacy --url https://mcp.example/mcp --header-from-env X-Api-Key=X_API_KEY --header 'X-Team: blue'"
        );
    }
}
