//! An eval run's tool calls in History, like the playground's: each call a model of the run
//! made that reached the server is kept with the call's own timing, marked as the eval's (run,
//! case, model, wording), and its id goes into the trace so the Evals view links the call to
//! its entry. The entry is written off the run's workers (the history file is rewritten whole
//! for each entry).

use periscope_core::evals::tools::{CallKeeper, CallMaker};
use periscope_core::model::tool_host::ToolOutcome;
use periscope_core::saved_calls::CallOrigin;
use tauri::{AppHandle, Manager, Runtime};

use crate::AppState;
use crate::call_history;

pub struct EvalHistory<R: Runtime> {
    pub app: AppHandle<R>,
    /// The server's id in the catalog (a run's report names it by its display name).
    pub server_id: String,
    /// The run's id among the server's kept runs.
    pub run: String,
}

impl<R: Runtime> CallKeeper for EvalHistory<R> {
    fn keep(&self, by: CallMaker<'_>, outcome: &ToolOutcome) -> Option<String> {
        let mut entry = call_history::model_call_entry(outcome)?;
        entry.server_id = self.server_id.clone();
        entry.origin = CallOrigin::Eval {
            run: self.run.clone(),
            case: by.case.to_string(),
            model: by.model.to_string(),
            variant: by.variant.to_string(),
        };
        let id = entry.id.clone();
        // The history file is read and written whole: off the run's workers, so a run's many
        // calls neither wait for it nor count it in their latency.
        let app = self.app.clone();
        tauri::async_runtime::spawn_blocking(move || {
            let state = app.state::<AppState>();
            call_history::record(&app, &state, entry);
        });
        Some(id)
    }
}
