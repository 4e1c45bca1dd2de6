//! Opening a URL in a web browser, for URL elicitations and sign-in.

use periscope_core::answering::browser_url;

/// Opens `url` in a web browser, never through a generic file or URL handler: the `webbrowser`
/// crate finds the user's web browser (with `hardened`, it refuses anything but http and
/// https), and it gets the URL only as `browser_url` parsed and wrote it back out.
pub fn open_url(url: &str) -> Result<(), String> {
    let url = browser_url(url).map_err(|e| e.to_string())?;
    #[cfg(feature = "test-seams")]
    if let Some(log) = std::env::var_os("PERISCOPE_OPEN_URL_LOG") {
        return log_instead(&log, &url);
    }
    webbrowser::open(&url).map_err(|e| e.to_string())
}

/// The test seam (`--features test-seams` only): `PERISCOPE_OPEN_URL_LOG` names a file that
/// gets the URL instead of a browser, for end-to-end tests to observe.
#[cfg(feature = "test-seams")]
fn log_instead(log: &std::ffi::OsStr, url: &str) -> Result<(), String> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| e.to_string())?;
    writeln!(file, "{url}").map_err(|e| e.to_string())
}
