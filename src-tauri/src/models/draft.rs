//! A server's sampling request drafted by a configured model: the provider is the one the
//! server's host settings name (`HostSettings.sampling_model`), else the one the request's
//! `modelPreferences` pick (`sampling::pick`: hints, else the default). The draft streams to
//! the sampling panel, where the user edits, approves or rejects it; only with the rule's
//! `auto_approve` is the model's answer sent without asking, and then recorded as such.

use periscope_core::answering::settings::ModelRule;
use periscope_core::model::chat::{StreamEvent, TurnTiming, Usage};
use periscope_core::model::sampling::{self, PickReason, ReplyDraft};
use periscope_core::model::{ModelClient, Provider};
use periscope_core::vocabulary::Problem;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::Models;

/// A piece of a draft as it streams.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DraftEvent {
    /// The provider that drafts, and why it was chosen (shown beside the request's
    /// `modelPreferences` before the first word arrives).
    Chosen {
        provider: Provider,
        reason: DraftReason,
    },
    Text {
        text: String,
    },
    ToolUse {
        name: String,
    },
}

/// Why this provider drafts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum DraftReason {
    /// The server's host settings name this provider.
    ServerRule,
    /// The request's preferences (a hint), or the default.
    Picked { pick: PickReason },
}

/// A finished draft: the `CreateMessageResult` the model's answer makes, which the user may
/// edit before it is sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Draft {
    pub result: Value,
    /// What the reply form takes from it (the engine's reading of the model's turn).
    pub reply: ReplyDraft,
    /// The model that answered, as the provider named it.
    pub model: String,
    pub provider: Provider,
    pub reason: DraftReason,
    pub usage: Usage,
    pub timing: TurnTiming,
}

/// The provider for a sampling request from a server with `rule`.
pub fn choose(
    models: &Models,
    rule: Option<&ModelRule>,
    params: &Value,
) -> Result<(Provider, DraftReason), Problem> {
    if let Some(rule) = rule {
        return Ok((models.provider(&rule.provider_id)?, DraftReason::ServerRule));
    }
    let providers = models.providers();
    let (provider, pick) =
        sampling::pick(&providers, params.get("modelPreferences")).ok_or(Problem::Unavailable {
            what: periscope_core::vocabulary::problem::Facility::Model,
            detail: None,
        })?;
    Ok((provider.clone(), DraftReason::Picked { pick }))
}

/// Asks the model for a draft, sending its pieces to `events` as they come.
pub async fn draft(
    models: &Models,
    rule: Option<&ModelRule>,
    params: &Value,
    events: impl Fn(DraftEvent),
    cancel: &CancellationToken,
) -> Result<Draft, Problem> {
    let (provider, reason) = choose(models, rule, params)?;
    let client: ModelClient = models.client(&provider.id)?;
    events(DraftEvent::Chosen {
        provider: provider.clone(),
        reason: reason.clone(),
    });
    let request = sampling::to_chat(params).map_err(Problem::from)?;
    let turn = client
        .stream_each(&request, cancel, |event| {
            match event {
                StreamEvent::TextDelta { text } => events(DraftEvent::Text { text }),
                StreamEvent::ToolUseStart { name, .. } => events(DraftEvent::ToolUse { name }),
                _ => {}
            }
            std::future::ready(())
        })
        .await
        .map_err(Problem::model)?;
    Ok(Draft {
        result: sampling::to_result(&turn),
        reply: sampling::reply_draft(&turn),
        model: turn.model.clone(),
        provider,
        reason,
        usage: turn.usage,
        timing: turn.timing,
    })
}
