//! Running a suite: every case × model × variant × repetition, at most `concurrency` at a
//! time, each a fresh conversation through the playground's own agent loop over one session
//! of the server. Bounded in concurrency, tokens, wall time per repetition and per run; each
//! bound hit is in the report.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::grade;
use super::report::{BoundHit, EvalReport, Notice, REPORT_VERSION, Trial, TrialOutcome};
use super::suite::{AS_SERVED, Case, Suite};
use super::tools::{Approvals, CallMaker, EvalTools, Keeper, RunApprover, Surface};
use super::trace::{MAX_RESULT_CHARS, Trace, TracedCall, cut};
use crate::model::ModelClient;
use crate::model::agent::{AgentEvent, run_turn};
use crate::model::chat::{Block, ChatMessage, ChatRole, text_of};
use crate::model::context::{prompt_messages, resource_blocks};
use crate::model::conversation::Conversation;
use crate::session::Session;
use crate::vocabulary::Problem;
use crate::vocabulary::problem::Limit;

/// Repetitions at most, per case, model and variant.
pub const MAX_REPEAT: u32 = 100;
/// Repetitions under way at once, at most.
pub const MAX_CONCURRENCY: usize = 32;
/// Repetitions in one run, at most.
pub const MAX_TRIALS: usize = 20_000;
/// The default per-repetition limit.
pub const DEFAULT_CASE_TIMEOUT: Duration = Duration::from_secs(300);
/// Messages a trace keeps (the conversation's newest): a model looping on tools stops at
/// the agent's round limit long before.
const MAX_TRACE_MESSAGES: usize = 200;

/// A model a run asks: its name in reports, and its client.
#[derive(Debug, Clone)]
pub struct EvalModel {
    pub name: String,
    pub client: ModelClient,
}

/// How a run goes.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub repeat: u32,
    pub concurrency: usize,
    /// Variants of the suite to try beside the server's own wording.
    pub variants: Vec<String>,
    pub approvals: Approvals,
    pub case_timeout: Duration,
    /// Tokens (in and out) the run may spend; none start once reached.
    pub max_tokens: Option<u64>,
    pub max_duration: Option<Duration>,
    /// Only these cases (ids); all when empty.
    pub only: Vec<String>,
    /// The advisory judge, for cases with a rubric.
    pub judge: Option<EvalModel>,
    /// Where the host keeps the run's tool calls (the app: History).
    pub keeper: Keeper,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            repeat: 3,
            concurrency: 4,
            variants: Vec::new(),
            approvals: Approvals::default(),
            case_timeout: DEFAULT_CASE_TIMEOUT,
            max_tokens: None,
            max_duration: None,
            only: Vec::new(),
            judge: None,
            keeper: Keeper::default(),
        }
    }
}

/// Why a run cannot start.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    #[error("the suite has no variant named {0:?}")]
    NoSuchVariant(String),
    #[error("the suite has no case named {0:?}")]
    NoSuchCase(String),
    #[error("no model to ask")]
    NoModel,
    #[error("two models are named {0:?}")]
    DuplicateModel(String),
    #[error("{0} repetitions, more than {MAX_REPEAT}")]
    Repeat(u32),
    #[error("{0} repetitions in all, more than {MAX_TRIALS}")]
    TooMany(usize),
    #[error("the server's tools could not be listed: {0}")]
    Tools(String),
}

/// What a run says as it goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalProgress"))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EvalProgress {
    Planned {
        trials: u32,
    },
    Done {
        done: u32,
        trials: u32,
        case: String,
        model: String,
        variant: String,
        repetition: u32,
        outcome: TrialOutcome,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        latency_ms: u64,
    },
    Bound {
        bound: BoundHit,
    },
}

/// One repetition to run.
#[derive(Debug, Clone)]
struct Job {
    case: usize,
    model: usize,
    variant: usize,
    repetition: u32,
}

struct Ctx<'a> {
    suite: &'a Suite,
    cases: Vec<&'a Case>,
    models: &'a [EvalModel],
    /// `as-served` first.
    surfaces: Vec<(String, Arc<Surface>)>,
    session: &'a Session,
    server_id: String,
    options: &'a RunOptions,
    tokens: AtomicU64,
    started: Instant,
    done: AtomicU32,
}

/// Runs `suite` against the server behind `session` (handshake done).
pub async fn run(
    suite: &Suite,
    session: &Session,
    server: &str,
    models: &[EvalModel],
    options: &RunOptions,
    progress: &mpsc::Sender<EvalProgress>,
    cancel: &CancellationToken,
) -> Result<EvalReport, RunError> {
    if models.is_empty() {
        return Err(RunError::NoModel);
    }
    for (i, m) in models.iter().enumerate() {
        if models[..i].iter().any(|o| o.name == m.name) {
            return Err(RunError::DuplicateModel(m.name.clone()));
        }
    }
    if options.repeat == 0 || options.repeat > MAX_REPEAT {
        return Err(RunError::Repeat(options.repeat));
    }
    let cases: Vec<&Case> = if options.only.is_empty() {
        suite.cases.iter().collect()
    } else {
        let mut picked = Vec::new();
        for id in &options.only {
            let case = suite
                .cases
                .iter()
                .find(|c| &c.id == id)
                .ok_or_else(|| RunError::NoSuchCase(id.clone()))?;
            picked.push(case);
        }
        picked
    };
    let listed = session
        .list_tools()
        .await
        .map_err(|e| RunError::Tools(e.to_string()))?;
    let base = Surface::of(&listed);
    let mut notices = Vec::new();
    let mut surfaces = vec![(AS_SERVED.to_string(), Arc::new(base.clone()))];
    for name in &options.variants {
        let variant = suite
            .variant(name)
            .ok_or_else(|| RunError::NoSuchVariant(name.clone()))?;
        let unknown = base.unknown_in(variant);
        if !unknown.is_empty() {
            notices.push(Notice::VariantUnknownTools {
                variant: name.clone(),
                tools: unknown,
            });
        }
        surfaces.push((name.clone(), Arc::new(base.with_variant(variant))));
    }
    for case in &cases {
        let e = &case.expect;
        let named = e
            .called
            .iter()
            .map(|c| &c.tool)
            .chain(e.first.iter())
            .chain(e.at_most.keys());
        for tool in named {
            if base.tools.values().all(|t| &t.own != tool) {
                notices.push(Notice::UnknownTool {
                    case: case.id.clone(),
                    tool: tool.clone(),
                });
            }
        }
    }
    let judged = cases.iter().filter(|c| c.judge.is_some()).count() as u32;
    if judged > 0 && options.judge.is_none() {
        notices.push(Notice::NoJudge { cases: judged });
    }
    let mut jobs = Vec::new();
    for repetition in 1..=options.repeat {
        for case in 0..cases.len() {
            for model in 0..models.len() {
                for variant in 0..surfaces.len() {
                    jobs.push(Job {
                        case,
                        model,
                        variant,
                        repetition,
                    });
                }
            }
        }
    }
    if jobs.len() > MAX_TRIALS {
        return Err(RunError::TooMany(jobs.len()));
    }
    let total = jobs.len() as u32;
    // The result lint the agent loop runs on each tool result builds its patterns on first
    // use: built here, once, so the first repetitions do not carry the run's setup.
    let _ = crate::audit::results::lint(
        server,
        "",
        &serde_json::json!({"content": [{"type": "text", "text": "warm-up"}]}),
    );
    let _ = progress.send(EvalProgress::Planned { trials: total }).await;
    let started_ms = now_ms();
    let ctx = Ctx {
        suite,
        cases: cases.clone(),
        models,
        surfaces,
        session,
        server_id: server.to_string(),
        options,
        tokens: AtomicU64::new(0),
        started: Instant::now(),
        done: AtomicU32::new(0),
    };
    // The run's own token: cancelled by the caller, or when the run's time is up.
    let stop = cancel.child_token();
    let deadline = options.max_duration.map(|d| {
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::time::sleep(d).await;
            stop.cancel();
        })
    });
    let concurrency = options.concurrency.clamp(1, MAX_CONCURRENCY);
    let mut trials: Vec<(usize, Trial)> = futures_util::stream::iter(jobs.into_iter().enumerate())
        .map(|(i, job)| {
            let ctx = &ctx;
            let stop = &stop;
            async move {
                let trial = trial_or_skip(ctx, &job, stop).await;
                if trial.outcome != TrialOutcome::Skipped {
                    let done = ctx.done.fetch_add(1, Ordering::Relaxed) + 1;
                    let _ = progress
                        .send(EvalProgress::Done {
                            done,
                            trials: total,
                            case: trial.case.clone(),
                            model: trial.model.clone(),
                            variant: trial.variant.clone(),
                            repetition: trial.repetition,
                            outcome: trial.outcome,
                            latency_ms: trial.trace.latency_us / 1000,
                        })
                        .await;
                }
                (i, trial)
            }
        })
        .buffer_unordered(concurrency)
        .collect()
        .await;
    if let Some(d) = deadline {
        d.abort();
    }
    trials.sort_by_key(|(i, _)| *i);
    let trials: Vec<Trial> = trials.into_iter().map(|(_, t)| t).collect();
    let bounds = bounds_hit(&ctx, &trials, cancel);
    for bound in &bounds {
        let _ = progress
            .send(EvalProgress::Bound {
                bound: bound.clone(),
            })
            .await;
    }
    let mut report = EvalReport {
        version: REPORT_VERSION,
        suite: suite.name.clone(),
        server: server.to_string(),
        started_ms,
        elapsed_ms: ctx.started.elapsed().as_millis() as u64,
        models: models.iter().map(|m| m.name.clone()).collect(),
        variants: ctx.surfaces.iter().map(|(n, _)| n.clone()).collect(),
        repeat: options.repeat,
        approvals: options.approvals.clone(),
        trials,
        summaries: Vec::new(),
        totals: Vec::new(),
        comparisons: Vec::new(),
        bounds,
        notices,
        overhead: None,
    };
    let ids: Vec<String> = cases.iter().map(|c| c.id.clone()).collect();
    report.summarize(&ids);
    Ok(report)
}

/// Which bounds the run hit, from how its repetitions ended.
fn bounds_hit(ctx: &Ctx<'_>, trials: &[Trial], cancel: &CancellationToken) -> Vec<BoundHit> {
    let mut out = Vec::new();
    let skipped = trials
        .iter()
        .filter(|t| t.outcome == TrialOutcome::Skipped)
        .count() as u32;
    let used = ctx.tokens.load(Ordering::Relaxed);
    if cancel.is_cancelled() {
        out.push(BoundHit::Cancelled { skipped });
    } else if let Some(limit) = ctx.options.max_tokens.filter(|l| used >= *l) {
        out.push(BoundHit::Tokens {
            limit,
            used,
            skipped,
        });
    } else if let Some(d) = ctx.options.max_duration
        && skipped > 0
    {
        out.push(BoundHit::Duration {
            limit_ms: d.as_millis() as u64,
            skipped,
        });
    }
    let timed_out = trials
        .iter()
        .filter(|t| {
            matches!(
                t.error,
                Some(Problem::LimitHit {
                    what: Limit::EvalCaseSeconds,
                    ..
                })
            )
        })
        .count() as u32;
    if timed_out > 0 {
        out.push(BoundHit::CaseTime {
            limit_ms: ctx.options.case_timeout.as_millis() as u64,
            count: timed_out,
        });
    }
    out
}

async fn trial_or_skip(ctx: &Ctx<'_>, job: &Job, stop: &CancellationToken) -> Trial {
    let case = ctx.cases[job.case];
    let mut trial = Trial {
        case: case.id.clone(),
        model: ctx.models[job.model].name.clone(),
        variant: ctx.surfaces[job.variant].0.clone(),
        repetition: job.repetition,
        outcome: TrialOutcome::Skipped,
        checks: Vec::new(),
        trace: Trace::default(),
        error: None,
        judge: None,
    };
    let over_budget = ctx
        .options
        .max_tokens
        .is_some_and(|l| ctx.tokens.load(Ordering::Relaxed) >= l);
    if stop.is_cancelled() || over_budget {
        return trial;
    }
    let limit = ctx.options.case_timeout;
    let ran = tokio::select! {
        _ = stop.cancelled() => return trial,
        ran = tokio::time::timeout(limit, converse(ctx, job, stop)) => ran,
    };
    match ran {
        Err(_) => {
            trial.outcome = TrialOutcome::Errored;
            trial.trace.latency_us = limit.as_micros() as u64;
            trial.error = Some(Problem::LimitHit {
                what: Limit::EvalCaseSeconds,
                limit: limit.as_secs_f64().ceil() as u64,
                asked: None,
            });
        }
        Ok((trace, Err(problem))) => {
            trial.trace = trace;
            // Stopped by the run's deadline or a cancel: not the model's fault, not counted.
            if stop.is_cancelled() {
                return trial;
            }
            trial.outcome = TrialOutcome::Errored;
            trial.error = Some(problem);
        }
        Ok((trace, Ok(()))) => {
            trial.checks = grade::grade(&case.expect, &trace);
            trial.outcome = if grade::passed(&trial.checks) {
                TrialOutcome::Passed
            } else {
                TrialOutcome::Failed
            };
            trial.trace = trace;
            if let (Some(judge), Some(rubric)) = (&ctx.options.judge, &case.judge) {
                trial.judge = Some(
                    super::judge::judge(
                        &judge.client,
                        &judge.name,
                        &rubric.rubric,
                        &trial.trace,
                        stop,
                    )
                    .await,
                );
            }
        }
    }
    if let Some(tokens) = trial.trace.tokens() {
        ctx.tokens.fetch_add(tokens, Ordering::Relaxed);
    }
    trial
}

/// The case's conversation: its turns, with the tools; the trace whatever happened.
async fn converse(
    ctx: &Ctx<'_>,
    job: &Job,
    stop: &CancellationToken,
) -> (Trace, Result<(), Problem>) {
    let started = Instant::now();
    let case = ctx.cases[job.case];
    let model = &ctx.models[job.model];
    let surface = ctx.surfaces[job.variant].1.clone();
    let mut trace = Trace {
        overridden: surface.overridden.clone(),
        ..Trace::default()
    };
    let mut conversation = Conversation::new(
        format!("eval-{}-{}", case.id, job.repetition),
        vec![ctx.server_id.clone()],
        model.name.clone(),
    );
    conversation.system = ctx.suite.system.clone();
    let (before, attached) = match attachments(ctx.session, case).await {
        Ok(a) => a,
        Err(problem) => {
            trace.latency_us = started.elapsed().as_micros() as u64;
            return (trace, Err(problem));
        }
    };
    conversation.messages.extend(before);
    let tools = EvalTools {
        session: ctx.session,
        server_id: ctx.server_id.clone(),
        surface: surface.clone(),
        keeper: ctx.options.keeper.0.as_deref(),
        by: CallMaker {
            case: &case.id,
            model: &model.name,
            variant: &ctx.surfaces[job.variant].0,
            repetition: job.repetition,
        },
    };
    let approver = RunApprover {
        approvals: ctx.options.approvals.clone(),
        surface: surface.clone(),
    };
    let mut outcome = Ok(());
    let mut attached = Some(attached);
    for (i, text) in case.user_turns().into_iter().enumerate() {
        let turn = i as u32 + 1;
        let mut user = vec![Block::text(text)];
        user.extend(attached.take().unwrap_or_default());
        let (tx, mut rx) = mpsc::channel::<AgentEvent>(256);
        let asked = async {
            let stats = run_turn(
                &model.client,
                &mut conversation,
                user,
                &tools,
                &approver,
                &tx,
                stop,
            )
            .await;
            drop(tx);
            stats
        };
        let collect = async {
            while let Some(event) = rx.recv().await {
                note(&mut trace, &ctx.options.approvals, &surface, turn, event);
            }
        };
        let (stats, ()) = tokio::join!(asked, collect);
        match stats {
            Ok(stats) => {
                trace.usage = trace.usage.plus(stats.usage);
                trace.rounds += stats.rounds;
                trace.hit_round_limit |= stats.hit_round_limit;
            }
            Err(e) => {
                outcome = Err(Problem::from(e));
                break;
            }
        }
    }
    trace.answer = last_answer(&conversation.messages);
    let keep = conversation
        .messages
        .len()
        .saturating_sub(MAX_TRACE_MESSAGES);
    trace.messages = conversation.messages.split_off(keep);
    trace.latency_us = started.elapsed().as_micros() as u64;
    (trace, outcome)
}

/// What the agent loop said, in the trace.
fn note(trace: &mut Trace, approvals: &Approvals, surface: &Surface, turn: u32, event: AgentEvent) {
    match event {
        AgentEvent::RoundDone { timing, .. } => trace.model_us += timing.total_us,
        AgentEvent::ToolCall { call, .. } => {
            let tool = surface.own_name(&call.name).map(str::to_string);
            trace.calls.push(TracedCall {
                turn,
                basis: approvals.basis(surface.tools.get(&call.name)),
                name: call.name,
                tool,
                arguments: call.input,
                approval: crate::model::conversation::Approval::Reject,
                is_error: false,
                result: String::new(),
                ran: None,
            });
        }
        AgentEvent::ToolDecision { approval, .. } => {
            if let Some(last) = trace.calls.last_mut() {
                last.approval = approval;
            }
        }
        AgentEvent::ToolResult {
            is_error,
            content,
            ran,
            ..
        } => {
            if let Some(last) = trace.calls.last_mut() {
                last.is_error = is_error;
                last.result = cut(&text_of(&content), MAX_RESULT_CHARS);
                if let Some(r) = &ran {
                    trace.tools_us += r.timing.duration_us;
                }
                last.ran = ran;
            }
        }
        AgentEvent::Model { .. } => {}
    }
}

/// The model's last words: the text of the last assistant message that has any.
fn last_answer(messages: &[ChatMessage]) -> String {
    messages
        .iter()
        .rev()
        .filter(|m| m.role == ChatRole::Assistant)
        .map(|m| text_of(&m.content))
        .find(|t| !t.trim().is_empty())
        .unwrap_or_default()
}

/// The case's attachments: prompt messages that go before the first turn, and resource
/// blocks that go with it.
async fn attachments(
    session: &Session,
    case: &Case,
) -> Result<(Vec<ChatMessage>, Vec<Block>), Problem> {
    let mut before = Vec::new();
    let mut blocks = Vec::new();
    for prompt in &case.attach.prompts {
        let arguments: Map<String, Value> = prompt
            .arguments
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let got = session
            .get_prompt(&prompt.name, arguments)
            .await
            .map_err(|e| Problem::from(&e))?;
        let messages = prompt_messages(&got).map_err(|breach| Problem::ProtocolBroken {
            method: crate::vocabulary::method::names::PROMPTS_GET.into(),
            breach,
        })?;
        before.extend(messages);
    }
    for uri in &case.attach.resources {
        let read = session
            .read_resource(uri)
            .await
            .map_err(|e| Problem::from(&e))?;
        blocks.extend(resource_blocks(&read));
    }
    Ok((before, blocks))
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
