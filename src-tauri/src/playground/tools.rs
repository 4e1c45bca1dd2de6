//! The servers' tools as the playground's model sees them (the engine's `SessionTools`:
//! model-visible tools, `server__tool` names across servers), with each call the model makes
//! kept in History like the user's own, marked as the model's. The call itself goes through
//! the session's `call_tool_tracked`, so its frames are in Traffic like any other.

use async_trait::async_trait;
use periscope_core::model::chat::ToolSpec;
use periscope_core::model::tool_host::{SessionTools, ToolHost, ToolOutcome};
use periscope_core::saved_calls::{CallKind, CallOrigin};
use periscope_core::view::CallError;
use periscope_core::vocabulary::Problem;
use serde_json::Value;
use tauri::{AppHandle, Manager, Runtime};

use crate::AppState;
use crate::call_history::{self, CallTarget};

pub struct RecordedTools<R: Runtime> {
    pub inner: SessionTools,
    pub app: AppHandle<R>,
    pub conversation: String,
    pub model: String,
}

#[async_trait]
impl<R: Runtime> ToolHost for RecordedTools<R> {
    async fn tools(&self) -> Result<Vec<ToolSpec>, String> {
        self.inner.tools().await
    }

    async fn call(&self, name: &str, input: Value) -> ToolOutcome {
        let outcome = self.inner.call(name, input).await;
        if let Some(ran) = &outcome.ran {
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
            let mut entry = call_history::history_entry(
                &target,
                call_history::new_id(ran.timing.started_wall_us),
                ran.timing.started_wall_us,
                ran.timing.duration_us,
                &result,
            );
            entry.origin = CallOrigin::Model {
                conversation: self.conversation.clone(),
                model: self.model.clone(),
            };
            let state = self.app.state::<AppState>();
            call_history::record(&self.app, &state, entry);
        }
        outcome
    }
}
