//! Remote icons (server and tool icons with `https:` URLs): fetched by the app, not the page,
//! only when the user asks, without cookies or credentials, size-capped, and handed to the
//! page as a `data:` URL (the CSP keeps the page from loading remote content itself).

use periscope_core::vocabulary::Problem;
use periscope_core::vocabulary::problem::{Limit, UrlRefusal};
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
pub fn check_icon_url(url: &str) -> Result<tauri::Url, Problem> {
    let refused = |reason| Problem::UrlRefused {
        url: url.into(),
        reason,
    };
    let parsed = tauri::Url::parse(url).map_err(|_| refused(UrlRefusal::NotAUrl))?;
    if parsed.scheme() != "https" {
        return Err(refused(UrlRefusal::NotHttps));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(refused(UrlRefusal::Credentials));
    }
    Ok(parsed)
}

fn fetch_failed(url: &str, error: impl std::fmt::Display) -> Problem {
    Problem::FetchFailed {
        url: url.into(),
        detail: error.to_string(),
    }
}

/// The media type to accept, from a Content-Type header.
pub fn icon_type(content_type: Option<&str>) -> Result<String, Problem> {
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
        Err(Problem::NotAnImage {
            content_type: media,
        })
    }
}

/// Fetches an https: icon without cookies, credentials or redirects, at most 256 KiB, and
/// returns it as a data: URL.
#[tauri::command]
pub async fn fetch_icon(url: String) -> Result<String, Problem> {
    let parsed = check_icon_url(&url)?;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(5))
        .build()
        .map_err(Problem::internal)?;
    let response = client
        .get(parsed)
        .send()
        .await
        .map_err(|e| fetch_failed(&url, e))?;
    if !response.status().is_success() {
        return Err(fetch_failed(&url, format!("HTTP {}", response.status())));
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
        let chunk = chunk.map_err(|e| fetch_failed(&url, e))?;
        if bytes.len() + chunk.len() > MAX_ICON_BYTES {
            return Err(Problem::LimitHit {
                what: Limit::IconKib,
                limit: (MAX_ICON_BYTES / 1024) as u64,
                asked: None,
            });
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
