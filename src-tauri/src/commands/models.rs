//! The Models setting (providers, their keys in the secret store, Test) and sampling drafts
//! by a configured model. No command returns or logs a key: the UI only learns whether a
//! provider has one.

use periscope_core::vocabulary::Problem;
use std::time::Duration;

use periscope_core::answering::Ask;
use periscope_core::model::{Probe, Provider};
use tauri::State;
use tauri::ipc::Channel;
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::models::draft::{self, Draft, DraftEvent};
use crate::models::{KeyChange, ProviderView};

/// How long Test waits for the smallest answer (a local model may load first).
const TEST_LIMIT: Duration = Duration::from_secs(120);

#[tauri::command]
pub fn models_list(state: State<'_, AppState>) -> Result<Vec<ProviderView>, Problem> {
    Ok(state.asks.models()?.views())
}

#[tauri::command]
pub fn models_save(
    state: State<'_, AppState>,
    provider: Provider,
    key: KeyChange,
) -> Result<Vec<ProviderView>, Problem> {
    state.asks.models()?.save(provider, key)
}

#[tauri::command]
pub fn models_remove(state: State<'_, AppState>, id: String) -> Result<Vec<ProviderView>, Problem> {
    state.asks.models()?.remove(&id)
}

/// One tiny request: which model answered, and how fast.
#[tauri::command]
pub async fn models_test(state: State<'_, AppState>, id: String) -> Result<Probe, Problem> {
    let client = state.asks.models()?.client(&id)?;
    let cancel = CancellationToken::new();
    match tokio::time::timeout(TEST_LIMIT, client.probe(&cancel)).await {
        Ok(probe) => probe.map_err(Problem::model),
        Err(_) => {
            cancel.cancel();
            Err(Problem::LimitHit {
                what: periscope_core::vocabulary::problem::Limit::ModelAnswerSeconds,
                limit: TEST_LIMIT.as_secs(),
                asked: None,
            })
        }
    }
}

/// Drafts the answer to a waiting sampling request with a configured model, streaming it to
/// `on_event`. The draft is not sent: the user edits it, then approves or rejects.
#[tauri::command]
pub async fn sampling_draft(
    state: State<'_, AppState>,
    ask_id: u64,
    on_event: Channel<DraftEvent>,
) -> Result<Draft, Problem> {
    let pending = state
        .asks
        .pending_ask(ask_id)
        .ok_or(Problem::NoLongerWaiting {
            what: periscope_core::vocabulary::problem::Waiting::ServerRequest,
        })?;
    let Ask::Sampling { params, .. } = &pending.ask else {
        return Err(Problem::invalid(
            periscope_core::vocabulary::problem::Field::AskKind,
        ));
    };
    let rule = state.asks.settings(&pending.server_id).sampling_model;
    let models = state.asks.models()?;
    let cancel = CancellationToken::new();
    let drafting = draft::draft(
        models,
        rule.as_ref(),
        params,
        |event| {
            let _ = on_event.send(event);
        },
        &cancel,
    );
    // A draft nobody can use any more (the user answered, or the server went away) stops.
    let gone = async {
        loop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            if state.asks.pending_ask(ask_id).is_none() {
                return;
            }
        }
    };
    let drafted = tokio::select! {
        drafted = drafting => drafted?,
        () = gone => {
            cancel.cancel();
            return Err(Problem::NoLongerWaiting {
                what: periscope_core::vocabulary::problem::Waiting::Draft,
            });
        }
    };
    state.asks.note_draft(
        ask_id,
        format!("{} ({})", drafted.model, drafted.provider.name),
    );
    Ok(drafted)
}
