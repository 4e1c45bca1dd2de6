//! Content as a server sends it: a content block of every kind (text, image, audio, resource
//! link, embedded resource, and sampling's tool use and tool result), a resource's contents,
//! and the results made of them (`tools/call`, `prompts/get`, `resources/read`), each with the
//! JSON as sent. A block that cannot be read is [`BlockKind::Unknown`] with the reason, never
//! dropped.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What is off in content, one reason a block or a result could not be read as its kind. The
/// names are the UI's words for them (`content:problems.*`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ContentProblem {
    ContentsNotObject,
    ContentsNoUri,
    ContentsNoData,
    BlockNotObject,
    TextWithoutText,
    MediaWithoutData {
        #[serde(rename = "type")]
        block_type: String,
    },
    /// An image or audio block whose `mimeType` is not of its family (or carries parameters,
    /// which a `data:` URI cannot hold).
    MediaMimeType {
        #[serde(rename = "type")]
        block_type: String,
        mime_type: String,
    },
    /// An image or audio block whose `data` is not base64.
    MediaNotBase64 {
        #[serde(rename = "type")]
        block_type: String,
    },
    ToolUseWithoutName,
    LinkWithoutUri,
    NoType,
    UnknownType {
        #[serde(rename = "type")]
        block_type: String,
    },
    ResultNotObject,
    NoContentArray,
    MessageNotObject,
}

/// A blob's data (base64, as sent) and its decoded size in bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Blob {
    pub data: String,
    pub size: u64,
}

/// How a resource's contents are best shown, from its MIME type and what it carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum BodyKind {
    Text,
    /// Text with a JSON MIME type that parses as JSON.
    Json,
    /// A base64 blob of an `image/*` type a `data:` URI can carry.
    Image,
    Binary,
}

/// A resource's contents (`resources/read`, or embedded in a `resource` block): text or blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ResourceContents {
    pub uri: String,
    pub mime_type: Option<String>,
    pub text: Option<String>,
    pub blob: Option<Blob>,
    pub shown_as: BodyKind,
    pub raw: Value,
}

/// One content block's kind and what it carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BlockKind {
    Text {
        text: String,
    },
    Image {
        mime_type: String,
        data: String,
        size: u64,
    },
    Audio {
        mime_type: String,
        data: String,
        size: u64,
    },
    ResourceLink {
        uri: String,
        name: Option<String>,
        title: Option<String>,
        description: Option<String>,
        mime_type: Option<String>,
    },
    Resource {
        resource: ResourceContents,
    },
    /// Sampling (2025-11-25): the model asks for a tool.
    ToolUse {
        id: Option<String>,
        name: String,
        input: Option<Value>,
    },
    /// Sampling (2025-11-25): a tool's answer, itself made of blocks.
    ToolResult {
        tool_use_id: Option<String>,
        content: Vec<ContentBlock>,
        is_error: bool,
    },
    /// Not readable as any kind: why.
    Unknown {
        problem: ContentProblem,
    },
}

/// A content block, read, with the JSON as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ContentBlock {
    #[serde(flatten)]
    pub kind: BlockKind,
    pub raw: Value,
}

/// The bytes base64 text decodes to (whitespace ignored), without decoding it.
pub fn base64_size(base64: &str) -> u64 {
    let clean: Vec<u8> = base64
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if clean.is_empty() {
        return 0;
    }
    let padding = if clean.ends_with(b"==") {
        2
    } else if clean.ends_with(b"=") {
        1
    } else {
        0
    };
    (clean.len() as u64 * 3 / 4).saturating_sub(padding)
}

/// Whether text is base64 (standard alphabet, whitespace allowed, at most two `=` at the end).
pub fn is_base64(text: &str) -> bool {
    let body = text.trim_end();
    let body = body
        .strip_suffix("==")
        .or_else(|| body.strip_suffix('='))
        .unwrap_or(body);
    body.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b.is_ascii_whitespace())
}

/// Whether `mime_type` is of `family` (`image`, `audio`) and bare: a `data:` URI cannot
/// carry parameters, and a webview shows media by its type.
pub fn is_media_type(mime_type: &str, family: &str) -> bool {
    let lower = mime_type.to_ascii_lowercase();
    lower
        .strip_prefix(family)
        .is_some_and(|rest| rest.starts_with('/'))
        && !mime_type.contains(|c: char| c.is_whitespace() || c == ';' || c == ',')
}

/// `application/json`, `text/json` and any `+json` type, with or without parameters.
pub fn is_json_type(mime_type: &str) -> bool {
    let essence = mime_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

fn text_of(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}

impl ResourceContents {
    /// Reads `{uri, mimeType, text | blob}`.
    pub fn read(raw: &Value) -> Result<ResourceContents, ContentProblem> {
        if !raw.is_object() {
            return Err(ContentProblem::ContentsNotObject);
        }
        let uri = text_of(raw, "uri").ok_or(ContentProblem::ContentsNoUri)?;
        let text = text_of(raw, "text");
        let blob = text_of(raw, "blob").map(|data| Blob {
            size: base64_size(&data),
            data,
        });
        let mime_type = text_of(raw, "mimeType");
        let shown_as = match (&text, &blob) {
            (None, None) => return Err(ContentProblem::ContentsNoData),
            (Some(text), _) => {
                let json = mime_type.as_deref().is_some_and(is_json_type)
                    && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
                if json { BodyKind::Json } else { BodyKind::Text }
            }
            (None, Some(blob)) => {
                let image = mime_type
                    .as_deref()
                    .is_some_and(|m| is_media_type(m, "image"))
                    && is_base64(&blob.data);
                if image {
                    BodyKind::Image
                } else {
                    BodyKind::Binary
                }
            }
        };
        Ok(ResourceContents {
            uri,
            mime_type,
            text,
            blob,
            shown_as,
            raw: raw.clone(),
        })
    }
}

impl ContentBlock {
    /// Reads one content block; what cannot be read is [`BlockKind::Unknown`].
    pub fn read(raw: &Value) -> ContentBlock {
        ContentBlock {
            kind: Self::kind_of(raw).unwrap_or_else(|problem| BlockKind::Unknown { problem }),
            raw: raw.clone(),
        }
    }

    /// Reads a block of a tool result or a prompt message, where sampling's tool use and tool
    /// result have no place: those are [`ContentProblem::UnknownType`] there.
    pub fn read_plain(raw: &Value) -> ContentBlock {
        let block = ContentBlock::read(raw);
        match block.kind {
            BlockKind::ToolUse { .. } | BlockKind::ToolResult { .. } => ContentBlock {
                kind: BlockKind::Unknown {
                    problem: ContentProblem::UnknownType {
                        block_type: raw["type"].as_str().unwrap_or_default().to_string(),
                    },
                },
                raw: block.raw,
            },
            _ => block,
        }
    }

    /// Reads a list of blocks (`content` may also be a single block, as in sampling).
    pub fn read_all(raw: &Value) -> Vec<ContentBlock> {
        match raw {
            Value::Array(items) => items.iter().map(ContentBlock::read).collect(),
            one => vec![ContentBlock::read(one)],
        }
    }

    fn kind_of(raw: &Value) -> Result<BlockKind, ContentProblem> {
        if !raw.is_object() {
            return Err(ContentProblem::BlockNotObject);
        }
        let block_type = raw
            .get("type")
            .and_then(Value::as_str)
            .ok_or(ContentProblem::NoType)?;
        Ok(match block_type {
            "text" => BlockKind::Text {
                text: text_of(raw, "text").ok_or(ContentProblem::TextWithoutText)?,
            },
            "image" | "audio" => {
                let (Some(data), Some(mime_type)) =
                    (text_of(raw, "data"), text_of(raw, "mimeType"))
                else {
                    return Err(ContentProblem::MediaWithoutData {
                        block_type: block_type.to_string(),
                    });
                };
                if !is_media_type(&mime_type, block_type) {
                    return Err(ContentProblem::MediaMimeType {
                        block_type: block_type.to_string(),
                        mime_type,
                    });
                }
                if !is_base64(&data) {
                    return Err(ContentProblem::MediaNotBase64 {
                        block_type: block_type.to_string(),
                    });
                }
                let size = base64_size(&data);
                if block_type == "image" {
                    BlockKind::Image {
                        mime_type,
                        data,
                        size,
                    }
                } else {
                    BlockKind::Audio {
                        mime_type,
                        data,
                        size,
                    }
                }
            }
            "resource_link" => BlockKind::ResourceLink {
                uri: text_of(raw, "uri").ok_or(ContentProblem::LinkWithoutUri)?,
                name: text_of(raw, "name"),
                title: text_of(raw, "title"),
                description: text_of(raw, "description"),
                mime_type: text_of(raw, "mimeType"),
            },
            "resource" => BlockKind::Resource {
                resource: ResourceContents::read(raw.get("resource").unwrap_or(&Value::Null))?,
            },
            "tool_use" => BlockKind::ToolUse {
                id: text_of(raw, "id"),
                name: text_of(raw, "name").ok_or(ContentProblem::ToolUseWithoutName)?,
                input: raw.get("input").cloned(),
            },
            "tool_result" => BlockKind::ToolResult {
                tool_use_id: text_of(raw, "toolUseId"),
                content: raw
                    .get("content")
                    .map(ContentBlock::read_all)
                    .unwrap_or_default(),
                is_error: raw.get("isError").and_then(Value::as_bool) == Some(true),
            },
            other => {
                return Err(ContentProblem::UnknownType {
                    block_type: other.to_string(),
                });
            }
        })
    }
}

/// A `tools/call` result, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolResultView {
    pub content: Vec<ContentBlock>,
    /// `structuredContent`, when the server sent it.
    pub structured_content: Option<Value>,
    pub is_error: bool,
    /// What is off about the result's shape (shown, not fatal).
    pub problems: Vec<ContentProblem>,
    pub raw: Value,
}

impl ToolResultView {
    pub fn read(raw: &Value) -> ToolResultView {
        let mut problems = Vec::new();
        if !raw.is_object() {
            problems.push(ContentProblem::ResultNotObject);
        } else if !raw.get("content").is_some_and(Value::is_array) {
            problems.push(ContentProblem::NoContentArray);
        }
        let content = match raw.get("content") {
            Some(Value::Array(items)) => items.iter().map(ContentBlock::read_plain).collect(),
            _ => Vec::new(),
        };
        ToolResultView {
            content,
            structured_content: raw.get("structuredContent").cloned(),
            is_error: raw.get("isError").and_then(Value::as_bool) == Some(true),
            problems,
            raw: raw.clone(),
        }
    }
}

/// One message of a prompt: its role as sent (`?` when none) and its block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PromptMessageView {
    pub role: String,
    pub content: ContentBlock,
}

/// A `prompts/get` result, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PromptResultView {
    pub description: Option<String>,
    pub messages: Vec<PromptMessageView>,
    pub raw: Value,
}

impl PromptResultView {
    pub fn read(raw: &Value) -> PromptResultView {
        let messages = match raw.get("messages") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|m| {
                    if !m.is_object() {
                        return PromptMessageView {
                            role: "?".into(),
                            content: ContentBlock {
                                kind: BlockKind::Unknown {
                                    problem: ContentProblem::MessageNotObject,
                                },
                                raw: m.clone(),
                            },
                        };
                    }
                    PromptMessageView {
                        role: text_of(m, "role").unwrap_or_else(|| "?".into()),
                        content: ContentBlock::read_plain(m.get("content").unwrap_or(&Value::Null)),
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        PromptResultView {
            description: text_of(raw, "description"),
            messages,
            raw: raw.clone(),
        }
    }
}

/// A `resources/read` result, read: its `contents`, with the JSON as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ReadResultView {
    pub contents: Vec<ContentsItem>,
    pub raw: Value,
}

impl ReadResultView {
    pub fn read(raw: &Value) -> ReadResultView {
        ReadResultView {
            contents: read_result_contents(raw),
            raw: raw.clone(),
        }
    }
}

/// One item of a `resources/read` result's `contents`: read, or why not with its JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "read", rename_all = "snake_case")]
pub enum ContentsItem {
    Contents(ResourceContents),
    Unreadable { problem: ContentProblem, raw: Value },
}

/// A `resources/read` result's `contents`, read (a result that is no object is one
/// unreadable item).
pub fn read_result_contents(raw: &Value) -> Vec<ContentsItem> {
    if !raw.is_object() {
        return vec![ContentsItem::Unreadable {
            problem: ContentProblem::ResultNotObject,
            raw: raw.clone(),
        }];
    }
    let Some(Value::Array(items)) = raw.get("contents") else {
        return Vec::new();
    };
    items
        .iter()
        .map(|c| match ResourceContents::read(c) {
            Ok(contents) => ContentsItem::Contents(contents),
            Err(problem) => ContentsItem::Unreadable {
                problem,
                raw: c.clone(),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_spec_block_kind_reads_with_its_raw_json() {
        // From the 2026-07-28 schema's examples (TextContent, ImageContent, AudioContent,
        // ResourceLink, EmbeddedResource, ToolUseContent, ToolResultContent).
        let text = json!({"type": "text", "text": "Tool result text"});
        assert_eq!(
            ContentBlock::read(&text).kind,
            BlockKind::Text {
                text: "Tool result text".into()
            }
        );
        let image = json!({"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
            "mimeType": "image/png", "annotations": {"audience": ["user"], "priority": 0.9}});
        let read = ContentBlock::read(&image);
        assert!(
            matches!(read.kind, BlockKind::Image { ref mime_type, size: 70, .. } if mime_type == "image/png")
        );
        assert_eq!(read.raw, image);
        let audio = json!({"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"});
        assert!(matches!(
            ContentBlock::read(&audio).kind,
            BlockKind::Audio { size: 12, .. }
        ));
        let link = json!({"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs",
            "mimeType": "text/x-rust"});
        assert!(
            matches!(ContentBlock::read(&link).kind, BlockKind::ResourceLink { ref uri, .. } if uri == "file:///project/src/main.rs")
        );
        let embedded = json!({"type": "resource", "resource": {"uri": "file:///project/src/main.rs",
            "mimeType": "text/x-rust", "text": "fn main() {}"}});
        let BlockKind::Resource { resource } = ContentBlock::read(&embedded).kind else {
            panic!()
        };
        assert_eq!(resource.text.as_deref(), Some("fn main() {}"));
        let tool_use = json!({"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}});
        assert!(
            matches!(ContentBlock::read(&tool_use).kind, BlockKind::ToolUse { ref name, .. } if name == "get_weather")
        );
        let tool_result = json!({"type": "tool_result", "toolUseId": "toolu_01A",
            "content": [{"type": "text", "text": "18°C"}]});
        let BlockKind::ToolResult {
            content, is_error, ..
        } = ContentBlock::read(&tool_result).kind
        else {
            panic!()
        };
        assert_eq!(content.len(), 1);
        assert!(!is_error);
    }

    #[test]
    fn a_malformed_block_is_unknown_with_its_reason_and_raw_json() {
        let cases = [
            (json!("text"), ContentProblem::BlockNotObject),
            (json!({"text": "x"}), ContentProblem::NoType),
            (
                json!({"type": "video"}),
                ContentProblem::UnknownType {
                    block_type: "video".into(),
                },
            ),
            (json!({"type": "text"}), ContentProblem::TextWithoutText),
            (
                json!({"type": "audio", "data": "AA"}),
                ContentProblem::MediaWithoutData {
                    block_type: "audio".into(),
                },
            ),
            (
                json!({"type": "resource_link"}),
                ContentProblem::LinkWithoutUri,
            ),
            (
                json!({"type": "resource", "resource": {"uri": "a:b"}}),
                ContentProblem::ContentsNoData,
            ),
        ];
        for (raw, problem) in cases {
            let read = ContentBlock::read(&raw);
            assert_eq!(read.kind, BlockKind::Unknown { problem }, "{raw}");
            assert_eq!(read.raw, raw);
        }
    }

    #[test]
    fn results_read_with_their_problems() {
        let result = json!({"content": [{"type": "text", "text": "hi"}, 5], "structuredContent": {"a": 1}, "isError": true});
        let view = ToolResultView::read(&result);
        assert_eq!(view.content.len(), 2);
        assert!(view.is_error && view.problems.is_empty());
        assert_eq!(view.structured_content, Some(json!({"a": 1})));
        assert_eq!(
            ToolResultView::read(&json!({})).problems,
            vec![ContentProblem::NoContentArray]
        );
        assert_eq!(
            ToolResultView::read(&json!(1)).problems,
            vec![ContentProblem::ResultNotObject]
        );
        let prompt = PromptResultView::read(&json!({"description": "d",
            "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}, 3]}));
        assert_eq!(prompt.messages[0].role, "user");
        assert_eq!(prompt.messages[1].role, "?");
        let read = read_result_contents(
            &json!({"contents": [{"uri": "a:b", "blob": "AAAA"}, {"text": "x"}]}),
        );
        assert!(
            matches!(&read[0], ContentsItem::Contents(c) if c.blob.as_ref().unwrap().size == 3)
        );
        assert!(matches!(
            &read[1],
            ContentsItem::Unreadable {
                problem: ContentProblem::ContentsNoUri,
                ..
            }
        ));
    }

    #[test]
    fn media_of_the_wrong_family_or_not_base64_is_unknown_with_its_reason() {
        let png = json!({"type": "image", "mimeType": "text/plain", "data": "AAAA"});
        assert_eq!(
            ContentBlock::read(&png).kind,
            BlockKind::Unknown {
                problem: ContentProblem::MediaMimeType {
                    block_type: "image".into(),
                    mime_type: "text/plain".into()
                }
            }
        );
        // Parameters cannot go into a `data:` URI.
        let wav = json!({"type": "audio", "mimeType": "audio/wav; codecs=1", "data": "AAAA"});
        assert!(matches!(
            ContentBlock::read(&wav).kind,
            BlockKind::Unknown {
                problem: ContentProblem::MediaMimeType { .. }
            }
        ));
        let bad = json!({"type": "audio", "mimeType": "audio/wav", "data": "not base64!"});
        assert_eq!(
            ContentBlock::read(&bad).kind,
            BlockKind::Unknown {
                problem: ContentProblem::MediaNotBase64 {
                    block_type: "audio".into()
                }
            }
        );
        let upper = json!({"type": "image", "mimeType": "IMAGE/PNG", "data": "AA AA\n=="});
        assert!(matches!(
            ContentBlock::read(&upper).kind,
            BlockKind::Image { .. }
        ));
        assert!(
            is_base64("") && is_base64("QUJD\n") && !is_base64("QU=JD") && !is_base64("QUJD===")
        );
        assert!(!is_media_type("imagery/png", "image"));
    }

    #[test]
    fn sampling_tool_blocks_have_no_place_in_a_tool_result_or_a_prompt() {
        let tool_use = json!({"type": "tool_use", "id": "t1", "name": "w", "input": {}});
        let unknown = BlockKind::Unknown {
            problem: ContentProblem::UnknownType {
                block_type: "tool_use".into(),
            },
        };
        let result = ToolResultView::read(&json!({"content": [tool_use]}));
        assert_eq!(result.content[0].kind, unknown);
        assert_eq!(result.content[0].raw, tool_use);
        let prompt =
            PromptResultView::read(&json!({"messages": [{"role": "user", "content": tool_use}]}));
        assert_eq!(prompt.messages[0].content.kind, unknown);
        let sampled = ContentBlock::read(&tool_use);
        assert!(matches!(sampled.kind, BlockKind::ToolUse { .. }));
    }

    #[test]
    fn a_tool_use_without_a_name_is_unknown() {
        assert_eq!(
            ContentBlock::read(&json!({"type": "tool_use", "id": "t1", "input": {}})).kind,
            BlockKind::Unknown {
                problem: ContentProblem::ToolUseWithoutName
            }
        );
    }

    #[test]
    fn resource_contents_say_how_they_are_shown() {
        let shown = |raw: Value| ResourceContents::read(&raw).unwrap().shown_as;
        assert_eq!(
            shown(json!({"uri": "a:b", "mimeType": "application/json", "text": "{\"a\": 1}"})),
            BodyKind::Json
        );
        assert_eq!(
            shown(
                json!({"uri": "a:b", "mimeType": "application/ld+json; charset=utf-8", "text": "[1]"})
            ),
            BodyKind::Json
        );
        // JSON that does not parse is shown as the text it is.
        assert_eq!(
            shown(json!({"uri": "a:b", "mimeType": "text/json", "text": "{oops"})),
            BodyKind::Text
        );
        assert_eq!(shown(json!({"uri": "a:b", "text": "{}"})), BodyKind::Text);
        assert_eq!(
            shown(json!({"uri": "a:b", "mimeType": "image/png", "blob": "AAAA"})),
            BodyKind::Image
        );
        assert_eq!(
            shown(json!({"uri": "a:b", "mimeType": "image/png", "blob": "%%%"})),
            BodyKind::Binary
        );
        assert_eq!(
            shown(json!({"uri": "a:b", "mimeType": "application/octet-stream", "blob": "AAAA"})),
            BodyKind::Binary
        );
        assert_eq!(
            shown(json!({"uri": "a:b", "blob": "AAAA"})),
            BodyKind::Binary
        );
    }

    #[test]
    fn a_read_result_keeps_its_json_beside_its_contents() {
        let raw = json!({"contents": [{"uri": "a:b", "text": "x"}], "_meta": {"k": 1}});
        let view = ReadResultView::read(&raw);
        assert_eq!(view.contents.len(), 1);
        assert_eq!(view.raw, raw);
    }

    #[test]
    fn one_block_reads_as_a_list_of_one() {
        let one = ContentBlock::read_all(&json!({"type": "text", "text": "single"}));
        assert_eq!(one.len(), 1);
        assert_eq!(
            one[0].kind,
            BlockKind::Text {
                text: "single".into()
            }
        );
        assert_eq!(ContentBlock::read_all(&json!([])), vec![]);
    }

    #[test]
    fn a_block_serializes_flat_with_its_type_and_raw() {
        let raw = json!({"type": "text", "text": "hi"});
        let out = serde_json::to_value(ContentBlock::read(&raw)).unwrap();
        assert_eq!(out, json!({"type": "text", "text": "hi", "raw": raw}));
    }
}
