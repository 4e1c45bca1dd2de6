//! The modern era's `subscriptions/listen` (2026-07-28): which notifications a client opts in
//! to (`SubscriptionFilter`), and where a session's listen stream is in its life, as hosts see
//! it. The stream itself is run by the session (`session/listen.rs`).

use std::collections::BTreeSet;

/// The 2026-07-28 method that opens a listen stream.
pub const LISTEN_METHOD: &str = names::SUBSCRIPTIONS_LISTEN;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::vocabulary::method::names;
use crate::wire::RequestId;

/// The notifications a listen stream opts in to: the spec's `SubscriptionFilter`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ListenFilter {
    pub tools_list_changed: bool,
    pub prompts_list_changed: bool,
    pub resources_list_changed: bool,
    /// `notifications/resources/updated` for these URIs (what `resources/subscribe` was).
    pub resource_subscriptions: BTreeSet<String>,
}

impl ListenFilter {
    /// The three list changes, no resource: what a host opens after a modern handshake so its
    /// lists refresh as they do in the legacy era.
    pub fn list_changes() -> ListenFilter {
        ListenFilter {
            tools_list_changed: true,
            prompts_list_changed: true,
            resources_list_changed: true,
            resource_subscriptions: BTreeSet::new(),
        }
    }

    /// Opts in to nothing: no stream is needed.
    pub fn is_empty(&self) -> bool {
        !self.tools_list_changed
            && !self.prompts_list_changed
            && !self.resources_list_changed
            && self.resource_subscriptions.is_empty()
    }

    /// The filter as the wire spells it (`params.notifications`); fields not opted in to are
    /// left out, as the spec's examples do.
    pub fn to_wire(&self) -> Value {
        let mut map = Map::new();
        for (key, on) in [
            ("toolsListChanged", self.tools_list_changed),
            ("promptsListChanged", self.prompts_list_changed),
            ("resourcesListChanged", self.resources_list_changed),
        ] {
            if on {
                map.insert(key.into(), Value::Bool(true));
            }
        }
        if !self.resource_subscriptions.is_empty() {
            map.insert(
                "resourceSubscriptions".into(),
                self.resource_subscriptions.iter().cloned().collect(),
            );
        }
        Value::Object(map)
    }

    /// Reads a filter as the wire spells it (the acknowledgement's `notifications`); anything
    /// ill-shaped counts as not opted in to.
    pub fn from_wire(value: &Value) -> ListenFilter {
        let flag = |k: &str| value.get(k).and_then(Value::as_bool) == Some(true);
        ListenFilter {
            tools_list_changed: flag("toolsListChanged"),
            prompts_list_changed: flag("promptsListChanged"),
            resources_list_changed: flag("resourcesListChanged"),
            resource_subscriptions: value
                .get("resourceSubscriptions")
                .and_then(Value::as_array)
                .map(|uris| {
                    uris.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// In words, for a status line: "tools, prompts, resources list changes; 1 resource".
    pub fn describe(&self) -> String {
        let lists: Vec<&str> = [
            ("tools", self.tools_list_changed),
            ("prompts", self.prompts_list_changed),
            ("resources", self.resources_list_changed),
        ]
        .into_iter()
        .filter_map(|(name, on)| on.then_some(name))
        .collect();
        let mut parts = Vec::new();
        if !lists.is_empty() {
            parts.push(format!("{} list changes", lists.join(", ")));
        }
        match self.resource_subscriptions.len() {
            0 => {}
            1 => parts.push("1 resource".into()),
            n => parts.push(format!("{n} resources")),
        }
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join("; ")
        }
    }
}

/// Where a session's listen stream is: what hosts hear (`Event::Listen`) and show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ListenState {
    /// No stream: nothing opted in to, the legacy era, or stopped.
    Off,
    /// `subscriptions/listen` is sent (attempt 1 is the first); no acknowledgement yet.
    Opening {
        id: RequestId,
        requested: ListenFilter,
        attempt: u32,
    },
    /// The server acknowledged the stream with the kinds it agreed to honour (a subset of the
    /// requested ones; what it left out, it does not support).
    Open {
        id: RequestId,
        requested: ListenFilter,
        acknowledged: ListenFilter,
    },
    /// The stream ended without the client asking (the server ended it, the connection broke,
    /// or the server refused it); it is opened again after `retry_in_ms`.
    Reopening {
        reason: String,
        retry_in_ms: u64,
        attempt: u32,
    },
    /// The stream broke `attempts` times in a row without being acknowledged: Periscope stopped
    /// trying. Listening again (a new filter) starts over.
    GaveUp { reason: String, attempts: u32 },
}

impl ListenState {
    /// In words, for the Overview line and the CLI.
    pub fn describe(&self) -> String {
        match self {
            ListenState::Off => "not listening".into(),
            ListenState::Opening {
                requested, attempt, ..
            } => {
                let again = if *attempt > 1 {
                    format!(" (attempt {attempt})")
                } else {
                    String::new()
                };
                format!(
                    "opening a listen stream for {}{again}",
                    requested.describe()
                )
            }
            ListenState::Open {
                requested,
                acknowledged,
                ..
            } => {
                let mut text = format!("listening for {}", acknowledged.describe());
                if acknowledged != requested {
                    text.push_str(&format!(
                        " (asked for {}; the server honours only the rest)",
                        requested.describe()
                    ));
                }
                text
            }
            ListenState::Reopening {
                reason,
                retry_in_ms,
                ..
            } => format!(
                "the listen stream broke ({reason}); reopening in {:.1} s",
                *retry_in_ms as f64 / 1000.0
            ),
            ListenState::GaveUp { reason, attempts } => format!(
                "the listen stream broke {attempts} times in a row; Periscope stopped reopening it (last: {reason})"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_filter_goes_out_as_the_spec_spells_it_and_comes_back_the_same() {
        let mut filter = ListenFilter::list_changes();
        filter.prompts_list_changed = false;
        filter.resource_subscriptions.insert("demo://a".into());
        let wire = filter.to_wire();
        assert_eq!(
            wire,
            json!({"toolsListChanged": true, "resourcesListChanged": true, "resourceSubscriptions": ["demo://a"]})
        );
        assert_eq!(ListenFilter::from_wire(&wire), filter);
        assert_eq!(ListenFilter::default().to_wire(), json!({}));
        assert!(ListenFilter::from_wire(&json!({"toolsListChanged": "yes"})).is_empty());
    }

    #[test]
    fn a_filter_and_a_state_say_what_they_are_in_words() {
        let mut filter = ListenFilter::list_changes();
        filter.resource_subscriptions.insert("demo://a".into());
        assert_eq!(
            filter.describe(),
            "tools, prompts, resources list changes; 1 resource"
        );
        let state = ListenState::Open {
            id: RequestId::Number(3),
            requested: filter.clone(),
            acknowledged: ListenFilter::list_changes(),
        };
        assert_eq!(
            state.describe(),
            "listening for tools, prompts, resources list changes (asked for tools, prompts, resources list changes; 1 resource; the server honours only the rest)"
        );
    }
}
