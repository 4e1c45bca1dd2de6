//! A resource from `resources/list` and a template from `resources/templates/list`, with the
//! JSON as sent.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::icon::{IconView, icons};
use super::read::{OffSpec, Reader};

/// A resource as `resources/list` gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ResourceView {
    /// None when the server sent no URI (such a resource cannot be read).
    pub uri: Option<String>,
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    /// `size` in bytes, when the server said.
    pub size: Option<u64>,
    pub icons: Vec<IconView>,
    pub problems: Vec<OffSpec>,
    pub raw: Value,
}

/// A resource template as `resources/templates/list` gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TemplateView {
    /// None when the server sent no `uriTemplate`.
    pub uri_template: Option<String>,
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    pub icons: Vec<IconView>,
    pub problems: Vec<OffSpec>,
    pub raw: Value,
}

impl ResourceView {
    /// Reads one `resources/list` item.
    pub fn read(raw: &Value) -> ResourceView {
        let mut r = Reader::new(raw);
        let uri = r.required_text("uri");
        let name = r.required_text("name");
        ResourceView {
            uri,
            name,
            title: r.text("title"),
            description: r.text("description"),
            mime_type: r.text("mimeType"),
            size: r.count("size"),
            icons: icons(&mut r),
            problems: r.problems,
            raw: raw.clone(),
        }
    }
}

impl TemplateView {
    /// Reads one `resources/templates/list` item.
    pub fn read(raw: &Value) -> TemplateView {
        let mut r = Reader::new(raw);
        let uri_template = r.required_text("uriTemplate");
        let name = r.required_text("name");
        TemplateView {
            uri_template,
            name,
            title: r.text("title"),
            description: r.text("description"),
            mime_type: r.text("mimeType"),
            icons: icons(&mut r),
            problems: r.problems,
            raw: raw.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_spec_resource_and_template_read_whole() {
        // The 2026-07-28 schema's `Resource` example.
        let raw = json!({"uri": "file:///project/README.md", "name": "README.md",
            "title": "Project Documentation", "mimeType": "text/markdown", "size": 1024});
        let view = ResourceView::read(&raw);
        assert_eq!(view.uri.as_deref(), Some("file:///project/README.md"));
        assert_eq!(view.mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(view.size, Some(1024));
        assert!(view.problems.is_empty());
        let template = json!({"uriTemplate": "file:///{path}", "name": "Project Files",
            "mimeType": "application/octet-stream"});
        let view = TemplateView::read(&template);
        assert_eq!(view.uri_template.as_deref(), Some("file:///{path}"));
        assert_eq!(view.name.as_deref(), Some("Project Files"));
        assert_eq!(view.raw, template);
    }

    #[test]
    fn a_malformed_resource_still_yields_a_view() {
        let raw = json!({"uri": 5, "title": "t", "size": -1});
        let view = ResourceView::read(&raw);
        assert_eq!(view.uri, None);
        assert_eq!(view.title.as_deref(), Some("t"));
        assert_eq!(view.size, None);
        assert_eq!(
            view.problems,
            vec![
                OffSpec::WrongType {
                    field: "uri".into(),
                    expected: "string".into()
                },
                OffSpec::Missing {
                    field: "name".into()
                },
                OffSpec::WrongType {
                    field: "size".into(),
                    expected: "non-negative integer".into()
                },
            ]
        );
        assert_eq!(view.raw, raw);
        assert_eq!(
            TemplateView::read(&json!(null)).problems,
            vec![OffSpec::NotAnObject]
        );
    }
}
