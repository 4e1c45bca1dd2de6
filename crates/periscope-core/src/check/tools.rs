//! Tools: schemas that compile, an unknown tool refused, and for the tools the check may call
//! (read-only ones, and those the user picked) a call with arguments made from the schema, one
//! with arguments of the wrong type, and the progress they report. Across eras: the same
//! surface in each, and a tool that works in the legacy era but not in 2026-07-28.

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::surface::ListKind;
use super::{CheckOptions, EraCtx, EraFindings, arguments, key};
use crate::era::Era;
use crate::schema_check;
use crate::vocabulary::method::names;
use crate::wire::{Direction, error_code};

/// A tool the check called, and how it went.
#[derive(Debug, Clone)]
pub(crate) struct Called {
    pub name: String,
    /// A result without `isError` (or, in 2026-07-28, asking for input).
    pub worked: bool,
    /// What came back, in a few words.
    pub said: String,
    /// The final result as sent, for the audit of what the model would read next.
    pub result: Option<Value>,
}

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> (Vec<(Rule, Outcome)>, Vec<Called>) {
    let Some(listing) = ctx.listing(ListKind::Tools) else {
        let skip = || {
            Outcome::skip(
                NotAsked::NotDeclared {
                    capability: "tools".into(),
                },
                "the server does not declare tools",
            )
        };
        let rules = [
            Rule::InputSchemaObject,
            Rule::InputSchemaValid,
            Rule::OutputSchemaValid,
            Rule::UnknownTool,
            Rule::CallResult,
            Rule::StructuredContent,
            Rule::BadArguments,
            Rule::ProgressMonotonic,
            Rule::CancelHonoured,
        ];
        return (rules.into_iter().map(|r| (r, skip())).collect(), Vec::new());
    };
    let tools = listing.items.clone();
    let frames = listing.frames();
    let mut found = vec![
        (
            Rule::InputSchemaObject,
            schemas_are_objects(&tools, "inputSchema", &frames, true),
        ),
        (
            Rule::InputSchemaValid,
            schemas_compile(&tools, "inputSchema", &frames),
        ),
        (Rule::OutputSchemaValid, output_schemas(&tools, &frames)),
    ];
    found.push((Rule::UnknownTool, unknown_tool(ctx).await));
    let (calls, call_rules) = call(ctx, &tools).await;
    found.extend(call_rules);
    (found, calls)
}

fn name_of(tool: &Value) -> String {
    tool.get("name")
        .and_then(Value::as_str)
        .unwrap_or("(no name)")
        .to_string()
}

fn schemas_are_objects(tools: &[Value], member: &str, frames: &[u64], required: bool) -> Outcome {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for tool in tools {
        match tool.get(member) {
            None if required => wrong.push(format!("{}: no {member}", name_of(tool))),
            None => {}
            Some(schema) => {
                seen += 1;
                if schema.get("type").and_then(Value::as_str) != Some("object") {
                    wrong.push(format!(
                        "{}: {member}.type is {}",
                        name_of(tool),
                        schema
                            .get("type")
                            .map(Value::to_string)
                            .unwrap_or("missing".into())
                    ));
                }
            }
        }
    }
    if wrong.is_empty() {
        Outcome::pass(frames.to_vec(), format!("{seen} object schemas"))
    } else {
        Outcome::broken(frames.to_vec(), wrong.join("; "))
    }
}

fn schemas_compile(tools: &[Value], member: &str, frames: &[u64]) -> Outcome {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for tool in tools {
        let Some(schema) = tool.get(member) else {
            continue;
        };
        seen += 1;
        if !schema.is_object() {
            wrong.push(format!("{}: {member} is not an object", name_of(tool)));
            continue;
        }
        if let Some(error) = schema_check::validate(schema, &json!({})).schema_error {
            wrong.push(format!(
                "{}: {member} does not compile: {}",
                name_of(tool),
                super::probe::short(&error)
            ));
        }
    }
    if seen == 0 {
        return Outcome::skip(NotAsked::NothingToAsk, format!("no tool has an {member}"));
    }
    if wrong.is_empty() {
        Outcome::pass(frames.to_vec(), format!("{seen} schemas compile"))
    } else {
        Outcome::broken(frames.to_vec(), wrong.join("; "))
    }
}

fn output_schemas(tools: &[Value], frames: &[u64]) -> Outcome {
    match schemas_compile(tools, "outputSchema", frames) {
        Outcome::Pass { .. } => schemas_are_objects(tools, "outputSchema", frames, false),
        other => other,
    }
}

async fn unknown_tool(ctx: &EraCtx<'_>) -> Outcome {
    let asked = ctx
        .probe
        .ask(
            names::TOOLS_CALL,
            Some(json!({"name": "periscope-check-no-such-tool", "arguments": {}})),
        )
        .await;
    // The spec puts an unknown tool among the protocol errors ("standard JSON-RPC errors",
    // -32602 its example): any JSON-RPC error is right, a result is not.
    if let Some(code) = asked.error_code() {
        return Outcome::pass(asked.frames(), format!("refused with error {code}"));
    }
    Outcome::broken(
        asked.frames(),
        format!(
            "a call to periscope-check-no-such-tool got {}",
            asked.describe()
        ),
    )
}

/// Which tools may be called: the read-only ones (unless none), the ones named, or all.
pub(crate) fn callable(tools: &[Value], options: &CheckOptions) -> (Vec<Value>, Vec<String>) {
    let mut chosen = Vec::new();
    let mut left_out = Vec::new();
    for tool in tools {
        let name = name_of(tool);
        let read_only = tool.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true));
        let picked = options.calls.all
            || options.calls.named.contains(&name)
            || (read_only && !options.calls.none);
        if picked {
            chosen.push(tool.clone());
        } else {
            left_out.push(name);
        }
    }
    (chosen, left_out)
}

/// A result that is not the call's final one: 2026-07-28's `input_required` (multi round-trip)
/// or a task handle (the call runs on as a task). Named by its kind.
fn not_final(result: &Value) -> Option<String> {
    if result.get("task").is_some() {
        return Some("a task".into());
    }
    match result.get("resultType").and_then(Value::as_str) {
        None | Some("complete") => None,
        Some(kind) => Some(kind.to_string()),
    }
}

async fn call(ctx: &EraCtx<'_>, tools: &[Value]) -> (Vec<Called>, Vec<(Rule, Outcome)>) {
    let calling_rules = [
        Rule::CallResult,
        Rule::StructuredContent,
        Rule::BadArguments,
        Rule::ProgressMonotonic,
        Rule::CancelHonoured,
        Rule::ModernToolWorks,
    ];
    let (chosen, left_out) = callable(tools, ctx.options);
    if chosen.is_empty() || !calling_rules.iter().any(|r| ctx.options.selects(*r)) {
        let skip = || {
            Outcome::skip(
                NotAsked::NotReadOnly {
                    tools: left_out.clone(),
                },
                "no tool is marked read-only or picked to be called (--call NAME, --call-all)",
            )
        };
        let rules = [
            Rule::CallResult,
            Rule::StructuredContent,
            Rule::BadArguments,
            Rule::ProgressMonotonic,
            Rule::CancelHonoured,
        ];
        return (Vec::new(), rules.into_iter().map(|r| (r, skip())).collect());
    }
    ctx.tell(super::CheckProgress::WillCall {
        era: ctx.era(),
        tools: chosen.iter().map(name_of).collect(),
    });
    let mut calls = Vec::new();
    let mut tokens = Vec::new();
    let mut result_frames = Vec::new();
    let mut bad_results = Vec::new();
    let mut structured_frames = Vec::new();
    let mut structured_wrong = Vec::new();
    let mut structured_seen = 0;
    // Each call says when it is answered, for the cancellation rule (which cancels a second
    // call of a tool still running).
    let done: Vec<CancellationToken> = chosen.iter().map(|_| CancellationToken::new()).collect();
    // The calls go out together: a slow tool does not hold up the others.
    let asks = chosen.iter().zip(&done).map(|(tool, done)| {
        let name = name_of(tool);
        let schema = tool.get("inputSchema").cloned().unwrap_or(json!({}));
        let token = format!("check-progress-{}", ctx.probe.fresh_id());
        let params = json!({
            "name": name,
            "arguments": arguments::generate(&schema),
            "_meta": {"progressToken": token},
        });
        async move {
            let asked = ctx
                .probe
                .ask_within(ctx.options.call_wait, names::TOOLS_CALL, Some(params))
                .await;
            done.cancel();
            (token, asked)
        }
    });
    let answers = futures_util::future::join_all(asks);
    let (answers, cancelled) = tokio::join!(answers, cancellation(ctx, &chosen, &done));
    for (tool, (token, asked)) in chosen.iter().zip(answers) {
        let name = name_of(tool);
        tokens.push(token);
        result_frames.extend(asked.frames());
        let Some(result) = asked.result() else {
            let refused = asked.error().is_some();
            if !refused {
                bad_results.push(format!("{name}: {}", asked.describe()));
            }
            calls.push(Called {
                name,
                worked: false,
                said: asked.describe(),
                result: None,
            });
            continue;
        };
        if let Some(kind) = not_final(result) {
            calls.push(Called {
                name,
                worked: true,
                said: kind,
                result: None,
            });
            continue;
        }
        if let Some(violations) =
            crate::protocol_check::check_definition(ctx.revision(), "CallToolResult", result)
            && let Some(first) = violations.first()
        {
            bad_results.push(format!("{name}: {} at {}", first.message, first.path));
        }
        let is_error = result.get("isError") == Some(&Value::Bool(true));
        if let Some(output) = tool.get("outputSchema")
            && !is_error
        {
            structured_seen += 1;
            structured_frames.extend(asked.frames());
            match result.get("structuredContent") {
                None => structured_wrong.push(format!("{name}: no structuredContent")),
                Some(content) => {
                    let report = schema_check::validate(output, content);
                    if !report.valid {
                        let why = report
                            .issues
                            .first()
                            .map(|i| format!("{} at {}", i.message, i.path))
                            .or(report.schema_error)
                            .unwrap_or_default();
                        structured_wrong.push(format!("{name}: {why}"));
                    }
                }
            }
        }
        calls.push(Called {
            name,
            worked: !is_error,
            said: if is_error {
                format!("isError: {}", super::probe::short(&result.to_string()))
            } else {
                "a result".into()
            },
            result: Some(result.clone()),
        });
    }
    let called: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
    let mut found = Vec::new();
    found.push((
        Rule::CallResult,
        if bad_results.is_empty() {
            Outcome::pass(result_frames, format!("called {}", called.join(", ")))
        } else {
            Outcome::broken(result_frames, bad_results.join("; "))
        },
    ));
    found.push((
        Rule::StructuredContent,
        if structured_seen == 0 {
            Outcome::skip(
                NotAsked::NothingToAsk,
                "no tool called has an outputSchema (or every such call failed)",
            )
        } else if structured_wrong.is_empty() {
            Outcome::pass(
                structured_frames,
                format!("{structured_seen} results match"),
            )
        } else {
            Outcome::broken(structured_frames, structured_wrong.join("; "))
        },
    ));
    found.push((Rule::BadArguments, bad_arguments(ctx, &chosen).await));
    found.push((Rule::ProgressMonotonic, progress(ctx, &tokens)));
    found.push((Rule::CancelHonoured, cancelled));
    (calls, found)
}

/// How long a call must have run, unanswered, for its tool to be the one cancelled.
const LONG_CALL: Duration = Duration::from_millis(300);
/// How long after the second call the cancellation goes out.
const CANCEL_AFTER: Duration = Duration::from_millis(100);
/// How long past the end of the first call an answer to the cancelled one is waited for.
const CANCEL_GRACE: Duration = Duration::from_millis(500);

/// `utilities.cancellation`: a tool whose call is still running after [`LONG_CALL`] is called
/// again with the same arguments and that call cancelled; no answer may come for it, up to
/// when the first call answered (and a grace after, as the second started later).
async fn cancellation(ctx: &EraCtx<'_>, chosen: &[Value], done: &[CancellationToken]) -> Outcome {
    let nothing = |why: &str| Outcome::skip(NotAsked::NothingToAsk, why);
    // The rule is read in the legacy era only (2026-07-28 over HTTP has no session to name the
    // request in): do not call twice for nothing.
    if ctx.era() != Era::Legacy || !ctx.options.selects(Rule::CancelHonoured) {
        return nothing("not asked in this era");
    }
    let started = Instant::now();
    let all_done = async {
        for d in done {
            d.cancelled().await;
        }
    };
    tokio::select! {
        () = tokio::time::sleep(LONG_CALL) => {}
        () = all_done => return nothing("every call answered within 0.3 s: no tool runs long enough to cancel"),
    }
    let Some(index) = done.iter().position(|d| !d.is_cancelled()) else {
        return nothing("every call answered within 0.3 s: no tool runs long enough to cancel");
    };
    let tool = &chosen[index];
    let name = name_of(tool);
    let schema = tool.get("inputSchema").cloned().unwrap_or(json!({}));
    let id = json!(ctx.probe.fresh_id());
    let params = json!({"name": name, "arguments": arguments::generate(&schema)});
    let traffic = ctx.probe.session.traffic().clone();
    let before = traffic.last_seq();
    let ask = ctx.probe.ask_with_id_within(
        ctx.options.call_wait,
        id.clone(),
        names::TOOLS_CALL,
        Some(params),
    );
    let lag = started.elapsed();
    // The cancellation, then a ping: a server reads its input in order, so once the ping is
    // answered the cancellation was read. An answer to the call that comes before the ping's
    // may be of work done before the cancellation was read (the spec allows it: a server
    // stalled as a whole looks like a long tool, and answers everything at once).
    let cancel_then_ping = async {
        tokio::time::sleep(CANCEL_AFTER).await;
        ctx.probe
            .session
            .notify(
                names::CANCELLED,
                Some(json!({"requestId": id, "reason": "periscope check: cancellation"})),
            )
            .await?;
        Ok::<_, crate::transport::SendError>(ctx.probe.ask(names::PING, None).await)
    };
    tokio::pin!(ask);
    tokio::pin!(cancel_then_ping);
    let mut answered = None;
    let pinged = loop {
        tokio::select! {
            asked = &mut ask, if answered.is_none() => answered = Some(asked),
            pinged = &mut cancel_then_ping => break pinged,
        }
    };
    let ping = match pinged {
        Ok(ping) => ping,
        Err(e) => return nothing(&format!("notifications/cancelled could not be sent: {e}")),
    };
    if answered.is_none() {
        // Up to when the first call answered, and as long again as the second started later.
        let quiet = async {
            done[index].cancelled().await;
            tokio::time::sleep(lag + CANCEL_GRACE).await;
        };
        tokio::select! {
            asked = &mut ask => answered = Some(asked),
            () = quiet => {}
        }
    }
    let cancel_seq = (before + 1..=traffic.last_seq()).find(|seq| {
        traffic.frame(*seq).is_some_and(|f| {
            f.direction == Direction::Out
                && serde_json::from_slice::<Value>(&f.bytes).is_ok_and(|m| {
                    m.get("method").and_then(Value::as_str) == Some(names::CANCELLED)
                        && m.pointer("/params/requestId") == Some(&id)
                })
        })
    });
    let Some(cancel) = cancel_seq else {
        return nothing("notifications/cancelled was not recorded");
    };
    let answer_seq = answered.as_ref().and_then(|a| a.response_seq);
    let mut frames: Vec<u64> = answered.as_ref().map(|a| a.frames()).unwrap_or_default();
    frames.push(cancel);
    frames.extend(ping.frames());
    frames.retain(|f| *f != 0);
    let after = CANCEL_AFTER.as_secs_f64();
    match (answer_seq, ping.response_seq) {
        (None, _) => Outcome::pass(
            frames,
            format!("{name} cancelled {after:.1} s into the call: no answer came for it"),
        ),
        (Some(answer), _) if answer < cancel => {
            nothing(&format!("{name} answered before it could be cancelled"))
        }
        (Some(answer), Some(ping_answer)) if answer < ping_answer => nothing(&format!(
            "{name} answered before the ping sent after the cancellation: its work may have \
             ended before the cancellation was read"
        )),
        (Some(_), _) => Outcome::broken(
            frames,
            format!(
                "{name} cancelled {after:.1} s into the call, answered anyway, after a ping sent \
                 behind the cancellation: {}",
                answered.map(|a| a.describe()).unwrap_or_default()
            ),
        ),
    }
}

async fn bad_arguments(ctx: &EraCtx<'_>, chosen: &[Value]) -> Outcome {
    let Some((tool, (arguments, what))) = chosen.iter().find_map(|tool| {
        let schema = tool.get("inputSchema")?;
        Some((tool, arguments::wrong(schema)?))
    }) else {
        return Outcome::skip(
            NotAsked::NothingToAsk,
            "no tool called takes a typed argument",
        );
    };
    let name = name_of(tool);
    let asked = ctx
        .probe
        .ask(
            names::TOOLS_CALL,
            Some(json!({"name": name, "arguments": arguments})),
        )
        .await;
    let refused = asked.error_code() == Some(error_code::INVALID_PARAMS)
        || asked.result().and_then(|r| r.get("isError")) == Some(&Value::Bool(true));
    if refused {
        Outcome::pass(asked.frames(), format!("{name} with {what}: refused"))
    } else {
        Outcome::broken(
            asked.frames(),
            format!("{name} with {what} got {}", asked.describe()),
        )
    }
}

/// Reads the progress notifications that came for the check's calls.
fn progress(ctx: &EraCtx<'_>, tokens: &[String]) -> Outcome {
    let traffic = ctx.probe.session.traffic();
    let mut last: HashMap<String, f64> = HashMap::new();
    let mut frames = Vec::new();
    let mut wrong = Vec::new();
    for frame in traffic.frames() {
        if frame.direction != Direction::In {
            continue;
        }
        let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) else {
            continue;
        };
        if message.get("method").and_then(Value::as_str) != Some(names::PROGRESS) {
            continue;
        }
        frames.push(frame.seq);
        let token = message.pointer("/params/progressToken");
        let Some(token) = token
            .and_then(Value::as_str)
            .filter(|t| tokens.iter().any(|x| x == t))
        else {
            wrong.push(format!(
                "frame {}: progressToken {} names no request of the check's",
                frame.seq,
                token.map(Value::to_string).unwrap_or("(none)".into())
            ));
            continue;
        };
        let Some(value) = message.pointer("/params/progress").and_then(Value::as_f64) else {
            wrong.push(format!("frame {}: progress is not a number", frame.seq));
            continue;
        };
        if let Some(before) = last.insert(token.to_string(), value)
            && value <= before
        {
            wrong.push(format!(
                "frame {}: progress went from {before} to {value}",
                frame.seq
            ));
        }
    }
    if frames.is_empty() {
        return Outcome::skip(NotAsked::NothingToAsk, "no tool called reported progress");
    }
    if wrong.is_empty() {
        let said = format!(
            "{} progress notifications, in order, for {} call{}",
            frames.len(),
            last.len(),
            if last.len() == 1 { "" } else { "s" }
        );
        Outcome::pass(frames, said)
    } else {
        Outcome::broken(frames, wrong.join("; "))
    }
}

/// The rules asked across eras: the same surface in each, and the tools that work only in
/// the legacy one.
pub(crate) fn across_eras(
    findings: &[EraFindings],
    options: &CheckOptions,
) -> Vec<(Rule, Outcome)> {
    let modern = findings.iter().find(|f| f.era == Era::Modern);
    let legacy = findings.iter().find(|f| f.era == Era::Legacy);
    let (Some(modern), Some(legacy)) = (modern, legacy) else {
        let skip = || {
            Outcome::skip(
                NotAsked::OtherEra,
                "asked only of a server of both eras (one era was checked)",
            )
        };
        return vec![(Rule::SameSurface, skip()), (Rule::ModernToolWorks, skip())];
    };
    let mut differ = Vec::new();
    let mut tools_differ = Vec::new();
    for kind in ListKind::ALL {
        let names = |f: &EraFindings| -> BTreeSet<String> {
            f.lists
                .get(&key(kind))
                .map(|l| l.keys().into_iter().collect())
                .unwrap_or_default()
        };
        let (m, l) = (names(modern), names(legacy));
        let only_modern: Vec<&String> = m.difference(&l).collect();
        let only_legacy: Vec<&String> = l.difference(&m).collect();
        let differ = if kind == ListKind::Tools {
            &mut tools_differ
        } else {
            &mut differ
        };
        if !only_modern.is_empty() {
            differ.push(format!(
                "{} only in 2026-07-28: {}",
                kind.items_key(),
                join(&only_modern)
            ));
        }
        if !only_legacy.is_empty() {
            differ.push(format!(
                "{} only in the legacy era: {}",
                kind.items_key(),
                join(&only_legacy)
            ));
        }
    }
    let same = if differ.is_empty() {
        let tools = match tools_differ.is_empty() {
            true => "the same tools".to_string(),
            false => tools_differ.join("; "),
        };
        Outcome::pass(
            Vec::new(),
            format!("the same prompts and resources in both eras; {tools}"),
        )
    } else {
        Outcome::broken(Vec::new(), differ.join("; "))
    };
    let mut only_legacy_works = Vec::new();
    for call in &legacy.calls {
        if !call.worked {
            continue;
        }
        if let Some(modern_call) = modern.calls.iter().find(|c| c.name == call.name)
            && !modern_call.worked
        {
            only_legacy_works.push(format!(
                "{} works in the legacy era but in 2026-07-28 got {}",
                call.name, modern_call.said
            ));
        }
    }
    let works = if legacy.calls.is_empty() {
        let tools = legacy
            .lists
            .get(&key(ListKind::Tools))
            .map(|l| l.items.clone())
            .unwrap_or_default();
        let (_, left_out) = callable(&tools, options);
        Outcome::skip(
            NotAsked::NotReadOnly { tools: left_out },
            "no tool was called in both eras",
        )
    } else if only_legacy_works.is_empty() {
        Outcome::pass(Vec::new(), "every tool called works in both eras")
    } else {
        Outcome::broken(Vec::new(), only_legacy_works.join("; "))
    };
    vec![(Rule::SameSurface, same), (Rule::ModernToolWorks, works)]
}

fn join(names: &[&String]) -> String {
    names
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
