//! The `icons` of an item (tools, prompts, resources, templates; 2025-11-25 on).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::read::Reader;

/// One of an item's `icons` (tools, prompts, resources, templates).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct IconView {
    pub src: String,
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
            src,
            mime_type: r.text("mimeType"),
            sizes,
            theme: r.text("theme"),
        });
    }
    out
}
