//! A server named on the app's command line: `periscope-app -- <command> <args…>` or
//! `periscope-app --url <url>`, or a recording to reopen: `periscope-app FILE.jsonl` /
//! `periscope-app --open FILE` ([`recording`]). Read at startup and from a second launch's argv (handed to the
//! running instance by the single-instance plugin); the server becomes a temporary catalog entry
//! (`temporary.rs`). Typing the command was the user's explicit act, so it connects at once.

use std::path::PathBuf;

use periscope_core::config::{HttpMode, HttpTarget, ServerEntry, ServerTarget, StdioTarget};
use periscope_core::era::EraChoice;

/// The server a launch asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchRequest {
    Command { command: String, args: Vec<String> },
    Url(String),
}

/// Reads `argv` (program name first). Anything before `--` other than `--url` is ignored: the
/// WebDriver or a desktop launcher may add arguments of its own.
pub fn parse(argv: &[String]) -> Result<Option<LaunchRequest>, String> {
    let mut rest = argv.iter().skip(1);
    while let Some(arg) = rest.next() {
        if arg == "--" {
            let mut words = rest.cloned();
            let Some(command) = words.next().filter(|c| !c.trim().is_empty()) else {
                return Err("`--` must be followed by the server's command".into());
            };
            return Ok(Some(LaunchRequest::Command {
                command,
                args: words.collect(),
            }));
        }
        let url = if arg == "--url" {
            rest.next().cloned()
        } else if let Some(url) = arg.strip_prefix("--url=") {
            Some(url.to_string())
        } else {
            continue;
        };
        return match url.filter(|u| u.starts_with("http://") || u.starts_with("https://")) {
            Some(url) => Ok(Some(LaunchRequest::Url(url))),
            None => Err("`--url` must be followed by an http:// or https:// URL".into()),
        };
    }
    Ok(None)
}

/// The record file a launch asks to reopen read-only: `--open FILE` (`--open=FILE`), or a bare
/// argument ending in `.jsonl` (a desktop launcher handing over a file). Before `--` only: what
/// follows is a server's command line. A relative path is taken from `cwd`.
pub fn recording(argv: &[String], cwd: Option<&std::path::Path>) -> Option<PathBuf> {
    let mut rest = argv.iter().skip(1);
    let mut found = None;
    while let Some(arg) = rest.next() {
        if arg == "--" {
            break;
        }
        if arg == "--url" {
            rest.next();
            continue;
        }
        let path = if arg == "--open" {
            rest.next().cloned()
        } else if let Some(path) = arg.strip_prefix("--open=") {
            Some(path.to_string())
        } else if !arg.starts_with('-') && arg.ends_with(".jsonl") {
            Some(arg.clone())
        } else {
            None
        };
        if let Some(path) = path.filter(|p| !p.trim().is_empty()) {
            found = Some(path);
        }
    }
    let path = PathBuf::from(found?);
    Some(match cwd {
        Some(cwd) if path.is_relative() => cwd.join(path),
        _ => path,
    })
}

impl LaunchRequest {
    /// The request as the user typed it, for the UI's "opened from the command line" note.
    pub fn source(&self) -> String {
        match self {
            LaunchRequest::Command { command, args } => {
                let mut words = vec!["periscope-app".to_string(), "--".into(), command.clone()];
                words.extend(args.iter().cloned());
                words.join(" ")
            }
            LaunchRequest::Url(url) => format!("periscope-app --url {url}"),
        }
    }

    /// A catalog entry with `id`. A command runs in the folder it was typed in, so a relative
    /// path or file argument means what it meant there.
    pub fn entry(&self, id: String, cwd: Option<PathBuf>) -> ServerEntry {
        let (name, target) = match self {
            LaunchRequest::Command { command, args } => {
                let base = command.rsplit('/').next().unwrap_or(command).to_string();
                let mut target = StdioTarget::new(command.clone(), args.iter().cloned());
                target.cwd = cwd;
                (base, ServerTarget::Stdio(target))
            }
            LaunchRequest::Url(url) => {
                let host = tauri::Url::parse(url)
                    .ok()
                    .and_then(|u| u.host_str().map(str::to_string))
                    .unwrap_or_else(|| url.clone());
                let target = HttpTarget {
                    url: url.clone(),
                    ..HttpTarget::default()
                };
                (
                    host,
                    ServerTarget::Http {
                        target,
                        mode: HttpMode::Auto,
                    },
                )
            }
        };
        ServerEntry {
            id,
            name,
            target,
            era: EraChoice::Auto,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn everything_after_the_double_dash_is_the_command() {
        let got = parse(&argv(&[
            "app", "--", "demo", "--eras", "dual", "--url", "x",
        ]))
        .unwrap();
        assert_eq!(
            got,
            Some(LaunchRequest::Command {
                command: "demo".into(),
                args: argv(&["--eras", "dual", "--url", "x"]),
            })
        );
    }

    #[test]
    fn a_url_in_either_spelling_and_foreign_arguments_are_skipped() {
        let url = Some(LaunchRequest::Url("http://127.0.0.1:9/mcp".into()));
        assert_eq!(
            parse(&argv(&[
                "app",
                "--automation",
                "--url",
                "http://127.0.0.1:9/mcp"
            ]))
            .unwrap(),
            url
        );
        assert_eq!(
            parse(&argv(&["app", "--url=http://127.0.0.1:9/mcp"])).unwrap(),
            url
        );
        assert_eq!(parse(&argv(&["app", "--automation"])).unwrap(), None);
    }

    #[test]
    fn a_recording_is_named_by_open_or_by_its_extension_before_the_double_dash() {
        let cwd = std::path::Path::new("/home/u");
        assert_eq!(
            recording(&argv(&["app", "--open", "/tmp/a.jsonl"]), Some(cwd)),
            Some("/tmp/a.jsonl".into())
        );
        assert_eq!(
            recording(&argv(&["app", "--open=rec.txt"]), Some(cwd)),
            Some("/home/u/rec.txt".into())
        );
        assert_eq!(
            recording(&argv(&["app", "s.jsonl"]), Some(cwd)),
            Some("/home/u/s.jsonl".into())
        );
        assert_eq!(
            recording(&argv(&["app", "--", "server", "x.jsonl"]), None),
            None
        );
        assert_eq!(recording(&argv(&["app", "--automation"]), None), None);
        // A recording does not make a server request.
        assert_eq!(
            parse(&argv(&["app", "--open", "/tmp/a.jsonl"])).unwrap(),
            None
        );
    }

    #[test]
    fn a_missing_command_or_a_url_that_is_not_http_is_an_error() {
        assert!(parse(&argv(&["app", "--"])).is_err());
        assert!(parse(&argv(&["app", "--url"])).is_err());
        assert!(parse(&argv(&["app", "--url", "file:///etc/passwd"])).is_err());
    }

    #[test]
    fn the_entry_is_named_after_the_program_or_the_host() {
        let cmd = LaunchRequest::Command {
            command: "/usr/bin/periscope-demo-server".into(),
            args: argv(&["--eras", "dual"]),
        };
        let entry = cmd.entry("cli-1".into(), Some("/tmp".into()));
        assert_eq!(entry.name, "periscope-demo-server");
        assert_eq!(
            cmd.source(),
            "periscope-app -- /usr/bin/periscope-demo-server --eras dual"
        );
        let url = LaunchRequest::Url("https://mcp.example.com/mcp".into());
        assert_eq!(url.entry("cli-2".into(), None).name, "mcp.example.com");
    }
}
