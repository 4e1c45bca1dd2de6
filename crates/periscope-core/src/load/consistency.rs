//! Stateless scale (2026-07-28): a server meant to run as several instances behind a load
//! balancer must answer the same whichever instance a request reaches. Each instance is asked
//! for what it offers (server info and capabilities, every list paged to its end, each with its
//! cache hints) and, once, each request of the workload's cache hints; each instance's answers
//! are compared with the first's, difference by difference (JSON Pointer, before, after).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::workload::LoadRequest;
use crate::cache_hint::CacheHint;
use crate::diff::{ValueChange, changes};
use crate::session::{CallOptions, Session};
use crate::vocabulary::method::names;
use crate::vocabulary::views::server::CapabilitiesView;

/// Differences named per answer at most: a rewritten list is summed up by its first ones.
const CHANGES_SHOWN: usize = 20;

/// One answer of one instance that is not the first instance's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Difference {
    /// What was compared: `tools/list`, `tools/list cache hints`, `server info`, …
    pub what: String,
    /// The instance that answered differently (from 0; the first is the reference).
    pub instance: usize,
    pub changes: Vec<ValueChange>,
    /// Differences past those shown.
    pub more: usize,
}

/// Every instance's answers compared with the first's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ConsistencyReport {
    /// The instances, secrets masked, in order.
    pub instances: Vec<String>,
    /// What was compared.
    pub compared: Vec<String>,
    pub differences: Vec<Difference>,
}

/// One thing asked of every instance: its answer (or the error in words) as a value.
struct Asked {
    what: String,
    answers: Vec<Value>,
}

fn hint_value(hint: Option<CacheHint>) -> Value {
    match hint {
        Some(h) => serde_json::json!({"ttlMs": h.ttl_ms, "cacheScope": h.scope}),
        None => Value::Null,
    }
}

fn error_value(error: impl std::fmt::Display) -> Value {
    serde_json::json!({"error": error.to_string()})
}

/// What the instance said of itself, without what differs by instance on purpose (nothing:
/// `serverInfo` and `capabilities` as sent).
fn identity_value(session: &Session) -> Value {
    session.identity().map_or(Value::Null, |i| {
        serde_json::json!({
            "protocolVersion": i.protocol_version,
            "serverInfo": i.server_info,
            "capabilities": i.capabilities,
        })
    })
}

/// Asks every instance (one session each, in `targets` order) and compares.
pub async fn compare(
    targets: &[String],
    sessions: &[&Session],
    workload: &[LoadRequest],
) -> ConsistencyReport {
    let mut asked = vec![Asked {
        what: "server info and capabilities".into(),
        answers: sessions.iter().map(|s| identity_value(s)).collect(),
    }];
    let offers = sessions
        .first()
        .and_then(|s| s.identity())
        .map(|i| CapabilitiesView::read(&i.capabilities))
        .unwrap_or_default();
    let lists = [
        (offers.tools, names::TOOLS_LIST, "tools"),
        (offers.prompts, names::PROMPTS_LIST, "prompts"),
        (offers.resources, names::RESOURCES_LIST, "resources"),
        (
            offers.resources,
            names::RESOURCE_TEMPLATES_LIST,
            "resourceTemplates",
        ),
    ];
    for (offered, method, key) in lists {
        if !(offered || offers.unknown) {
            continue;
        }
        let mut items = Vec::new();
        let mut hints = Vec::new();
        for session in sessions {
            match session.list_all_cached(method, key).await {
                Ok(listed) => {
                    items.push(Value::Array(listed.items));
                    hints.push(hint_value(listed.cache));
                }
                Err(e) => {
                    items.push(error_value(&e));
                    hints.push(Value::Null);
                }
            }
        }
        asked.push(Asked {
            what: method.into(),
            answers: items,
        });
        asked.push(Asked {
            what: format!("{method} cache hints"),
            answers: hints,
        });
    }
    // Each distinct request of the workload once per instance: its hints must agree (its
    // content may vary by design: a clock, a random pick).
    let mut seen: Vec<&LoadRequest> = Vec::new();
    for request in workload {
        if seen
            .iter()
            .any(|r| r.method == request.method && r.params == request.params)
        {
            continue;
        }
        seen.push(request);
        let mut hints = Vec::new();
        for session in sessions {
            let options = CallOptions {
                fresh: true,
                ..CallOptions::default()
            };
            hints.push(
                match session
                    .request(&request.method, request.params.clone(), options)
                    .await
                {
                    Ok(result) => hint_value(CacheHint::of(&result, None)),
                    Err(e) => error_value(e.reason()),
                },
            );
        }
        asked.push(Asked {
            what: format!("{} cache hints", request.describe()),
            answers: hints,
        });
    }
    let mut differences = Vec::new();
    for a in &asked {
        let Some(reference) = a.answers.first() else {
            continue;
        };
        for (instance, answer) in a.answers.iter().enumerate().skip(1) {
            let mut found = changes(reference, answer);
            if found.is_empty() {
                continue;
            }
            let more = found.len().saturating_sub(CHANGES_SHOWN);
            found.truncate(CHANGES_SHOWN);
            differences.push(Difference {
                what: a.what.clone(),
                instance,
                changes: found,
                more,
            });
        }
    }
    ConsistencyReport {
        instances: targets.to_vec(),
        compared: asked.into_iter().map(|a| a.what).collect(),
        differences,
    }
}
