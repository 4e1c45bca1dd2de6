//! The demo server's prompts (`greeting`, `code_review` and the toggleable
//! `bonus_prompt`) and the completion/complete logic for prompt arguments and
//! the resource template.

use rmcp::{
    ErrorData as McpError,
    model::{
        CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptResult, JsonObject, Prompt,
        PromptArgument, PromptMessage, Reference, Role,
    },
};
use serde_json::{Value, json};

use crate::resources;

/// Name of the prompt that `trigger_list_changed` toggles.
pub const BONUS_PROMPT: &str = "bonus_prompt";
/// Values offered when completing `greeting`'s `style` argument.
pub const GREETING_STYLES: [&str; 3] = ["formal", "casual", "pirate"];
/// Values offered when completing `code_review`'s `language` argument.
pub const LANGUAGES: [&str; 4] = ["rust", "typescript", "python", "go"];

/// Every prompt currently listed.
pub fn all(bonus: bool) -> Vec<Prompt> {
    let mut prompts = vec![
        Prompt::new(
            "greeting",
            Some("Greets someone by name in a chosen style."),
            Some(vec![
                PromptArgument::new("name")
                    .with_title("Name")
                    .with_description("Who to greet.")
                    .with_required(true),
                PromptArgument::new("style")
                    .with_title("Style")
                    .with_description("formal, casual (default) or pirate. Supports completion.")
                    .with_required(false),
            ]),
        )
        .with_title("Greeting"),
        Prompt::new(
            "code_review",
            Some("Asks the model to review a piece of code; the code is attached as an embedded resource."),
            Some(vec![
                PromptArgument::new("language")
                    .with_title("Language")
                    .with_description("Programming language of the code. Supports completion.")
                    .with_required(true),
                PromptArgument::new("code")
                    .with_title("Code")
                    .with_description("The code to review.")
                    .with_required(true),
            ]),
        )
        .with_title("Code review"),
    ];
    if bonus {
        prompts.push(
            Prompt::new(
                BONUS_PROMPT,
                Some("Appears and disappears when the trigger_list_changed tool is called."),
                None,
            )
            .with_title("Bonus prompt"),
        );
    }
    prompts
}

fn argument<'a>(arguments: &'a JsonObject, name: &str) -> Option<&'a str> {
    arguments
        .get(name)
        .and_then(Value::as_str)
        .filter(|value| !value.is_empty())
}

fn required<'a>(arguments: &'a JsonObject, prompt: &str, name: &str) -> Result<&'a str, McpError> {
    argument(arguments, name).ok_or_else(|| {
        McpError::invalid_params(
            format!("prompt {prompt} requires the argument {name}"),
            Some(json!({ "prompt": prompt, "argument": name })),
        )
    })
}

/// Renders the prompt `name` with `arguments`.
pub fn get(
    name: &str,
    arguments: Option<&JsonObject>,
    bonus: bool,
) -> Result<GetPromptResult, McpError> {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    match name {
        "greeting" => {
            let who = required(arguments, name, "name")?;
            let style = argument(arguments, "style").unwrap_or("casual");
            let text = match style {
                "formal" => format!("Good day, {who}. It is a pleasure to make your acquaintance."),
                "casual" => format!("Hey {who}! Great to see you."),
                "pirate" => format!("Ahoy, {who}! Welcome aboard, matey!"),
                other => {
                    return Err(McpError::invalid_params(
                        format!(
                            "unknown greeting style {other}; expected formal, casual or pirate"
                        ),
                        Some(json!({ "argument": "style", "allowed": GREETING_STYLES })),
                    ));
                }
            };
            Ok(
                GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                    .with_description(format!("A {style} greeting for {who}")),
            )
        }
        "code_review" => {
            let language = required(arguments, name, "language")?;
            let code = required(arguments, name, "code")?;
            let (extension, mime_type) = match language.to_ascii_lowercase().as_str() {
                "rust" => ("rs", "text/x-rust"),
                "typescript" => ("ts", "text/x-typescript"),
                "python" => ("py", "text/x-python"),
                "go" => ("go", "text/x-go"),
                _ => ("txt", "text/plain"),
            };
            Ok(GetPromptResult::new(vec![
                PromptMessage::new_text(
                    Role::User,
                    format!(
                        "Please review the following {language} code. Point out bugs, \
                         unclear naming and possible improvements, most important first."
                    ),
                ),
                PromptMessage::new_resource(
                    Role::User,
                    format!("demo://code-review/snippet.{extension}"),
                    Some(mime_type.to_string()),
                    Some(code.to_string()),
                    None,
                    None,
                    None,
                ),
                PromptMessage::new_text(
                    Role::Assistant,
                    format!("Sure, I will review this {language} code."),
                ),
            ])
            .with_description(format!("Code review request for {language} code")))
        }
        BONUS_PROMPT if bonus => Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            "This is the bonus prompt.",
        )])
        .with_description("The bonus prompt")),
        other => Err(McpError::invalid_params(
            format!("unknown prompt: {other}"),
            Some(json!({ "prompt": other })),
        )),
    }
}

/// Answers `completion/complete` for prompt arguments and the resource template.
pub fn complete(request: &CompleteRequestParams, bonus: bool) -> Result<CompleteResult, McpError> {
    let argument = request.argument.name.as_str();
    let candidates: &[&str] = match &request.r#ref {
        Reference::Prompt(prompt) => match prompt.name.as_str() {
            "greeting" => match argument {
                "style" => &GREETING_STYLES,
                _ => &[],
            },
            "code_review" => match argument {
                "language" => &LANGUAGES,
                _ => &[],
            },
            BONUS_PROMPT if bonus => &[],
            other => {
                return Err(McpError::invalid_params(
                    format!("unknown prompt: {other}"),
                    Some(json!({ "prompt": other })),
                ));
            }
        },
        Reference::Resource(template) => {
            if template.uri != resources::ITEM_TEMPLATE {
                return Err(McpError::invalid_params(
                    format!("unknown resource template: {}", template.uri),
                    Some(json!({ "uri": template.uri })),
                ));
            }
            match argument {
                "category" => &resources::CATEGORIES,
                _ => &[],
            }
        }
        _ => &[],
    };
    let prefix = request.argument.value.to_lowercase();
    let values: Vec<String> = candidates
        .iter()
        .filter(|candidate| candidate.to_lowercase().starts_with(&prefix))
        .map(|candidate| candidate.to_string())
        .collect();
    let total = values.len() as u32;
    let completion = CompletionInfo::with_pagination(values, Some(total), false)
        .map_err(|error| McpError::internal_error(error, None))?;
    Ok(CompleteResult::new(completion))
}

#[cfg(test)]
mod tests {
    use rmcp::model::ArgumentInfo;

    use super::*;

    fn complete_values(reference: Reference, name: &str, value: &str) -> Vec<String> {
        let request = CompleteRequestParams::new(reference, ArgumentInfo::new(name, value));
        complete(&request, false).unwrap().completion.values
    }

    #[test]
    fn completes_by_prefix() {
        assert_eq!(
            complete_values(
                Reference::for_resource(resources::ITEM_TEMPLATE),
                "category",
                "g"
            ),
            ["games", "garden"]
        );
        assert_eq!(
            complete_values(Reference::for_prompt("greeting"), "style", "P"),
            ["pirate"]
        );
        assert_eq!(
            complete_values(Reference::for_prompt("code_review"), "language", ""),
            LANGUAGES
        );
        assert!(complete_values(Reference::for_prompt("greeting"), "name", "a").is_empty());
    }

    #[test]
    fn greeting_requires_name() {
        assert!(get("greeting", None, false).is_err());
        let args = rmcp::model::object(json!({ "name": "Ada", "style": "pirate" }));
        let result = get("greeting", Some(&args), false).unwrap();
        let value = serde_json::to_value(&result.messages).unwrap();
        assert_eq!(value[0]["role"], "user");
        assert_eq!(
            value[0]["content"]["text"],
            "Ahoy, Ada! Welcome aboard, matey!"
        );
    }
}
