//! Utilities: ping, `logging/setLevel`, completion, and (2026-07-28) caching hints.

use serde_json::{Value, json};

use super::EraCtx;
use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::surface::ListKind;
use crate::era::Era;
use crate::vocabulary::method::names;
use crate::wire::Direction;

/// The most values a completion may give (2025-11-25, "Completion").
const MAX_COMPLETION_VALUES: usize = 100;

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let mut found = Vec::new();
    if ctx.era() == Era::Legacy {
        found.push((Rule::Ping, ping(ctx).await));
        found.push((Rule::SetLevel, set_level(ctx).await));
    } else {
        found.push((Rule::CacheHints, cache_hints(ctx)));
    }
    found.push((Rule::Completion, completion(ctx).await));
    found
}

fn empty_result(result: Option<&Value>) -> bool {
    result.is_some_and(|r| {
        r.as_object()
            .is_some_and(|o| o.keys().all(|k| k == "_meta"))
    })
}

async fn ping(ctx: &EraCtx<'_>) -> Outcome {
    let asked = ctx.probe.ask(names::PING, None).await;
    if empty_result(asked.result()) {
        Outcome::pass(asked.frames(), "answered with {}")
    } else {
        Outcome::broken(asked.frames(), format!("ping got {}", asked.describe()))
    }
}

async fn set_level(ctx: &EraCtx<'_>) -> Outcome {
    if !ctx.identity.offers.logging {
        return Outcome::skip(
            NotAsked::NotDeclared {
                capability: "logging".into(),
            },
            "the server does not declare logging",
        );
    }
    let asked = ctx
        .probe
        .ask(names::LOGGING_SET_LEVEL, Some(json!({"level": "warning"})))
        .await;
    if empty_result(asked.result()) {
        Outcome::pass(asked.frames(), "logging/setLevel warning answered with {}")
    } else {
        Outcome::broken(
            asked.frames(),
            format!("logging/setLevel got {}", asked.describe()),
        )
    }
}

/// What to complete: a prompt's first argument, else a template's first variable.
fn completion_ref(ctx: &EraCtx<'_>) -> Option<(Value, String)> {
    let prompt = ctx.listing(ListKind::Prompts).and_then(|l| {
        l.items.iter().find_map(|p| {
            let name = p.get("name")?.as_str()?;
            let argument = p.get("arguments")?.as_array()?.first()?.get("name")?.as_str()?;
            Some((
                json!({"ref": {"type": "ref/prompt", "name": name}, "argument": {"name": argument, "value": ""}}),
                format!("prompt {name}, argument {argument}"),
            ))
        })
    });
    prompt.or_else(|| {
        ctx.listing(ListKind::Templates)?.items.iter().find_map(|t| {
            let template = t.get("uriTemplate")?.as_str()?;
            let variable = crate::resource_template::variables(template).ok()?.into_iter().next()?;
            Some((
                json!({"ref": {"type": "ref/resource", "uri": template}, "argument": {"name": variable.name, "value": ""}}),
                format!("template {template}, variable {}", variable.name),
            ))
        })
    })
}

async fn completion(ctx: &EraCtx<'_>) -> Outcome {
    if !ctx.identity.offers.completions {
        return Outcome::skip(
            NotAsked::NotDeclared {
                capability: "completions".into(),
            },
            "the server does not declare completions",
        );
    }
    let Some((params, what)) = completion_ref(ctx) else {
        return Outcome::skip(
            NotAsked::NothingToAsk,
            "no prompt argument or template variable to complete",
        );
    };
    let asked = ctx
        .probe
        .ask(names::COMPLETION_COMPLETE, Some(params))
        .await;
    let Some(values) = asked
        .result()
        .and_then(|r| r.pointer("/completion/values"))
        .and_then(Value::as_array)
    else {
        return Outcome::broken(
            asked.frames(),
            format!("completing {what} got {}", asked.describe()),
        );
    };
    if values.len() > MAX_COMPLETION_VALUES || values.iter().any(|v| !v.is_string()) {
        return Outcome::broken(
            asked.frames(),
            format!(
                "completing {what} gave {} values (at most {MAX_COMPLETION_VALUES} strings)",
                values.len()
            ),
        );
    }
    Outcome::pass(
        asked.frames(),
        format!("completing {what}: {} values", values.len()),
    )
}

/// Every list result carries `ttlMs` and `cacheScope` (2026-07-28, "Caching"), and every
/// result that carries them has them well formed.
fn cache_hints(ctx: &EraCtx<'_>) -> Outcome {
    let traffic = ctx.probe.session.traffic();
    let mut frames = Vec::new();
    let mut wrong = Vec::new();
    let mut hinted = 0;
    for kind in ListKind::ALL {
        let Some(listing) = ctx.listing(kind) else {
            continue;
        };
        for page in &listing.pages {
            let Some(result) = page.result() else {
                continue;
            };
            for key in ["ttlMs", "cacheScope"] {
                if result.get(key).is_none() {
                    frames.extend(page.frames());
                    wrong.push(format!("{} has no {key}", kind.method()));
                }
            }
        }
    }
    for frame in traffic.frames() {
        if frame.direction != Direction::In {
            continue;
        }
        let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) else {
            continue;
        };
        let Some(result) = message.get("result") else {
            continue;
        };
        let ttl = result.get("ttlMs");
        let scope = result.get("cacheScope");
        if ttl.is_none() && scope.is_none() {
            continue;
        }
        hinted += 1;
        frames.push(frame.seq);
        if let Some(ttl) = ttl
            && !ttl.is_u64()
        {
            wrong.push(format!("frame {}: ttlMs is {ttl}", frame.seq));
        }
        if let Some(scope) = scope
            && !matches!(scope.as_str(), Some("public") | Some("private"))
        {
            wrong.push(format!("frame {}: cacheScope is {scope}", frame.seq));
        }
    }
    wrong.dedup();
    if hinted == 0 && wrong.is_empty() {
        return Outcome::skip(NotAsked::NothingToAsk, "no result carried caching hints");
    }
    if wrong.is_empty() {
        Outcome::pass(frames, format!("{hinted} results with well-formed hints"))
    } else {
        Outcome::broken(frames, wrong.join("; "))
    }
}
