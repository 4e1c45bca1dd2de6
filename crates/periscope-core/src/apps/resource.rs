//! An app's page from a `resources/read` result (ext-apps 2026-01-26 §Content Requirements):
//! the content item with the resource's URI (else the first), `text` or base64 `blob`, at most
//! [`MAX_HTML_BYTES`] decoded. A wrong MIME type is a problem shown beside the app, which is
//! still rendered (the user is inspecting the server: show what it sent).

use std::sync::Arc;

use base64::Engine;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::meta::{ResourceUi, resource_ui};

/// The largest page Periscope renders (decoded bytes).
pub const MAX_HTML_BYTES: usize = 8 * 1024 * 1024;

/// A UI resource ready to serve.
#[derive(Debug, Clone, PartialEq)]
pub struct UiResource {
    pub uri: String,
    pub html: Arc<str>,
    pub meta: ResourceUi,
    /// What was off: the MIME type, a non-`ui://` URI, invalid UTF-8 replaced.
    pub problems: Vec<String>,
    /// SHA-256 of the page's bytes, hex: the template's identity (S: hosts SHOULD hash).
    pub sha256: String,
}

/// Why there is no page to render.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    #[error("the resources/read result has no contents")]
    NoContents,
    #[error("the content item has neither text nor blob")]
    NoBody,
    #[error("the blob is not valid base64: {0}")]
    BadBase64(String),
    #[error("the page is {0} bytes, over the {MAX_HTML_BYTES}-byte limit")]
    TooBig(usize),
}

impl From<&ResourceError> for crate::vocabulary::breach::Breach {
    fn from(error: &ResourceError) -> Self {
        use crate::vocabulary::breach::Breach;
        match error {
            ResourceError::NoContents => Breach::MissingMember {
                member: "contents".into(),
                expected: "non-empty array".into(),
            },
            ResourceError::NoBody => Breach::NoBody,
            ResourceError::BadBase64(detail) => Breach::BadBase64 {
                detail: detail.clone(),
            },
            ResourceError::TooBig(bytes) => Breach::TooBig {
                bytes: *bytes as u64,
                limit: MAX_HTML_BYTES as u64,
            },
        }
    }
}

/// The page of `uri` from `result`, with `listing` (its `resources/list` entry, if listed) for
/// the metadata the content item does not carry.
pub fn from_read(
    uri: &str,
    result: &Value,
    listing: Option<&Value>,
) -> Result<UiResource, ResourceError> {
    let contents = result
        .get("contents")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
        .ok_or(ResourceError::NoContents)?;
    let item = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .unwrap_or(&contents[0]);
    let mut problems = Vec::new();
    if !uri.starts_with("ui://") {
        problems.push(format!("the URI {uri:?} does not start with ui://"));
    }
    match item.get("mimeType").and_then(Value::as_str) {
        Some(mime) if mime.replace(' ', "") == super::APP_MIME => {}
        Some(mime) => problems.push(format!(
            "mimeType is {mime:?}, not {:?}; rendered anyway",
            super::APP_MIME
        )),
        None => problems.push(format!(
            "no mimeType (an app must say {:?}); rendered anyway",
            super::APP_MIME
        )),
    }
    let bytes: Vec<u8> = if let Some(text) = item.get("text").and_then(Value::as_str) {
        if text.len() > MAX_HTML_BYTES {
            return Err(ResourceError::TooBig(text.len()));
        }
        text.as_bytes().to_vec()
    } else if let Some(blob) = item.get("blob").and_then(Value::as_str) {
        // base64 grows by 4/3: refuse before decoding what cannot fit.
        if blob.len() / 4 * 3 > MAX_HTML_BYTES + 3 {
            return Err(ResourceError::TooBig(blob.len() / 4 * 3));
        }
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(blob.trim())
            .map_err(|e| ResourceError::BadBase64(e.to_string()))?;
        if decoded.len() > MAX_HTML_BYTES {
            return Err(ResourceError::TooBig(decoded.len()));
        }
        decoded
    } else {
        return Err(ResourceError::NoBody);
    };
    let sha256 = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let html = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            problems.push("the page is not valid UTF-8: invalid bytes replaced".into());
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    Ok(UiResource {
        uri: uri.to_string(),
        html: html.into(),
        meta: resource_ui(listing, Some(item)),
        problems,
        sha256,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_text_page_with_the_app_mime_reads_without_problems() {
        let result = json!({"contents": [{"uri": "ui://s/a", "mimeType": "text/html;profile=mcp-app",
            "text": "<p>hi</p>", "_meta": {"ui": {"prefersBorder": true}}}]});
        let page = from_read("ui://s/a", &result, None).unwrap();
        assert_eq!(&*page.html, "<p>hi</p>");
        assert!(page.problems.is_empty(), "{:?}", page.problems);
        assert!(page.meta.prefers_border);
        assert_eq!(page.sha256.len(), 64);
    }

    #[test]
    fn a_blob_page_with_a_wrong_mime_is_rendered_with_a_problem() {
        let blob = base64::engine::general_purpose::STANDARD.encode("<b>x</b>");
        let result =
            json!({"contents": [{"uri": "ui://s/b", "mimeType": "text/html", "blob": blob}]});
        let page = from_read("ui://s/b", &result, None).unwrap();
        assert_eq!(&*page.html, "<b>x</b>");
        assert_eq!(page.problems.len(), 1, "{:?}", page.problems);
        assert_eq!(
            from_read("ui://s/b", &json!({"contents": []}), None),
            Err(ResourceError::NoContents)
        );
        let huge = "x".repeat(MAX_HTML_BYTES + 1);
        let result = json!({"contents": [{"uri": "ui://s/c", "text": huge}]});
        assert!(matches!(
            from_read("ui://s/c", &result, None),
            Err(ResourceError::TooBig(_))
        ));
    }
}
