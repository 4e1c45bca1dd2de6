//! Tools that need input from the client through multi round-trip requests
//! (spec: basic/patterns/mrtr). A modern server may not send requests to the
//! client; it answers `tools/call` with `resultType: "input_required"` and
//! `inputRequests`, and the client calls again (new JSON-RPC id) with
//! `inputResponses` and the `requestState` it was given.
//!
//! - `mrtr_form`: one elicitation form, no `requestState`.
//! - `mrtr_two_inputs`: an elicitation and a sampling request in one round.
//! - `mrtr_two_rounds`: a city, then a confirmation; what the first round
//!   learned travels in the signed `requestState`.

use rmcp::{
    ErrorData as McpError,
    model::{
        CallToolRequestParams, CallToolResponse, ClientCapabilities, InputRequest, InputRequests,
        InputRequiredResult, InputResponses, Tool, ToolAnnotations,
    },
};
use serde_json::{Value, json};

use super::request_state::StateKey;
use crate::{tool_result::text_result, tools::elicit_form_schema};

pub const MRTR_FORM: &str = "mrtr_form";
pub const MRTR_TWO_INPUTS: &str = "mrtr_two_inputs";
pub const MRTR_TWO_ROUNDS: &str = "mrtr_two_rounds";

/// `inputRequests` keys, one per question.
const FORM_KEY: &str = "form";
const NAME_KEY: &str = "name";
const GREETING_KEY: &str = "greeting";
const CITY_KEY: &str = "city";
const CONFIRM_KEY: &str = "confirm";

pub fn tools() -> Vec<Tool> {
    let annotations = |title: &str| {
        ToolAnnotations::with_title(title)
            .read_only(true)
            .open_world(false)
    };
    vec![
        Tool::new(
            MRTR_FORM,
            "Asks the user to fill in a form through a multi round-trip request: the first call \
             returns input_required with one elicitation/create (form mode, every field kind); \
             call again with inputResponses.form to get the answers back.",
            empty_schema(),
        )
        .with_title("Form through input_required")
        .with_annotations(annotations("Form through input_required")),
        Tool::new(
            MRTR_TWO_INPUTS,
            "Asks for two inputs in one round: an elicitation form (\"name\") and a \
             sampling/createMessage (\"greeting\"). Needs the elicitation and sampling \
             capabilities. A retry that answers only one of them is asked for the other again.",
            empty_schema(),
        )
        .with_title("Two inputs in one round")
        .with_annotations(annotations("Two inputs in one round")),
        Tool::new(
            MRTR_TWO_ROUNDS,
            "Asks over two rounds: first a city, then whether to book a trip there. The city \
             from round one is carried in the (signed) requestState, which must be sent back \
             unchanged.",
            empty_schema(),
        )
        .with_title("Two rounds with requestState")
        .with_annotations(annotations("Two rounds with requestState")),
    ]
}

/// The legacy `elicit_form` schema without its `zip` field: rmcp's typed
/// elicitation schema, which `inputRequests` must be built from, has no
/// `pattern` keyword and would silently drop it (and it writes a number
/// schema's bounds as floats, `0.0` for `0`).
pub fn form_schema() -> Value {
    let mut schema = elicit_form_schema();
    if let Some(properties) = schema["properties"].as_object_mut() {
        properties.remove("zip");
    }
    schema
}

fn empty_schema() -> rmcp::model::JsonObject {
    rmcp::model::object(json!({ "type": "object", "properties": {} }))
}

/// Runs the MRTR tool `name`, or `None` if `name` is not one.
pub fn call(
    name: &str,
    request: &CallToolRequestParams,
    capabilities: Option<&ClientCapabilities>,
    key: &StateKey,
) -> Option<Result<CallToolResponse, McpError>> {
    let responses = request.input_responses.clone().unwrap_or_default();
    let outcome = match name {
        MRTR_FORM => form(&responses, capabilities),
        MRTR_TWO_INPUTS => two_inputs(&responses, capabilities),
        MRTR_TWO_ROUNDS => two_rounds(
            &responses,
            request.request_state.as_deref(),
            capabilities,
            key,
        ),
        _ => return None,
    };
    Some(outcome)
}

fn form(
    responses: &InputResponses,
    capabilities: Option<&ClientCapabilities>,
) -> Result<CallToolResponse, McpError> {
    require(capabilities, &[Needed::ElicitationForm])?;
    let Some(answer) = responses.get(FORM_KEY) else {
        let requests = requests([(
            FORM_KEY,
            elicitation("Please fill in the Periscope demo form.", form_schema())?,
        )]);
        return Ok(InputRequiredResult::from_input_requests(requests).into());
    };
    let answer = ElicitAnswer::parse(FORM_KEY, answer)?;
    Ok(text_result(format!(
        "action: {}\ncontent: {}",
        answer.action, answer.content
    ))
    .into())
}

fn two_inputs(
    responses: &InputResponses,
    capabilities: Option<&ClientCapabilities>,
) -> Result<CallToolResponse, McpError> {
    require(capabilities, &[Needed::ElicitationForm, Needed::Sampling])?;
    let name = responses.get(NAME_KEY);
    let greeting = responses.get(GREETING_KEY);
    if let (Some(name), Some(greeting)) = (name, greeting) {
        let name = ElicitAnswer::parse(NAME_KEY, name)?;
        let (model, text) = sampling_reply(greeting)?;
        return Ok(text_result(format!(
            "name: {} {}\ngreeting from model {model}: {text}",
            name.action, name.content
        ))
        .into());
    }
    // Ask again for whatever is still missing (spec: a retry that lacks a
    // needed answer gets a new input_required, not an error).
    let mut asked = InputRequests::new();
    if name.is_none() {
        asked.insert(
            NAME_KEY.to_string(),
            elicitation(
                "What is your name?",
                json!({
                    "type": "object",
                    "properties": { "name": { "type": "string", "title": "Name", "minLength": 1 } },
                    "required": ["name"]
                }),
            )?,
        );
    }
    if greeting.is_none() {
        asked.insert(
            GREETING_KEY.to_string(),
            sampling("Write a one-line greeting for a visitor of the Periscope demo.")?,
        );
    }
    Ok(InputRequiredResult::from_input_requests(asked).into())
}

fn two_rounds(
    responses: &InputResponses,
    state: Option<&str>,
    capabilities: Option<&ClientCapabilities>,
    key: &StateKey,
) -> Result<CallToolResponse, McpError> {
    require(capabilities, &[Needed::ElicitationForm])?;
    let state = match state {
        None => None,
        Some(state) => Some(
            key.open(MRTR_TWO_ROUNDS, state)
                .map_err(|refusal| McpError::invalid_params(refusal.to_string(), None))?,
        ),
    };
    let round = state.as_ref().and_then(|state| state["round"].as_u64());
    match (round, state) {
        (Some(1), _) => match responses.get(CITY_KEY) {
            None => ask_city(key),
            Some(answer) => {
                let answer = ElicitAnswer::parse(CITY_KEY, answer)?;
                let city = answer.field("city").filter(|city| !city.is_empty());
                match (answer.accepted(), city) {
                    (true, Some(city)) => ask_confirmation(key, &city),
                    (true, None) => ask_city(key),
                    (false, _) => Ok(text_result(format!(
                        "no city given ({}): nothing booked after 1 round",
                        answer.action
                    ))
                    .into()),
                }
            }
        },
        (Some(2), Some(state)) => {
            let city = state["city"].as_str().unwrap_or_default().to_string();
            match responses.get(CONFIRM_KEY) {
                None => ask_confirmation(key, &city),
                Some(answer) => {
                    let answer = ElicitAnswer::parse(CONFIRM_KEY, answer)?;
                    let confirmed = answer.accepted() && answer.content["confirm"] == true;
                    Ok(text_result(if confirmed {
                        format!("booked a trip to {city} after 2 rounds")
                    } else {
                        format!(
                            "not booked: the trip to {city} was not confirmed ({})",
                            answer.action
                        )
                    })
                    .into())
                }
            }
        }
        _ => ask_city(key),
    }
}

fn ask_city(key: &StateKey) -> Result<CallToolResponse, McpError> {
    let requests = requests([(
        CITY_KEY,
        elicitation(
            "Round 1 of 2: which city would you like to visit?",
            json!({
                "type": "object",
                "properties": { "city": { "type": "string", "title": "City", "minLength": 1 } },
                "required": ["city"]
            }),
        )?,
    )]);
    let state = key.seal(MRTR_TWO_ROUNDS, json!({ "round": 1 }));
    Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
}

fn ask_confirmation(key: &StateKey, city: &str) -> Result<CallToolResponse, McpError> {
    let requests = requests([(
        CONFIRM_KEY,
        elicitation(
            &format!("Round 2 of 2: book a trip to {city}?"),
            json!({
                "type": "object",
                "properties": {
                    "confirm": { "type": "boolean", "title": "Book it", "default": true }
                },
                "required": ["confirm"]
            }),
        )?,
    )]);
    let state = key.seal(MRTR_TWO_ROUNDS, json!({ "round": 2, "city": city }));
    Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
}

// ---------------------------------------------------------------------------
// Input requests and answers
// ---------------------------------------------------------------------------

fn requests<const N: usize>(entries: [(&str, InputRequest); N]) -> InputRequests {
    entries
        .into_iter()
        .map(|(key, request)| (key.to_string(), request))
        .collect()
}

fn input_request(value: Value) -> Result<InputRequest, McpError> {
    serde_json::from_value(value).map_err(|error| {
        McpError::internal_error(format!("cannot build an input request: {error}"), None)
    })
}

pub(super) fn elicitation(message: &str, schema: Value) -> Result<InputRequest, McpError> {
    input_request(json!({
        "method": "elicitation/create",
        "params": { "mode": "form", "message": message, "requestedSchema": schema }
    }))
}

fn sampling(prompt: &str) -> Result<InputRequest, McpError> {
    input_request(json!({
        "method": "sampling/createMessage",
        "params": {
            "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }],
            "systemPrompt": "You are answering on behalf of the Periscope demo MCP server. Be brief.",
            "maxTokens": 100
        }
    }))
}

/// A client's answer to an elicitation, as sent in `inputResponses`.
struct ElicitAnswer {
    action: String,
    content: Value,
}

impl ElicitAnswer {
    fn parse(key: &str, value: &Value) -> Result<Self, McpError> {
        let action = value["action"].as_str().ok_or_else(|| {
            McpError::invalid_params(
                format!("inputResponses.{key} is not an elicitation result (no action)"),
                None,
            )
        })?;
        Ok(Self {
            action: action.to_string(),
            content: value.get("content").cloned().unwrap_or(Value::Null),
        })
    }

    fn accepted(&self) -> bool {
        self.action == "accept"
    }

    fn field(&self, name: &str) -> Option<String> {
        self.content[name].as_str().map(str::to_string)
    }
}

/// `(model, text)` of a sampling result in `inputResponses`.
fn sampling_reply(value: &Value) -> Result<(String, String), McpError> {
    let model = value["model"].as_str().unwrap_or("?").to_string();
    let blocks = match value.get("content") {
        Some(Value::Array(blocks)) => blocks.clone(),
        Some(block) => vec![block.clone()],
        None => {
            return Err(McpError::invalid_params(
                format!("inputResponses.{GREETING_KEY} is not a sampling result (no content)"),
                None,
            ));
        }
    };
    let text = blocks
        .iter()
        .filter_map(|block| block["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    Ok((
        model,
        if text.is_empty() {
            "(no text content)".to_string()
        } else {
            text
        },
    ))
}

// ---------------------------------------------------------------------------
// Capabilities
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Needed {
    ElicitationForm,
    Sampling,
}

/// -32021 naming every capability in `needed` the request did not declare:
/// a server must not send input requests of a kind the client cannot answer.
pub(super) fn require(
    capabilities: Option<&ClientCapabilities>,
    needed: &[Needed],
) -> Result<(), McpError> {
    let declared = |need: &Needed| match need {
        Needed::ElicitationForm => capabilities
            .and_then(|capabilities| capabilities.elicitation.as_ref())
            // A bare `"elicitation": {}` means form mode.
            .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none()),
        Needed::Sampling => {
            capabilities.is_some_and(|capabilities| capabilities.sampling.is_some())
        }
    };
    let mut missing = serde_json::Map::new();
    for need in needed.iter().filter(|need| !declared(need)) {
        match need {
            Needed::ElicitationForm => missing.insert("elicitation".into(), json!({ "form": {} })),
            Needed::Sampling => missing.insert("sampling".into(), json!({})),
        };
    }
    if missing.is_empty() {
        return Ok(());
    }
    let required: ClientCapabilities = serde_json::from_value(Value::Object(missing))
        .map_err(|error| McpError::internal_error(error.to_string(), None))?;
    Err(McpError::missing_required_client_capability(required))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers as floats, so `0` and `0.0` compare equal.
    fn floats(value: Value) -> Value {
        match value {
            Value::Number(number) => json!(number.as_f64()),
            Value::Array(items) => Value::Array(items.into_iter().map(floats).collect()),
            Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (k, floats(v))).collect())
            }
            other => other,
        }
    }

    /// rmcp's typed elicitation request must carry the MRTR form schema with
    /// every keyword (numbers may turn into floats).
    #[test]
    fn form_schema_survives_the_typed_request() {
        let request = elicitation("m", form_schema()).unwrap();
        let wire = serde_json::to_value(&request).unwrap();
        assert_eq!(
            floats(wire["params"]["requestedSchema"].clone()),
            floats(form_schema())
        );
        // Which is why the `zip` field (with `pattern`) is left out.
        let with_pattern =
            serde_json::to_value(elicitation("m", elicit_form_schema()).unwrap()).unwrap();
        let zip = &with_pattern["params"]["requestedSchema"]["properties"]["zip"];
        assert!(zip.get("pattern").is_none(), "{zip}");
        assert_eq!(wire["method"], "elicitation/create");
        assert_eq!(wire["params"]["mode"], "form");
    }

    #[test]
    fn sampling_request_is_typed_as_sampling() {
        let wire = serde_json::to_value(sampling("hi").unwrap()).unwrap();
        assert_eq!(wire["method"], "sampling/createMessage");
        assert_eq!(wire["params"]["maxTokens"], 100);
    }
}
