//! A prompt from `prompts/list` and its arguments, with the JSON as sent.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::icon::{IconView, icons};
use super::read::{OffSpec, Reader};

/// One argument a prompt takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PromptArgumentView {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub required: bool,
}

/// A prompt as `prompts/list` gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PromptView {
    /// None when the server sent no name (such a prompt cannot be got).
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The arguments with a name; one without is left out here and said in `problems`.
    pub arguments: Vec<PromptArgumentView>,
    pub icons: Vec<IconView>,
    pub problems: Vec<OffSpec>,
    pub raw: Value,
}

impl PromptView {
    /// The names of the arguments a `prompts/get` must fill.
    pub fn required_arguments(&self) -> impl Iterator<Item = &str> {
        self.arguments
            .iter()
            .filter(|a| a.required)
            .map(|a| a.name.as_str())
    }

    /// Reads one `prompts/list` item.
    pub fn read(raw: &Value) -> PromptView {
        let mut r = Reader::new(raw);
        let name = r.required_text("name");
        let title = r.text("title");
        let description = r.text("description");
        let mut arguments = Vec::new();
        for (index, argument) in r.list("arguments").iter().enumerate() {
            let mut a = Reader::new(argument);
            let argument_name = a.required_text("name");
            let view = argument_name.map(|name| PromptArgumentView {
                name,
                title: a.text("title"),
                description: a.text("description"),
                required: a.flag("required") == Some(true),
            });
            r.problems.extend(
                a.problems
                    .into_iter()
                    .map(|p| p.under(&format!("arguments[{index}]"))),
            );
            arguments.extend(view);
        }
        let icons = icons(&mut r);
        PromptView {
            name,
            title,
            description,
            arguments,
            icons,
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
    fn a_spec_prompt_reads_with_its_arguments() {
        let raw = json!({"name": "code_review", "title": "Request Code Review",
            "description": "Asks the LLM to analyze code quality and suggest improvements",
            "arguments": [{"name": "code", "description": "The code to review", "required": true},
                {"name": "style"}]});
        let view = PromptView::read(&raw);
        assert_eq!(view.name.as_deref(), Some("code_review"));
        assert_eq!(view.title.as_deref(), Some("Request Code Review"));
        assert_eq!(view.arguments.len(), 2);
        assert!(view.arguments[0].required && !view.arguments[1].required);
        assert_eq!(
            view.arguments[0].description.as_deref(),
            Some("The code to review")
        );
        assert!(view.problems.is_empty());
        assert_eq!(view.raw, raw);
    }

    #[test]
    fn a_malformed_prompt_keeps_what_it_can_and_says_the_rest() {
        let raw = json!({"name": "p", "arguments": [{"description": "no name"}, 3, {"name": "ok", "required": "yes"}]});
        let view = PromptView::read(&raw);
        assert_eq!(view.arguments.len(), 1);
        assert_eq!(view.arguments[0].name, "ok");
        assert!(!view.arguments[0].required);
        assert_eq!(
            view.problems,
            vec![
                OffSpec::Missing {
                    field: "arguments[0].name".into()
                },
                OffSpec::WrongType {
                    field: "arguments[1]".into(),
                    expected: "object".into()
                },
                OffSpec::WrongType {
                    field: "arguments[2].required".into(),
                    expected: "boolean".into()
                },
            ]
        );
        assert_eq!(view.raw, raw);
        let nameless = PromptView::read(&json!({"arguments": "x"}));
        assert_eq!(nameless.name, None);
        assert_eq!(nameless.problems.len(), 2);
    }
}
