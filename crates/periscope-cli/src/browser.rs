//! Opening a URL in the system browser, for URL elicitations and sign-in.

/// Opens `url` in the system browser: no shell (xdg-open and friends get it as one argument).
/// `PERISCOPE_OPEN_URL_LOG` names a file that gets the URL instead: the seam tests observe.
pub fn open_url(url: &str) -> Result<(), String> {
    if let Some(log) = std::env::var_os("PERISCOPE_OPEN_URL_LOG") {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|e| e.to_string())?;
        return writeln!(file, "{url}").map_err(|e| e.to_string());
    }
    open::that_detached(url).map_err(|e| e.to_string())
}
