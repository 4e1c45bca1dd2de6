//! The call history, recorded where the request is made: every tool call, resource read and
//! prompt get keeps the engine's timing of the request (`periscope_core::session::Timing`), is
//! kept in `history.json` (`saved_store`), and handed to the UI as `AppEvent::History`. The UI
//! never sends a result back to be recorded.

use periscope_core::vocabulary::Problem;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};

use periscope_core::model::tool_host::ToolOutcome;
use periscope_core::saved_calls::{CallKind, CallOutcome, HistoryEntry};
use periscope_core::session::Timing;
use periscope_core::view::{AppEvent, CallError};
use serde_json::{Map, Value};
use tauri::{AppHandle, Runtime};

use crate::{AppState, saved_store};

/// What was asked of which server, for its history entry.
pub struct CallTarget<'a> {
    pub server_id: &'a str,
    pub kind: CallKind,
    /// The tool or prompt name, or the resource URI.
    pub target: &'a str,
    pub arguments: Value,
}

/// Runs `request` (which says how it ended and the engine's timing of it), records that in
/// the history, and returns its result unchanged. A request that fails before reaching the
/// server (not connected) is recorded too, as the user did make it.
pub async fn recorded<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
    call: CallTarget<'_>,
    request: impl Future<Output = (Result<Value, CallError>, Timing)>,
) -> Result<Value, CallError> {
    let (result, timing) = request.await;
    let entry = history_entry(
        &call,
        new_id(timing.started_wall_us),
        timing.started_wall_us,
        timing.duration_us,
        &result,
    );
    record(app, state, entry);
    result
}

/// The history entry of a tool call a model made (in the playground or an eval run), when it
/// reached a server; the caller says whose it was (`origin`).
pub fn model_call_entry(outcome: &ToolOutcome) -> Option<HistoryEntry> {
    let ran = outcome.ran.as_ref()?;
    let result = match (&outcome.raw, &outcome.failure) {
        (Some(raw), _) => Ok(raw.clone()),
        (None, Some(failure)) => Err(CallError::from(failure.clone())),
        // A call that ran gives a result or a failure; never neither.
        (None, None) => Err(CallError::from(Problem::internal(
            "no result and no failure",
        ))),
    };
    let target = CallTarget {
        server_id: &ran.server_id,
        kind: CallKind::Tool,
        target: &ran.tool,
        arguments: Value::Object(ran.arguments.clone()),
    };
    Some(history_entry(
        &target,
        new_id(ran.timing.started_wall_us),
        ran.timing.started_wall_us,
        ran.timing.duration_us,
        &result,
    ))
}

/// Keeps `entry` in the history and tells the UI (or says why it could not be kept).
pub fn record<R: Runtime>(app: &AppHandle<R>, state: &AppState, entry: HistoryEntry) {
    let server_id = entry.server_id.clone();
    match saved_store::record(app, entry) {
        Ok(entry) => state.hub.send(AppEvent::History { server_id, entry }),
        Err(error) => state.hub.send(AppEvent::Warning {
            server_id,
            problem: Problem::NotRecorded {
                cause: Box::new(error),
            },
        }),
    }
}

/// A call that ends later than it returns (a tool run as a task): when it started, to be
/// recorded with [`StartedCall::finished`] once it ends.
pub struct StartedCall {
    started_wall_us: u64,
    started: std::time::Instant,
}

impl StartedCall {
    pub fn now() -> Self {
        let started_wall_us = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_micros() as u64);
        Self {
            started_wall_us,
            started: std::time::Instant::now(),
        }
    }

    /// The history entry of the call, which ended now with `result`.
    pub fn finished(
        &self,
        call: &CallTarget<'_>,
        result: &Result<Value, CallError>,
    ) -> HistoryEntry {
        history_entry(
            call,
            new_id(self.started_wall_us),
            self.started_wall_us,
            self.started.elapsed().as_micros() as u64,
            result,
        )
    }
}

/// A history id unique across runs: the start time and a per-run counter.
pub fn new_id(started_wall_us: u64) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{started_wall_us:x}-{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The entry for a finished call: its result, or for a failure `{"error": message}` with the
/// JSON-RPC error's `code` and `data` when it was one. `saved_store::record` cuts big results.
pub fn history_entry(
    call: &CallTarget<'_>,
    id: String,
    started_wall_us: u64,
    duration_us: u64,
    result: &Result<Value, CallError>,
) -> HistoryEntry {
    let (outcome, result_preview) = match result {
        Ok(value) => {
            let is_error = call.kind == CallKind::Tool
                && value.get("isError").and_then(Value::as_bool) == Some(true);
            let outcome = if is_error {
                CallOutcome::IsError
            } else {
                CallOutcome::Ok
            };
            (outcome, value.clone())
        }
        Err(error) => {
            let mut preview = Map::new();
            preview.insert("error".into(), Value::String(error.message.clone()));
            if let Some(code) = error.code {
                preview.insert("code".into(), Value::from(code));
                preview.insert(
                    "data".into(),
                    error.data.as_deref().cloned().unwrap_or(Value::Null),
                );
            }
            (CallOutcome::ProtocolError, Value::Object(preview))
        }
    };
    HistoryEntry {
        origin: Default::default(),
        id,
        server_id: call.server_id.into(),
        kind: call.kind,
        target: call.target.into(),
        arguments: call.arguments.clone(),
        started_wall_us,
        duration_us,
        outcome,
        result_preview,
        truncated: false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn call(kind: CallKind) -> CallTarget<'static> {
        CallTarget {
            server_id: "demo",
            kind,
            target: "add",
            arguments: json!({"a": 1}),
        }
    }

    #[test]
    fn a_result_is_kept_whole_with_the_time_it_took() {
        let result = Ok(json!({"content": []}));
        let entry = history_entry(&call(CallKind::Tool), "h1".into(), 5, 7, &result);
        assert_eq!(entry.outcome, CallOutcome::Ok);
        assert_eq!(entry.result_preview, json!({"content": []}));
        assert_eq!((entry.started_wall_us, entry.duration_us), (5, 7));
        assert_eq!(entry.arguments, json!({"a": 1}));
        assert!(!entry.truncated);
    }

    #[test]
    fn a_tool_result_with_is_error_is_an_is_error_outcome_but_not_for_a_prompt() {
        let result = Ok(json!({"isError": true, "content": []}));
        let tool = history_entry(&call(CallKind::Tool), "h".into(), 0, 0, &result);
        assert_eq!(tool.outcome, CallOutcome::IsError);
        let prompt = history_entry(&call(CallKind::Prompt), "h".into(), 0, 0, &result);
        assert_eq!(prompt.outcome, CallOutcome::Ok);
    }

    #[test]
    fn a_json_rpc_error_keeps_its_code_and_data_and_another_failure_only_its_message() {
        let rpc = Err(CallError {
            message: "bad params".into(),
            code: Some(-32602),
            data: None,
            diagnoses: Vec::new(),
            problem: Box::new(Problem::request_failed(
                "tools/call",
                -32602,
                "bad params",
                None,
            )),
            url_required: None,
        });
        let entry = history_entry(&call(CallKind::Tool), "h".into(), 0, 0, &rpc);
        assert_eq!(entry.outcome, CallOutcome::ProtocolError);
        assert_eq!(
            entry.result_preview,
            json!({"error": "bad params", "code": -32602, "data": null})
        );
        let lost = Err(CallError::from(Problem::NotConnected {
            server: "s".into(),
        }));
        let entry = history_entry(&call(CallKind::Resource), "h".into(), 0, 0, &lost);
        assert_eq!(
            entry.result_preview,
            json!({"error": "not connected: connect to the server first"})
        );
    }

    #[test]
    fn ids_differ_even_for_calls_started_in_the_same_microsecond() {
        assert_ne!(new_id(1), new_id(1));
    }
}
