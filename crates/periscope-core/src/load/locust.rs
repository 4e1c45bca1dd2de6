//! `periscope load --export locust`: the same workload as a locustfile, for a team that
//! outgrows one load machine and runs Locust's own master and workers. The file speaks
//! Streamable HTTP as Periscope's session with the server did: the `initialize` handshake and
//! `Mcp-Session-Id` (legacy) or `server/discover` and the request `_meta` (2026-07-28), the
//! `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers, answers in JSON
//! or as an event stream; each request is named in Locust's statistics as Periscope names it
//! (`tools/call echo`), and a JSON-RPC error or `isError` is a failure named like Periscope's.

use serde_json::{Value, json};

use super::workload::LoadRequest;
use crate::era::Era;
use crate::request_headers::{header_bindings, param_headers, standard_headers};
use crate::session::Session;
use crate::vocabulary::method::names;
use crate::wire::Direction;

/// The locust file's Python, with its data filled in as JSON (Python reads JSON literals with
/// `json.loads`, so no value is ever written as Python source).
const TEMPLATE: &str = include_str!("locustfile.py");

/// The handshake request's params as the session sent them, from its record (raw first: the
/// exact `initialize` or `server/discover` Periscope sent).
fn handshake_params(session: &Session, method: &str) -> Value {
    session
        .traffic()
        .frames()
        .iter()
        .filter(|f| f.direction == Direction::Out)
        .filter_map(|f| serde_json::from_slice::<Value>(&f.bytes).ok())
        .find(|m| m.get("method").and_then(Value::as_str) == Some(method))
        .and_then(|m| m.get("params").cloned())
        .unwrap_or_else(|| json!({}))
}

/// The locustfile for `workload` against `url`, speaking as `session` (open, hands shaken)
/// speaks; `tools` the server's listing (for `x-mcp-header` bindings); each Locust user sends
/// `per_user` requests, then stops.
pub fn locustfile(
    url: &str,
    session: &Session,
    tools: &[Value],
    workload: &[LoadRequest],
    per_user: u64,
) -> String {
    let identity = session.identity();
    let modern = identity.as_ref().is_some_and(|i| i.era == Era::Modern);
    let version = identity
        .as_ref()
        .map(|i| i.protocol_version.clone())
        .unwrap_or_default();
    let handshake = if modern {
        names::SERVER_DISCOVER
    } else {
        names::INITIALIZE
    };
    let requests: Vec<Value> = workload
        .iter()
        .map(|r| {
            let mut params = r.params.clone();
            if modern {
                session.stamp_meta(&mut params);
            }
            let mut headers = if modern {
                standard_headers(&r.method, params.as_ref())
            } else {
                Vec::new()
            };
            if modern && let Some(tool) = r.tool() {
                let schema = tools
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(tool))
                    .and_then(|t| t.get("inputSchema"));
                if let Some(Ok(bindings)) = schema.map(header_bindings) {
                    let arguments = params
                        .as_ref()
                        .and_then(|p| p.get("arguments"))
                        .cloned()
                        .unwrap_or_else(|| json!({}));
                    headers.extend(param_headers(&bindings, &arguments));
                }
            }
            json!({
                "label": crate::load::gates::label(Some(&r.method), r.name.as_deref()),
                "weight": r.weight,
                "method": r.method,
                "params": params,
                "headers": headers
                    .into_iter()
                    .map(|(k, v)| (k, Value::String(v)))
                    .collect::<serde_json::Map<String, Value>>(),
            })
        })
        .collect();
    let mut handshake_params = handshake_params(session, handshake);
    if modern {
        // The probe as sent carried the stamp already; stamped again it stays the same.
        let mut p = Some(handshake_params);
        session.stamp_meta(&mut p);
        handshake_params = p.unwrap_or_else(|| json!({}));
    }
    let config = json!({
        "url": url,
        "era": if modern { "modern" } else { "legacy" },
        "protocol_version": version,
        "handshake": {"method": handshake, "params": handshake_params},
        "requests": requests,
        "per_user": per_user,
    });
    let config = serde_json::to_string_pretty(&config).unwrap_or_default();
    // In the raw Python string, `'` written `\u0027` (JSON reads it back) can never close it.
    TEMPLATE.replace("{{CONFIG}}", &config.replace('\'', "\\u0027"))
}
