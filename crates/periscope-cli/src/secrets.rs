//! Secrets given by reference instead of on the command line (which every local user can read
//! in the process list and which lands in shell history): `--header-from-env Name=VAR`,
//! `--header-from-file Name=FILE`, `--env-from-env K=VAR`, `--env-from-file K=FILE`,
//! `--client-secret-from-env VAR`, `--client-secret-from-file FILE`. Values read this way are
//! marked secret, so a header is recorded redacted whatever its name.
//!
//! And the other way: a catalog entry's secret values, from the secret store the app keeps
//! them in, for `saved run`.

use std::path::Path;

use periscope_core::config::ServerEntry;
use periscope_core::config::ServerTarget;
use periscope_core::server_secrets;

use crate::args::Cli;

/// Reads every `--*-from-env` and `--*-from-file` into `cli`: headers and environment
/// variables join `--header` and `--env` (marked secret), the client secret fills
/// `--client-secret`. An error names the flag and the variable or file, never a value.
pub fn read_into(cli: &mut Cli) -> Result<(), String> {
    for (name, var) in std::mem::take(&mut cli.header_from_env) {
        let value = from_env("--header-from-env", &name, &var)?;
        cli.secret_headers.push(name.clone());
        cli.header.push((name, value));
    }
    for (name, path) in std::mem::take(&mut cli.header_from_file) {
        let value = from_file("--header-from-file", &name, Path::new(&path))?;
        cli.secret_headers.push(name.clone());
        cli.header.push((name, value));
    }
    for (name, var) in std::mem::take(&mut cli.env_from_env) {
        let value = from_env("--env-from-env", &name, &var)?;
        cli.secret_env.push(name.clone());
        cli.env.push((name, value));
    }
    for (name, path) in std::mem::take(&mut cli.env_from_file) {
        let value = from_file("--env-from-file", &name, Path::new(&path))?;
        cli.secret_env.push(name.clone());
        cli.env.push((name, value));
    }
    if let Some(var) = cli.client_secret_from_env.take() {
        cli.client_secret = Some(from_env("--client-secret-from-env", "", &var)?);
    }
    if let Some(path) = cli.client_secret_from_file.take() {
        cli.client_secret = Some(from_file("--client-secret-from-file", "", &path)?);
    }
    Ok(())
}

fn flag_text(flag: &str, name: &str, source: &str) -> String {
    if name.is_empty() {
        format!("{flag} {source}")
    } else {
        format!("{flag} {name}={source}")
    }
}

fn from_env(flag: &str, name: &str, var: &str) -> Result<String, String> {
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => Ok(value),
        Ok(_) => Err(format!(
            "{}: the environment variable {var} is empty",
            flag_text(flag, name, var)
        )),
        Err(std::env::VarError::NotPresent) => Err(format!(
            "{}: the environment variable {var} is not set",
            flag_text(flag, name, var)
        )),
        Err(std::env::VarError::NotUnicode(_)) => Err(format!(
            "{}: the environment variable {var} is not valid UTF-8",
            flag_text(flag, name, var)
        )),
    }
}

fn from_file(flag: &str, name: &str, path: &Path) -> Result<String, String> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: cannot read {shown}: {e}",
            flag_text(flag, name, &shown)
        )
    })?;
    // `echo secret > file` adds a newline nobody means as part of the secret.
    let value = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(&text);
    if value.is_empty() {
        return Err(format!(
            "{}: {shown} is empty",
            flag_text(flag, name, &shown)
        ));
    }
    Ok(value.to_string())
}

/// The target of a catalog entry with its secret values filled in from the secret store the
/// app keeps them in (opened only when the entry has secrets: opening probes the keychain).
pub fn resolve_entry(entry: &ServerEntry) -> Result<ServerTarget, String> {
    if server_secrets::secret_names(&entry.target).is_empty() {
        return Ok(entry.target.clone());
    }
    let store = crate::auth::store();
    server_secrets::resolve(Some(&store), entry)
        .map_err(|e| format!("the app's server {:?}: {e}", entry.id))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn parse(args: &[&str]) -> Cli {
        Cli::parse_from(std::iter::once("periscope").chain(args.iter().copied()))
    }

    #[test]
    fn values_from_files_are_marked_secret_and_lose_one_final_newline() {
        let dir =
            std::env::temp_dir().join(format!("periscope-cli-secrets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let key = dir.join("key");
        std::fs::write(&key, "k-from-file\n").unwrap();
        let empty = dir.join("empty");
        std::fs::write(&empty, "\n").unwrap();
        let key_arg = format!("X-Key={}", key.display());
        let env_arg = format!("TOKEN={}", key.display());
        let mut cli = parse(&[
            "ping",
            "--header",
            "Accept-Language: en",
            "--header-from-file",
            &key_arg,
            "--env-from-file",
            &env_arg,
        ]);
        read_into(&mut cli).unwrap();
        assert_eq!(
            cli.header,
            [
                ("Accept-Language".to_string(), "en".to_string()),
                ("X-Key".to_string(), "k-from-file".to_string())
            ]
        );
        assert_eq!(cli.secret_headers, ["X-Key"]);
        assert_eq!(cli.env, [("TOKEN".to_string(), "k-from-file".to_string())]);
        assert_eq!(cli.secret_env, ["TOKEN"]);

        let empty_arg = format!("X-Key={}", empty.display());
        let error = read_into(&mut parse(&["ping", "--header-from-file", &empty_arg])).unwrap_err();
        assert!(
            error.contains("is empty") && error.contains("--header-from-file"),
            "{error}"
        );
        let missing_arg = format!("X-Key={}", dir.join("nope").display());
        let error =
            read_into(&mut parse(&["ping", "--header-from-file", &missing_arg])).unwrap_err();
        assert!(error.contains("cannot read"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unset_variable_is_named_in_the_error() {
        let error = read_into(&mut parse(&[
            "ping",
            "--header-from-env",
            "X-Key=PERISCOPE_TEST_SURELY_UNSET_VARIABLE",
        ]))
        .unwrap_err();
        assert_eq!(
            error,
            "--header-from-env X-Key=PERISCOPE_TEST_SURELY_UNSET_VARIABLE: the environment variable PERISCOPE_TEST_SURELY_UNSET_VARIABLE is not set"
        );
    }
}
