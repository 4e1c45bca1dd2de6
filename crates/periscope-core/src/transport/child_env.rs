//! The environment a stdio server starts with: by default only the variables a program needs to
//! run, so API keys and tokens in Periscope's own environment do not leak into every server the
//! user tries. The entry's own variables come on top; `inherit_env` passes everything.
//!
//! The list follows the official MCP SDKs' (TypeScript `getDefaultEnvironment`, Python
//! `get_default_environment`: the variables sudo keeps), widened by what the locale and the
//! XDG base directories need, so a server finds its language, its temp dir and its config.

use std::ffi::{OsStr, OsString};

use tokio::process::Command;

use crate::config::StdioTarget;

/// Variables inherited by name.
#[cfg(not(windows))]
const INHERITED: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TMPDIR",
];

/// Variables inherited by name (Windows compares names case-insensitively). Without
/// `SYSTEMROOT` many programs cannot even load; `PATHEXT` lets `npx` resolve `npx.cmd`.
#[cfg(windows)]
const INHERITED: &[&str] = &[
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PATHEXT",
    "PROCESSOR_ARCHITECTURE",
    "PROGRAMFILES",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "TMP",
    "USERNAME",
    "USERPROFILE",
];

/// Variables inherited by prefix: the locale (`LC_ALL`, `LC_CTYPE`, …) and the XDG base
/// directories and session (`XDG_CONFIG_HOME`, `XDG_RUNTIME_DIR`, …).
#[cfg(not(windows))]
const INHERITED_PREFIXES: &[&str] = &["LC_", "XDG_"];
#[cfg(windows)]
const INHERITED_PREFIXES: &[&str] = &[];

/// Whether a variable of Periscope's own environment is passed to a server by default.
fn is_inherited(name: &OsStr, value: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    // An exported shell function (`BASH_FUNC_x%%=() { …`) is code, not configuration: the
    // SDKs skip such values too.
    if value.as_encoded_bytes().starts_with(b"()") {
        return false;
    }
    let same = |a: &str, b: &str| {
        if cfg!(windows) {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    INHERITED.iter().any(|n| same(n, name))
        || INHERITED_PREFIXES
            .iter()
            .any(|p| name.len() > p.len() && name.get(..p.len()).is_some_and(|h| same(h, p)))
}

/// The variables of `from` that a server inherits by default.
fn minimal(from: impl IntoIterator<Item = (OsString, OsString)>) -> Vec<(OsString, OsString)> {
    from.into_iter()
        .filter(|(name, value)| is_inherited(name, value))
        .collect()
}

/// Sets `cmd`'s environment for `target`: the minimal inherited set (or everything, when the
/// entry asks for it), then the entry's own variables, which win.
pub fn apply(cmd: &mut Command, target: &StdioTarget) {
    if !target.inherit_env {
        cmd.env_clear().envs(minimal(std::env::vars_os()));
    }
    cmd.envs(target.env.iter().map(|(k, v)| (k, v)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(vars: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        vars.iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect()
    }

    #[cfg(not(windows))]
    #[test]
    fn only_what_a_program_needs_to_run_is_inherited() {
        let env = pairs(&[
            ("PATH", "/usr/bin"),
            ("HOME", "/home/a"),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", "C.UTF-8"),
            ("XDG_CONFIG_HOME", "/home/a/.config"),
            ("TMPDIR", "/tmp"),
            ("OPENAI_API_KEY", "sk-secret"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
            ("GITHUB_TOKEN", "ghp_secret"),
            ("XDG_", "a bare prefix is not a variable of the family"),
            ("BASH_FUNC_PATH%%", "() { evil; }"),
            ("SHELL", "() { evil; }"),
        ]);
        let names: Vec<OsString> = minimal(env).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            names,
            [
                "PATH",
                "HOME",
                "LANG",
                "LC_ALL",
                "XDG_CONFIG_HOME",
                "TMPDIR"
            ]
            .map(OsString::from)
        );
    }

    #[tokio::test]
    async fn a_server_sees_the_minimal_environment_plus_its_own_and_everything_on_request() {
        let printenv = |inherit_env: bool| async move {
            let target = StdioTarget {
                command: "env".into(),
                env: vec![("ENTRY_VAR".into(), "from the entry".into())],
                inherit_env,
                ..StdioTarget::default()
            };
            let mut cmd = Command::new(&target.command);
            // Stands in for a variable of Periscope's own environment: `env_clear` drops both.
            cmd.env("PERISCOPE_TEST_PARENT_SECRET", "parent only");
            apply(&mut cmd, &target);
            let out = cmd.output().await.expect("env runs");
            String::from_utf8(out.stdout).unwrap()
        };
        let minimal = printenv(false).await;
        assert!(minimal.contains("ENTRY_VAR=from the entry"), "{minimal}");
        assert!(minimal.contains("PATH="), "{minimal}");
        assert!(
            !minimal.contains("PERISCOPE_TEST_PARENT_SECRET"),
            "{minimal}"
        );
        let everything = printenv(true).await;
        assert!(everything.contains("ENTRY_VAR=from the entry"));
        assert!(
            everything.contains("PERISCOPE_TEST_PARENT_SECRET=parent only"),
            "{everything}"
        );
    }
}
