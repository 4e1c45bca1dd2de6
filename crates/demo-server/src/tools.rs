//! The demo server's tools: their definitions (names, schemas, annotations)
//! and their implementations.
//!
//! Argument problems are reported as tool execution errors (`isError: true`),
//! as the MCP 2025-11-25 specification recommends; only an unknown tool name
//! is a JSON-RPC error.

use std::{fmt::Display, sync::Arc, time::Duration};

use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolResult, ClientResult, ContentBlock, CustomNotification, CustomRequest,
        ElicitRequestParams, ElicitResult, ElicitationAction, JsonObject, LoggingLevel,
        LoggingMessageNotificationParam, ProgressNotificationParam, Resource, ResourceContents,
        ResourceUpdatedNotificationParam, ServerNotification, ServerRequest, Tool, ToolAnnotations,
        object,
    },
    service::RequestContext,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{
    addition::{addends_schema, sum, sum_schema},
    app, media, resources,
    state::DemoState,
    tool_result::{error_result, text_result},
};

/// Name of the tool that `trigger_list_changed` toggles.
pub const BONUS_TOOL: &str = "bonus";

/// Every tool currently listed, in listing order.
pub fn all(bonus: bool) -> Vec<Tool> {
    let mut tools = vec![
        Tool::new(
            "echo",
            "Echoes the message back, prefixed with \"echo: \".",
            object(json!({
                "type": "object",
                "properties": {
                    "message": { "type": "string", "description": "The text to echo back." }
                },
                "required": ["message"]
            })),
        )
        .with_title("Echo")
        .with_annotations(
            ToolAnnotations::with_title("Echo")
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            "add",
            "Adds two numbers. Returns structured content {\"sum\": a + b} described by an output schema.",
            addends_schema(),
        )
        .with_title("Add numbers")
        .with_raw_output_schema(sum_schema())
        .with_annotations(
            ToolAnnotations::with_title("Add numbers")
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            "create_order",
            "Places a (pretend) order. Its input schema exercises nested objects, arrays of \
             objects, enums, oneOf, $defs/$ref, formats, patterns and defaults.",
            object(create_order_schema()),
        )
        .with_title("Create order")
        .with_annotations(
            ToolAnnotations::with_title("Create order")
                .read_only(false)
                .destructive(false)
                .idempotent(false)
                .open_world(false),
        ),
        Tool::new(
            "mixed_content",
            "Returns one content block of every kind: text, image (PNG), audio (WAV), a resource \
             link and an embedded resource.",
            empty_schema(),
        )
        .with_title("Mixed content")
        .with_annotations(
            ToolAnnotations::with_title("Mixed content")
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            "slow_task",
            "Runs for steps x step_ms milliseconds, sending notifications/progress after each step \
             when the request carries a progressToken. Stops promptly when cancelled.",
            object(json!({
                "type": "object",
                "properties": {
                    "steps": {
                        "type": "integer",
                        "description": "Number of steps.",
                        "minimum": 1,
                        "maximum": 1000,
                        "default": 5
                    },
                    "step_ms": {
                        "type": "integer",
                        "description": "Duration of each step in milliseconds.",
                        "minimum": 0,
                        "maximum": 60000,
                        "default": 500
                    }
                }
            })),
        )
        .with_title("Slow task")
        .with_annotations(
            ToolAnnotations::with_title("Slow task")
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            "elicit_form",
            "Asks the user to fill in a form (elicitation/create, form mode) using every field kind \
             the specification allows, and reports the user's action and answers.",
            empty_schema(),
        )
        .with_title("Elicit a form")
        .with_annotations(
            ToolAnnotations::with_title("Elicit a form")
                .read_only(true)
                .open_world(false),
        ),
        Tool::new(
            "elicit_url",
            "Asks the user to visit a URL (elicitation/create, URL mode) and reports the user's \
             action. Requires the client's elicitation.url capability. Pass `url` to test how a \
             client presents a URL of your choice (a look-alike host, say).",
            object(json!({
                "type": "object",
                "properties": {
                    "url": {
                        "type": "string",
                        "description": "The URL to ask for (default: a page on example.com)."
                    }
                }
            })),
        )
        .with_title("Elicit a URL visit")
        .with_annotations(
            ToolAnnotations::with_title("Elicit a URL visit")
                .read_only(true)
                .open_world(true),
        ),
        Tool::new(
            "needs_authorization",
            "Fails with URLElicitationRequiredError (-32042) naming a URL to visit, until that URL \
             elicitation is complete; then succeeds. The demo pretends the visit happened 1.5 s \
             after the error and sends notifications/elicitation/complete.",
            empty_schema(),
        )
        .with_title("Needs authorization")
        .with_annotations(
            ToolAnnotations::with_title("Needs authorization")
                .read_only(true)
                .open_world(true),
        ),
        Tool::new(
            "sample",
            "Asks the client's model to answer the prompt (sampling/createMessage) and returns the \
             reply. With `offer_tools`, the request offers a `get_weather` tool (needs the client's \
             sampling.tools capability).",
            object(json!({
                "type": "object",
                "properties": {
                    "prompt": { "type": "string", "description": "What to ask the model." },
                    "offer_tools": {
                        "type": "boolean",
                        "description": "Offer the model a tool to call.",
                        "default": false
                    }
                },
                "required": ["prompt"]
            })),
        )
        .with_title("Sample the client's model")
        .with_annotations(
            ToolAnnotations::with_title("Sample the client's model")
                .read_only(true)
                .open_world(true),
        ),
        Tool::new(
            "list_roots",
            "Asks the client for its roots (roots/list) and returns them, one per line.",
            empty_schema(),
        )
        .with_title("List the client's roots")
        .with_annotations(
            ToolAnnotations::with_title("List the client's roots")
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            "fail",
            "Always returns a tool execution error (isError: true).",
            empty_schema(),
        )
        .with_title("Always fail")
        .with_annotations(
            ToolAnnotations::with_title("Always fail")
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            "emit_logs",
            "Sends one notifications/message at each of the 8 log levels (logger \"demo\"), \
             skipping those below the level set with logging/setLevel.",
            empty_schema(),
        )
        .with_title("Emit log messages")
        .with_annotations(
            ToolAnnotations::with_title("Emit log messages")
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        ),
        Tool::new(
            "trigger_list_changed",
            "Adds or removes the bonus tool, the demo://bonus resource and the bonus_prompt \
             prompt, then sends the tools, resources and prompts list_changed notifications.",
            empty_schema(),
        )
        .with_title("Toggle bonus items")
        .with_annotations(
            ToolAnnotations::with_title("Toggle bonus items")
                .read_only(false)
                .destructive(false)
                .idempotent(false)
                .open_world(false),
        ),
        Tool::new(
            "touch_resource",
            "Pretends the resource changed: sends notifications/resources/updated if the client \
             subscribed to the URI.",
            object(json!({
                "type": "object",
                "properties": {
                    "uri": {
                        "type": "string",
                        "description": "URI of the resource to touch, e.g. demo://text/1."
                    }
                },
                "required": ["uri"]
            })),
        )
        .with_title("Touch a resource")
        .with_annotations(
            ToolAnnotations::with_title("Touch a resource")
                .read_only(false)
                .destructive(false)
                .idempotent(true)
                .open_world(false),
        ),
    ];
    tools.extend(app::tools());
    if bonus {
        tools.push(
            Tool::new(
                BONUS_TOOL,
                "Appears and disappears when trigger_list_changed is called. Returns \"bonus!\".",
                empty_schema(),
            )
            .with_title("Bonus")
            .with_annotations(
                ToolAnnotations::with_title("Bonus")
                    .read_only(true)
                    .idempotent(true)
                    .open_world(false),
            ),
        );
    }
    tools
}

/// The tool called `name`, if currently listed.
pub fn find(name: &str, bonus: bool) -> Option<Tool> {
    all(bonus).into_iter().find(|tool| tool.name == name)
}

fn empty_schema() -> JsonObject {
    object(json!({ "type": "object", "properties": {} }))
}

/// The countries `create_order` ships to.
const COUNTRIES: [&str; 6] = ["US", "GB", "DE", "FR", "NL", "JP"];

fn create_order_schema() -> Value {
    json!({
        "type": "object",
        "$defs": {
            "Address": {
                "type": "object",
                "description": "A postal address.",
                "properties": {
                    "street": { "type": "string", "minLength": 1 },
                    "city": { "type": "string", "minLength": 1 },
                    "country": {
                        "type": "string",
                        "description": "ISO 3166-1 alpha-2 country code.",
                        "enum": COUNTRIES
                    }
                },
                "required": ["street", "city", "country"]
            }
        },
        "properties": {
            "customer": {
                "type": "object",
                "description": "Who the order is for.",
                "properties": {
                    "name": { "type": "string", "minLength": 1 },
                    "email": { "type": "string", "format": "email" },
                    "address": { "$ref": "#/$defs/Address" }
                },
                "required": ["name", "email", "address"]
            },
            "items": {
                "type": "array",
                "description": "The order lines.",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "sku": {
                            "type": "string",
                            "description": "Stock keeping unit, e.g. ABC-1234.",
                            "pattern": "^[A-Z]{3}-[0-9]{4}$"
                        },
                        "quantity": { "type": "integer", "minimum": 1, "default": 1 }
                    },
                    "required": ["sku"]
                }
            },
            "payment": {
                "description": "How the order is paid.",
                "oneOf": [
                    {
                        "type": "object",
                        "title": "Card",
                        "properties": {
                            "type": { "type": "string", "const": "card" },
                            "number": {
                                "type": "string",
                                "description": "Card number, digits only.",
                                "pattern": "^[0-9]{12,19}$"
                            }
                        },
                        "required": ["type", "number"]
                    },
                    {
                        "type": "object",
                        "title": "Invoice",
                        "properties": {
                            "type": { "type": "string", "const": "invoice" },
                            "po_number": { "type": "string", "description": "Purchase order number." }
                        },
                        "required": ["type", "po_number"]
                    }
                ]
            },
            "priority": {
                "type": "string",
                "enum": ["low", "normal", "high"],
                "default": "normal"
            },
            "gift": { "type": "boolean", "description": "Gift-wrap the order.", "default": false },
            "notes": { "type": "string", "description": "Delivery notes for the courier.", "maxLength": 500 }
        },
        "required": ["customer", "items", "payment"]
    })
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn invalid_argument(message: impl Display) -> CallToolResult {
    error_result(format!("invalid arguments: {message}"))
}

fn required_str<'a>(args: &'a JsonObject, name: &str) -> Result<&'a str, String> {
    match args.get(name) {
        Some(Value::String(value)) => Ok(value),
        Some(_) => Err(format!("{name} must be a string")),
        None => Err(format!("{name} is required")),
    }
}

fn integer_or(
    args: &JsonObject,
    name: &str,
    default: u64,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, String> {
    let value = match args.get(name) {
        None | Some(Value::Null) => default,
        Some(value) => value
            .as_u64()
            .ok_or_else(|| format!("{name} must be a non-negative integer"))?,
    };
    if !range.contains(&value) {
        return Err(format!(
            "{name} must be between {} and {}",
            range.start(),
            range.end()
        ));
    }
    Ok(value)
}

// ---------------------------------------------------------------------------
// Tools that need nothing but their arguments
// ---------------------------------------------------------------------------

pub fn echo(args: &JsonObject) -> CallToolResult {
    match required_str(args, "message") {
        Ok(message) => text_result(format!("echo: {message}")),
        Err(error) => invalid_argument(error),
    }
}

pub fn add(args: &JsonObject) -> CallToolResult {
    match sum(args) {
        Ok(sum) => CallToolResult::structured(json!({ "sum": sum })),
        Err(error) => invalid_argument(error),
    }
}

pub fn fail() -> CallToolResult {
    error_result("this tool always fails")
}

pub fn bonus() -> CallToolResult {
    text_result("bonus!")
}

pub fn mixed_content() -> CallToolResult {
    let link = Resource::new(resources::text_uri(1), "Text resource 1")
        .with_title("Text resource #1")
        .with_description("A resource link to demo://text/1.")
        .with_mime_type("text/plain");
    CallToolResult::success(vec![
        ContentBlock::text(
            "This result holds one block of each content type: text, image, audio, \
             resource_link and resource.",
        ),
        ContentBlock::image(media::png_base64(), "image/png"),
        ContentBlock::audio(media::wav_base64(), "audio/wav"),
        ContentBlock::resource_link(link),
        ContentBlock::resource(ResourceContents::TextResourceContents {
            uri: resources::text_uri(2),
            mime_type: Some("text/plain".to_string()),
            text: resources::text_contents(2),
            meta: None,
        }),
    ])
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Order {
    customer: Customer,
    items: Vec<OrderItem>,
    payment: Payment,
    #[serde(default = "default_priority")]
    priority: String,
    #[serde(default)]
    gift: bool,
    #[serde(default)]
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Customer {
    name: String,
    email: String,
    address: Address,
}

#[derive(Debug, Deserialize)]
struct Address {
    street: String,
    city: String,
    country: String,
}

#[derive(Debug, Deserialize)]
struct OrderItem {
    sku: String,
    #[serde(default = "default_quantity")]
    quantity: u64,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Payment {
    Card { number: String },
    Invoice { po_number: String },
}

fn default_priority() -> String {
    "normal".to_string()
}

fn default_quantity() -> u64 {
    1
}

fn is_sku(sku: &str) -> bool {
    let bytes = sku.as_bytes();
    bytes.len() == 8
        && bytes[..3].iter().all(u8::is_ascii_uppercase)
        && bytes[3] == b'-'
        && bytes[4..].iter().all(u8::is_ascii_digit)
}

pub fn create_order(args: &JsonObject) -> CallToolResult {
    let order: Order = match serde_json::from_value(Value::Object(args.clone())) {
        Ok(order) => order,
        Err(error) => return invalid_argument(error),
    };
    let mut problems = Vec::new();
    if order.customer.name.is_empty() {
        problems.push("customer.name must not be empty".to_string());
    }
    if !order.customer.email.contains('@') {
        problems.push("customer.email must be an email address".to_string());
    }
    let address = &order.customer.address;
    if address.street.is_empty() || address.city.is_empty() {
        problems.push("customer.address.street and .city must not be empty".to_string());
    }
    if !COUNTRIES.contains(&address.country.as_str()) {
        problems.push(format!(
            "customer.address.country must be one of {}",
            COUNTRIES.join(", ")
        ));
    }
    if order.items.is_empty() {
        problems.push("items must contain at least one item".to_string());
    }
    for (index, item) in order.items.iter().enumerate() {
        if !is_sku(&item.sku) {
            problems.push(format!("items[{index}].sku must look like ABC-1234"));
        }
        if item.quantity < 1 {
            problems.push(format!("items[{index}].quantity must be at least 1"));
        }
    }
    match &order.payment {
        Payment::Card { number } => {
            if !(12..=19).contains(&number.len()) || !number.bytes().all(|b| b.is_ascii_digit()) {
                problems.push("payment.number must be 12 to 19 digits".to_string());
            }
        }
        Payment::Invoice { po_number } => {
            if po_number.is_empty() {
                problems.push("payment.po_number must not be empty".to_string());
            }
        }
    }
    if !["low", "normal", "high"].contains(&order.priority.as_str()) {
        problems.push("priority must be low, normal or high".to_string());
    }
    if order
        .notes
        .as_ref()
        .is_some_and(|notes| notes.chars().count() > 500)
    {
        problems.push("notes must be at most 500 characters".to_string());
    }
    if !problems.is_empty() {
        return invalid_argument(problems.join("; "));
    }

    let units: u64 = order.items.iter().map(|item| item.quantity).sum();
    let lines = order
        .items
        .iter()
        .map(|item| format!("{} x{}", item.sku, item.quantity))
        .collect::<Vec<_>>()
        .join(", ");
    let payment = match &order.payment {
        Payment::Card { number } => {
            format!(
                "card ending in {}",
                &number[number.len().saturating_sub(4)..]
            )
        }
        Payment::Invoice { po_number } => format!("invoice, PO {po_number}"),
    };
    let mut summary = format!(
        "Order placed for {} <{}>, shipping to {}, {}, {}.\n\
         {} line(s), {} unit(s): {}.\n\
         Payment: {}. Priority: {}. Gift wrap: {}.",
        order.customer.name,
        order.customer.email,
        address.street,
        address.city,
        address.country,
        order.items.len(),
        units,
        lines,
        payment,
        order.priority,
        if order.gift { "yes" } else { "no" },
    );
    if let Some(notes) = order.notes.as_deref().filter(|notes| !notes.is_empty()) {
        summary.push_str(&format!("\nNotes: {notes}"));
    }
    let echoed = serde_json::to_string_pretty(args).unwrap_or_else(|_| "{}".to_string());
    CallToolResult::success(vec![
        ContentBlock::text(summary),
        ContentBlock::text(echoed),
    ])
}

// ---------------------------------------------------------------------------
// Tools that talk to the client
// ---------------------------------------------------------------------------

/// Awaits `request` (a request to the client) unless the tool call is
/// cancelled or the client goes away first.
async fn ask_client<F: Future>(
    state: &DemoState,
    context: &RequestContext<RoleServer>,
    request: F,
) -> Result<F::Output, CallToolResult> {
    tokio::select! {
        () = context.ct.cancelled() => Err(error_result("cancelled by the client")),
        () = state.client_gone().cancelled() => {
            Err(error_result("the client closed the connection"))
        }
        output = request => Ok(output),
    }
}

pub async fn slow_task(args: &JsonObject, context: &RequestContext<RoleServer>) -> CallToolResult {
    let (steps, step_ms) = match (
        integer_or(args, "steps", 5, 1..=1000),
        integer_or(args, "step_ms", 500, 0..=60_000),
    ) {
        (Ok(steps), Ok(step_ms)) => (steps, step_ms),
        (Err(error), _) | (_, Err(error)) => return invalid_argument(error),
    };
    let progress_token = context.meta.get_progress_token();
    for step in 1..=steps {
        let slept = context
            .ct
            .run_until_cancelled(tokio::time::sleep(Duration::from_millis(step_ms)))
            .await;
        if slept.is_none() {
            tracing::info!(completed = step - 1, steps, "slow_task cancelled");
            return error_result(format!("cancelled after {} of {steps} steps", step - 1));
        }
        if let Some(token) = &progress_token {
            let progress = ProgressNotificationParam::new(token.clone(), step as f64)
                .with_total(steps as f64)
                .with_message(format!("step {step} of {steps}"));
            let sent = context
                .ct
                .run_until_cancelled(context.peer.notify_progress(progress))
                .await;
            if let Some(Err(error)) = sent {
                tracing::warn!(%error, "failed to send a progress notification");
            }
        }
    }
    text_result(format!("completed {steps} steps"))
}

/// The `requestedSchema` of `elicit_form`: one field of every kind MCP allows.
pub fn elicit_form_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "email": {
                "type": "string",
                "title": "Email",
                "description": "Your email address.",
                "format": "email"
            },
            "website": {
                "type": "string",
                "title": "Website",
                "description": "Your home page.",
                "format": "uri",
                "default": "https://example.com"
            },
            "birthday": {
                "type": "string",
                "title": "Birthday",
                "format": "date"
            },
            "meeting": {
                "type": "string",
                "title": "Meeting time",
                "description": "When should we meet?",
                "format": "date-time"
            },
            "nickname": {
                "type": "string",
                "title": "Nickname",
                "description": "2 to 20 characters.",
                "minLength": 2,
                "maxLength": 20,
                "default": "scope"
            },
            "zip": {
                "type": "string",
                "title": "ZIP code",
                "description": "Five digits.",
                "pattern": "^[0-9]{5}$"
            },
            "rating": {
                "type": "number",
                "title": "Rating",
                "description": "From 0 to 10.",
                "minimum": 0,
                "maximum": 10,
                "default": 7.5
            },
            "age": {
                "type": "integer",
                "title": "Age",
                "minimum": 0,
                "maximum": 150
            },
            "subscribe": {
                "type": "boolean",
                "title": "Subscribe to the newsletter",
                "default": true
            },
            "color": {
                "type": "string",
                "title": "Favourite colour",
                "enum": ["red", "green", "blue"],
                "default": "green"
            },
            "size": {
                "type": "string",
                "title": "T-shirt size",
                "oneOf": [
                    { "const": "s", "title": "Small" },
                    { "const": "m", "title": "Medium" },
                    { "const": "l", "title": "Large" }
                ],
                "default": "m"
            },
            "toppings": {
                "type": "array",
                "title": "Pizza toppings",
                "description": "Pick one to three.",
                "minItems": 1,
                "maxItems": 3,
                "items": {
                    "type": "string",
                    "enum": ["cheese", "mushroom", "olive", "pepper", "pineapple"]
                },
                "default": ["cheese"]
            }
        },
        "required": ["email", "nickname"]
    })
}

fn action_name(action: &ElicitationAction) -> String {
    serde_json::to_value(action)
        .ok()
        .and_then(|value| value.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{action:?}").to_lowercase())
}

pub async fn elicit_form(
    state: &DemoState,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let supports_form = context
        .client_capabilities()
        .and_then(|capabilities| capabilities.elicitation)
        // A bare `"elicitation": {}` means form mode (pre-2025-11-25 clients).
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
    if !supports_form {
        return error_result("the client did not declare the elicitation (form) capability");
    }
    // rmcp's typed ElicitationSchema has no `pattern` keyword, so the request is
    // sent as a raw elicitation/create to keep the schema exactly as written.
    let params = json!({
        "mode": "form",
        "message": "Please fill in the Periscope demo form.",
        "requestedSchema": elicit_form_schema()
    });
    let request =
        ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", Some(params)));
    let response = match ask_client(state, context, context.peer.send_request(request)).await {
        Err(result) => return result,
        Ok(Ok(response)) => response,
        Ok(Err(error)) => return error_result(format!("elicitation failed: {error}")),
    };
    let result: ElicitResult = match response {
        ClientResult::ElicitResult(result) => result,
        ClientResult::CustomResult(custom) => match custom.result_as() {
            Ok(result) => result,
            Err(error) => {
                return error_result(format!(
                    "the client sent an invalid elicitation result: {error}"
                ));
            }
        },
        other => {
            return error_result(format!(
                "the client sent an unexpected elicitation result: {other:?}"
            ));
        }
    };
    let content = result
        .content
        .map(|content| content.to_string())
        .unwrap_or_else(|| "null".to_string());
    text_result(format!(
        "action: {}\ncontent: {content}",
        action_name(&result.action)
    ))
}

pub async fn elicit_url(
    state: &DemoState,
    args: &JsonObject,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let supports_url = context
        .client_capabilities()
        .and_then(|capabilities| capabilities.elicitation)
        .is_some_and(|elicitation| elicitation.url.is_some());
    if !supports_url {
        return error_result("the client did not declare the elicitation.url capability");
    }
    let elicitation_id = state.next_elicitation_id();
    let url = match args.get("url").and_then(Value::as_str) {
        Some(url) => url.to_string(),
        None => format!("https://example.com/periscope-demo/authorize?session={elicitation_id}"),
    };
    let params = ElicitRequestParams::UrlElicitationParams {
        meta: None,
        message: "Please open this page to authorize the Periscope demo (nothing happens there)."
            .to_string(),
        url: url.clone(),
        elicitation_id: elicitation_id.clone(),
    };
    let result = match ask_client(state, context, context.peer.create_elicitation(params)).await {
        Err(result) => return result,
        Ok(Ok(result)) => result,
        Ok(Err(error)) => return error_result(format!("elicitation failed: {error}")),
    };
    if result.action == ElicitationAction::Accept {
        // Pretend the out-of-band flow finished right away.
        let notification = ServerNotification::CustomNotification(CustomNotification::new(
            "notifications/elicitation/complete",
            Some(json!({ "elicitationId": elicitation_id })),
        ));
        if let Err(error) = context.peer.send_notification(notification).await {
            tracing::warn!(%error, "failed to send notifications/elicitation/complete");
        }
    }
    text_result(format!(
        "action: {}\nelicitationId: {elicitation_id}\nurl: {url}",
        action_name(&result.action)
    ))
}

pub async fn sample(
    state: &DemoState,
    args: &JsonObject,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let prompt = match required_str(args, "prompt") {
        Ok(prompt) => prompt,
        Err(error) => return invalid_argument(error),
    };
    let supports_sampling = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.sampling.is_some());
    if !supports_sampling {
        return error_result("the client did not declare the sampling capability");
    }
    let offer_tools = args.get("offer_tools").and_then(Value::as_bool) == Some(true);
    let tools_declared = context
        .client_capabilities()
        .and_then(|c| c.sampling)
        .is_some_and(|s| s.tools.is_some());
    if offer_tools && !tools_declared {
        return error_result("the client did not declare the sampling.tools capability");
    }
    // Sent raw, so the request (tools included) and the reply (tool_use included) are exactly
    // what is on the wire.
    let mut params = json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "systemPrompt": "You are answering on behalf of the Periscope demo MCP server. Be brief.",
        "modelPreferences": {"hints": [{"name": "claude"}], "intelligencePriority": 0.8, "speedPriority": 0.5},
        "maxTokens": 200
    });
    if offer_tools {
        params["tools"] = json!([{
            "name": "get_weather",
            "description": "The weather in a city.",
            "inputSchema": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"]
            }
        }]);
        params["toolChoice"] = json!({"mode": "auto"});
    }
    let request =
        ServerRequest::CustomRequest(CustomRequest::new("sampling/createMessage", Some(params)));
    let response = match ask_client(state, context, context.peer.send_request(request)).await {
        Err(result) => return result,
        Ok(Ok(response)) => response,
        Ok(Err(error)) => return error_result(format!("sampling failed: {error}")),
    };
    let result = match serde_json::to_value(&response) {
        Ok(value) => value,
        Err(error) => return error_result(format!("unreadable sampling result: {error}")),
    };
    let model = result.get("model").and_then(Value::as_str).unwrap_or("?");
    let blocks = match result.get("content") {
        Some(Value::Array(blocks)) => blocks.clone(),
        Some(block) => vec![block.clone()],
        None => Vec::new(),
    };
    let parts: Vec<String> = blocks
        .iter()
        .map(|block| match block.get("type").and_then(Value::as_str) {
            Some("text") => block
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            Some("tool_use") => format!(
                "tool_use {}({})",
                block.get("name").and_then(Value::as_str).unwrap_or("?"),
                block.get("input").cloned().unwrap_or(Value::Null)
            ),
            Some(other) => format!("({other} content)"),
            None => "(content without a type)".to_string(),
        })
        .collect();
    let text = if parts.iter().all(String::is_empty) {
        "(no text content)".to_string()
    } else {
        parts.join("\n")
    };
    text_result(format!("model {model} replied: {text}"))
}

/// How long after its -32042 error the demo pretends the user finished the browser step.
const AUTHORIZATION_DELAY: Duration = Duration::from_millis(1500);

pub fn needs_authorization(
    state: &Arc<DemoState>,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, McpError> {
    if state.authorized() {
        return Ok(text_result("authorized: the action ran"));
    }
    let elicitation_id = state.next_elicitation_id();
    let url = format!("https://example.com/periscope-demo/authorize?session={elicitation_id}");
    let peer = context.peer.clone();
    let later = state.clone();
    let id = elicitation_id.clone();
    tokio::spawn(async move {
        tokio::time::sleep(AUTHORIZATION_DELAY).await;
        later.set_authorized();
        let notification = ServerNotification::CustomNotification(CustomNotification::new(
            "notifications/elicitation/complete",
            Some(json!({ "elicitationId": id })),
        ));
        if let Err(error) = peer.send_notification(notification).await {
            tracing::warn!(%error, "failed to send notifications/elicitation/complete");
        }
    });
    Err(McpError::new(
        rmcp::model::ErrorCode(-32042),
        "This request requires more information.",
        Some(json!({
            "elicitations": [{
                "mode": "url",
                "elicitationId": elicitation_id,
                "url": url,
                "message": "Authorize the Periscope demo to act on your behalf (nothing happens there)."
            }]
        })),
    ))
}

pub async fn list_roots(state: &DemoState, context: &RequestContext<RoleServer>) -> CallToolResult {
    let supports_roots = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.roots.is_some());
    if !supports_roots {
        return error_result("the client did not declare the roots capability");
    }
    let result = match ask_client(state, context, context.peer.list_roots()).await {
        Err(result) => return result,
        Ok(Ok(result)) => result,
        Ok(Err(error)) => return error_result(format!("roots/list failed: {error}")),
    };
    if result.roots.is_empty() {
        return text_result("(no roots)");
    }
    let lines = result
        .roots
        .iter()
        .map(|root| match &root.name {
            Some(name) => format!("{} ({name})", root.uri),
            None => root.uri.clone(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    text_result(lines)
}

/// All logging levels, least severe first.
pub const LOG_LEVELS: [LoggingLevel; 8] = [
    LoggingLevel::Debug,
    LoggingLevel::Info,
    LoggingLevel::Notice,
    LoggingLevel::Warning,
    LoggingLevel::Error,
    LoggingLevel::Critical,
    LoggingLevel::Alert,
    LoggingLevel::Emergency,
];

/// Severity rank of `level` (0 = debug … 7 = emergency).
pub fn level_rank(level: LoggingLevel) -> usize {
    LOG_LEVELS
        .iter()
        .position(|candidate| *candidate == level)
        .unwrap_or(0)
}

fn level_name(level: LoggingLevel) -> String {
    serde_json::to_value(level)
        .ok()
        .and_then(|value| value.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Sends one log message per level from `minimum` up (all of them for `None`):
/// the level set by `logging/setLevel`, or a modern request's own
/// `io.modelcontextprotocol/logLevel`.
pub async fn emit_logs(
    minimum: Option<LoggingLevel>,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let minimum = minimum.map_or(0, level_rank);
    let mut sent = 0;
    for level in LOG_LEVELS
        .into_iter()
        .filter(|level| level_rank(*level) >= minimum)
    {
        let name = level_name(level);
        let param = LoggingMessageNotificationParam::new(
            level,
            Value::String(format!(
                "This is a {name} message from the Periscope demo server."
            )),
        )
        .with_logger("demo");
        match context.peer.notify_logging_message(param).await {
            Ok(()) => sent += 1,
            Err(error) => tracing::warn!(%error, level = %name, "failed to send a log message"),
        }
    }
    text_result(format!("sent {sent} log messages"))
}

pub async fn trigger_list_changed(
    state: &DemoState,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let present = state.toggle_bonus();
    let peer = &context.peer;
    let results = [
        peer.notify_tool_list_changed().await,
        peer.notify_resource_list_changed().await,
        peer.notify_prompt_list_changed().await,
    ];
    for error in results.into_iter().filter_map(Result::err) {
        tracing::warn!(%error, "failed to send a list_changed notification");
    }
    if present {
        text_result(
            "bonus items are now present: tool \"bonus\", resource demo://bonus and prompt \
             \"bonus_prompt\"",
        )
    } else {
        text_result(
            "bonus items are now absent: removed tool \"bonus\", resource demo://bonus and \
             prompt \"bonus_prompt\"",
        )
    }
}

pub async fn touch_resource(
    state: &DemoState,
    args: &JsonObject,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let uri = match required_str(args, "uri") {
        Ok(uri) => uri,
        Err(error) => return invalid_argument(error),
    };
    if !state.is_subscribed(uri) {
        return text_result(format!("{uri} is not subscribed; no notification was sent"));
    }
    match context
        .peer
        .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
        .await
    {
        Ok(()) => text_result(format!("sent notifications/resources/updated for {uri}")),
        Err(error) => error_result(format!(
            "failed to send notifications/resources/updated for {uri}: {error}"
        )),
    }
}

/// Runs the tool `name`. `Err` is reserved for an unknown tool.
pub async fn call(
    state: &Arc<DemoState>,
    name: &str,
    args: &JsonObject,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, McpError> {
    let result = match name {
        "echo" => echo(args),
        "add" => add(args),
        "create_order" => create_order(args),
        "mixed_content" => mixed_content(),
        "slow_task" => slow_task(args, context).await,
        "elicit_form" => elicit_form(state, context).await,
        "elicit_url" => elicit_url(state, args, context).await,
        "sample" => sample(state, args, context).await,
        "needs_authorization" => return needs_authorization(state, context),
        "list_roots" => list_roots(state, context).await,
        "fail" => fail(),
        "emit_logs" => emit_logs(state.log_level(), context).await,
        "trigger_list_changed" => trigger_list_changed(state, context).await,
        "touch_resource" => touch_resource(state, args, context).await,
        app::CALCULATOR_APP => app::calculator_app(args),
        app::CALCULATOR_LOG => app::calculator_log(state, args),
        BONUS_TOOL if state.bonus() => bonus(),
        other => {
            return Err(McpError::invalid_params(
                format!("Unknown tool: {other}"),
                Some(json!({ "tool": other })),
            ));
        }
    };
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(result: &CallToolResult) -> String {
        result.content[0].as_text().unwrap().text.clone()
    }

    #[test]
    fn add_keeps_integers_integral() {
        let result = add(&object(json!({ "a": 2, "b": 3 })));
        assert_eq!(result.structured_content, Some(json!({ "sum": 5 })));
        assert_eq!(text_of(&result), r#"{"sum":5}"#);
        let result = add(&object(json!({ "a": 1.5, "b": 2 })));
        assert_eq!(result.structured_content, Some(json!({ "sum": 3.5 })));
        assert_eq!(add(&object(json!({ "a": 1 }))).is_error, Some(true));
    }

    #[test]
    fn echo_prefixes() {
        assert_eq!(
            text_of(&echo(&object(json!({ "message": "hi" })))),
            "echo: hi"
        );
        assert_eq!(echo(&JsonObject::new()).is_error, Some(true));
    }

    #[test]
    fn create_order_summarises_and_validates() {
        let args = object(json!({
            "customer": {
                "name": "Ada",
                "email": "ada@example.com",
                "address": { "street": "1 Main St", "city": "Paris", "country": "FR" }
            },
            "items": [{ "sku": "ABC-1234", "quantity": 2 }, { "sku": "XYZ-0001" }],
            "payment": { "type": "card", "number": "4242424242424242" }
        }));
        let result = create_order(&args);
        assert_eq!(result.is_error, Some(false));
        let summary = text_of(&result);
        assert!(summary.contains("2 line(s), 3 unit(s)"), "{summary}");
        assert!(summary.contains("card ending in 4242"), "{summary}");
        assert!(summary.contains("Priority: normal"), "{summary}");
        let echoed: Value =
            serde_json::from_str(&result.content[1].as_text().unwrap().text).unwrap();
        assert_eq!(Value::Object(args), echoed);

        let bad = object(json!({
            "customer": { "name": "Ada", "email": "ada", "address": { "street": "x", "city": "y", "country": "ZZ" } },
            "items": [{ "sku": "abc" }],
            "payment": { "type": "invoice", "po_number": "" }
        }));
        assert_eq!(create_order(&bad).is_error, Some(true));
    }

    #[test]
    fn tool_names_are_stable() {
        let names: Vec<_> = all(true).into_iter().map(|tool| tool.name).collect();
        assert_eq!(
            names,
            [
                "echo",
                "add",
                "create_order",
                "mixed_content",
                "slow_task",
                "elicit_form",
                "elicit_url",
                "needs_authorization",
                "sample",
                "list_roots",
                "fail",
                "emit_logs",
                "trigger_list_changed",
                "touch_resource",
                "calculator_app",
                "calculator_log",
                "bonus"
            ]
        );
        assert!(find("bonus", false).is_none());
    }
}
