//! What a server's surface costs in a model's context: the tokens of each tool's definition
//! (name, description, input schema, as JSON) and of the server's instructions, which a host
//! loads on every request. Counted with OpenAI's tokenizers (o200k_base: GPT-4o and later;
//! cl100k_base: GPT-4 and GPT-3.5) through `tiktoken-rs`; Anthropic's tokenizer is not public,
//! so its figure is an estimate and says so. A budget (default [`DEFAULT_BUDGET`]) marks a
//! surface that costs more. See docs/audit.md, "Tokens".

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Surface;
use super::finding::SubjectKind;

/// The budget a surface is measured against unless told otherwise: tokens of o200k.
pub const DEFAULT_BUDGET: u32 = 10_000;

/// The margin the Anthropic estimate adds to the o200k count, in percent: Claude's tokenizer is
/// not public and counts more tokens than OpenAI's on the same text; the exact figure comes
/// from Anthropic's count_tokens endpoint.
pub const ANTHROPIC_MARGIN_PERCENT: u32 = 20;

/// Tokens of one text, by tokenizer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TokenCount {
    pub o200k: u32,
    pub cl100k: u32,
    /// An estimate, not a count ([`ANTHROPIC_MARGIN_PERCENT`]).
    pub anthropic_estimate: u32,
}

impl TokenCount {
    fn of(text: &str) -> TokenCount {
        let o200k = tiktoken_rs::o200k_base_singleton()
            .encode_ordinary(text)
            .len() as u32;
        let cl100k = tiktoken_rs::cl100k_base_singleton()
            .encode_ordinary(text)
            .len() as u32;
        TokenCount {
            o200k,
            cl100k,
            anthropic_estimate: o200k + (o200k * ANTHROPIC_MARGIN_PERCENT).div_ceil(100),
        }
    }

    fn plus(self, other: TokenCount) -> TokenCount {
        TokenCount {
            o200k: self.o200k + other.o200k,
            cl100k: self.cl100k + other.cl100k,
            anthropic_estimate: self.anthropic_estimate + other.anthropic_estimate,
        }
    }
}

/// One item's cost: a tool, or the server's instructions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ItemTokens {
    pub subject: SubjectKind,
    /// The tool's name; empty for the instructions.
    pub name: String,
    pub tokens: TokenCount,
}

/// A surface's cost, the dearest item first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TokenReport {
    pub items: Vec<ItemTokens>,
    pub total: TokenCount,
    /// o200k tokens the surface should stay under.
    pub budget: u32,
    pub over_budget: bool,
}

impl TokenReport {
    /// The same figures against another budget.
    pub fn with_budget(mut self, budget: u32) -> TokenReport {
        self.budget = budget;
        self.over_budget = self.total.o200k > budget;
        self
    }
}

/// A tool's definition as a host sends it, as the text that is counted.
fn definition(name: &str, description: Option<&str>, schema: Option<&Value>) -> String {
    let mut tool = Map::new();
    tool.insert("name".into(), name.into());
    if let Some(d) = description {
        tool.insert("description".into(), d.into());
    }
    tool.insert(
        "input_schema".into(),
        schema.cloned().unwrap_or_else(|| Value::Object(Map::new())),
    );
    Value::Object(tool).to_string()
}

/// The cost of `surface`'s tools and instructions against [`DEFAULT_BUDGET`].
pub fn count(surface: &Surface) -> TokenReport {
    let mut items: Vec<ItemTokens> = surface
        .tools
        .iter()
        .filter_map(|tool| {
            let name = tool.name.as_deref()?;
            let text = definition(
                name,
                tool.description.as_deref(),
                tool.input_schema.as_ref(),
            );
            Some(ItemTokens {
                subject: SubjectKind::Tool,
                name: name.to_string(),
                tokens: TokenCount::of(&text),
            })
        })
        .collect();
    if let Some(instructions) = surface.instructions.as_deref().filter(|i| !i.is_empty()) {
        items.push(ItemTokens {
            subject: SubjectKind::Instructions,
            name: String::new(),
            tokens: TokenCount::of(instructions),
        });
    }
    items.sort_by_key(|item| std::cmp::Reverse(item.tokens.o200k));
    let total = items
        .iter()
        .fold(TokenCount::default(), |sum, item| sum.plus(item.tokens));
    TokenReport {
        items,
        total,
        budget: DEFAULT_BUDGET,
        over_budget: false,
    }
    .with_budget(DEFAULT_BUDGET)
}

/// What a host that loads all of `reports`' servers pays.
pub fn sum(reports: &[TokenReport]) -> TokenCount {
    reports
        .iter()
        .fold(TokenCount::default(), |sum, r| sum.plus(r.total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskFlavour;
    use crate::views::tool::ToolView;
    use serde_json::json;

    fn surface(tools: &[Value], instructions: Option<&str>) -> Surface {
        Surface {
            server: "s".into(),
            instructions: instructions.map(str::to_string),
            tools: tools
                .iter()
                .map(|raw| ToolView::read(raw, &json!({}), TaskFlavour::Legacy))
                .collect(),
            ..Surface::default()
        }
    }

    #[test]
    fn each_tool_and_the_instructions_are_counted_the_dearest_first() {
        let report = count(&surface(
            &[
                json!({"name": "a", "description": "Adds.", "inputSchema": {"type": "object"}}),
                json!({"name": "long", "description": "word ".repeat(200), "inputSchema": {"type": "object"}}),
            ],
            Some("Use these tools well."),
        ));
        assert_eq!(report.items.len(), 3);
        assert_eq!(report.items[0].name, "long");
        assert!(report.items[0].tokens.o200k > 200, "{report:?}");
        let instructions = report
            .items
            .iter()
            .find(|i| i.subject == SubjectKind::Instructions)
            .unwrap();
        // "Use these tools well." is five tokens in both of OpenAI's tokenizers.
        assert_eq!(instructions.tokens.o200k, 5);
        assert_eq!(instructions.tokens.cl100k, 5);
        assert_eq!(instructions.tokens.anthropic_estimate, 6);
        let sum: u32 = report.items.iter().map(|i| i.tokens.o200k).sum();
        assert_eq!(report.total.o200k, sum);
        assert!(!report.over_budget);
    }

    #[test]
    fn a_budget_is_passed_only_above_it_and_servers_add_up() {
        let report = count(&surface(
            &[json!({"name": "t", "description": "word ".repeat(50)})],
            None,
        ));
        let total = report.total.o200k;
        assert!(!report.clone().with_budget(total).over_budget);
        assert!(report.clone().with_budget(total - 1).over_budget);
        assert_eq!(sum(&[report.clone(), report]).o200k, 2 * total);
    }
}
