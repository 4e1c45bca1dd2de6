//! The system browser, the only way the app opens a URL a server (or a sign-in) names.

use std::sync::Arc;

/// Opens a URL in the system browser (never through a shell). A seam: tests observe it.
pub type Opener = Arc<dyn Fn(&str) -> Result<(), String> + Send + Sync>;

/// The system browser through tauri-plugin-opener (xdg-open, no shell), or, when
/// `PERISCOPE_OPEN_URL_LOG` names a file, a line appended there instead: the seam end-to-end
/// tests observe, so no browser starts under test.
pub fn opener<R: tauri::Runtime>(app: &tauri::AppHandle<R>) -> Opener {
    if let Some(log) = std::env::var_os("PERISCOPE_OPEN_URL_LOG") {
        return Arc::new(move |url: &str| {
            use std::io::Write;
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)
                .map_err(|e| e.to_string())?;
            writeln!(file, "{url}").map_err(|e| e.to_string())
        });
    }
    let app = app.clone();
    Arc::new(move |url: &str| {
        use tauri_plugin_opener::OpenerExt;
        app.opener()
            .open_url(url, None::<&str>)
            .map_err(|e| e.to_string())
    })
}
