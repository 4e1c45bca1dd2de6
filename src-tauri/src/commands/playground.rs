//! The playground: a conversation with a configured model about connected servers, turn by
//! turn, each tool call shown to the user before it runs; saved in the data folder, exported
//! as Markdown.

use periscope_core::vocabulary::Problem;
use std::sync::atomic::{AtomicU64, Ordering};

use periscope_core::model::agent::{AgentEvent, Approval, ToolCall, run_turn};
use periscope_core::model::context::{
    prompt_messages as prompt_messages_of, resource_blocks as resource_blocks_of,
};
use periscope_core::model::conversation::{Conversation, TurnStats};
use periscope_core::model::tool_host::SessionTools;
use periscope_core::record::{Decision, DecisionKind};
use periscope_core::traffic::wall_now_us;
use periscope_core::view::AppEvent;
use serde::{Deserialize, Serialize};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};
use tokio::sync::mpsc;

use crate::AppState;
use crate::playground::approval::AskTheUser;
use crate::playground::tools::RecordedTools;
use crate::playground::{self, Attachment, ChatSummary, Playground};
use periscope_core::vocabulary::method::names;

/// What a turn says as it goes: the engine's events, and the calls waiting for the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChatEvent {
    Agent {
        event: AgentEvent,
    },
    /// The call waits for approve once / always / reject (`chat_approve`). `server_id` and
    /// `tool` name what it runs (the model's name may be `server__tool`).
    Approve {
        call: ToolCall,
        server_id: Option<String>,
        tool: Option<String>,
    },
}

fn folder<R: Runtime>(app: &AppHandle<R>) -> Result<std::path::PathBuf, Problem> {
    crate::json_file::data_dir(app).map(|d| playground::folder(&d))
}

/// A new conversation about `server_ids` with the provider `provider_id` (the default one
/// when none is given).
#[tauri::command]
pub fn chat_new(
    state: State<'_, AppState>,
    playground: State<'_, Playground>,
    server_ids: Vec<String>,
    provider_id: Option<String>,
) -> Result<Conversation, Problem> {
    if server_ids.is_empty() {
        return Err(Problem::invalid(
            periscope_core::vocabulary::problem::Field::Servers,
        ));
    }
    let models = state.asks.models()?;
    let provider = match provider_id {
        Some(id) => models.provider(&id)?,
        None => models.default_provider().ok_or(Problem::Unavailable {
            what: periscope_core::vocabulary::problem::Facility::Model,
            detail: None,
        })?,
    };
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = format!(
        "chat-{:x}-{}",
        wall_now_us(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let conversation = Conversation::new(id, server_ids, provider.id);
    playground.insert(conversation.clone());
    Ok(conversation)
}

#[tauri::command]
pub fn chat_list<R: Runtime>(app: AppHandle<R>) -> Result<Vec<ChatSummary>, Problem> {
    Ok(playground::list(&folder(&app)?))
}

#[tauri::command]
pub async fn chat_load<R: Runtime>(
    app: AppHandle<R>,
    playground: State<'_, Playground>,
    id: String,
) -> Result<Conversation, Problem> {
    let chat = playground.get(&folder(&app)?, &id)?;
    let conversation = chat.lock().await.clone();
    Ok(conversation)
}

/// Sends the user's message and runs the turn: the model's answer streams to `on_event`,
/// each tool call waits for `chat_approve`; the conversation is saved when the turn ends.
#[tauri::command]
pub async fn chat_send<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    playground: State<'_, Playground>,
    id: String,
    text: String,
    attachments: Vec<Attachment>,
    on_event: Channel<ChatEvent>,
) -> Result<TurnStats, Problem> {
    let dir = folder(&app)?;
    let chat = playground.get(&dir, &id)?;
    let mut conversation = chat.lock().await;
    let mut servers = Vec::new();
    for server_id in &conversation.server_ids {
        let session = state.session(server_id)?;
        servers.push((server_id.clone(), session));
    }
    // Attachments are read now, from the conversation's servers (each read is in Traffic).
    let (mut prompt_messages, mut resource_blocks) = (Vec::new(), Vec::new());
    for attachment in attachments {
        let server_id = match &attachment {
            Attachment::Resource { server_id, .. }
            | Attachment::Prompt { server_id, .. }
            | Attachment::Skill { server_id, .. } => server_id,
        };
        let session = servers
            .iter()
            .find(|(s, _)| s == server_id)
            .map(|(_, session)| session.clone())
            .ok_or_else(|| {
                Problem::not_found(
                    periscope_core::vocabulary::problem::Thing::ConversationServer,
                    server_id,
                )
            })?;
        match &attachment {
            Attachment::Resource { uri, .. } => {
                let read = session.read_resource(uri).await.map_err(Problem::from)?;
                resource_blocks.extend(resource_blocks_of(&read));
            }
            Attachment::Skill { uri, .. } => {
                // Loaded now, on the user's send: the entry asked for by URI, the SKILL.md
                // verified against it; a refused skill stops the turn before the model.
                let entry = session.get_skill(uri).await.map_err(Problem::from)?;
                let loaded = session.load_skill(&entry).await.map_err(Problem::from)?;
                if let Some(refusal) = loaded.refusal.clone() {
                    return Err(Problem::SkillRefused {
                        uri: uri.clone(),
                        refusal,
                    });
                }
                if let Some(text) = crate::commands::skills::for_model(server_id, &loaded) {
                    resource_blocks.push(periscope_core::model::chat::Block::text(text));
                }
            }
            Attachment::Prompt {
                name, arguments, ..
            } => {
                let got = session
                    .get_prompt(name, arguments.clone())
                    .await
                    .map_err(Problem::from)?;
                // A prompt the model cannot read is the server's answer breaking the protocol.
                let messages =
                    prompt_messages_of(&got).map_err(|breach| Problem::ProtocolBroken {
                        method: periscope_core::vocabulary::method::names::PROMPTS_GET.into(),
                        breach,
                    })?;
                prompt_messages.extend(messages);
            }
        }
    }
    let (before, user) = playground::assemble(&text, prompt_messages, resource_blocks)?;
    let first_words = crate::playground::first_text(&user);
    let client = state.asks.models()?.client(&conversation.provider_id)?;
    let tools = RecordedTools {
        inner: SessionTools::new(servers),
        app: app.clone(),
        conversation: id.clone(),
        model: client.provider().model.clone(),
    };
    let approver = AskTheUser {
        approvals: &playground.approvals,
        conversation: id.clone(),
        show: |call: &ToolCall| {
            let (server_id, tool) = tools.inner.resolve(&call.name).unzip();
            let _ = on_event.send(ChatEvent::Approve {
                call: call.clone(),
                server_id,
                tool,
            });
        },
    };
    if conversation.title.is_empty() {
        conversation.title = playground::title_of(&first_words);
    }
    conversation.messages.extend(before);
    let conversation_title = conversation.title.clone();
    let cancel = playground.start_turn(&id)?;
    let (tx, mut rx) = mpsc::channel::<AgentEvent>(256);
    let turn = async {
        let stats = run_turn(
            &client,
            &mut conversation,
            user,
            &tools,
            &approver,
            &tx,
            &cancel,
        )
        .await;
        drop(tx);
        stats
    };
    let forward = async {
        let mut calls = std::collections::HashMap::new();
        while let Some(event) = rx.recv().await {
            match &event {
                AgentEvent::ToolCall { call, .. } => {
                    calls.insert(call.id.clone(), call.clone());
                }
                AgentEvent::ToolDecision { id, approval } => {
                    if let Some(call) = calls.get(id) {
                        record_decision(&state, &tools, &conversation_title, call, *approval);
                    }
                }
                _ => {}
            }
            let _ = on_event.send(ChatEvent::Agent { event });
        }
    };
    let (stats, ()) = tokio::join!(turn, forward);
    playground.end_turn(&id);
    // Kept whatever happened: the messages so far are the user's.
    let saved = playground::save(&dir, &conversation);
    let stats = stats.map_err(Problem::from)?;
    saved.map_err(|e| {
        Problem::not_saved(periscope_core::vocabulary::problem::Stored::Conversation, e)
    })?;
    Ok(stats)
}

/// The user's decision about a model's tool call, in the record of the server it was for (and
/// in the Requests tab), like the consent decisions about the server's own requests.
fn record_decision<R: Runtime>(
    state: &AppState,
    tools: &RecordedTools<R>,
    title: &str,
    call: &ToolCall,
    approval: Approval,
) {
    let Some((server_id, tool)) = tools.inner.resolve(&call.name) else {
        return;
    };
    let Ok(session) = state.session(&server_id) else {
        return;
    };
    let (kind, how) = match approval {
        Approval::Once => (DecisionKind::ToolApproved, "approved once"),
        Approval::AlwaysThisTool => (
            DecisionKind::ToolApproved,
            "approved for the rest of the conversation",
        ),
        Approval::Remembered => (
            DecisionKind::ToolApproved,
            "run without asking (approved earlier for the conversation)",
        ),
        Approval::Reject => (DecisionKind::ToolRejected, "rejected, not sent"),
    };
    let decision = Decision {
        wall_us: wall_now_us(),
        request_id: None,
        method: names::TOOLS_CALL.into(),
        decision: kind,
        detail: Some(format!(
            "{tool} {} asked by the model in the playground ({title:?}): {how}",
            call.input
        )),
        elicitation_id: None,
    };
    session.traffic().decide(decision.clone());
    state.hub.send(AppEvent::Decision {
        server_id,
        decision,
    });
}

/// The user's answer to a tool call waiting in a turn.
#[tauri::command]
pub fn chat_approve(
    playground: State<'_, Playground>,
    id: String,
    call_id: String,
    approval: Approval,
) -> Result<(), Problem> {
    playground.approvals.answer(&id, &call_id, approval)
}

/// Stops the running turn; false when none runs.
#[tauri::command]
pub fn chat_cancel(playground: State<'_, Playground>, id: String) -> bool {
    playground.cancel(&id)
}

/// Saves the conversation in the data folder now (turns save it too); the path.
#[tauri::command]
pub async fn chat_save<R: Runtime>(
    app: AppHandle<R>,
    playground: State<'_, Playground>,
    id: String,
) -> Result<String, Problem> {
    let dir = folder(&app)?;
    let chat = playground.get(&dir, &id)?;
    let conversation = chat.lock().await.clone();
    playground::save(&dir, &conversation).map(|p| p.display().to_string())
}

/// The conversation as Markdown, written where the user picks; the path, or None if they
/// cancelled.
#[tauri::command]
pub async fn chat_export_markdown<R: Runtime>(
    app: AppHandle<R>,
    playground: State<'_, Playground>,
    id: String,
) -> Result<Option<String>, Problem> {
    let chat = playground.get(&folder(&app)?, &id)?;
    let conversation = chat.lock().await.clone();
    let name = if conversation.title.is_empty() {
        conversation.id.clone()
    } else {
        conversation.title.clone()
    };
    let file_name = crate::save_file::safe_file_name(&format!("{name}.md"), "conversation.md");
    crate::save_file::save_bytes(
        &app,
        "Export the conversation",
        &file_name,
        conversation.to_markdown().as_bytes(),
    )
    .await
}
