//! The Anthropic Messages wire format: `POST {base}/v1/messages` with `x-api-key` and
//! `anthropic-version: 2023-06-01`, answered by named events: `message_start` (model, input
//! tokens), `content_block_start` (a text or `tool_use` block), `content_block_delta`
//! (`text_delta`, `input_json_delta`), `content_block_stop`, `message_delta` (stop reason,
//! output tokens), `message_stop`; `ping` and `error` may come at any time.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::ModelError;
use super::chat::{
    Assembled, Block, ChatRequest, ChatRole, StopReason, StreamEvent, ToolChoice, Usage,
};
use super::decoder::{self, Answer, EventMapping};
use super::openai::provider_message;
use crate::transport::sse::SseEvent;

/// The API version header this client speaks.
pub const API_VERSION: &str = "2023-06-01";
/// `max_tokens` is required by the API: used when neither the request nor the provider says.
pub const DEFAULT_MAX_TOKENS: u32 = 4096;

/// The endpoint under a base URL such as `https://api.anthropic.com`.
pub fn endpoint(base_url: &str) -> String {
    format!("{}/v1/messages", base_url.trim_end_matches('/'))
}

fn block_json(block: &Block) -> Value {
    match block {
        Block::Text { text } => json!({"type": "text", "text": text}),
        Block::Image { mime, data } => {
            json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}})
        }
        Block::ToolUse { id, name, input } => {
            json!({"type": "tool_use", "id": id, "name": name, "input": input})
        }
        Block::ToolResult {
            id,
            content,
            is_error,
        } => {
            let mut v = json!({
                "type": "tool_result",
                "tool_use_id": id,
                "content": content.iter().map(block_json).collect::<Vec<_>>(),
            });
            if *is_error {
                v["is_error"] = json!(true);
            }
            v
        }
    }
}

/// The request body.
pub fn request_body(model: &str, request: &ChatRequest, max_tokens: Option<u32>) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| {
            json!({
                "role": match m.role { ChatRole::User => "user", ChatRole::Assistant => "assistant" },
                "content": m.content.iter().map(block_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut body = json!({
        "model": model,
        "max_tokens": request.max_tokens.or(max_tokens).unwrap_or(DEFAULT_MAX_TOKENS),
        "messages": messages,
        "stream": true,
    });
    if let Some(system) = &request.system {
        body["system"] = json!(system);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                let mut tool = json!({"name": t.name, "input_schema": t.input_schema});
                if let Some(d) = &t.description {
                    tool["description"] = json!(d);
                }
                tool
            })
            .collect();
        body["tool_choice"] = json!({"type": match request.tool_choice {
            ToolChoice::Auto => "auto",
            ToolChoice::Required => "any",
            ToolChoice::None => "none",
        }});
    }
    if let Some(t) = request.temperature {
        body["temperature"] = json!(t);
    }
    if !request.stop.is_empty() {
        body["stop_sequences"] = json!(request.stop);
    }
    body
}

fn stop_reason(word: &str) -> StopReason {
    match word {
        "end_turn" => StopReason::EndTurn,
        "max_tokens" => StopReason::MaxTokens,
        "stop_sequence" => StopReason::StopSequence,
        "tool_use" => StopReason::ToolUse,
        other => StopReason::Other(other.to_string()),
    }
}

/// Puts a streamed answer together, event by event.
pub type Decoder = decoder::Decoder<Events>;

/// The Messages API's named events mapped onto an answer: blocks by their `index`.
#[derive(Debug, Default)]
pub struct Events {
    /// A block's `index` → its place in the answer (blocks of other kinds, such as thinking,
    /// hold a place that stays empty).
    at: HashMap<u64, usize>,
}

impl EventMapping for Events {
    const CLOSING: &'static str = "message_stop";

    fn map(
        &mut self,
        event: &SseEvent,
        answer: &mut Answer,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), ModelError> {
        let data: Value = serde_json::from_slice(&event.data).map_err(|e| {
            ModelError::protocol(format!("an event of the stream is not JSON ({e})"))
        })?;
        let kind = event
            .event
            .clone()
            .or_else(|| data.get("type").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_default();
        let index = data.get("index").and_then(Value::as_u64);
        match kind.as_str() {
            "message_start" => {
                let message = data.get("message").unwrap_or(&Value::Null);
                if let Some(model) = message.get("model").and_then(Value::as_str) {
                    answer.set_model(model);
                }
                take_usage(message.get("usage"), answer, out);
            }
            "content_block_start" => {
                let block = data.get("content_block").unwrap_or(&Value::Null);
                let text = |member: &str| {
                    block
                        .get(member)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                let place = match block.get("type").and_then(Value::as_str) {
                    Some("text") => answer.open_text(&text("text"), out),
                    Some("tool_use") => answer.open_tool(text("id"), text("name"), out),
                    // Thinking and server-side blocks are not part of the answer.
                    _ => answer.skip_block(),
                };
                self.at.insert(index.unwrap_or(place as u64), place);
            }
            "content_block_delta" => {
                let delta = data.get("delta").unwrap_or(&Value::Null);
                let Some(place) = index.and_then(|i| self.at.get(&i).copied()) else {
                    return Ok(());
                };
                let piece = |member: &str| delta.get(member).and_then(Value::as_str).unwrap_or("");
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => answer.push_text(place, piece("text"), out),
                    Some("input_json_delta") => {
                        answer.push_tool_input(place, piece("partial_json"), out)
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = data
                    .get("delta")
                    .and_then(|d| d.get("stop_reason"))
                    .and_then(Value::as_str)
                {
                    answer.set_stop(stop_reason(reason));
                }
                take_usage(data.get("usage"), answer, out);
            }
            "message_stop" => answer.close(),
            "error" => {
                return Err(ModelError::provider(provider_message(
                    data.get("error").unwrap_or(&data),
                )));
            }
            // ping, content_block_stop, and event types added later.
            _ => {}
        }
        Ok(())
    }
}

/// Counts in `message_start` and `message_delta` are cumulative: the latest wins.
fn take_usage(usage: Option<&Value>, answer: &mut Answer, out: &mut Vec<StreamEvent>) {
    let Some(usage) = usage.filter(|u| u.is_object()) else {
        return;
    };
    let count = |member: &str| usage.get(member).and_then(Value::as_u64);
    let so_far = answer.usage();
    let usage = Usage {
        input: count("input_tokens").or(so_far.input),
        output: count("output_tokens").or(so_far.output),
    };
    answer.set_usage(usage, out);
}

/// A non-streamed answer (a whole `message`).
pub fn from_json(value: &Value) -> Result<Assembled, ModelError> {
    if value.get("type").and_then(Value::as_str) == Some("error") || value.get("error").is_some() {
        return Err(ModelError::provider(provider_message(
            value.get("error").unwrap_or(value),
        )));
    }
    let mut blocks = Vec::new();
    for block in value
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => blocks.push(Block::text(
                block.get("text").and_then(Value::as_str).unwrap_or(""),
            )),
            Some("tool_use") => blocks.push(Block::ToolUse {
                id: block.get("id").and_then(Value::as_str).unwrap_or("").into(),
                name: block
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .into(),
                input: block.get("input").cloned().unwrap_or(json!({})),
            }),
            _ => {}
        }
    }
    let usage = value.get("usage");
    Ok(Assembled {
        blocks,
        stop: value
            .get("stop_reason")
            .and_then(Value::as_str)
            .map(stop_reason),
        usage: Usage {
            input: usage
                .and_then(|u| u.get("input_tokens"))
                .and_then(Value::as_u64),
            output: usage
                .and_then(|u| u.get("output_tokens"))
                .and_then(Value::as_u64),
        },
        model: value
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::decoder::decode_recorded;

    fn decode(bytes: &[u8], piece: usize) -> (Vec<StreamEvent>, Result<Assembled, ModelError>) {
        decode_recorded::<Events>(bytes, piece)
    }

    /// A recorded stream (the API's documented shape): text, then a tool call in three
    /// `input_json_delta`s.
    const TOOL_STREAM: &str = concat!(
        "event: message_start\n",
        "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":472,\"output_tokens\":2}}}\n\n",
        "event: content_block_start\n",
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: ping\n",
        "data: {\"type\": \"ping\"}\n\n",
        "event: content_block_delta\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me add them.\"}}\n\n",
        "event: content_block_stop\n",
        "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: content_block_start\n",
        "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"add\",\"input\":{}}}\n\n",
        "event: content_block_delta\n",
        "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\n\n",
        "event: content_block_delta\n",
        "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\": 2,\"}}\n\n",
        "event: content_block_delta\n",
        "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\" \\\"b\\\": 3}\"}}\n\n",
        "event: content_block_stop\n",
        "data: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
        "event: message_delta\n",
        "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":89}}\n\n",
        "event: message_stop\n",
        "data: {\"type\":\"message_stop\"}\n\n",
    );

    #[test]
    fn input_json_deltas_assemble_into_the_input() {
        let (events, assembled) = decode(TOOL_STREAM.as_bytes(), 11);
        let assembled = assembled.unwrap();
        assert_eq!(
            assembled.blocks,
            vec![
                Block::text("Let me add them."),
                Block::ToolUse {
                    id: "toolu_01".into(),
                    name: "add".into(),
                    input: json!({"a": 2, "b": 3})
                }
            ]
        );
        assert_eq!(assembled.model.as_deref(), Some("claude-sonnet-4-5"));
        assert!(events.contains(&StreamEvent::ToolUseStart {
            id: "toolu_01".into(),
            name: "add".into()
        }));
    }

    #[test]
    fn message_delta_sets_tool_use_stop() {
        let (_, assembled) = decode(TOOL_STREAM.as_bytes(), 4096);
        let assembled = assembled.unwrap();
        assert_eq!(assembled.stop, Some(StopReason::ToolUse));
        assert_eq!(
            assembled.usage,
            Usage {
                input: Some(472),
                output: Some(89)
            }
        );
    }

    #[test]
    fn an_error_event_mid_stream_ends_the_turn_with_its_message() {
        let cut = TOOL_STREAM
            .find("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1")
            .unwrap();
        let stream = format!(
            "{}event: error\ndata: {{\"type\": \"error\", \"error\": {{\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}}}\n\n{}",
            &TOOL_STREAM[..cut],
            &TOOL_STREAM[cut..]
        );
        let (events, assembled) = decode(stream.as_bytes(), 13);
        assert!(events.contains(&StreamEvent::TextDelta {
            text: "Let me add them.".into()
        }));
        match assembled {
            Err(ModelError::Provider { detail }) => assert_eq!(detail, "Overloaded"),
            other => panic!("{other:?}"),
        }
        // And a stream cut before message_stop is incomplete, not an answer.
        let (_, assembled) = decode(&TOOL_STREAM.as_bytes()[..cut], 13);
        assert!(assembled.unwrap_err().to_string().contains("message_stop"));
    }

    #[test]
    fn tool_results_stay_in_user_messages_with_their_error_flag() {
        let request = ChatRequest {
            messages: vec![super::super::chat::ChatMessage::user(vec![
                Block::ToolResult {
                    id: "toolu_01".into(),
                    content: vec![Block::text("the user rejected this call")],
                    is_error: true,
                },
            ])],
            tool_choice: ToolChoice::Required,
            tools: vec![super::super::chat::ToolSpec {
                name: "add".into(),
                description: None,
                input_schema: json!({"type": "object"}),
            }],
            ..ChatRequest::default()
        };
        let body = request_body("claude", &request, None);
        assert_eq!(body["max_tokens"], DEFAULT_MAX_TOKENS);
        assert_eq!(body["tool_choice"], json!({"type": "any"}));
        assert_eq!(
            body["messages"][0]["content"][0],
            json!({"type": "tool_result", "tool_use_id": "toolu_01", "is_error": true,
                   "content": [{"type": "text", "text": "the user rejected this call"}]})
        );
    }
}
