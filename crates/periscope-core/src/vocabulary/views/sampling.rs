//! A `sampling/createMessage` request: its messages as content blocks, the model preferences,
//! the limits and the tools it offers, with the JSON as sent.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::content::ContentBlock;
use super::read::{OffSpec, Reader};

/// One message of the conversation to sample from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SamplingMessageView {
    /// `user` or `assistant` as sent; None when there is none.
    pub role: Option<String>,
    /// `content`: one block or (2025-11-25) a list of them.
    pub content: Vec<ContentBlock>,
}

/// `modelPreferences`: the model names hinted, in order, and the priorities given (0 to 1).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ModelPreferencesView {
    pub hints: Vec<String>,
    pub cost_priority: Option<f64>,
    pub speed_priority: Option<f64>,
    pub intelligence_priority: Option<f64>,
}

/// A tool the server lets the model use (2025-11-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SamplingToolView {
    pub name: String,
    pub description: Option<String>,
    pub input_schema: Option<Value>,
}

/// A `sampling/createMessage` request's params, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SamplingView {
    pub messages: Vec<SamplingMessageView>,
    pub system_prompt: Option<String>,
    pub model_preferences: ModelPreferencesView,
    /// `none`, `thisServer` or `allServers`, as sent.
    pub include_context: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u64>,
    pub stop_sequences: Vec<String>,
    /// The tools with a name (one without is said in `problems`).
    pub tools: Vec<SamplingToolView>,
    /// `toolChoice.mode` (`auto`, `required`, `none`), when given.
    pub tool_choice: Option<String>,
    pub metadata: Option<Value>,
    pub problems: Vec<OffSpec>,
    pub raw: Value,
}

fn real(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64).filter(|n| n.is_finite())
}

impl SamplingView {
    /// Reads `sampling/createMessage` params.
    pub fn read(raw: &Value) -> SamplingView {
        let mut r = Reader::new(raw);
        if r.object.is_some() && r.get("messages").is_none() {
            r.problems.push(OffSpec::Missing {
                field: "messages".into(),
            });
        }
        let mut messages = Vec::new();
        for (i, m) in r.list("messages").iter().enumerate() {
            let mut mr = Reader::new(m);
            let role = mr.required_text("role");
            if mr.object.is_some() && mr.get("content").is_none() {
                mr.problems.push(OffSpec::Missing {
                    field: "content".into(),
                });
            }
            let content = match (m.is_object(), m.get("content")) {
                (false, _) => vec![ContentBlock::read(m)],
                (true, Some(c)) => ContentBlock::read_all(c),
                (true, None) => Vec::new(),
            };
            r.problems.extend(
                mr.problems
                    .into_iter()
                    .map(|p| p.under(&format!("messages[{i}]"))),
            );
            messages.push(SamplingMessageView { role, content });
        }
        let prefs = r.object("modelPreferences");
        let model_preferences = prefs
            .map(|p| ModelPreferencesView {
                hints: p
                    .get("hints")
                    .and_then(Value::as_array)
                    .map(|h| {
                        h.iter()
                            .filter_map(|h| h.get("name")?.as_str())
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                cost_priority: real(p.get("costPriority")),
                speed_priority: real(p.get("speedPriority")),
                intelligence_priority: real(p.get("intelligencePriority")),
            })
            .unwrap_or_default();
        let max_tokens = r.count("maxTokens");
        if r.object.is_some() && r.get("maxTokens").is_none() {
            r.problems.push(OffSpec::Missing {
                field: "maxTokens".into(),
            });
        }
        let mut tools = Vec::new();
        for (i, t) in r.list("tools").iter().enumerate() {
            match t.get("name").and_then(Value::as_str) {
                Some(name) => tools.push(SamplingToolView {
                    name: name.to_string(),
                    description: t
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    input_schema: t.get("inputSchema").cloned(),
                }),
                None => r.problems.push(OffSpec::Missing {
                    field: format!("tools[{i}].name"),
                }),
            }
        }
        let stop_sequences = r
            .list("stopSequences")
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        SamplingView {
            messages,
            system_prompt: r.text("systemPrompt"),
            model_preferences,
            include_context: r.text("includeContext"),
            temperature: real(r.get("temperature")),
            max_tokens,
            stop_sequences,
            tools,
            tool_choice: r
                .object("toolChoice")
                .and_then(|c| c.get("mode"))
                .and_then(Value::as_str)
                .map(str::to_string),
            metadata: r.get("metadata").cloned(),
            problems: r.problems,
            raw: raw.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::views::content::BlockKind;
    use serde_json::json;

    #[test]
    fn a_spec_request_with_tools_reads_whole() {
        // The 2026-07-28 schema's `CreateMessageRequestParams` example with tools.
        let raw = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "What's the weather like in Paris and London?"}}],
            "tools": [{"name": "get_weather", "description": "Get current weather for a city",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
            "toolChoice": {"mode": "auto"}, "maxTokens": 1000,
            "modelPreferences": {"hints": [{"name": "claude-3-sonnet"}], "intelligencePriority": 0.8, "speedPriority": 0.5},
            "systemPrompt": "You are a helpful assistant.", "stopSequences": ["\n\n"]});
        let view = SamplingView::read(&raw);
        assert_eq!(view.messages[0].role.as_deref(), Some("user"));
        assert!(matches!(
            view.messages[0].content[0].kind,
            BlockKind::Text { .. }
        ));
        assert_eq!(view.tools[0].name, "get_weather");
        assert_eq!(view.tool_choice.as_deref(), Some("auto"));
        assert_eq!(view.max_tokens, Some(1000));
        assert_eq!(view.model_preferences.hints, vec!["claude-3-sonnet"]);
        assert_eq!(view.model_preferences.intelligence_priority, Some(0.8));
        assert_eq!(view.stop_sequences, vec!["\n\n"]);
        assert!(view.problems.is_empty(), "{:?}", view.problems);
        assert_eq!(view.raw, raw);
    }

    #[test]
    fn a_malformed_request_still_yields_a_view_and_its_problems() {
        let raw = json!({"messages": [{"content": [{"type": "text", "text": "a"}, 3]}, "m"], "tools": [{}]});
        let view = SamplingView::read(&raw);
        assert_eq!(view.messages.len(), 2);
        assert_eq!(view.messages[0].content.len(), 2);
        assert_eq!(view.messages[0].role, None);
        assert_eq!(
            view.problems,
            vec![
                OffSpec::Missing {
                    field: "messages[0].role".into()
                },
                OffSpec::WrongType {
                    field: "messages[1]".into(),
                    expected: "object".into()
                },
                OffSpec::Missing {
                    field: "maxTokens".into()
                },
                OffSpec::Missing {
                    field: "tools[0].name".into()
                },
            ]
        );
        assert_eq!(
            SamplingView::read(&json!([])).problems,
            vec![OffSpec::NotAnObject]
        );
    }
}
