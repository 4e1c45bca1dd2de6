//! What a server showed of itself in a recorded session — its identity (server info, protocol
//! version, capabilities, instructions) and its tools, resources, resource templates and
//! prompts — read back from the frames: each answered `initialize` / `server/discover` and
//! each (paginated) listing, at the first or the last moment the record has one.

use std::collections::HashMap;

use serde_json::Value;

use crate::export::Recording;
use crate::vocabulary::method::names;
use crate::wire::{Direction, RequestId, Verdict};

/// Which listing a surface takes when the record has several (a server that changed its tools
/// mid-session): the first complete one or the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    First,
    Last,
}

/// The lists a surface holds, and the member that identifies an item of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum SurfaceList {
    Tools,
    Resources,
    ResourceTemplates,
    Prompts,
}

impl SurfaceList {
    pub const ALL: [SurfaceList; 4] = [
        SurfaceList::Tools,
        SurfaceList::Resources,
        SurfaceList::ResourceTemplates,
        SurfaceList::Prompts,
    ];

    pub fn method(self) -> &'static str {
        match self {
            SurfaceList::Tools => names::TOOLS_LIST,
            SurfaceList::Resources => names::RESOURCES_LIST,
            SurfaceList::ResourceTemplates => names::RESOURCE_TEMPLATES_LIST,
            SurfaceList::Prompts => names::PROMPTS_LIST,
        }
    }

    /// The result member holding the page's items.
    fn member(self) -> &'static str {
        match self {
            SurfaceList::Tools => "tools",
            SurfaceList::Resources => "resources",
            SurfaceList::ResourceTemplates => "resourceTemplates",
            SurfaceList::Prompts => "prompts",
        }
    }

    /// The item member that names it.
    pub fn key(self) -> &'static str {
        match self {
            SurfaceList::Tools | SurfaceList::Prompts => "name",
            SurfaceList::Resources => "uri",
            SurfaceList::ResourceTemplates => "uriTemplate",
        }
    }

    fn of_method(method: &str) -> Option<SurfaceList> {
        SurfaceList::ALL.into_iter().find(|k| k.method() == method)
    }
}

/// A server's surface in one session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    /// The answer to `initialize` or `server/discover` (its `result`), when the record has one.
    pub identity: Option<Value>,
    /// Each list the session fetched completely (every page), items in the server's order.
    pub lists: HashMap<SurfaceList, Vec<Value>>,
}

impl Surface {
    pub fn of(recording: &Recording, moment: Moment) -> Surface {
        // Requests Periscope sent, by id: their method and whether they continue a listing.
        let mut sent: HashMap<RequestId, (String, bool)> = HashMap::new();
        let mut surface = Surface::default();
        // Listings in progress (pages so far) and done, per kind.
        let mut open: HashMap<SurfaceList, Vec<Value>> = HashMap::new();
        for frame in &recording.frames {
            // Only the handshake, the lists and their answers are parsed: a recording of a
            // million calls and notifications is read in a blink (the verdict says which).
            let wanted = match (&frame.direction, &frame.verdict) {
                (Direction::Out, Verdict::Request { method, .. }) => {
                    method == names::INITIALIZE
                        || method == names::SERVER_DISCOVER
                        || SurfaceList::of_method(method).is_some()
                }
                (Direction::In, Verdict::Response { id: Some(id), .. }) => sent.contains_key(id),
                _ => false,
            };
            if !wanted {
                continue;
            }
            let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) else {
                continue;
            };
            match (&frame.direction, &frame.verdict) {
                (Direction::Out, Verdict::Request { id, method }) => {
                    let continues = message
                        .pointer("/params/cursor")
                        .is_some_and(|c| !c.is_null());
                    sent.insert(id.clone(), (method.clone(), continues));
                }
                (
                    Direction::In,
                    Verdict::Response {
                        id: Some(id),
                        is_error: false,
                    },
                ) => {
                    let Some((method, continues)) = sent.remove(id) else {
                        continue;
                    };
                    let Some(result) = message.get("result") else {
                        continue;
                    };
                    if method == names::INITIALIZE || method == names::SERVER_DISCOVER {
                        if moment == Moment::Last || surface.identity.is_none() {
                            surface.identity = Some(result.clone());
                        }
                        continue;
                    }
                    let Some(kind) = SurfaceList::of_method(&method) else {
                        continue;
                    };
                    let items = result
                        .get(kind.member())
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    let pages = open.entry(kind).or_default();
                    if !continues {
                        pages.clear();
                    }
                    pages.extend(items);
                    let more = result.get("nextCursor").is_some_and(|c| !c.is_null());
                    if !more {
                        let done = std::mem::take(pages);
                        if moment == Moment::Last || !surface.lists.contains_key(&kind) {
                            surface.lists.insert(kind, done);
                        }
                    }
                }
                _ => {}
            }
        }
        surface
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::frame;

    fn recording(texts: &[(Direction, &str)]) -> Recording {
        Recording {
            frames: texts
                .iter()
                .enumerate()
                .map(|(i, (d, t))| frame(i as u64 + 1, *d, t, None))
                .collect(),
            ..Recording::default()
        }
    }

    #[test]
    fn pages_join_and_the_moment_picks_the_listing() {
        use Direction::{In, Out};
        let rec = recording(&[
            (
                Out,
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            ),
            (
                In,
                r#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"s","version":"1"}}}"#,
            ),
            (Out, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#),
            (
                In,
                r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a"}],"nextCursor":"p2"}}"#,
            ),
            (
                Out,
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"p2"}}"#,
            ),
            (
                In,
                r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"b"}]}}"#,
            ),
            (Out, r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#),
            (
                In,
                r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"c"}]}}"#,
            ),
            // An error answer is not a listing.
            (Out, r#"{"jsonrpc":"2.0","id":5,"method":"prompts/list"}"#),
            (
                In,
                r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}"#,
            ),
        ]);
        let first = Surface::of(&rec, Moment::First);
        assert_eq!(
            first.lists[&SurfaceList::Tools],
            [
                serde_json::json!({"name": "a"}),
                serde_json::json!({"name": "b"})
            ]
        );
        assert_eq!(first.identity.unwrap()["serverInfo"]["name"], "s");
        assert!(!first.lists.contains_key(&SurfaceList::Prompts));
        let last = Surface::of(&rec, Moment::Last);
        assert_eq!(
            last.lists[&SurfaceList::Tools],
            [serde_json::json!({"name": "c"})]
        );
    }
}
