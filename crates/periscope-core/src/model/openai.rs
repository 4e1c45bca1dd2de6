//! The OpenAI chat-completions wire format, spoken by OpenAI and by the OpenAI-compatible
//! servers of local runtimes (Ollama, LM Studio, vLLM, llama.cpp's server): `POST
//! {base}/chat/completions` with `stream: true` and `stream_options.include_usage`, answered
//! by `data:` chunks of `choices[0].delta` (text in `content`, tool calls as `tool_calls`
//! fragments by `index`), a `finish_reason`, a last chunk with `usage`, and `data: [DONE]`.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::ModelError;
use super::chat::{
    Assembled, Block, Building, ChatRequest, ChatRole, StopReason, StreamEvent, ToolChoice, Usage,
    text_of,
};
use super::decoder::{self, Answer, EventMapping};
use crate::transport::sse::SseEvent;

/// The endpoint under a base URL such as `http://localhost:11434/v1`.
pub fn endpoint(base_url: &str) -> String {
    format!("{}/chat/completions", base_url.trim_end_matches('/'))
}

/// Which name the token limit goes by at `base_url`. OpenAI's own API has replaced
/// `max_tokens` by `max_completion_tokens` (its reasoning models refuse the old name); the
/// compatible servers of local runtimes know `max_tokens` for certain, not always the new one.
pub fn max_tokens_field(base_url: &str) -> &'static str {
    let official = url::Url::parse(base_url)
        .ok()
        .and_then(|u| {
            u.host_str()
                .map(|h| h.eq_ignore_ascii_case("api.openai.com"))
        })
        .unwrap_or(false);
    if official {
        "max_completion_tokens"
    } else {
        "max_tokens"
    }
}

/// The request body; `max_tokens_field`: see [`max_tokens_field`].
pub fn request_body(
    model: &str,
    request: &ChatRequest,
    max_tokens: Option<u32>,
    max_tokens_field: &str,
) -> Value {
    let mut messages = Vec::new();
    if let Some(system) = &request.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    for message in &request.messages {
        match message.role {
            ChatRole::User => user_messages(&message.content, &mut messages),
            ChatRole::Assistant => messages.push(assistant_message(&message.content)),
        }
    }
    let mut body = json!({
        "model": model,
        "messages": messages,
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                let mut function = json!({"name": t.name, "parameters": t.input_schema});
                if let Some(d) = &t.description {
                    function["description"] = json!(d);
                }
                json!({"type": "function", "function": function})
            })
            .collect();
        body["tool_choice"] = json!(match request.tool_choice {
            ToolChoice::Auto => "auto",
            ToolChoice::Required => "required",
            ToolChoice::None => "none",
        });
    }
    if let Some(max) = request.max_tokens.or(max_tokens) {
        body[max_tokens_field] = json!(max);
    }
    if let Some(t) = request.temperature {
        body["temperature"] = json!(t);
    }
    if !request.stop.is_empty() {
        body["stop"] = json!(request.stop);
    }
    body
}

/// A user message: its tool results become `tool` messages (first: they answer the assistant
/// message just before), the rest one `user` message.
fn user_messages(blocks: &[Block], out: &mut Vec<Value>) {
    for block in blocks {
        if let Block::ToolResult {
            id,
            content,
            is_error,
        } = block
        {
            // The format has no error flag: the text says it.
            let text = text_of(content);
            let text = if *is_error {
                format!("Error: {text}")
            } else {
                text
            };
            out.push(json!({"role": "tool", "tool_call_id": id, "content": text}));
        }
    }
    let rest: Vec<&Block> = blocks
        .iter()
        .filter(|b| matches!(b, Block::Text { .. } | Block::Image { .. }))
        .collect();
    if rest.is_empty() {
        return;
    }
    if rest.iter().all(|b| matches!(b, Block::Text { .. })) {
        let text: String = rest
            .iter()
            .map(|b| match b {
                Block::Text { text } => text.as_str(),
                _ => "",
            })
            .collect::<Vec<_>>()
            .join("\n");
        out.push(json!({"role": "user", "content": text}));
        return;
    }
    let parts: Vec<Value> = rest
        .iter()
        .map(|b| match b {
            Block::Image { mime, data } => {
                json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{data}")}})
            }
            Block::Text { text } => json!({"type": "text", "text": text}),
            _ => Value::Null,
        })
        .collect();
    out.push(json!({"role": "user", "content": parts}));
}

fn assistant_message(blocks: &[Block]) -> Value {
    let text = text_of(
        &blocks
            .iter()
            .filter(|b| matches!(b, Block::Text { .. }))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let calls: Vec<Value> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::ToolUse { id, name, input } => Some(json!({
                "id": id,
                "type": "function",
                "function": {"name": name, "arguments": input.to_string()},
            })),
            _ => None,
        })
        .collect();
    let mut message = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
    if !calls.is_empty() {
        message["tool_calls"] = json!(calls);
    }
    message
}

fn stop_reason(word: &str) -> StopReason {
    match word {
        "stop" => StopReason::EndTurn,
        "length" => StopReason::MaxTokens,
        "tool_calls" | "function_call" => StopReason::ToolUse,
        other => StopReason::Other(other.to_string()),
    }
}

fn usage_of(v: &Value) -> Option<Usage> {
    let u = v.get("usage").filter(|u| u.is_object())?;
    Some(Usage {
        input: u.get("prompt_tokens").and_then(Value::as_u64),
        output: u.get("completion_tokens").and_then(Value::as_u64),
    })
}

/// Puts a streamed answer together, chunk by chunk.
pub type Decoder = decoder::Decoder<Chunks>;

/// The chat-completions chunks mapped onto an answer: one text block, tool calls by `index`.
#[derive(Debug, Default)]
pub struct Chunks {
    text_at: Option<usize>,
    /// A tool call's `index` → its place in the answer.
    tool_at: HashMap<u64, usize>,
}

impl EventMapping for Chunks {
    const CLOSING: &'static str = "its closing [DONE]";

    fn map(
        &mut self,
        event: &SseEvent,
        answer: &mut Answer,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), ModelError> {
        let data = String::from_utf8_lossy(&event.data);
        let data = data.trim();
        if data.is_empty() {
            return Ok(());
        }
        if data == "[DONE]" {
            answer.close();
            return Ok(());
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| {
            ModelError::protocol(format!("a chunk of the stream is not JSON ({e})"))
        })?;
        if let Some(error) = chunk.get("error") {
            return Err(ModelError::provider(provider_message(error)));
        }
        if let Some(model) = chunk.get("model").and_then(Value::as_str) {
            answer.set_model(model);
        }
        if let Some(usage) = usage_of(&chunk) {
            answer.set_usage(usage, out);
        }
        let Some(choice) = chunk
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
        else {
            return Ok(());
        };
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        if let Some(text) = delta.get("content").and_then(Value::as_str)
            && !text.is_empty()
        {
            match self.text_at {
                Some(place) => answer.push_text(place, text, out),
                None => self.text_at = Some(answer.open_text(text, out)),
            }
        }
        if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
            for call in calls {
                self.tool_fragment(call, answer, out);
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            answer.set_stop(stop_reason(reason));
        }
        Ok(())
    }
}

impl Chunks {
    fn tool_fragment(&mut self, call: &Value, answer: &mut Answer, out: &mut Vec<StreamEvent>) {
        let id = call
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let function = call.get("function").unwrap_or(&Value::Null);
        let name = function.get("name").and_then(Value::as_str);
        let arguments = function.get("arguments").and_then(|a| match a {
            Value::String(s) => Some(s.clone()),
            // Some servers send the arguments as an object, whole.
            Value::Object(_) => Some(a.to_string()),
            _ => None,
        });
        // Servers that leave `index` out send each call whole, or one at a time.
        let index = match call.get("index").and_then(Value::as_u64) {
            Some(i) => i,
            None if id.is_some() => self.tool_at.len() as u64,
            None => self.tool_at.len().saturating_sub(1) as u64,
        };
        let place = match self.tool_at.get(&index) {
            Some(&place) => place,
            None => {
                let id = id
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("call_{index}"));
                let place = answer.open_tool(id, name.unwrap_or("").to_string(), out);
                self.tool_at.insert(index, place);
                place
            }
        };
        if let Some(arguments) = arguments
            && !arguments.is_empty()
        {
            answer.push_tool_input(place, &arguments, out);
        }
    }
}

/// The text of an `error` member: its `message`, else the whole of it.
pub(crate) fn provider_message(error: &Value) -> String {
    error
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| error.as_str().map(str::to_string))
        .unwrap_or_else(|| error.to_string())
}

/// A non-streamed answer (`choices[0].message`).
pub fn from_json(value: &Value) -> Result<Assembled, ModelError> {
    if let Some(error) = value.get("error") {
        return Err(ModelError::provider(provider_message(error)));
    }
    let choice = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or_else(|| ModelError::protocol("the answer has no choices"))?;
    let message = choice.get("message").unwrap_or(&Value::Null);
    let mut blocks = Vec::new();
    if let Some(text) = message.get("content").and_then(Value::as_str)
        && !text.is_empty()
    {
        blocks.push(Block::text(text));
    }
    for (i, call) in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let function = call.get("function").unwrap_or(&Value::Null);
        let json = match function.get("arguments") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        blocks.push(
            Building::Tool {
                id: call
                    .get("id")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("call_{i}")),
                name: function
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                json,
            }
            .finish(),
        );
    }
    Ok(Assembled {
        blocks,
        stop: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(stop_reason),
        usage: usage_of(value).unwrap_or_default(),
        model: value
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::decoder::decode_recorded;

    pub(crate) fn decode(
        bytes: &[u8],
        piece: usize,
    ) -> (Vec<StreamEvent>, Result<Assembled, ModelError>) {
        decode_recorded::<Chunks>(bytes, piece)
    }

    const TEXT_STREAM: &str = concat!(
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"llama3.2\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"model\":\"llama3.2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The s\"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"model\":\"llama3.2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"um is 5.\"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"model\":\"llama3.2\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: {\"id\":\"c1\",\"model\":\"llama3.2\",\"choices\":[],\"usage\":{\"prompt_tokens\":31,\"completion_tokens\":7,\"total_tokens\":38}}\n\n",
        "data: [DONE]\n\n",
    );

    #[test]
    fn text_chunks_join_into_one_block() {
        let (events, assembled) = decode(TEXT_STREAM.as_bytes(), 7);
        let assembled = assembled.unwrap();
        assert_eq!(assembled.blocks, vec![Block::text("The sum is 5.")]);
        assert_eq!(assembled.stop, Some(StopReason::EndTurn));
        assert_eq!(assembled.model.as_deref(), Some("llama3.2"));
        let deltas: Vec<&StreamEvent> = events
            .iter()
            .filter(|e| matches!(e, StreamEvent::TextDelta { .. }))
            .collect();
        assert_eq!(deltas.len(), 2);
    }

    #[test]
    fn tool_call_fragments_assemble_into_one_tool_use() {
        let stream = concat!(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"call_abc\",\"type\":\"function\",\"function\":{\"name\":\"add\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\"\"}}]},\"finish_reason\":null}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\": 2, \\\"b\"}}]},\"finish_reason\":null}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\": 3}\"}}]},\"finish_reason\":null}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_def\",\"type\":\"function\",\"function\":{\"name\":\"echo\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
            "data: [DONE]\n\n",
        );
        let (events, assembled) = decode(stream.as_bytes(), 5);
        let assembled = assembled.unwrap();
        assert_eq!(
            assembled.blocks,
            vec![
                Block::ToolUse {
                    id: "call_abc".into(),
                    name: "add".into(),
                    input: json!({"a": 2, "b": 3})
                },
                Block::ToolUse {
                    id: "call_def".into(),
                    name: "echo".into(),
                    input: json!({})
                },
            ]
        );
        assert_eq!(assembled.stop, Some(StopReason::ToolUse));
        assert_eq!(
            events[0],
            StreamEvent::ToolUseStart {
                id: "call_abc".into(),
                name: "add".into()
            }
        );
        let partial: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::ToolInputDelta { id, partial } if id == "call_abc" => {
                    Some(partial.as_str())
                }
                _ => None,
            })
            .collect();
        assert_eq!(partial, "{\"a\": 2, \"b\": 3}");
    }

    #[test]
    fn usage_comes_from_the_last_chunk() {
        let (events, assembled) = decode(TEXT_STREAM.as_bytes(), 64);
        assert_eq!(
            assembled.unwrap().usage,
            Usage {
                input: Some(31),
                output: Some(7)
            }
        );
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Usage {
                input: Some(31),
                output: Some(7)
            })
        );
        // A runtime that sends no usage: unknown, not zero.
        let without = TEXT_STREAM.replace(
            ",\"usage\":{\"prompt_tokens\":31,\"completion_tokens\":7,\"total_tokens\":38}",
            "",
        );
        let (_, assembled) = decode(without.as_bytes(), 64);
        assert_eq!(assembled.unwrap().usage, Usage::default());
    }

    #[test]
    fn a_stream_that_stops_before_done_is_an_error() {
        let cut = &TEXT_STREAM[..TEXT_STREAM.find("data: {\"id\":\"c1\",\"model\":\"llama3.2\",\"choices\":[{\"index\":0,\"delta\":{},").unwrap()];
        let (events, assembled) = decode(cut.as_bytes(), 9);
        assert!(!events.is_empty(), "what came is still delivered");
        let err = assembled.unwrap_err();
        assert!(err.to_string().contains("[DONE]"), "{err}");
        // An error chunk mid-stream ends the turn with its message.
        let errored = "data: {\"error\":{\"message\":\"model not found\"}}\n\n";
        let (_, assembled) = decode(errored.as_bytes(), 9);
        assert!(
            matches!(assembled, Err(ModelError::Provider { detail }) if detail == "model not found")
        );
    }

    #[test]
    fn openais_own_api_gets_the_new_name_for_the_token_limit() {
        assert_eq!(
            max_tokens_field("https://api.openai.com/v1"),
            "max_completion_tokens"
        );
        for local in [
            "http://localhost:11434/v1",
            "http://localhost:8000/v1",
            "https://openrouter.ai/api/v1",
        ] {
            assert_eq!(max_tokens_field(local), "max_tokens", "{local}");
        }
    }

    #[test]
    fn tool_results_become_tool_messages_before_the_users_text() {
        let request = ChatRequest {
            system: Some("be brief".into()),
            messages: vec![
                super::super::chat::ChatMessage::user(vec![Block::text("add 2 and 3")]),
                super::super::chat::ChatMessage::assistant(vec![Block::ToolUse {
                    id: "c1".into(),
                    name: "add".into(),
                    input: json!({"a": 2, "b": 3}),
                }]),
                super::super::chat::ChatMessage::user(vec![Block::ToolResult {
                    id: "c1".into(),
                    content: vec![Block::text("5")],
                    is_error: false,
                }]),
            ],
            ..ChatRequest::default()
        };
        let body = request_body("m", &request, Some(64), "max_tokens");
        assert_eq!(body["max_tokens"], 64);
        let messages = body["messages"].as_array().unwrap();
        assert_eq!(
            messages[0],
            json!({"role": "system", "content": "be brief"})
        );
        assert_eq!(
            messages[2]["tool_calls"][0]["function"]["arguments"],
            "{\"a\":2,\"b\":3}"
        );
        assert_eq!(
            messages[3],
            json!({"role": "tool", "tool_call_id": "c1", "content": "5"})
        );
        assert_eq!(messages.len(), 4);
        assert!(body.get("tools").is_none());
    }
}
