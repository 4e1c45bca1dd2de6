//! `periscope open-app -- <command>` / `periscope open-app --url <url>`: starts the desktop app
//! on that server (`periscope-app -- …` / `--url …`), which opens it as a temporary catalog
//! entry, or hands it to the app already running. The app is looked for beside this binary
//! (where the package and the build put both), then on PATH.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::exit::Exit;

const APP: &str = "periscope-app";

fn find_app() -> Option<PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(APP)));
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join(APP));
    beside.into_iter().chain(on_path).find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Starts the app with `args` and returns at once: the app lives on after the CLI.
pub fn start(args: &[String]) -> Exit {
    let Some(app) = find_app() else {
        tell!(
            "periscope: the desktop app ({APP}) is neither beside this program nor on PATH; install the periscope package"
        );
        return Exit::Connect;
    };
    match Command::new(&app)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
    {
        Ok(_) => Exit::Ok,
        Err(e) => {
            tell!("periscope: could not start {}: {e}", app.display());
            Exit::Connect
        }
    }
}

/// Starts the app on a server and returns at once: the app lives on after the CLI.
pub fn run(url: Option<&str>, server: &[String]) -> Exit {
    let args: Vec<String> = match (url, server.is_empty()) {
        (Some(url), true) => vec!["--url".into(), url.into()],
        (None, false) => std::iter::once("--".to_string())
            .chain(server.iter().cloned())
            .collect(),
        (Some(_), false) => {
            tell!("periscope: give either --url or a command after `--`, not both");
            return Exit::Usage;
        }
        (None, true) => {
            tell!("periscope: open-app needs a server: -- <command> [args] or --url <url>");
            return Exit::Usage;
        }
    };
    start(&args)
}
