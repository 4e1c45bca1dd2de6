//! What a server says about itself in the handshake (`initialize`) or in `server/discover`:
//! its `serverInfo` (an `Implementation`) and its `capabilities`, read once here so no host
//! looks into that JSON again. The JSON as sent stays in [`crate::session::ServerIdentity`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::icon::{IconView, icons};
use super::read::{OffSpec, Reader};

/// `serverInfo`: the server's name, version and the rest of its `Implementation`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerInfoView {
    /// None when the server sent none (the spec requires it).
    pub name: Option<String>,
    pub title: Option<String>,
    /// None when the server sent none (the spec requires it).
    pub version: Option<String>,
    pub description: Option<String>,
    pub website_url: Option<String>,
    pub icons: Vec<IconView>,
    pub problems: Vec<OffSpec>,
}

impl ServerInfoView {
    /// Reads `serverInfo` as sent (`Null` when the server sent none: named as missing). Its
    /// problems are named from the handshake's result (`serverInfo.version`).
    pub fn read(raw: &Value) -> ServerInfoView {
        if raw.is_null() {
            return ServerInfoView {
                problems: vec![OffSpec::Missing {
                    field: "serverInfo".into(),
                }],
                ..ServerInfoView::default()
            };
        }
        let mut r = Reader::new(raw);
        let name = r.required_text("name");
        let version = r.required_text("version");
        let title = r.text("title");
        let description = r.text("description");
        let website_url = r.text("websiteUrl");
        let icons = icons(&mut r);
        ServerInfoView {
            name,
            title,
            version,
            description,
            website_url,
            icons,
            // Named from the result, as the capabilities' problems are.
            problems: r
                .problems
                .into_iter()
                .map(|p| p.under("serverInfo"))
                .collect(),
        }
    }

    /// `name version`, or what of it the server sent.
    pub fn label(&self) -> Option<String> {
        match (&self.name, &self.version) {
            (Some(name), Some(version)) => Some(format!("{name} {version}")),
            (Some(name), None) => Some(name.clone()),
            (None, _) => None,
        }
    }
}

/// One capability the server declared, with what it set under it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CapabilityView {
    /// Its key: `tools`, `resources`, `logging`, `experimental`, an extension's, …
    pub name: String,
    /// Its members set to `true` (`listChanged`, `subscribe`), as named in the JSON.
    pub flags: Vec<String>,
    /// Its other members, key and value as sent.
    pub settings: Vec<CapabilitySetting>,
}

/// A member of a capability that is not simply `true`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CapabilitySetting {
    pub key: String,
    pub value: Value,
}

/// `capabilities`: what the server offers, by name, and the few facts the hosts act on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CapabilitiesView {
    /// `capabilities` was no object, so what the server offers is not known: hosts offer
    /// every list and let the server answer.
    pub unknown: bool,
    /// Every capability declared, by name in order.
    pub declared: Vec<CapabilityView>,
    pub tools: bool,
    pub prompts: bool,
    /// `resources` is declared (its templates go with it).
    pub resources: bool,
    /// `resources.subscribe` is `true`: `resources/subscribe` may be sent.
    pub resources_subscribe: bool,
    /// `completions`: `completion/complete` may be sent.
    pub completions: bool,
    /// `logging`: `logging/setLevel` may be sent (legacy era).
    pub logging: bool,
    pub problems: Vec<OffSpec>,
}

impl CapabilitiesView {
    /// Reads `capabilities` as sent; one that is no object is a problem, and offers nothing.
    pub fn read(raw: &Value) -> CapabilitiesView {
        let mut view = CapabilitiesView::default();
        let Some(members) = raw.as_object() else {
            view.problems.push(OffSpec::WrongType {
                field: "capabilities".into(),
                expected: "object".into(),
            });
            view.unknown = true;
            return view;
        };
        let mut names: Vec<&String> = members.keys().collect();
        names.sort();
        for name in names {
            let value = &members[name];
            let (flags, settings) = match value.as_object() {
                Some(inner) => {
                    let mut flags = Vec::new();
                    let mut settings = Vec::new();
                    for (key, value) in inner {
                        if value == &Value::Bool(true) {
                            flags.push(key.clone());
                        } else {
                            settings.push(CapabilitySetting {
                                key: key.clone(),
                                value: value.clone(),
                            });
                        }
                    }
                    (flags, settings)
                }
                None => {
                    view.problems.push(OffSpec::WrongType {
                        field: format!("capabilities.{name}"),
                        expected: "object".into(),
                    });
                    (Vec::new(), Vec::new())
                }
            };
            match name.as_str() {
                "tools" => view.tools = true,
                "prompts" => view.prompts = true,
                "resources" => {
                    view.resources = true;
                    view.resources_subscribe = flags.iter().any(|f| f == "subscribe");
                }
                "completions" => view.completions = true,
                "logging" => view.logging = true,
                _ => {}
            }
            view.declared.push(CapabilityView {
                name: name.clone(),
                flags,
                settings,
            });
        }
        view
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_spec_server_info_reads_whole() {
        let view = ServerInfoView::read(&json!({
            "name": "demo", "title": "Demo", "version": "1.2.0",
            "description": "A demo", "websiteUrl": "https://example.com",
            "icons": [{"src": "data:image/png;base64,AA"}]
        }));
        assert_eq!(view.label().as_deref(), Some("demo 1.2.0"));
        assert_eq!(view.title.as_deref(), Some("Demo"));
        assert_eq!(view.website_url.as_deref(), Some("https://example.com"));
        assert_eq!(view.icons.len(), 1);
        assert!(view.problems.is_empty());
    }

    #[test]
    fn what_is_off_in_server_info_is_named() {
        assert_eq!(
            ServerInfoView::read(&Value::Null).problems,
            [OffSpec::Missing {
                field: "serverInfo".into()
            }]
        );
        let view = ServerInfoView::read(&json!({"name": 7}));
        assert_eq!(view.name, None);
        assert_eq!(view.label(), None);
        assert_eq!(
            view.problems,
            [
                OffSpec::WrongType {
                    field: "serverInfo.name".into(),
                    expected: "string".into()
                },
                OffSpec::Missing {
                    field: "serverInfo.version".into()
                },
            ]
        );
    }

    #[test]
    fn capabilities_read_into_names_flags_and_facts() {
        let view = CapabilitiesView::read(&json!({
            "tools": {"listChanged": true},
            "resources": {"subscribe": true, "listChanged": false},
            "logging": {},
            "experimental": {"x": {"y": 1}}
        }));
        let names: Vec<&str> = view.declared.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["experimental", "logging", "resources", "tools"]);
        assert_eq!(view.declared[2].flags, ["subscribe"]);
        assert_eq!(view.declared[2].settings[0].key, "listChanged");
        assert!(view.tools && view.resources && view.resources_subscribe && view.logging);
        assert!(!view.prompts && !view.completions);
        assert!(view.problems.is_empty());
    }

    #[test]
    fn capabilities_that_are_no_object_offer_nothing_and_say_so() {
        let view = CapabilitiesView::read(&json!(["tools"]));
        assert!(view.declared.is_empty() && !view.tools && view.unknown);
        assert_eq!(view.problems.len(), 1);
        let view = CapabilitiesView::read(&json!({"resources": true}));
        assert!(view.resources && !view.resources_subscribe && !view.unknown);
        assert_eq!(
            view.problems,
            [OffSpec::WrongType {
                field: "capabilities.resources".into(),
                expected: "object".into()
            }]
        );
    }
}
