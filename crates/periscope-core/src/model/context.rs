//! What of a server besides its tools a model can be given, the way the spec intends: prompts
//! are the user's to choose (a prompt's messages start or join the conversation), resources the
//! user attaches (their contents become blocks of the user's message). Tool results use the
//! same mapping of MCP content blocks.

use crate::vocabulary::breach::Breach;
use serde_json::Value;

use super::chat::{Block, ChatMessage, ChatRole};

/// The most text of one attached resource a model is sent; the rest is cut, and the cut said.
pub const MAX_RESOURCE_TEXT: usize = 512 * 1024;

/// One MCP content block as a chat block. What neither wire format takes (audio, binary
/// resources, links) reaches the model as a sentence or as JSON, never silently dropped.
pub fn content_block(c: &Value) -> Block {
    let s = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
    match c.get("type").and_then(Value::as_str) {
        Some("text") => Block::text(s("text").unwrap_or_default()),
        Some("image") => match (s("mimeType"), s("data")) {
            (Some(mime), Some(data)) => Block::Image { mime, data },
            _ => Block::text(c.to_string()),
        },
        Some("resource") => match c.get("resource") {
            Some(r) => resource_content(r),
            None => Block::text(c.to_string()),
        },
        Some("resource_link") => Block::text(format!(
            "[resource link: {} ({})]",
            s("uri").unwrap_or_default(),
            s("name").or_else(|| s("title")).unwrap_or_default()
        )),
        // Audio and kinds added later: the model gets them as JSON.
        _ => Block::text(c.to_string()),
    }
}

/// One item of a resource's `contents` (or an embedded resource) as a block: text with its URI
/// and type before it, an image as an image, other binary content as a sentence.
fn resource_content(r: &Value) -> Block {
    let uri = r.get("uri").and_then(Value::as_str).unwrap_or("");
    let mime = r.get("mimeType").and_then(Value::as_str);
    let label = match mime {
        Some(m) => format!("{uri} ({m})"),
        None => uri.to_string(),
    };
    if let Some(text) = r.get("text").and_then(Value::as_str) {
        let cut = text.len() > MAX_RESOURCE_TEXT;
        let mut end = text.len().min(MAX_RESOURCE_TEXT);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut body = format!("Resource {label}:\n{}", &text[..end]);
        if cut {
            body.push_str(&format!(
                "\n[cut: the resource holds {} bytes; {} were sent]",
                text.len(),
                end
            ));
        }
        return Block::text(body);
    }
    match (mime, r.get("blob").and_then(Value::as_str)) {
        (Some(m), Some(blob)) if m.starts_with("image/") => Block::Image {
            mime: m.to_string(),
            data: blob.to_string(),
        },
        (_, Some(blob)) => Block::text(format!(
            "[resource {label}: {} bytes of binary content, not sent to the model]",
            blob.len() / 4 * 3
        )),
        _ => Block::text(format!("[resource {label}: no content]")),
    }
}

/// A `resources/read` result as blocks for the user's message.
pub fn resource_blocks(result: &Value) -> Vec<Block> {
    result
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(resource_content)
        .collect()
}

/// A `prompts/get` result's messages as chat messages, in order.
pub fn prompt_messages(result: &Value) -> Result<Vec<ChatMessage>, Breach> {
    let mut out = Vec::new();
    for (i, m) in result
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| Breach::MissingMember {
            member: "messages".into(),
            expected: "array".into(),
        })?
        .iter()
        .enumerate()
    {
        let role = match m.get("role").and_then(Value::as_str) {
            Some("user") => ChatRole::User,
            Some("assistant") => ChatRole::Assistant,
            _ => {
                return Err(Breach::BadValue {
                    member: format!("messages[{i}].role"),
                    value: m.get("role").unwrap_or(&Value::Null).to_string(),
                });
            }
        };
        let content = match m.get("content") {
            Some(Value::Array(blocks)) => blocks.iter().map(content_block).collect(),
            Some(block) => vec![content_block(block)],
            None => {
                return Err(Breach::MissingMember {
                    member: format!("messages[{i}].content"),
                    expected: "object".into(),
                });
            }
        };
        out.push(ChatMessage { role, content });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_prompts_messages_and_an_attached_resource_become_chat_blocks() {
        let prompt = json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Review this:"}},
            {"role": "user", "content": {"type": "resource", "resource": {"uri": "demo://text/1", "mimeType": "text/plain", "text": "hello"}}},
            {"role": "assistant", "content": {"type": "text", "text": "Sure."}}
        ]});
        let messages = prompt_messages(&prompt).unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(
            messages[1].content,
            vec![Block::text("Resource demo://text/1 (text/plain):\nhello")]
        );
        assert_eq!(messages[2].role, ChatRole::Assistant);
        assert!(
            prompt_messages(&json!({"messages": [{"role": "system", "content": {}}]})).is_err()
        );

        let read = json!({"contents": [
            {"uri": "demo://img", "mimeType": "image/png", "blob": "iVBORw0K"},
            {"uri": "demo://bin", "mimeType": "application/zip", "blob": "UEsDBA=="},
            {"uri": "demo://big", "text": "é".repeat(MAX_RESOURCE_TEXT)}
        ]});
        let blocks = resource_blocks(&read);
        assert_eq!(
            blocks[0],
            Block::Image {
                mime: "image/png".into(),
                data: "iVBORw0K".into()
            }
        );
        assert!(
            matches!(&blocks[1], Block::Text { text } if text.contains("binary content, not sent"))
        );
        let Block::Text { text } = &blocks[2] else {
            panic!()
        };
        assert!(text.ends_with(&format!(
            "[cut: the resource holds {} bytes; {} were sent]",
            2 * MAX_RESOURCE_TEXT,
            MAX_RESOURCE_TEXT
        )));
        assert!(text.len() < MAX_RESOURCE_TEXT + 200);
    }
}
