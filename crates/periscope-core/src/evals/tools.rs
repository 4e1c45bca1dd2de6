//! The tools as an eval's model sees them: the server's model-visible tools, listed once at
//! the start of a run (every repetition sees the same surface), worded by a variant when one
//! is tried, and called under the run's approval rules.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::suite::Variant;
use super::trace::ApprovalBasis;
use crate::apps::meta::model_tools;
use crate::model::agent::{Approver, ToolCall};
use crate::model::chat::ToolSpec;
use crate::model::conversation::Approval;
use crate::model::tool_host::{ToolHost, ToolOutcome, call_on, failed, model_name, spec_of};
use crate::session::Session;

/// One tool of the surface.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceTool {
    /// The server's name for it.
    pub own: String,
    pub read_only: bool,
    /// Per the spec, a tool that is not read-only is destructive unless it says otherwise.
    pub destructive: bool,
}

/// The tools a model is offered, under their model-facing names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    pub specs: Vec<ToolSpec>,
    pub tools: HashMap<String, SurfaceTool>,
    /// Tools a variant reworded (the server's names).
    pub overridden: Vec<String>,
}

impl Surface {
    /// The surface of a `tools/list` result's tools (those a model may see).
    pub fn of(tools: &[Value]) -> Surface {
        let mut surface = Surface::default();
        for tool in model_tools(tools) {
            let Some(own) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let name = model_name(None, own);
            let hint = |h: &str| {
                tool.pointer(&format!("/annotations/{h}"))
                    .and_then(Value::as_bool)
            };
            let read_only = hint("readOnlyHint") == Some(true);
            surface.specs.push(spec_of(name.clone(), &tool));
            surface.tools.insert(
                name,
                SurfaceTool {
                    own: own.to_string(),
                    read_only,
                    destructive: !read_only && hint("destructiveHint") != Some(false),
                },
            );
        }
        surface
    }

    /// The same surface worded as `variant` says. A variant naming a tool the server does not
    /// have changes nothing for it (the run says so: [`Surface::unknown_in`]).
    pub fn with_variant(&self, variant: &Variant) -> Surface {
        let mut out = self.clone();
        for spec in &mut out.specs {
            let Some(own) = self.tools.get(&spec.name).map(|t| t.own.clone()) else {
                continue;
            };
            let Some(change) = variant.tools.get(&own) else {
                continue;
            };
            if let Some(description) = &change.description {
                spec.description = Some(description.clone());
            }
            for (parameter, description) in &change.parameters {
                if let Some(property) = spec
                    .input_schema
                    .pointer_mut(&format!("/properties/{parameter}"))
                    .and_then(Value::as_object_mut)
                {
                    property.insert("description".into(), description.clone().into());
                }
            }
            out.overridden.push(own);
        }
        out
    }

    /// The tools a variant names that the surface does not have.
    pub fn unknown_in(&self, variant: &Variant) -> Vec<String> {
        let known: BTreeSet<&str> = self.tools.values().map(|t| t.own.as_str()).collect();
        variant
            .tools
            .keys()
            .filter(|name| !known.contains(name.as_str()))
            .cloned()
            .collect()
    }

    /// The server's name for a model-facing one.
    pub fn own_name(&self, model_name: &str) -> Option<&str> {
        self.tools.get(model_name).map(|t| t.own.as_str())
    }
}

/// Which calls a run makes without asking: the model's calls are never shown to a person
/// mid-run, so what is allowed is said before it starts, and everything else is refused.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalApprovals")
)]
pub struct Approvals {
    /// Run tools marked read-only.
    pub read_only: bool,
    /// Run these tools (the server's names), destructive ones included: the user's yes.
    pub allowed: BTreeSet<String>,
}

impl Approvals {
    /// Why a call of `tool` runs or not.
    pub fn basis(&self, tool: Option<&SurfaceTool>) -> ApprovalBasis {
        match tool {
            None => ApprovalBasis::UnknownTool,
            Some(t) if self.allowed.contains(&t.own) => ApprovalBasis::Allowed,
            Some(t) if self.read_only && t.read_only => ApprovalBasis::ReadOnly,
            Some(_) => ApprovalBasis::NotAllowed,
        }
    }
}

/// The approver of a run: the rules, applied to the surface.
pub struct RunApprover {
    pub approvals: Approvals,
    pub surface: Arc<Surface>,
}

#[async_trait]
impl Approver for RunApprover {
    async fn approve(&self, call: &ToolCall) -> Approval {
        match self.approvals.basis(self.surface.tools.get(&call.name)) {
            ApprovalBasis::ReadOnly | ApprovalBasis::Allowed => Approval::Once,
            ApprovalBasis::NotAllowed | ApprovalBasis::UnknownTool => Approval::Reject,
        }
    }
}

/// Which repetition made a tool call, for a host that keeps the run's calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallMaker<'a> {
    pub case: &'a str,
    pub model: &'a str,
    pub variant: &'a str,
    pub repetition: u32,
}

/// What a host does with each tool call of a run that reached the server (the app keeps it in
/// History, marked as the eval's). Returns the id it is kept under, which the trace keeps.
pub trait CallKeeper: Send + Sync {
    fn keep(&self, by: CallMaker<'_>, outcome: &ToolOutcome) -> Option<String>;
}

/// A run's [`CallKeeper`], if its host has one.
#[derive(Clone, Default)]
pub struct Keeper(pub Option<Arc<dyn CallKeeper>>);

impl std::fmt::Debug for Keeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Keeper(host)"
        } else {
            "Keeper(none)"
        })
    }
}

/// A run's tools, over its session.
pub struct EvalTools<'a> {
    pub session: &'a Session,
    pub server_id: String,
    pub surface: Arc<Surface>,
    pub keeper: Option<&'a dyn CallKeeper>,
    pub by: CallMaker<'a>,
}

#[async_trait]
impl ToolHost for EvalTools<'_> {
    async fn tools(&self) -> Result<Vec<ToolSpec>, String> {
        Ok(self.surface.specs.clone())
    }

    async fn call(&self, name: &str, input: Value) -> ToolOutcome {
        let Some(tool) = self.surface.own_name(name) else {
            return failed(format!("there is no tool named {name}"));
        };
        let mut outcome = call_on(self.session, &self.server_id, tool.to_string(), input).await;
        if let Some(keeper) = self.keeper
            && outcome.ran.is_some()
        {
            let id = keeper.keep(self.by, &outcome);
            if let Some(ran) = &mut outcome.ran {
                ran.history_id = id;
            }
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evals::suite::ToolOverride;
    use serde_json::json;

    fn tools() -> Vec<Value> {
        vec![
            json!({"name": "add", "description": "Adds.", "inputSchema": {"type": "object", "properties": {"a": {"type": "number", "description": "First."}}}, "annotations": {"readOnlyHint": true}}),
            json!({"name": "wipe", "inputSchema": {"type": "object"}}),
            json!({"name": "order", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false, "destructiveHint": false}}),
            json!({"name": "app_only", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}}),
        ]
    }

    #[test]
    fn the_surface_is_what_a_model_may_see_with_its_hints() {
        let s = Surface::of(&tools());
        let names: Vec<_> = s.specs.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["add", "wipe", "order"]);
        assert!(s.tools["add"].read_only && !s.tools["add"].destructive);
        assert!(
            s.tools["wipe"].destructive,
            "no hints: destructive by default"
        );
        assert!(!s.tools["order"].destructive && !s.tools["order"].read_only);
    }

    #[test]
    fn a_variant_rewords_only_what_it_names_and_says_so() {
        let s = Surface::of(&tools());
        let variant = Variant {
            name: "v2".into(),
            tools: [
                (
                    "add".to_string(),
                    ToolOverride {
                        description: Some("Returns the sum of a and b.".into()),
                        parameters: [("a".to_string(), "The first number.".to_string())].into(),
                    },
                ),
                ("nope".to_string(), ToolOverride::default()),
            ]
            .into(),
        };
        let v = s.with_variant(&variant);
        assert_eq!(
            v.specs[0].description.as_deref(),
            Some("Returns the sum of a and b.")
        );
        assert_eq!(
            v.specs[0].input_schema["properties"]["a"]["description"],
            "The first number."
        );
        assert_eq!(v.specs[1], s.specs[1]);
        assert_eq!(v.overridden, ["add"]);
        assert_eq!(s.unknown_in(&variant), ["nope"]);
    }

    /// Case, model, repetition and response frame of a kept call.
    type KeptCall = (String, String, u32, Option<u64>);

    /// Keeps what it is given, under ids of its own.
    #[derive(Default)]
    struct Kept(std::sync::Mutex<Vec<KeptCall>>);

    impl CallKeeper for Kept {
        fn keep(&self, by: CallMaker<'_>, outcome: &ToolOutcome) -> Option<String> {
            let seq = outcome.ran.as_ref().and_then(|r| r.timing.response_seq);
            let mut kept = self.0.lock().unwrap();
            kept.push((by.case.into(), by.model.into(), by.repetition, seq));
            Some(format!("kept-{}", kept.len()))
        }
    }

    #[tokio::test]
    async fn a_call_that_ran_goes_to_the_hosts_keeper_and_its_id_into_the_outcome() {
        let session = crate::session::test_support::sh_session(
            r#"read line; printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"5"}]}}'; cat >/dev/null"#,
        );
        let kept = Kept::default();
        let tools = EvalTools {
            session: &session,
            server_id: "demo".into(),
            surface: Arc::new(Surface::of(&tools())),
            keeper: Some(&kept),
            by: CallMaker {
                case: "add",
                model: "m",
                variant: "as-served",
                repetition: 2,
            },
        };
        let ran = tools.call("add", json!({"a": 2})).await;
        let ran = ran.ran.expect("the call reached the server");
        assert_eq!(ran.history_id.as_deref(), Some("kept-1"));
        let seq = ran.timing.response_seq.expect("answered by a frame");
        // A name the server does not have never reaches it, nor the keeper.
        let made_up = tools.call("nope", json!({})).await;
        assert!(made_up.ran.is_none() && made_up.is_error);
        assert_eq!(
            *kept.0.lock().unwrap(),
            [("add".to_string(), "m".to_string(), 2, Some(seq))]
        );
        session.close().await;
    }

    #[test]
    fn nothing_destructive_runs_without_its_name() {
        let s = Surface::of(&tools());
        let read_only = Approvals {
            read_only: true,
            allowed: BTreeSet::new(),
        };
        assert_eq!(read_only.basis(s.tools.get("add")), ApprovalBasis::ReadOnly);
        assert_eq!(
            read_only.basis(s.tools.get("wipe")),
            ApprovalBasis::NotAllowed
        );
        assert_eq!(
            read_only.basis(s.tools.get("order")),
            ApprovalBasis::NotAllowed
        );
        assert_eq!(read_only.basis(None), ApprovalBasis::UnknownTool);
        let named = Approvals {
            read_only: false,
            allowed: ["wipe".to_string()].into(),
        };
        assert_eq!(named.basis(s.tools.get("wipe")), ApprovalBasis::Allowed);
        assert_eq!(named.basis(s.tools.get("add")), ApprovalBasis::NotAllowed);
    }
}
