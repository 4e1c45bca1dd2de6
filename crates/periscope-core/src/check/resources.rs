//! Resources: the first listed ones read (contents valid, naming their URI, MIME type as
//! listed, base64 that decodes), an unknown URI refused, templates that parse, and
//! subscriptions where declared.

use serde_json::{Value, json};

use super::EraCtx;
use super::report::{NotAsked, Outcome};
use super::rule::Rule;
use super::surface::ListKind;
use crate::era::Era;
use crate::vocabulary::method::names;
use crate::vocabulary::views::content::is_base64;
use crate::wire::error_code;

/// -32002: what revisions before 2026-07-28 call "resource not found".
const RESOURCE_NOT_FOUND: i64 = -32002;

pub(crate) async fn ask(ctx: &EraCtx<'_>) -> Vec<(Rule, Outcome)> {
    let Some(listing) = ctx.listing(ListKind::Resources) else {
        let skip = || {
            Outcome::skip(
                NotAsked::NotDeclared {
                    capability: "resources".into(),
                },
                "the server does not declare resources",
            )
        };
        return [
            Rule::ReadResult,
            Rule::MimeConsistent,
            Rule::Base64,
            Rule::UnknownUri,
            Rule::UnknownUriCode,
            Rule::TemplateSyntax,
            Rule::Subscribe,
        ]
        .into_iter()
        .map(|r| (r, skip()))
        .collect();
    };
    let resources: Vec<Value> = listing
        .items
        .iter()
        .take(ctx.options.max_reads)
        .cloned()
        .collect();
    let mut read_frames = Vec::new();
    let mut read_wrong = Vec::new();
    let mut mime_frames = Vec::new();
    let mut mime_wrong = Vec::new();
    let mut blob_frames = Vec::new();
    let mut blob_wrong = Vec::new();
    let mut blobs = 0;
    let mut typed = 0;
    for resource in &resources {
        let Some(uri) = resource.get("uri").and_then(Value::as_str) else {
            continue;
        };
        let asked = ctx
            .probe
            .ask(names::RESOURCES_READ, Some(json!({"uri": uri})))
            .await;
        read_frames.extend(asked.frames());
        let Some(result) = asked.result() else {
            read_wrong.push(format!("{uri}: {}", asked.describe()));
            continue;
        };
        if let Some(violations) =
            crate::protocol_check::check_definition(ctx.revision(), "ReadResourceResult", result)
            && let Some(first) = violations.first()
        {
            read_wrong.push(format!("{uri}: {} at {}", first.message, first.path));
            continue;
        }
        let contents = result
            .get("contents")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if contents.is_empty() {
            read_wrong.push(format!("{uri}: no contents"));
        }
        if !contents
            .iter()
            .any(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
            && !contents.is_empty()
        {
            read_wrong.push(format!("{uri}: no content names the URI read"));
        }
        let listed_type = resource.get("mimeType").and_then(Value::as_str);
        for content in &contents {
            if let (Some(listed), Some(sent)) =
                (listed_type, content.get("mimeType").and_then(Value::as_str))
            {
                typed += 1;
                mime_frames.extend(asked.frames());
                if !same_type(listed, sent) {
                    mime_wrong.push(format!("{uri}: listed as {listed}, read as {sent}"));
                }
            }
            if let Some(blob) = content.get("blob").and_then(Value::as_str) {
                blobs += 1;
                blob_frames.extend(asked.frames());
                if !is_base64(blob) {
                    blob_wrong.push(format!("{uri}: blob is not base64"));
                }
            }
        }
    }
    let read = if resources.is_empty() {
        Outcome::skip(NotAsked::NothingToAsk, "no resource is listed")
    } else if read_wrong.is_empty() {
        Outcome::pass(read_frames, format!("{} resources read", resources.len()))
    } else {
        Outcome::broken(read_frames, read_wrong.join("; "))
    };
    let mime = if typed == 0 {
        Outcome::skip(
            NotAsked::NothingToAsk,
            "no resource read has a MIME type in both places",
        )
    } else if mime_wrong.is_empty() {
        Outcome::pass(
            mime_frames,
            format!("{typed} contents carry their listed type"),
        )
    } else {
        Outcome::broken(mime_frames, mime_wrong.join("; "))
    };
    let base64 = if blobs == 0 {
        Outcome::skip(NotAsked::NothingToAsk, "no resource read is binary")
    } else if blob_wrong.is_empty() {
        Outcome::pass(blob_frames, format!("{blobs} blobs decode"))
    } else {
        Outcome::broken(blob_frames, blob_wrong.join("; "))
    };
    let (unknown, unknown_code) = unknown_uri(ctx).await;
    vec![
        (Rule::ReadResult, read),
        (Rule::MimeConsistent, mime),
        (Rule::Base64, base64),
        (Rule::UnknownUri, unknown),
        (Rule::UnknownUriCode, unknown_code),
        (Rule::TemplateSyntax, templates(ctx)),
        (Rule::Subscribe, subscribe(ctx, &resources).await),
    ]
}

/// The same media type, parameters (`; charset=utf-8`) and case aside.
fn same_type(a: &str, b: &str) -> bool {
    let bare = |t: &str| {
        t.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    };
    bare(a) == bare(b)
}

/// An unknown URI read: refused with an error (`resources.unknown-uri`), of the code the
/// revision names (`resources.unknown-uri-code`, a SHOULD: SEP-2164 moved it to -32602).
async fn unknown_uri(ctx: &EraCtx<'_>) -> (Outcome, Outcome) {
    let uri = "periscope-check://no/such/resource";
    let asked = ctx
        .probe
        .ask(names::RESOURCES_READ, Some(json!({"uri": uri})))
        .await;
    let Some(code) = asked.error_code() else {
        let refused = Outcome::broken(
            asked.frames(),
            format!("reading {uri} got {} (expected an error)", asked.describe()),
        );
        let code = Outcome::skip(NotAsked::NothingToAsk, "the read was not refused");
        return (refused, code);
    };
    let expected: &[i64] = match ctx.era() {
        Era::Modern => &[error_code::INVALID_PARAMS],
        Era::Legacy => &[RESOURCE_NOT_FOUND, error_code::INVALID_PARAMS],
    };
    let refused = Outcome::pass(asked.frames(), format!("refused with {code}"));
    let named = if expected.contains(&code) {
        Outcome::pass(asked.frames(), format!("error {code}"))
    } else {
        Outcome::broken(
            asked.frames(),
            format!(
                "error {code}, where {} names {}",
                ctx.revision(),
                expected
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        )
    };
    (refused, named)
}

fn templates(ctx: &EraCtx<'_>) -> Outcome {
    let Some(listing) = ctx.listing(ListKind::Templates) else {
        return Outcome::skip(NotAsked::NothingToAsk, "no templates listed");
    };
    if listing.items.is_empty() {
        return Outcome::skip(NotAsked::NothingToAsk, "no templates listed");
    }
    let mut wrong = Vec::new();
    for template in &listing.items {
        let Some(text) = template.get("uriTemplate").and_then(Value::as_str) else {
            wrong.push("a template without a uriTemplate string".to_string());
            continue;
        };
        if let Err(e) = crate::resource_template::variables(text) {
            wrong.push(format!("{text:?}: {e}"));
        }
    }
    if wrong.is_empty() {
        Outcome::pass(
            listing.frames(),
            format!("{} templates parse", listing.items.len()),
        )
    } else {
        Outcome::broken(listing.frames(), wrong.join("; "))
    }
}

async fn subscribe(ctx: &EraCtx<'_>, resources: &[Value]) -> Outcome {
    if !ctx.identity.offers.resources_subscribe {
        return Outcome::skip(
            NotAsked::NotDeclared {
                capability: "resources.subscribe".into(),
            },
            "the server does not declare resources.subscribe",
        );
    }
    let Some(uri) = resources
        .iter()
        .find_map(|r| r.get("uri").and_then(Value::as_str))
    else {
        return Outcome::skip(NotAsked::NothingToAsk, "no resource is listed");
    };
    let on = ctx
        .probe
        .ask(names::RESOURCES_SUBSCRIBE, Some(json!({"uri": uri})))
        .await;
    let off = ctx
        .probe
        .ask(names::RESOURCES_UNSUBSCRIBE, Some(json!({"uri": uri})))
        .await;
    let mut frames = on.frames();
    frames.extend(off.frames());
    let mut wrong = Vec::new();
    for (method, asked) in [
        ("resources/subscribe", &on),
        ("resources/unsubscribe", &off),
    ] {
        if asked.result().is_none() {
            wrong.push(format!("{method} got {}", asked.describe()));
        }
    }
    if wrong.is_empty() {
        Outcome::pass(frames, format!("subscribed to and unsubscribed from {uri}"))
    } else {
        Outcome::broken(frames, wrong.join("; "))
    }
}
