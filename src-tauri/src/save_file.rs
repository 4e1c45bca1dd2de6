//! Saving bytes the user asked to save (a resource's blob, a traffic export): where they pick
//! in the native save dialog, nothing before that pick. Test builds (`--features test-seams`)
//! write into `PERISCOPE_SAVE_DIR` instead of showing the dialog, so end-to-end tests see the
//! file.

use periscope_core::vocabulary::Problem;
use tauri::{AppHandle, Runtime};

/// `raw` made safe as a file name: letters, digits, `.`, `-` and `_` kept, the rest `_`, no
/// leading dot (no hidden file, no `..`); `fallback` when nothing is left.
pub fn safe_file_name(raw: &str, fallback: &str) -> String {
    let safe: String = raw
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    if safe.is_empty() {
        fallback.into()
    } else {
        safe.into()
    }
}

/// Writes `bytes` where the user picks, suggesting `file_name`; the path written, or None when
/// the user cancelled.
pub async fn save_bytes<R: Runtime>(
    app: &AppHandle<R>,
    title: &str,
    file_name: &str,
    bytes: &[u8],
) -> Result<Option<String>, Problem> {
    #[cfg(feature = "test-seams")]
    if let Some(dir) = std::env::var_os("PERISCOPE_SAVE_DIR") {
        let path = std::path::Path::new(&dir).join(file_name);
        std::fs::create_dir_all(&dir).map_err(|e| Problem::io(std::path::Path::new(&dir), e))?;
        std::fs::write(&path, bytes).map_err(|e| Problem::io(&path, e))?;
        return Ok(Some(path.display().to_string()));
    }
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title(title)
        .set_file_name(file_name)
        .save_file(move |picked| {
            let _ = tx.send(picked);
        });
    let picked = rx.await.map_err(|_| Problem::DialogClosed)?;
    let Some(path) = picked else {
        return Ok(None);
    };
    let path = path.into_path().map_err(|e| Problem::InvalidInput {
        field: periscope_core::vocabulary::problem::Field::LocalFile,
        detail: Some(e.to_string()),
    })?;
    std::fs::write(&path, bytes).map_err(|e| Problem::io(&path, e))?;
    Ok(Some(path.display().to_string()))
}

#[cfg(test)]
mod tests {
    use super::safe_file_name;

    #[test]
    fn a_file_name_is_made_safe() {
        assert_eq!(safe_file_name("a b.bin", "x"), "a_b.bin");
        assert_eq!(safe_file_name("..hidden", "x"), "hidden");
        assert_eq!(safe_file_name("", "x"), "x");
    }
}
