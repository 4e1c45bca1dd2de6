//! Opening, driving and closing app views: the engine's bridge decides, this file does what
//! it says. Every message between the view and the host is recorded in the server's record
//! (exact text, before the bridge reads it, as an app frame) before anything else happens;
//! a view's `tools/call` and `resources/read` go to its own server through the session and
//! into the History (origin: the app); links and messages ask the user first.

use periscope_core::vocabulary::Problem;
use std::future::Future;
use std::sync::Arc;

use periscope_core::answering::{Answer, Ask, McpAppLabel, UrlDecision, analyze_url};
use periscope_core::apps::bridge::{
    AppAsk, AppError, AppView, BridgeAction, ProxyRequest, TEARDOWN_DEADLINE, Teardown, ViewSpec,
};
use periscope_core::apps::{self, csp, meta, resource};
use periscope_core::record::{Decision, DecisionKind, Flag};
use periscope_core::saved_calls::{CallKind, CallOrigin};
use periscope_core::session::Session;
use periscope_core::traffic::wall_now_us;
use periscope_core::view::{AppEvent, CallError};
use periscope_core::wire::{Direction, RequestId};
use serde_json::{Map, Value, json};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime};
use tokio::sync::oneshot;

use super::{
    LiveView, McpAppContextChange, McpAppCsp, McpAppOpened, McpAppOut, McpAppResource,
    McpAppSource, McpAppTool, McpApps, Page,
};
use crate::AppState;
use crate::call_history::{self, CallTarget};
use periscope_core::vocabulary::method::names;
use periscope_core::wire::error_code;

/// The largest message a view may post that is still read (it is recorded cut at this).
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

fn server_name(state: &AppState, server_id: &str) -> String {
    state
        .catalog()
        .into_iter()
        .find(|e| e.id == server_id)
        .map_or_else(|| server_id.to_string(), |e| e.name)
}

/// The host's context a view starts with (the UI sends changes with `mcp_app_context`).
fn host_context(state: &AppState) -> Value {
    use crate::app_settings::Theme;
    let theme = match state.settings.get().theme {
        Theme::Dark => "dark",
        Theme::Light | Theme::System => "light",
    };
    let locale = crate::app_settings::system_languages()
        .into_iter()
        .next()
        .unwrap_or_else(|| "en".into());
    json!({
        "theme": theme,
        "locale": locale,
        "userAgent": format!("Periscope/{}", env!("CARGO_PKG_VERSION")),
        "platform": "desktop",
        "deviceCapabilities": {"hover": true, "touch": false},
        "containerDimensions": {"maxHeight": 720},
    })
}

/// Opens `resource_uri` of `server_id` as a new view: reads it, builds its CSP, registers its
/// page under a fresh token and hands the bridge what opened it.
pub async fn open<R: Runtime>(
    app: &AppHandle<R>,
    server_id: String,
    resource_uri: String,
    source: McpAppSource,
    out: Channel<McpAppOut>,
) -> Result<McpAppOpened, Problem> {
    let state = app.state::<AppState>();
    let apps = app.state::<McpApps>();
    let session = state.session(&server_id)?;
    let tools = session.list_tools().await.unwrap_or_default();
    let listing = session.list_resources().await.unwrap_or_default();
    let listed = listing
        .iter()
        .find(|r| r.get("uri").and_then(Value::as_str) == Some(&resource_uri));
    let read = session
        .read_resource(&resource_uri)
        .await
        .map_err(Problem::from)?;
    let page =
        resource::from_read(&resource_uri, &read, listed).map_err(|e| Problem::ProtocolBroken {
            method: periscope_core::vocabulary::method::names::RESOURCES_READ.into(),
            breach: (&e).into(),
        })?;
    let policy = csp::build(page.meta.csp.as_ref());
    let (tool_name, expects_input) = match &source {
        McpAppSource::ToolCall { tool, .. } => (Some(tool.clone()), true),
        McpAppSource::Manual { tool, .. } => (tool.clone(), true),
        McpAppSource::Resource => (None, false),
    };
    let tool = tool_name.as_ref().and_then(|name| {
        tools
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
            .cloned()
    });
    let text_of = |v: Option<&Value>, key: &str| {
        v.and_then(|v| v.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let title = text_of(listed, "title")
        .or_else(|| text_of(tool.as_ref(), "title"))
        .or_else(|| text_of(listed, "name"))
        .unwrap_or_else(|| resource_uri.clone());
    let mut bridge = AppView::new(ViewSpec {
        server_tools: tools,
        tool: tool.clone(),
        expects_input,
        host_info: json!({"name": "Periscope", "version": env!("CARGO_PKG_VERSION")}),
        host_context: host_context(&state),
        sandbox_csp: policy.kept.to_meta(),
    });
    // Queued until the view says it is initialized.
    match &source {
        McpAppSource::ToolCall { arguments, .. } => {
            bridge.tool_input(arguments.clone());
        }
        McpAppSource::Manual { input, result, .. } => {
            bridge.tool_input(input.clone());
            if let Some(result) = result {
                bridge.tool_result(result.clone());
            }
        }
        McpAppSource::Resource => {}
    }
    let view = apps.next_view();
    let token = apps::new_token();
    let live = Arc::new(LiveView {
        view,
        token: token.clone(),
        server_id: server_id.clone(),
        title: title.clone(),
        resource_uri: resource_uri.clone(),
        session: session.clone(),
        bridge: std::sync::Mutex::new(bridge),
        out,
        teardown_answered: std::sync::Mutex::new(None),
        model_context: std::sync::Mutex::new(None),
    });
    apps.insert(
        live,
        Page {
            html: page.html.clone(),
            csp: policy.header.clone(),
        },
    );
    // A server that goes away takes its views with it.
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        session.closed().await;
        let _ = close(&handle, view, "the server disconnected").await;
    });
    Ok(McpAppOpened {
        view,
        src: format!("{}://{token}/", super::protocol::SCHEME),
        title,
        prefers_border: page.meta.prefers_border,
        csp: McpAppCsp {
            header: policy.header,
            external: policy.external,
            dropped: policy.dropped,
        },
        problems: page.problems,
        sha256: page.sha256,
    })
}

/// Records one message between host and view as an app frame of the server's record; the
/// bridge's problems with it become flags on that frame.
fn record(live: &LiveView, dir: Direction, text: &str) -> u64 {
    live.session
        .traffic()
        .append_app_frame(live.view, dir, text.as_bytes(), MAX_MESSAGE_BYTES)
}

/// Runs what the bridge decided (in order), recording `problems` on frame `seq`.
fn act<R: Runtime>(app: &AppHandle<R>, live: &Arc<LiveView>, seq: u64, actions: Vec<BridgeAction>) {
    for action in actions {
        match action {
            BridgeAction::Post(text) => post(live, text),
            BridgeAction::Proxy { id, request } => {
                answer_later(app, live, id, move |app, live| async move {
                    proxy(&app, &live, request).await
                });
            }
            BridgeAction::Ask { id, ask } => {
                answer_later(app, live, id, move |app, live| async move {
                    ask_user(&app, &live, ask).await
                });
            }
            BridgeAction::Resize { width, height } => {
                let _ = live.out.send(McpAppOut::Resize { width, height });
            }
            BridgeAction::DisplayMode(mode) => {
                let _ = live.out.send(McpAppOut::DisplayMode { mode });
            }
            BridgeAction::ModelContext(context) => {
                *live.model_context.lock().unwrap_or_else(|p| p.into_inner()) = Some(context);
            }
            // The frame itself is the record of the log message.
            BridgeAction::Log(_) => {}
            BridgeAction::RequestTeardown => {
                let (app, view) = (app.clone(), live.view);
                tauri::async_runtime::spawn(async move {
                    let _ = close(&app, view, "the app asked to close").await;
                });
            }
            BridgeAction::TeardownAnswered => {
                if let Some(tx) = live
                    .teardown_answered
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .take()
                {
                    let _ = tx.send(());
                }
            }
            BridgeAction::Problem(problem) => {
                if seq > 0 {
                    live.session
                        .traffic()
                        .flag(seq, Flag::AppProblem { problem });
                }
            }
        }
    }
}

/// Works out the answer to the view's request `id` in the background (the server's answer,
/// the user's), then hands it to the bridge.
fn answer_later<R: Runtime, F>(
    app: &AppHandle<R>,
    live: &Arc<LiveView>,
    id: RequestId,
    work: impl FnOnce(AppHandle<R>, Arc<LiveView>) -> F,
) where
    F: Future<Output = Result<Value, AppError>> + Send + 'static,
{
    let (app, live) = (app.clone(), live.clone());
    let outcome = work(app.clone(), live.clone());
    tauri::async_runtime::spawn(async move {
        let outcome = outcome.await;
        let actions = lock_bridge(&live).answer(&id, outcome);
        act(&app, &live, 0, actions);
    });
}

fn lock_bridge(live: &LiveView) -> std::sync::MutexGuard<'_, AppView> {
    live.bridge.lock().unwrap_or_else(|p| p.into_inner())
}

/// Records and sends one message to the view.
fn post(live: &LiveView, text: String) {
    record(live, Direction::ToApp, &text);
    let _ = live.out.send(McpAppOut::Post { text });
}

fn app_error(error: CallError) -> AppError {
    AppError {
        code: error
            .code
            .unwrap_or(periscope_core::wire::error_code::INTERNAL_ERROR),
        message: error.message,
        data: error.data.map(|data| *data),
    }
}

/// A view's request carried to its own server, recorded in the History as the app's.
async fn proxy<R: Runtime>(
    app: &AppHandle<R>,
    live: &LiveView,
    request: ProxyRequest,
) -> Result<Value, AppError> {
    let state = app.state::<AppState>();
    let (kind, target, arguments) = match &request {
        ProxyRequest::CallTool { name, arguments } => (
            CallKind::Tool,
            name.clone(),
            Value::Object(arguments.clone()),
        ),
        ProxyRequest::ReadResource { uri } => (CallKind::Resource, uri.clone(), json!({})),
    };
    let (result, timing) = match request {
        ProxyRequest::CallTool { name, arguments } => {
            match live
                .session
                .call_tool_tracked(&name, arguments, None, None)
                .await
            {
                Ok((result, timing)) => (result.map_err(CallError::from), timing),
                Err(e) => {
                    periscope_core::session::timed(async {
                        Err(CallError::from(Problem::InvalidInput {
                            field: periscope_core::vocabulary::problem::Field::CallId,
                            detail: Some(e.to_string()),
                        }))
                    })
                    .await
                }
            }
        }
        ProxyRequest::ReadResource { uri } => {
            periscope_core::session::timed(async {
                live.session
                    .read_resource(&uri)
                    .await
                    .map_err(CallError::from)
            })
            .await
        }
    };
    let call = CallTarget {
        server_id: &live.server_id,
        kind,
        target: &target,
        arguments,
    };
    let mut entry = call_history::history_entry(
        &call,
        call_history::new_id(timing.started_wall_us),
        timing.started_wall_us,
        timing.duration_us,
        &result,
    );
    entry.origin = CallOrigin::App {
        view_title: live.title.clone(),
    };
    call_history::record(app, &state, entry);
    result.map_err(app_error)
}

fn decide(state: &AppState, live: &LiveView, method: &str, kind: DecisionKind, detail: String) {
    let decision = Decision {
        wall_us: wall_now_us(),
        request_id: None,
        method: method.into(),
        decision: kind,
        detail: Some(detail),
        elicitation_id: None,
    };
    live.session.traffic().decide(decision.clone());
    state.hub.send(AppEvent::Decision {
        server_id: live.server_id.clone(),
        decision,
    });
}

/// A link or a message from the view, asked of the user; the view's answer.
async fn ask_user<R: Runtime>(
    app: &AppHandle<R>,
    live: &LiveView,
    ask: AppAsk,
) -> Result<Value, AppError> {
    let state = app.state::<AppState>();
    let label = McpAppLabel {
        view: live.view,
        server_id: live.server_id.clone(),
        title: live.title.clone(),
        resource_uri: live.resource_uri.clone(),
    };
    let name = server_name(&state, &live.server_id);
    match ask {
        AppAsk::OpenLink { url } => {
            let analysis = analyze_url(&url, state.server_host(&live.server_id).as_deref());
            let asked = Ask::AppOpenLink {
                url: url.clone(),
                analysis,
                app: label,
            };
            let answer = state
                .asks
                .ask(&state.hub, &live.server_id, &name, None, asked)
                .await;
            match answer {
                Some(Answer::UrlConsent {
                    decision: UrlDecision::Open,
                }) => match state.asks.open(&url) {
                    Ok(()) => {
                        decide(
                            &state,
                            live,
                            names::UI_OPEN_LINK,
                            DecisionKind::AppLinkOpened,
                            url,
                        );
                        Ok(json!({}))
                    }
                    Err(e) => {
                        decide(
                            &state,
                            live,
                            names::UI_OPEN_LINK,
                            DecisionKind::OpenFailed,
                            format!("{url}: {e}"),
                        );
                        Err(AppError::new(
                            error_code::SERVER_ERROR,
                            format!("could not open the link: {e}"),
                        ))
                    }
                },
                Some(Answer::UrlConsent {
                    decision: UrlDecision::AcceptWithoutOpening,
                }) => {
                    decide(
                        &state,
                        live,
                        names::UI_OPEN_LINK,
                        DecisionKind::AppLinkOpened,
                        format!("{url} (accepted; the user opens it)"),
                    );
                    Ok(json!({}))
                }
                _ => {
                    decide(
                        &state,
                        live,
                        names::UI_OPEN_LINK,
                        DecisionKind::AppLinkDeclined,
                        url,
                    );
                    Err(AppError::declined())
                }
            }
        }
        AppAsk::Message { content } => {
            let asked = Ask::AppMessage {
                blocks: periscope_core::views::ContentBlock::read_all(&content),
                content,
                app: label,
            };
            let answer = state
                .asks
                .ask(&state.hub, &live.server_id, &name, None, asked)
                .await;
            if let Some(Answer::AppMessage { accept: true }) = answer {
                decide(
                    &state,
                    live,
                    names::UI_MESSAGE,
                    DecisionKind::AppMessageAccepted,
                    live.title.clone(),
                );
                Ok(json!({}))
            } else {
                decide(
                    &state,
                    live,
                    names::UI_MESSAGE,
                    DecisionKind::AppMessageDeclined,
                    live.title.clone(),
                );
                Err(AppError::declined())
            }
        }
    }
}

/// A message the view posted, as text.
pub fn from_view<R: Runtime>(app: &AppHandle<R>, view: u32, text: String) -> Result<(), Problem> {
    let live = app.state::<McpApps>().get(view)?;
    let seq = record(&live, Direction::FromApp, &text);
    let text = if text.len() > MAX_MESSAGE_BYTES {
        // Recorded cut and flagged; the bridge answers it as not JSON.
        let mut end = MAX_MESSAGE_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text[..end].to_string()
    } else {
        text
    };
    let actions = lock_bridge(&live).on_from_app(&text);
    act(app, &live, seq, actions);
    Ok(())
}

/// Runs one of the host's own events through the bridge.
pub fn host_event<R: Runtime>(
    app: &AppHandle<R>,
    view: u32,
    event: impl FnOnce(&mut AppView) -> Vec<BridgeAction>,
) -> Result<(), Problem> {
    let live = app.state::<McpApps>().get(view)?;
    let actions = event(&mut lock_bridge(&live));
    act(app, &live, 0, actions);
    Ok(())
}

/// The context change as the spec's partial `HostContext`.
pub fn context_partial(change: &McpAppContextChange) -> Value {
    let mut partial = Map::new();
    if let Some(theme) = &change.theme {
        partial.insert("theme".into(), theme.clone().into());
    }
    if let Some(mode) = change.display_mode {
        partial.insert("displayMode".into(), mode.as_str().into());
    }
    if change.width.is_some() || change.height.is_some() {
        let mut size = Map::new();
        if let Some(w) = change.width {
            size.insert("width".into(), w.into());
        }
        if let Some(h) = change.height {
            size.insert("height".into(), h.into());
        }
        partial.insert("containerDimensions".into(), Value::Object(size));
    }
    Value::Object(partial)
}

/// Tears the view down: `ui/resource-teardown`, at most [`TEARDOWN_DEADLINE`] for its answer,
/// then its token is freed and the UI removes the frame. Closing a closed view is fine.
pub async fn close<R: Runtime>(app: &AppHandle<R>, view: u32, reason: &str) -> Result<(), Problem> {
    let apps = app.state::<McpApps>();
    let Ok(live) = apps.get(view) else {
        return Ok(());
    };
    let teardown = lock_bridge(&live).teardown(reason);
    if let Teardown::Sent(BridgeAction::Post(text)) = teardown {
        let (tx, rx) = oneshot::channel();
        *live
            .teardown_answered
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(tx);
        post(&live, text);
        let _ = tokio::time::timeout(TEARDOWN_DEADLINE, rx).await;
    }
    if apps.remove(view).is_some() {
        let _ = live.out.send(McpAppOut::Closed {
            reason: reason.to_string(),
        });
    }
    Ok(())
}

/// The server's UI resources: `resources/list` entries with an app's MIME type or named by a
/// tool, and every `ui://` URI a tool names, each with its tools.
pub async fn resources(session: &Session) -> Result<Vec<McpAppResource>, Problem> {
    let tools = session.list_tools().await.map_err(Problem::from)?;
    let listing = session.list_resources().await.unwrap_or_default();
    let mut out: Vec<McpAppResource> = Vec::new();
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    for r in &listing {
        let Some(uri) = text(r, "uri") else { continue };
        let mime = text(r, "mimeType");
        if uri.starts_with("ui://") || mime.as_deref() == Some(apps::APP_MIME) {
            out.push(McpAppResource {
                uri,
                name: text(r, "name"),
                title: text(r, "title"),
                mime_type: mime,
                tools: Vec::new(),
                listed: true,
            });
        }
    }
    for tool in &tools {
        let ui = meta::tool_ui(tool);
        let Some(uri) = ui.resource_uri else { continue };
        let entry = McpAppTool {
            name: text(tool, "name").unwrap_or_default(),
            model_visible: ui.visibility.model,
            app_visible: ui.visibility.app,
        };
        match out.iter_mut().find(|r| r.uri == uri) {
            Some(r) => r.tools.push(entry),
            None => out.push(McpAppResource {
                uri,
                name: None,
                title: None,
                mime_type: None,
                tools: vec![entry],
                listed: false,
            }),
        }
    }
    Ok(out)
}
