//! Lifecycle: what the server says of itself (identity, capabilities, instructions,
//! `server/discover`), whether what it declares answers and what it does not declare is
//! refused, and how it negotiates the protocol version (sessions of their own).

use serde_json::Value;

use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::surface::ListKind;
use super::{CheckOptions, CheckTarget, EraCtx};
use crate::era::{Era, EraChoice};
use crate::revision;
use crate::vocabulary::method::names;
use crate::wire::error_code;

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let frames = ctx.handshake_frames.clone();
    let mut found = Vec::new();
    let info = &ctx.identity.info;
    found.push((
        Rule::ServerInfo,
        if info.problems.is_empty() {
            Outcome::pass(
                frames.clone(),
                format!("serverInfo: {}", info.label().unwrap_or_default()),
            )
        } else {
            Outcome::broken(frames.clone(), listed(&info.problems))
        },
    ));
    let offers = &ctx.identity.offers;
    found.push((
        Rule::CapabilitiesShape,
        if offers.problems.is_empty() {
            let names: Vec<&str> = offers.declared.iter().map(|c| c.name.as_str()).collect();
            Outcome::pass(frames.clone(), format!("declares {}", names.join(", ")))
        } else {
            Outcome::broken(frames.clone(), listed(&offers.problems))
        },
    ));
    found.push((Rule::Instructions, instructions(ctx)));
    if ctx.era() == Era::Modern {
        found.push((Rule::DiscoverShape, discover(ctx).await));
    }
    found.push((Rule::DeclaredAnswers, declared_answers(ctx)));
    found.push((Rule::UndeclaredRefused, undeclared_refused(ctx).await));
    found
}

fn listed(problems: &[impl std::fmt::Display]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The handshake's result as sent: the first inbound response among its frames.
fn handshake_result(ctx: &EraCtx<'_>) -> Option<(u64, Value)> {
    ctx.handshake_frames.iter().rev().find_map(|seq| {
        let frame = ctx.probe.session.traffic().frame(*seq)?;
        if frame.direction != crate::wire::Direction::In {
            return None;
        }
        let message: Value = serde_json::from_slice(&frame.bytes).ok()?;
        let result = message.get("result")?;
        result
            .get("serverInfo")
            .or_else(|| result.get("capabilities"))
            .is_some()
            .then(|| (*seq, result.clone()))
    })
}

fn instructions(ctx: &EraCtx<'_>) -> Outcome {
    let Some((seq, result)) = handshake_result(ctx) else {
        return Outcome::skip(
            NotAsked::NothingToAsk,
            "the handshake's result is not in the record",
        );
    };
    match result.get("instructions") {
        None => Outcome::pass(vec![seq], "no instructions"),
        Some(Value::String(text)) => Outcome::pass(
            vec![seq],
            format!("instructions of {} characters", text.chars().count()),
        ),
        Some(other) => Outcome::broken(
            vec![seq],
            format!(
                "instructions is {}, not a string",
                crate::wire::json_kind(other)
            ),
        ),
    }
}

async fn discover(ctx: &EraCtx<'_>) -> Outcome {
    let asked = ctx.probe.ask(names::SERVER_DISCOVER, None).await;
    let Some(result) = asked.result() else {
        return Outcome::broken(
            asked.frames(),
            format!("server/discover got {}", asked.describe()),
        );
    };
    let mut wrong: Vec<String> =
        crate::protocol_check::check_definition(revision::LATEST_MODERN, "DiscoverResult", result)
            .unwrap_or_default()
            .into_iter()
            .take(3)
            .map(|v| {
                format!(
                    "{} at {}",
                    v.message,
                    if v.path.is_empty() { "/" } else { &v.path }
                )
            })
            .collect();
    let lists_modern = result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .is_some_and(|v| {
            v.iter()
                .any(|v| v.as_str() == Some(revision::LATEST_MODERN))
        });
    if !lists_modern {
        wrong.push(format!(
            "supportedVersions does not list {}",
            revision::LATEST_MODERN
        ));
    }
    if wrong.is_empty() {
        Outcome::pass(asked.frames(), "server/discover is complete")
    } else {
        Outcome::broken(asked.frames(), wrong.join("; "))
    }
}

fn declared_answers(ctx: &EraCtx<'_>) -> Outcome {
    let mut frames = Vec::new();
    let mut refused = Vec::new();
    let mut asked = Vec::new();
    for kind in [ListKind::Tools, ListKind::Prompts, ListKind::Resources] {
        if ctx.identity.offers.unknown {
            continue;
        }
        let Some(listing) = ctx.listing(kind) else {
            continue;
        };
        asked.push(kind.capability());
        if let Some(page) = listing.refused() {
            frames.extend(page.frames());
            refused.push(format!("{} got {}", kind.method(), page.describe()));
        }
    }
    if asked.is_empty() {
        return Outcome::skip(
            NotAsked::NotDeclared {
                capability: "tools, prompts or resources".into(),
            },
            "the server declares none of tools, prompts and resources",
        );
    }
    if refused.is_empty() {
        Outcome::pass(frames, format!("{} answer", asked.join(", ")))
    } else {
        Outcome::broken(frames, refused.join("; "))
    }
}

async fn undeclared_refused(ctx: &EraCtx<'_>) -> Outcome {
    if ctx.identity.offers.unknown {
        return Outcome::skip(
            NotAsked::NothingToAsk,
            "the server's capabilities are unreadable, so nothing is known to be undeclared",
        );
    }
    let undeclared: Vec<ListKind> = [ListKind::Tools, ListKind::Prompts, ListKind::Resources]
        .into_iter()
        .filter(|k| !ctx.declares(*k))
        .collect();
    if undeclared.is_empty() {
        return Outcome::skip(
            NotAsked::NothingToAsk,
            "the server declares tools, prompts and resources: none is undeclared",
        );
    }
    let mut frames = Vec::new();
    let mut wrong = Vec::new();
    for kind in &undeclared {
        let asked = ctx.probe.ask(kind.method(), None).await;
        frames.extend(asked.frames());
        if asked.error_code() != Some(error_code::METHOD_NOT_FOUND) {
            wrong.push(format!(
                "{} (not declared) got {}",
                kind.method(),
                asked.describe()
            ));
        }
    }
    let methods: Vec<&str> = undeclared.iter().map(|k| k.method()).collect();
    if wrong.is_empty() {
        Outcome::pass(
            frames,
            format!("{} refused with -32601", methods.join(", ")),
        )
    } else {
        Outcome::broken(frames, wrong.join("; "))
    }
}

/// Version negotiation, each in a session of its own (legacy era): the newest legacy revision
/// (the main legacy session's own offer), an older one, and one nobody defines.
pub(crate) async fn negotiation(
    target: &CheckTarget,
    options: &CheckOptions,
    spoken: &[Era],
) -> Vec<(Rule, Outcome)> {
    if !spoken.contains(&Era::Legacy) {
        return Vec::new();
    }
    let offers = [
        (Rule::InitializeLatest, revision::LATEST_STATEFUL),
        (Rule::InitializeOlder, "2025-03-26"),
        (Rule::InitializeUnknown, "1999-01-01"),
    ];
    let asks = offers
        .into_iter()
        .filter(|(rule, _)| options.selects(*rule))
        .map(|(rule, offered)| async move {
            let mut session_options = options.session.clone();
            session_options.era = EraChoice::Legacy;
            session_options.protocol_version = offered.to_string();
            let outcome = match super::open_with(target, session_options, None).await {
                Err(why) => Outcome::broken(
                    Vec::new(),
                    format!("initialize offering {offered} failed: {why}"),
                ),
                Ok((session, identity)) => {
                    session.close().await;
                    judge_negotiation(rule, offered, &identity.protocol_version)
                }
            };
            (rule, outcome)
        });
    futures_util::future::join_all(asks).await
}

fn judge_negotiation(rule: Rule, offered: &str, answered: &str) -> Outcome {
    let speaks = revision::STATEFUL_VERSIONS.contains(&answered);
    let said = format!("offered {offered}, the server answered {answered}");
    match rule {
        Rule::InitializeUnknown if answered == offered => Outcome::broken(
            Vec::new(),
            format!("{said}: it echoed a revision nobody defines"),
        ),
        _ if !speaks => Outcome::broken(
            Vec::new(),
            format!("{said}, which is no revision of the initialize era"),
        ),
        _ => Outcome::pass(Vec::new(), said),
    }
}
