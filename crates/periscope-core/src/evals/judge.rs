//! The advisory judge: a model reads a repetition's conversation and a case's rubric, and
//! says pass or fail with a reason. Its word is reported beside the expectations, never in
//! place of them (a judge is itself a model, with a model's mistakes).

use std::fmt::Write as _;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::report::{JudgeVerdict, Judgement};
use super::trace::{Trace, cut};
use crate::model::ModelClient;
use crate::model::chat::{Block, ChatMessage, ChatRequest, ChatRole, text_of};

/// What the judge is told to do.
const INSTRUCTIONS: &str = "You grade a conversation between a user and an AI assistant that can call tools. \
Read the rubric, then the conversation, and decide whether the assistant met the rubric. \
Reply with one line of JSON and nothing else: {\"verdict\": \"pass\" or \"fail\", \"reason\": \"one sentence\"}.";

/// A tool result's text shown to the judge, at most.
const RESULT_CHARS: usize = 1000;

/// The judge's word on `trace` against `rubric`; `name`: the judge model's name in reports.
pub async fn judge(
    client: &ModelClient,
    name: &str,
    rubric: &str,
    trace: &Trace,
    cancel: &CancellationToken,
) -> Judgement {
    let request = ChatRequest {
        system: Some(INSTRUCTIONS.to_string()),
        messages: vec![ChatMessage::user(vec![Block::text(format!(
            "Rubric:\n{rubric}\n\nConversation:\n{}",
            transcript(&trace.messages)
        ))])],
        max_tokens: Some(300),
        temperature: Some(0.0),
        ..ChatRequest::default()
    };
    let (tx, rx) = mpsc::channel(1);
    drop(rx);
    match client.stream(&request, &tx, cancel).await {
        Ok(turn) => {
            let (verdict, reason) = read_verdict(&text_of(&turn.blocks));
            Judgement {
                verdict,
                reason,
                model: name.to_string(),
            }
        }
        Err(e) => Judgement {
            verdict: JudgeVerdict::Unclear,
            reason: format!("the judge could not be asked: {e}"),
            model: name.to_string(),
        },
    }
}

/// The conversation as plain text, tool calls and results included.
pub fn transcript(messages: &[ChatMessage]) -> String {
    let mut out = String::new();
    for m in messages {
        for block in &m.content {
            let who = match m.role {
                ChatRole::User => "User",
                ChatRole::Assistant => "Assistant",
            };
            let _ = match block {
                Block::Text { text } => writeln!(out, "{who}: {text}"),
                Block::ToolUse { name, input, .. } => {
                    writeln!(out, "Assistant calls tool {name} with {input}")
                }
                Block::ToolResult {
                    content, is_error, ..
                } => writeln!(
                    out,
                    "Tool {}: {}",
                    if *is_error { "error" } else { "result" },
                    cut(&text_of(content), RESULT_CHARS)
                ),
                Block::Image { mime, .. } => writeln!(out, "{who}: [image {mime}]"),
            };
        }
    }
    out
}

/// The verdict in a judge's answer: the first JSON object in it, else a bare PASS or FAIL.
pub fn read_verdict(answer: &str) -> (JudgeVerdict, String) {
    let object = answer
        .find('{')
        .zip(answer.rfind('}'))
        .filter(|(a, b)| a < b)
        .and_then(|(a, b)| serde_json::from_str::<Value>(&answer[a..=b]).ok());
    if let Some(object) = object {
        let reason = object
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let verdict = match object
            .get("verdict")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("pass") => JudgeVerdict::Pass,
            Some("fail") => JudgeVerdict::Fail,
            _ => JudgeVerdict::Unclear,
        };
        return (verdict, reason);
    }
    let upper = answer.trim().to_ascii_uppercase();
    let verdict = if upper.starts_with("PASS") {
        JudgeVerdict::Pass
    } else if upper.starts_with("FAIL") {
        JudgeVerdict::Fail
    } else {
        JudgeVerdict::Unclear
    };
    (verdict, cut(answer.trim(), 300))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judges_answer_is_read_leniently_but_never_guessed() {
        let (v, r) = read_verdict("Sure. {\"verdict\": \"PASS\", \"reason\": \"It said 5.\"}");
        assert_eq!((v, r.as_str()), (JudgeVerdict::Pass, "It said 5."));
        assert_eq!(read_verdict("FAIL: no sum").0, JudgeVerdict::Fail);
        assert_eq!(read_verdict("I think it is fine").0, JudgeVerdict::Unclear);
        assert_eq!(
            read_verdict("{\"verdict\": \"maybe\"}").0,
            JudgeVerdict::Unclear
        );
    }
}
