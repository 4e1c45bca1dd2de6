//! Remote icons (server and tool icons with `https:` URLs): fetched by the app, not the page,
//! only when the user asks, without cookies or credentials, size-capped, and handed to the
//! page as a `data:` URL (the CSP keeps the page from loading remote content itself).

use std::time::Duration;

use base64::Engine;
use futures_util::StreamExt;

/// The largest icon fetched.
const MAX_ICON_BYTES: usize = 256 * 1024;

const IMAGE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/svg+xml",
    "image/x-icon",
    "image/vnd.microsoft.icon",
];

/// Why an icon URL is refused before anything is fetched.
pub fn check_icon_url(url: &str) -> Result<tauri::Url, String> {
    let parsed = tauri::Url::parse(url).map_err(|e| format!("not a URL: {e}"))?;
    if parsed.scheme() != "https" {
        return Err(format!(
            "only https: icons are fetched, not {}:",
            parsed.scheme()
        ));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("an icon URL with credentials in it is not fetched".into());
    }
    Ok(parsed)
}

/// The media type to accept, from a Content-Type header.
pub fn icon_type(content_type: Option<&str>) -> Result<String, String> {
    let media = content_type
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if IMAGE_TYPES.contains(&media.as_str()) {
        Ok(media)
    } else {
        Err(format!(
            "not an image ({})",
            if media.is_empty() {
                "no content type"
            } else {
                &media
            }
        ))
    }
}

/// Fetches an https: icon without cookies, credentials or redirects, at most 256 KiB, and
/// returns it as a data: URL.
#[tauri::command]
pub async fn fetch_icon(url: String) -> Result<String, String> {
    let parsed = check_icon_url(&url)?;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| e.to_string())?;
    let response = client
        .get(parsed)
        .send()
        .await
        .map_err(|e| format!("could not fetch the icon: {e}"))?;
    if !response.status().is_success() {
        return Err(format!(
            "the icon's server answered HTTP {}",
            response.status()
        ));
    }
    let media = icon_type(
        response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
    )?;
    let mut bytes = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| format!("the icon download broke off: {e}"))?;
        if bytes.len() + chunk.len() > MAX_ICON_BYTES {
            return Err(format!(
                "the icon is larger than {} KiB",
                MAX_ICON_BYTES / 1024
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(format!(
        "data:{media};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_https_urls_are_fetched() {
        assert!(check_icon_url("https://example.com/icon.png").is_ok());
        assert!(check_icon_url("http://example.com/icon.png").is_err());
        assert!(check_icon_url("https://user:pw@example.com/icon.png").is_err());
        assert!(check_icon_url("file:///etc/passwd").is_err());
        assert!(check_icon_url("javascript:alert(1)").is_err());
    }

    #[test]
    fn only_images_are_accepted() {
        assert_eq!(icon_type(Some("image/png")).unwrap(), "image/png");
        assert_eq!(
            icon_type(Some("Image/SVG+XML; charset=utf-8")).unwrap(),
            "image/svg+xml"
        );
        assert!(icon_type(Some("text/html")).is_err());
        assert!(icon_type(None).is_err());
    }
}
