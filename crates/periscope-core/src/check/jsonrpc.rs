//! JSON-RPC: unknown methods, bytes that do not parse, envelopes that are not requests, bad
//! params, ids echoed with their type, notifications left unanswered, batches; and, over the
//! whole record, error shapes and the revision's schema.

use serde_json::{Value, json};

use super::EraCtx;
use super::probe::Asked;
use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::surface::ListKind;
use crate::era::Era;
use crate::record::Flag;
use crate::vocabulary::method::names;
use crate::wire::{Direction, error_code};

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let unknown = ctx.probe.ask("periscope/no-such-method", None).await;
    let unknown = if unknown.error_code() == Some(error_code::METHOD_NOT_FOUND) {
        Outcome::pass(unknown.frames(), "refused with -32601")
    } else {
        Outcome::broken(
            unknown.frames(),
            format!("periscope/no-such-method got {}", unknown.describe()),
        )
    };
    // These three send what the session cannot pair with a request of its own; the answer is
    // found in the record, before the answer to a request sent right after. One at a time, so
    // no answer is taken for another's.
    let parse = parse_error(ctx).await;
    let invalid = invalid_request(ctx).await;
    let unanswered = notification_unanswered(ctx).await;
    let params = invalid_params(ctx).await;
    let string_id = echoed(ctx, json!("7001")).await;
    let number_id = echoed(ctx, json!(7002)).await;
    let batch = batch(ctx).await;
    vec![
        (Rule::UnknownMethod, unknown),
        (Rule::ParseError, parse),
        (Rule::InvalidRequest, invalid),
        (Rule::NotificationUnanswered, unanswered),
        (Rule::InvalidParams, params),
        (Rule::StringId, string_id),
        (Rule::NumberId, number_id),
        (Rule::Batch, batch),
    ]
}

/// The ids in the bytes `then_sync` sends, which a server may echo in its error.
const UNPAIRED_IDS: &[&str] = &["check-parse", "check-invalid"];

/// A request every server of the era answers: `ping` (legacy), `server/discover` (modern).
pub(crate) fn cheap_method(ctx: &EraCtx<'_>) -> &'static str {
    match ctx.era() {
        Era::Legacy => names::PING,
        Era::Modern => names::SERVER_DISCOVER,
    }
}

/// Sends `bytes`, then a cheap request; the responses that came in between (not the cheap
/// request's own) are the answers to `bytes`.
async fn then_sync(ctx: &EraCtx<'_>, bytes: Vec<u8>) -> (Asked, Vec<(u64, Value)>, Asked) {
    let sent = ctx.probe.send(bytes).await;
    let sync = ctx.probe.ask(cheap_method(ctx), None).await;
    let end = sync.response_seq.unwrap_or(u64::MAX);
    let traffic = ctx.probe.session.traffic();
    let mut strays = Vec::new();
    if let (Some(seq), Some(response)) = (sent.response_seq, &sent.response) {
        strays.push((seq, response.clone()));
    }
    for seq in sent.request_seq + 1..end.min(traffic.last_seq() + 1) {
        let Some(frame) = traffic.frame(seq) else {
            continue;
        };
        if frame.direction != Direction::In || Some(seq) == sent.response_seq {
            continue;
        }
        let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) else {
            continue;
        };
        let is_response = message.get("result").is_some() || message.get("error").is_some();
        // Answers to other questions asked meanwhile carry ids of the check's own.
        let theirs = message
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|id| id.starts_with("check-") && !UNPAIRED_IDS.contains(&id));
        if is_response && !theirs {
            strays.push((seq, message));
        }
    }
    (sent, strays, sync)
}

/// Bytes that do not parse: an answer must be -32700 with a null id; silence is allowed (the
/// SDKs ignore such lines on purpose: answering garbage can start an error storm between two
/// peers); either way the server must still answer the next request.
async fn parse_error(ctx: &EraCtx<'_>) -> Outcome {
    let (sent, strays, sync) = then_sync(
        ctx,
        br#"{"jsonrpc": "2.0", "id": "check-parse", "method": "#.to_vec(),
    )
    .await;
    let mut frames = vec![sent.request_seq];
    frames.extend(sync.frames());
    if sync.response.is_none() {
        return Outcome::broken(
            frames,
            format!(
                "after bytes that do not parse, the next request got {}",
                sync.describe()
            ),
        );
    }
    if sent.refused_over_http() {
        return Outcome::pass(frames, format!("refused with {}", sent.describe()));
    }
    let Some((seq, answer)) = strays.into_iter().next() else {
        return Outcome::pass(frames, "ignored, and the next request was answered");
    };
    frames.push(seq);
    let code = answer.pointer("/error/code").and_then(Value::as_i64);
    if code != Some(error_code::PARSE_ERROR) || !answer.get("id").is_none_or(Value::is_null) {
        return Outcome::broken(
            frames,
            format!(
                "answered with {} (expected error -32700 without an id)",
                super::probe::short(&answer.to_string())
            ),
        );
    }
    Outcome::pass(frames, "refused with -32700")
}

/// JSON that is no request (its method a number): error -32600, under the request's id or
/// null, never without one.
async fn invalid_request(ctx: &EraCtx<'_>) -> Outcome {
    let (sent, strays, _) = then_sync(
        ctx,
        br#"{"jsonrpc": "2.0", "id": "check-invalid", "method": 7}"#.to_vec(),
    )
    .await;
    let mut frames = vec![sent.request_seq];
    if sent.refused_over_http() {
        return Outcome::pass(frames, format!("refused with {}", sent.describe()));
    }
    let Some((seq, answer)) = strays.into_iter().next() else {
        return Outcome::broken(
            frames,
            "no answer (expected error -32600) before the next request's",
        );
    };
    frames.push(seq);
    let code = answer.pointer("/error/code").and_then(Value::as_i64);
    let id_ok = answer.get("id").is_none_or(Value::is_null)
        || answer.get("id") == Some(&json!("check-invalid"));
    if code != Some(error_code::INVALID_REQUEST) || !id_ok {
        return Outcome::broken(
            frames,
            format!(
                "answered with {} (expected error -32600, under the request's id or none)",
                super::probe::short(&answer.to_string())
            ),
        );
    }
    Outcome::pass(frames, "refused with -32600")
}

async fn notification_unanswered(ctx: &EraCtx<'_>) -> Outcome {
    let message = json!({"jsonrpc": "2.0", "method": "notifications/periscope/check"});
    let (sent, strays, _) = then_sync(ctx, serde_json::to_vec(&message).expect("JSON")).await;
    match strays.into_iter().next() {
        None => Outcome::pass(
            vec![sent.request_seq],
            "no response to an unknown notification",
        ),
        Some((seq, answer)) => Outcome::broken(
            vec![sent.request_seq, seq],
            format!(
                "a notification was answered: {}",
                super::probe::short(&answer.to_string())
            ),
        ),
    }
}

async fn invalid_params(ctx: &EraCtx<'_>) -> Outcome {
    let (method, params) = if ctx.declares(ListKind::Tools) {
        (names::TOOLS_CALL, json!({"name": 42}))
    } else if ctx.declares(ListKind::Prompts) {
        (names::PROMPTS_GET, json!({"name": 42}))
    } else if ctx.declares(ListKind::Resources) {
        (names::RESOURCES_READ, json!({"uri": 42}))
    } else {
        return Outcome::skip(
            NotAsked::NotDeclared {
                capability: "tools, prompts or resources".into(),
            },
            "nothing declared takes params to get wrong",
        );
    };
    let asked = ctx.probe.ask(method, Some(params.clone())).await;
    if asked.error_code() == Some(error_code::INVALID_PARAMS) {
        Outcome::pass(
            asked.frames(),
            format!("{method} {params} refused with -32602"),
        )
    } else {
        Outcome::broken(
            asked.frames(),
            format!("{method} {params} got {}", asked.describe()),
        )
    }
}

/// Sends a cheap request under `id`; its answer must carry the same id, of the same type. An
/// answer under the id of the other type is not paired by the session: it is found in the
/// record.
async fn echoed(ctx: &EraCtx<'_>, id: Value) -> Outcome {
    let asked = ctx
        .probe
        .ask_with_id(id.clone(), cheap_method(ctx), None)
        .await;
    if asked.response.is_some() {
        return Outcome::pass(asked.frames(), format!("id {id} echoed as sent"));
    }
    let traffic = ctx.probe.session.traffic();
    let text = match &id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let stray = (asked.request_seq + 1..=traffic.last_seq()).find_map(|seq| {
        let frame = traffic.frame(seq)?;
        if frame.direction != Direction::In {
            return None;
        }
        let message: Value = serde_json::from_slice(&frame.bytes).ok()?;
        let got = message.get("id")?;
        let same_text = match got {
            Value::String(s) => *s == text,
            other => *other == text.as_str(),
        };
        same_text.then(|| (seq, got.clone()))
    });
    match stray {
        Some((seq, got)) => Outcome::broken(
            vec![asked.request_seq, seq],
            format!("id {id} came back as {got}"),
        ),
        None => Outcome::broken(
            asked.frames(),
            format!(
                "{} under id {id} got {}",
                cheap_method(ctx),
                asked.describe()
            ),
        ),
    }
}

async fn batch(ctx: &EraCtx<'_>) -> Outcome {
    let method = cheap_method(ctx);
    let mut one = None;
    let mut two = None;
    ctx.probe.session.stamp_meta(&mut one);
    ctx.probe.session.stamp_meta(&mut two);
    let item = |id: &str, params: Option<Value>| {
        let mut m = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if let Some(p) = params {
            m["params"] = p;
        }
        m
    };
    let bytes = serde_json::to_vec(&json!([
        item("check-batch-1", one),
        item("check-batch-2", two)
    ]))
    .expect("JSON");
    let answers_batches =
        ctx.era() == Era::Legacy && matches!(ctx.revision(), "2024-11-05" | "2025-03-26");
    let (sent, refusal, then) = ctx.probe.send_batch(bytes, method).await;
    let mut frames = vec![sent.request_seq];
    frames.extend(sent.response_seq);
    frames.extend(refusal.as_ref().map(|(seq, _)| *seq));
    if let Some(then) = &then {
        frames.extend(then.frames());
    }
    // An answer to the batch's requests, paired by the session: results, or errors.
    let answered = sent.result().is_some();
    let refused = sent.error().is_some() || refusal.is_some() || sent.refused_over_http();
    let revision = ctx.revision().to_string();
    if let Some(then) = then.as_ref().filter(|t| t.response.is_none()) {
        return Outcome::broken(
            frames,
            format!("after a batch, the next request got {}", then.describe()),
        );
    }
    let fate = match (answered, refused) {
        (true, _) => "answered",
        (false, true) => "refused",
        (false, false) => "ignored",
    };
    if answers_batches && !answered {
        return Outcome::broken(
            frames,
            format!("{revision} has batches, but the batch was {fate}"),
        );
    }
    // From 2025-06-18 batches are gone from the spec, which says nothing of how a server
    // treats one: answering, refusing and ignoring are all right, if it keeps serving.
    Outcome::pass(
        frames,
        format!("{revision}: the batch was {fate}, and the server kept serving"),
    )
}

/// Rules read from the whole record once the protocol checks caught up.
pub(crate) fn passive(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let traffic = ctx.probe.session.traffic();
    let mut bad_errors = Vec::new();
    let mut error_frames = 0;
    let mut off_schema = Vec::new();
    let mut first_violation = None;
    for frame in traffic.frames() {
        if frame.direction != Direction::In {
            continue;
        }
        if let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) {
            for item in message.as_array().cloned().unwrap_or_else(|| vec![message]) {
                let Some(error) = item.get("error") else {
                    continue;
                };
                error_frames += 1;
                let code_ok = error.get("code").is_some_and(Value::is_i64);
                let message_ok = error.get("message").is_some_and(Value::is_string);
                if !code_ok || !message_ok {
                    bad_errors.push(frame.seq);
                }
            }
        }
        for flag in traffic.flags_of(frame.seq) {
            if let Flag::SchemaViolation { violations, .. } = flag {
                if first_violation.is_none() {
                    first_violation = violations
                        .first()
                        .map(|v| format!("frame {}: {} at {}", frame.seq, v.message, v.path));
                }
                off_schema.push(frame.seq);
            }
        }
    }
    let errors = if bad_errors.is_empty() {
        Outcome::pass(
            Vec::new(),
            format!("{error_frames} error responses, all well formed"),
        )
    } else {
        let count = bad_errors.len();
        Outcome::broken(
            bad_errors,
            format!("{count} error responses lack an integer code or a string message"),
        )
    };
    let schema = if off_schema.is_empty() {
        Outcome::pass(
            Vec::new(),
            format!(
                "every frame from the server is valid against {}",
                ctx.revision()
            ),
        )
    } else {
        let count = off_schema.len();
        Outcome::broken(
            off_schema,
            format!(
                "{count} frames break the {} schema; first: {}",
                ctx.revision(),
                first_violation.unwrap_or_default()
            ),
        )
    };
    vec![(Rule::ErrorShape, errors), (Rule::SchemaValid, schema)]
}
