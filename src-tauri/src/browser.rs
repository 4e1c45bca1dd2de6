//! The web browser, the only way the app opens a URL a server (or a sign-in) names.

use periscope_core::vocabulary::Problem;
use std::sync::Arc;

/// Opens a URL in the web browser (never through a shell). A seam: tests observe it.
pub type Opener = Arc<dyn Fn(&str) -> Result<(), Problem> + Send + Sync>;

/// The user's web browser through the `webbrowser` crate (`hardened`: http and https only),
/// never a generic file or URL handler. Callers hand it the URL as
/// `periscope_core::answering::browser_url` wrote it (`Asks::open`).
pub fn opener() -> Opener {
    #[cfg(feature = "test-seams")]
    if let Some(log) = std::env::var_os("PERISCOPE_OPEN_URL_LOG") {
        return log_instead(log);
    }
    Arc::new(|url: &str| {
        webbrowser::open(url).map_err(|e| Problem::ProgramFailed {
            program: "the web browser".into(),
            detail: e.to_string(),
        })
    })
}

/// The test seam (`--features test-seams` only): when `PERISCOPE_OPEN_URL_LOG` names a file,
/// each URL is appended there instead, so end-to-end tests observe it and no browser starts.
#[cfg(feature = "test-seams")]
fn log_instead(log: std::ffi::OsString) -> Opener {
    Arc::new(move |url: &str| {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(|e| Problem::io(std::path::Path::new(&log), e))?;
        writeln!(file, "{url}").map_err(|e| Problem::io(std::path::Path::new(&log), e))
    })
}

/// Opens a folder of the app's own (its data folder) in the desktop's file manager: the path is
/// an argument of the platform's opener, never a shell string. In test builds,
/// `PERISCOPE_OPEN_URL_LOG` gets a line `folder:PATH` instead.
pub fn open_folder(path: &std::path::Path) -> Result<(), Problem> {
    #[cfg(feature = "test-seams")]
    if let Some(log) = std::env::var_os("PERISCOPE_OPEN_URL_LOG") {
        return log_instead(log)(&format!("folder:{}", path.display()));
    }
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| Problem::ProgramFailed {
            program: opener.into(),
            detail: e.to_string(),
        })
}
