//! Prompts: each one got with its required arguments filled, a missing required argument and
//! an unknown prompt refused.

use serde_json::{Map, Value, json};

use super::EraCtx;
use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::surface::ListKind;
use crate::vocabulary::method::names;
use crate::vocabulary::views::prompt::PromptView;
use crate::wire::error_code;

/// Prompts got at most.
const MAX_GETS: usize = 20;

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let Some(listing) = ctx.listing(ListKind::Prompts) else {
        let skip = || {
            Outcome::skip(
                NotAsked::NotDeclared {
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
    let mut guessed_wrong = Vec::new();
    for prompt in &prompts {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        let arguments = filled(ctx, prompt, None).await;
        let asked = ctx
            .probe
            .ask(
                names::PROMPTS_GET,
                Some(json!({"name": name, "arguments": arguments})),
            )
            .await;
        frames.extend(asked.frames());
        let Some(result) = asked.result() else {
            // Prompt arguments have no schema: values the server refuses were only guesses.
            if asked.error_code() == Some(error_code::INVALID_PARAMS) {
                guessed_wrong.push(name.to_string());
            } else {
                wrong.push(format!("{name}: {}", asked.describe()));
            }
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
        Outcome::skip(NotAsked::NothingToAsk, "no prompt is listed")
    } else if wrong.is_empty() {
        let refused = match guessed_wrong.is_empty() {
            true => String::new(),
            false => format!(
                "; {} refused the argument values guessed for them (-32602): {}",
                guessed_wrong.len(),
                guessed_wrong.join(", ")
            ),
        };
        Outcome::pass(
            frames,
            format!(
                "{} prompts got{refused}",
                prompts.len() - guessed_wrong.len()
            ),
        )
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
    PromptView::read(prompt)
        .required_arguments()
        .map(str::to_string)
        .collect()
}

/// The prompt's required arguments but `leave_out`, each the first value `completion/complete`
/// offers for it when the server declares completions, else "periscope".
async fn filled(ctx: &EraCtx<'_>, prompt: &Value, leave_out: Option<&str>) -> Value {
    let prompt_name = prompt
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut arguments = Map::new();
    for name in required_arguments(prompt) {
        if Some(name.as_str()) == leave_out {
            continue;
        }
        let mut value = json!("periscope");
        if ctx.identity.offers.completions {
            let asked = ctx
                .probe
                .ask(
                    names::COMPLETION_COMPLETE,
                    Some(json!({
                        "ref": {"type": "ref/prompt", "name": prompt_name},
                        "argument": {"name": name, "value": ""},
                    })),
                )
                .await;
            if let Some(first) = asked
                .result()
                .and_then(|r| r.pointer("/completion/values/0"))
                .filter(|v| v.is_string())
            {
                value = first.clone();
            }
        }
        arguments.insert(name, value);
    }
    Value::Object(arguments)
}

async fn missing_argument(ctx: &EraCtx<'_>, prompts: &[Value]) -> Outcome {
    let Some((prompt, argument)) = prompts.iter().find_map(|p| {
        let first = required_arguments(p).into_iter().next()?;
        Some((p, first))
    }) else {
        return Outcome::skip(NotAsked::NothingToAsk, "no prompt has a required argument");
    };
    let name = prompt
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let asked = ctx
        .probe
        .ask(
            names::PROMPTS_GET,
            Some(json!({"name": name, "arguments": filled(ctx, prompt, Some(&argument)).await})),
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
