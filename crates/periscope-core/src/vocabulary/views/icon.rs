//! The `icons` of an item (tools, prompts, resources, templates; 2025-11-25 on).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::read::Reader;

/// Whether the app may show an icon, by its `src`'s scheme: decided here once for every
/// item that has icons (the server itself, tools, prompts, resources, templates).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum IconSource {
    /// A `data:image/…` URL: shown (no request leaves the machine).
    Inline,
    /// An `https:` URL: named, loaded only when the user asks (fetching it would tell a third
    /// party when the server is inspected; the app's CSP allows no remote image by itself).
    Remote,
    /// Any other scheme (`http:`, `javascript:`, `file:`, …): never shown nor fetched.
    Refused,
}

impl IconSource {
    pub fn of(src: &str) -> IconSource {
        let lower = src.trim_start().to_ascii_lowercase();
        if lower.starts_with("data:image/") {
            IconSource::Inline
        } else if lower.starts_with("https:") {
            IconSource::Remote
        } else {
            IconSource::Refused
        }
    }
}

/// One of an item's `icons` (tools, prompts, resources, templates).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct IconView {
    /// As sent, less surrounding white space.
    pub src: String,
    pub source: IconSource,
    pub mime_type: Option<String>,
    /// `sizes`: a list since 2025-11-25; a single string (older drafts) is read as one size.
    pub sizes: Vec<String>,
    /// `light` or `dark`, when the server says which theme the icon is for.
    pub theme: Option<String>,
}

/// Reads an item's `icons` (at most 16: a server can send any number).
pub fn icons(reader: &mut Reader<'_>) -> Vec<IconView> {
    let mut out = Vec::new();
    for icon in reader.list("icons").iter().take(16) {
        let mut r = Reader::new(icon);
        let Some(src) = r.text("src") else { continue };
        let src = src.trim().to_string();
        if src.is_empty() {
            continue;
        }
        let sizes = match r.get("sizes") {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        };
        out.push(IconView {
            source: IconSource::of(&src),
            src,
            mime_type: r.text("mimeType"),
            sizes,
            theme: r.text("theme"),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_icon_is_placed_by_its_scheme() {
        let raw = json!({"icons": [
            {"src": " data:image/png;base64,AAAA ", "sizes": "48x48"},
            {"src": "HTTPS://example.com/i.svg", "sizes": ["any"]},
            {"src": "http://example.com/i.png"},
            {"src": "javascript:alert(1)"},
            {"src": "data:text/html,<script>alert(1)</script>"},
            {"src": "   "},
            {"mimeType": "image/png"}
        ]});
        let mut reader = Reader::new(&raw);
        let read = icons(&mut reader);
        let placed: Vec<(&str, IconSource)> =
            read.iter().map(|i| (i.src.as_str(), i.source)).collect();
        assert_eq!(
            placed,
            [
                ("data:image/png;base64,AAAA", IconSource::Inline),
                ("HTTPS://example.com/i.svg", IconSource::Remote),
                ("http://example.com/i.png", IconSource::Refused),
                ("javascript:alert(1)", IconSource::Refused),
                (
                    "data:text/html,<script>alert(1)</script>",
                    IconSource::Refused
                ),
            ]
        );
        assert_eq!(read[0].sizes, ["48x48"]);
        assert_eq!(read[1].sizes, ["any"]);
    }
}
