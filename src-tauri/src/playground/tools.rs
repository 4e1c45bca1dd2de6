//! The servers' tools as the playground's model sees them (the engine's `SessionTools`:
//! model-visible tools, `server__tool` names across servers), with each call the model makes
//! kept in History like the user's own, marked as the model's. The call itself goes through
//! the session's `call_tool_tracked`, so its frames are in Traffic like any other.

use async_trait::async_trait;
use periscope_core::model::chat::ToolSpec;
use periscope_core::model::tool_host::{SessionTools, ToolHost, ToolOutcome};
use periscope_core::saved_calls::CallOrigin;
use serde_json::Value;
use tauri::{AppHandle, Manager, Runtime};

use crate::AppState;
use crate::call_history;

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
        let mut outcome = self.inner.call(name, input).await;
        if let Some(mut entry) = call_history::model_call_entry(&outcome) {
            entry.origin = CallOrigin::Model {
                conversation: self.conversation.clone(),
                model: self.model.clone(),
            };
            if let Some(ran) = &mut outcome.ran {
                ran.history_id = Some(entry.id.clone());
            }
            let state = self.app.state::<AppState>();
            call_history::record(&self.app, &state, entry);
        }
        outcome
    }
}
