//! Prompts: each one got with its required arguments filled, a missing required argument and
//! an unknown prompt refused.

use serde_json::{Map, Value, json};

use super::EraCtx;
use super::report::{Outcome, SkipReason};
use super::rule::Rule;
use super::surface::ListKind;
use crate::vocabulary::method::names;
use crate::wire::error_code;

/// Prompts got at most.
const MAX_GETS: usize = 20;

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let Some(listing) = ctx.listing(ListKind::Prompts) else {
        let skip = || {
            Outcome::skip(
                SkipReason::NotDeclared {
                    capability: "prompts".into(),
                },
                "the server does not declare prompts",
            )
        };
        return [Rule::PromptGet, Rule::MissingArgument, Rule::UnknownPrompt]
            .into_iter()
            .map(|r| (r, skip()))
            .collect();
    };
    let prompts: Vec<Value> = listing.items.iter().take(MAX_GETS).cloned().collect();
    let mut frames = Vec::new();
    let mut wrong = Vec::new();
    for prompt in &prompts {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        let arguments = filled(prompt, None);
        let asked = ctx
            .probe
            .ask(
                names::PROMPTS_GET,
                Some(json!({"name": name, "arguments": arguments})),
            )
            .await;
        frames.extend(asked.frames());
        let Some(result) = asked.result() else {
            wrong.push(format!("{name}: {}", asked.describe()));
            continue;
        };
        if let Some(violations) =
            crate::protocol_check::check_definition(ctx.revision(), "GetPromptResult", result)
            && let Some(first) = violations.first()
        {
            wrong.push(format!("{name}: {} at {}", first.message, first.path));
        }
    }
    let get = if prompts.is_empty() {
        Outcome::skip(SkipReason::NothingToAsk, "no prompt is listed")
    } else if wrong.is_empty() {
        Outcome::pass(frames, format!("{} prompts got", prompts.len()))
    } else {
        Outcome::broken(frames, wrong.join("; "))
    };
    vec![
        (Rule::PromptGet, get),
        (Rule::MissingArgument, missing_argument(ctx, &prompts).await),
        (Rule::UnknownPrompt, unknown_prompt(ctx).await),
    ]
}

fn required_arguments(prompt: &Value) -> Vec<String> {
    prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|a| a.get("required") == Some(&Value::Bool(true)))
        .filter_map(|a| a.get("name").and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// The prompt's required arguments, each "periscope", but `leave_out`.
fn filled(prompt: &Value, leave_out: Option<&str>) -> Value {
    let mut arguments = Map::new();
    for name in required_arguments(prompt) {
        if Some(name.as_str()) != leave_out {
            arguments.insert(name, json!("periscope"));
        }
    }
    Value::Object(arguments)
}

async fn missing_argument(ctx: &EraCtx<'_>, prompts: &[Value]) -> Outcome {
    let Some((prompt, argument)) = prompts.iter().find_map(|p| {
        let first = required_arguments(p).into_iter().next()?;
        Some((p, first))
    }) else {
        return Outcome::skip(
            SkipReason::NothingToAsk,
            "no prompt has a required argument",
        );
    };
    let name = prompt
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let asked = ctx
        .probe
        .ask(
            names::PROMPTS_GET,
            Some(json!({"name": name, "arguments": filled(prompt, Some(&argument))})),
        )
        .await;
    if asked.error_code() == Some(error_code::INVALID_PARAMS) {
        Outcome::pass(
            asked.frames(),
            format!("{name} without {argument}: refused with -32602"),
        )
    } else {
        Outcome::broken(
            asked.frames(),
            format!(
                "{name} without its required {argument} got {}",
                asked.describe()
            ),
        )
    }
}

async fn unknown_prompt(ctx: &EraCtx<'_>) -> Outcome {
    let asked = ctx
        .probe
        .ask(
            names::PROMPTS_GET,
            Some(json!({"name": "periscope-check-no-such-prompt"})),
        )
        .await;
    if asked.error_code() == Some(error_code::INVALID_PARAMS) {
        Outcome::pass(asked.frames(), "refused with -32602")
    } else {
        Outcome::broken(
            asked.frames(),
            format!(
                "getting periscope-check-no-such-prompt got {}",
                asked.describe()
            ),
        )
    }
}
