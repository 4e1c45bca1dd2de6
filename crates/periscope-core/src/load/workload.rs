//! What a load run sends: one or more requests, each with a weight, picked in a fixed,
//! interleaved order (smooth weighted round robin) so a mix of 3:1 is 3:1 in every stretch of
//! four requests, and two runs of the same workload send the same sequence.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::export::Recording;
use crate::saved_calls::{CallKind, SavedCall, request_arguments};
use crate::vocabulary::method::names;

/// One request of a workload, sent as is (with a fresh id) each time it is picked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadRequest {
    pub method: String,
    /// The tool or prompt name, or the resource URI: what the results are kept by, beside the
    /// method.
    pub name: Option<String>,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub params: Option<Value>,
    /// How often it is picked against the others (at least 1).
    pub weight: u32,
}

impl LoadRequest {
    /// `tools/call` of `name` with `arguments`.
    pub fn tool_call(name: &str, arguments: Map<String, Value>) -> LoadRequest {
        LoadRequest {
            method: names::TOOLS_CALL.into(),
            name: Some(name.into()),
            params: Some(serde_json::json!({"name": name, "arguments": arguments})),
            weight: 1,
        }
    }

    /// A saved call as the request it saved.
    pub fn saved(call: &SavedCall, weight: u32) -> LoadRequest {
        let arguments = request_arguments(call.kind, &call.arguments);
        let mut request = match call.kind {
            CallKind::Tool => LoadRequest::tool_call(&call.target, arguments),
            CallKind::Prompt => LoadRequest {
                method: names::PROMPTS_GET.into(),
                name: Some(call.target.clone()),
                params: Some(serde_json::json!({"name": call.target, "arguments": arguments})),
                weight: 1,
            },
            CallKind::Resource => LoadRequest {
                method: names::RESOURCES_READ.into(),
                name: Some(call.target.clone()),
                params: Some(serde_json::json!({"uri": call.target})),
                weight: 1,
            },
        };
        request.weight = weight.max(1);
        request
    }

    /// The tool this request calls, if it is a `tools/call`.
    pub fn tool(&self) -> Option<&str> {
        (self.method == names::TOOLS_CALL)
            .then_some(self.name.as_deref())
            .flatten()
    }

    /// The request in a line: `tools/call echo {"text":"hi"}`.
    pub fn describe(&self) -> String {
        let mut line = self.method.clone();
        if let Some(name) = &self.name {
            line.push(' ');
            line.push_str(name);
        }
        let arguments = self
            .params
            .as_ref()
            .and_then(|p| p.get("arguments"))
            .filter(|a| a.as_object().is_some_and(|o| !o.is_empty()));
        if let Some(arguments) = arguments {
            line.push(' ');
            line.push_str(&arguments.to_string());
        }
        line
    }
}

/// Methods a recording's client sent that a load run leaves out: the handshake and what only
/// makes sense once per session (its own sessions did them already).
const NOT_REPLAYED: &[&str] = &[
    names::INITIALIZE,
    names::SERVER_DISCOVER,
    names::LOGGING_SET_LEVEL,
];

/// The requests a recording's client sent (not its notifications, nor its answers to the
/// server, nor the handshake), each once, in the recorded order.
pub fn from_recording(recording: &Recording) -> Vec<LoadRequest> {
    let (planned, _) = crate::replay::plan(recording);
    planned
        .into_iter()
        .filter(|p| p.is_request() && !NOT_REPLAYED.contains(&p.method.as_str()))
        .map(|p| {
            let params = p.message.get("params").cloned();
            let name = params.as_ref().and_then(|p| {
                p.get("name")
                    .or_else(|| p.get("uri"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
            LoadRequest {
                method: p.method,
                name,
                params,
                weight: 1,
            }
        })
        .collect()
}

/// Picks the next request by smooth weighted round robin (nginx's): each pick adds every
/// weight to its counter and takes the largest, which then gives back the total.
#[derive(Debug, Clone)]
pub struct Picker {
    weights: Vec<i64>,
    current: Vec<i64>,
    total: i64,
}

impl Picker {
    pub fn new(requests: &[LoadRequest]) -> Picker {
        let weights: Vec<i64> = requests
            .iter()
            .map(|r| i64::from(r.weight.max(1)))
            .collect();
        Picker {
            total: weights.iter().sum(),
            current: vec![0; weights.len()],
            weights,
        }
    }

    /// The index of the next request; None for an empty workload.
    pub fn next_index(&mut self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, w) in self.weights.iter().enumerate() {
            self.current[i] += w;
            if best.is_none_or(|b| self.current[i] > self.current[b]) {
                best = Some(i);
            }
        }
        let best = best?;
        self.current[best] -= self.total;
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weighted(weights: &[u32]) -> Vec<LoadRequest> {
        weights
            .iter()
            .enumerate()
            .map(|(i, w)| LoadRequest {
                weight: *w,
                ..LoadRequest::tool_call(&format!("t{i}"), Map::new())
            })
            .collect()
    }

    #[test]
    fn a_mix_is_kept_in_every_stretch_and_interleaved() {
        let mut picker = Picker::new(&weighted(&[3, 1]));
        let picks: Vec<usize> = (0..8).filter_map(|_| picker.next_index()).collect();
        assert_eq!(picks, [0, 0, 1, 0, 0, 0, 1, 0]);
        let mut picker = Picker::new(&weighted(&[5, 1, 1]));
        let picks: Vec<usize> = (0..7).filter_map(|_| picker.next_index()).collect();
        assert_eq!(picks, [0, 0, 1, 0, 2, 0, 0]);
        assert_eq!(picks.iter().filter(|&&i| i == 0).count(), 5);
    }

    #[test]
    fn an_empty_workload_picks_nothing() {
        assert_eq!(Picker::new(&[]).next_index(), None);
    }

    #[test]
    fn a_request_says_itself_in_a_line() {
        let mut arguments = Map::new();
        arguments.insert("text".into(), "hi".into());
        assert_eq!(
            LoadRequest::tool_call("echo", arguments).describe(),
            r#"tools/call echo {"text":"hi"}"#
        );
        assert_eq!(
            LoadRequest::tool_call("now", Map::new()).describe(),
            "tools/call now"
        );
    }
}
