//! Lists: every page valid against the revision's schema, paging that ends, a bogus cursor
//! refused, names unique and well formed, and `list_changed` only where it was declared.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::EraCtx;
use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::surface::{ListEnd, ListKind, MAX_PAGES};
use crate::vocabulary::method::names;
use crate::wire::{Direction, error_code};

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let mut found = vec![
        (Rule::ToolsList, pages_valid(ctx, ListKind::Tools)),
        (Rule::ResourcesList, pages_valid(ctx, ListKind::Resources)),
        (Rule::TemplatesList, pages_valid(ctx, ListKind::Templates)),
        (Rule::PromptsList, pages_valid(ctx, ListKind::Prompts)),
        (Rule::CursorsEnd, cursors_end(ctx)),
        (Rule::UniqueToolNames, unique(ctx, ListKind::Tools)),
        (Rule::UniquePromptNames, unique(ctx, ListKind::Prompts)),
        (Rule::UniqueResourceUris, unique(ctx, ListKind::Resources)),
        (Rule::ToolNameFormat, tool_names(ctx)),
    ];
    found.push((Rule::BogusCursor, bogus_cursor(ctx).await));
    found
}

fn not_declared(kind: ListKind) -> Outcome {
    Outcome::skip(
        NotAsked::NotDeclared {
            capability: kind.capability().into(),
        },
        format!("the server does not declare {}", kind.capability()),
    )
}

fn pages_valid(ctx: &EraCtx<'_>, kind: ListKind) -> Outcome {
    let Some(listing) = ctx.listing(kind) else {
        return not_declared(kind);
    };
    let mut wrong = Vec::new();
    let mut frames = Vec::new();
    for page in &listing.pages {
        frames.extend(page.frames());
        let Some(result) = page.result() else {
            wrong.push(format!("{} got {}", kind.method(), page.describe()));
            continue;
        };
        let definition = kind.result_definition();
        match crate::protocol_check::check_definition(ctx.revision(), definition, result) {
            Some(violations) if !violations.is_empty() => {
                let first = &violations[0];
                wrong.push(format!(
                    "page at frame {}: {} at {} ({} violations)",
                    page.response_seq.unwrap_or_default(),
                    first.message,
                    if first.path.is_empty() {
                        "/"
                    } else {
                        &first.path
                    },
                    violations.len()
                ));
            }
            _ => {}
        }
    }
    if wrong.is_empty() {
        Outcome::pass(
            frames,
            format!(
                "{} pages, {} items, valid against {}",
                listing.pages.len(),
                listing.items.len(),
                ctx.revision()
            ),
        )
    } else {
        Outcome::broken(frames, wrong.join("; "))
    }
}

fn cursors_end(ctx: &EraCtx<'_>) -> Outcome {
    let mut frames = Vec::new();
    let mut wrong = Vec::new();
    let mut paged = 0;
    for kind in ListKind::ALL {
        let Some(listing) = ctx.listing(kind) else {
            continue;
        };
        paged += 1;
        match &listing.end {
            ListEnd::Looped { cursor } => {
                frames.extend(listing.frames());
                wrong.push(format!(
                    "{}: cursor {cursor:?} came back after {} pages",
                    kind.method(),
                    listing.pages.len()
                ));
            }
            ListEnd::TooManyPages => {
                frames.extend(listing.frames());
                wrong.push(format!(
                    "{}: still a nextCursor after {MAX_PAGES} pages",
                    kind.method()
                ));
            }
            ListEnd::Complete | ListEnd::Stopped => {}
        }
    }
    if paged == 0 {
        return Outcome::skip(NotAsked::NothingToAsk, "no list is declared");
    }
    if wrong.is_empty() {
        Outcome::pass(frames, format!("{paged} lists paged to their end"))
    } else {
        Outcome::broken(frames, wrong.join("; "))
    }
}

async fn bogus_cursor(ctx: &EraCtx<'_>) -> Outcome {
    let Some(kind) = ListKind::ALL
        .into_iter()
        .find(|k| ctx.listing(*k).is_some_and(|l| l.refused().is_none()))
    else {
        return Outcome::skip(NotAsked::NothingToAsk, "no list answers");
    };
    let asked = ctx
        .probe
        .ask(
            kind.method(),
            Some(json!({"cursor": "periscope-check-no-such-cursor"})),
        )
        .await;
    if asked.error_code() == Some(error_code::INVALID_PARAMS) {
        Outcome::pass(
            asked.frames(),
            format!("{} refused it with -32602", kind.method()),
        )
    } else {
        Outcome::broken(
            asked.frames(),
            format!(
                "{} with a cursor it never gave got {}",
                kind.method(),
                asked.describe()
            ),
        )
    }
}

fn unique(ctx: &EraCtx<'_>, kind: ListKind) -> Outcome {
    let Some(listing) = ctx.listing(kind) else {
        return not_declared(kind);
    };
    let mut seen = HashSet::new();
    let mut twice: Vec<String> = listing
        .keys()
        .into_iter()
        .filter(|k| !seen.insert(k.clone()))
        .collect();
    twice.dedup();
    if twice.is_empty() {
        Outcome::pass(listing.frames(), format!("{} distinct", seen.len()))
    } else {
        Outcome::broken(
            listing.frames(),
            format!("listed more than once: {}", twice.join(", ")),
        )
    }
}

/// The 2025-11-25 tool name rule: 1 to 128 characters of `A-Za-z0-9_-.`.
pub(crate) fn is_good_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn tool_names(ctx: &EraCtx<'_>) -> Outcome {
    let Some(listing) = ctx.listing(ListKind::Tools) else {
        return not_declared(ListKind::Tools);
    };
    let bad: Vec<String> = listing
        .keys()
        .into_iter()
        .filter(|n| !is_good_tool_name(n))
        .map(|n| format!("{n:?}"))
        .collect();
    if bad.is_empty() {
        Outcome::pass(
            listing.frames(),
            format!("{} names well formed", listing.items.len()),
        )
    } else {
        Outcome::broken(
            listing.frames(),
            format!("names outside the rule: {}", bad.join(", ")),
        )
    }
}

/// Rules read from the whole record once it is complete.
pub(crate) fn passive(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let traffic = ctx.probe.session.traffic();
    let offers = &ctx.identity.offers;
    let declares_changes = |capability: &str| {
        offers
            .declared
            .iter()
            .any(|c| c.name == capability && c.flags.iter().any(|f| f == "listChanged"))
    };
    let mut frames = Vec::new();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for frame in traffic.frames() {
        if frame.direction != Direction::In {
            continue;
        }
        let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) else {
            continue;
        };
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            continue;
        };
        let capability = match method {
            names::TOOLS_LIST_CHANGED => "tools",
            names::PROMPTS_LIST_CHANGED => "prompts",
            names::RESOURCES_LIST_CHANGED => "resources",
            _ => continue,
        };
        seen += 1;
        if !declares_changes(capability) {
            frames.push(frame.seq);
            wrong.push(format!("{method} without {capability}.listChanged"));
        }
    }
    wrong.dedup();
    let outcome = if wrong.is_empty() {
        Outcome::pass(
            frames,
            format!("{seen} list_changed notifications, all declared"),
        )
    } else {
        Outcome::broken(frames, wrong.join("; "))
    };
    vec![(Rule::ListChangedDeclared, outcome)]
}
