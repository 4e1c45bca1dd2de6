//! One open view's side of the host ↔ view protocol (ext-apps 2026-01-26, JSON-RPC 2.0 over
//! `postMessage`), as a state machine without I/O: the host hands it every message the view
//! posted (`on_from_app`, the exact text, after recording it) and the host's own events
//! (`tool_input`, `tool_result`, …), and runs the [`BridgeAction`]s it returns. The rules it
//! keeps: nothing is sent to the view before `ui/notifications/initialized` (queued until
//! then); the tool input goes once, before the result; an app may call only its own server's
//! tools that are visible to apps; a display mode the app did not declare is never entered;
//! unknown methods get -32601, bad params -32602, and a message that is not JSON-RPC is
//! answered (when it has an id) and reported, never silently dropped.

use std::collections::HashMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::meta::visibility_of;
use crate::vocabulary::method::names;
use crate::wire::{self, RequestId, error_code};

/// How long the host waits for the view to answer `ui/resource-teardown`.
pub const TEARDOWN_DEADLINE: Duration = Duration::from_secs(3);

/// An app's display modes Periscope can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum McpAppDisplayMode {
    Inline,
    Fullscreen,
}

impl McpAppDisplayMode {
    pub fn as_str(self) -> &'static str {
        match self {
            McpAppDisplayMode::Inline => "inline",
            McpAppDisplayMode::Fullscreen => "fullscreen",
        }
    }

    fn parse(word: &str) -> Option<McpAppDisplayMode> {
        match word {
            "inline" => Some(McpAppDisplayMode::Inline),
            "fullscreen" => Some(McpAppDisplayMode::Fullscreen),
            _ => None,
        }
    }
}

/// What the host knows when it opens a view.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewSpec {
    /// The server's tools (its `tools/list`), to decide an app's `tools/call`.
    pub server_tools: Vec<Value>,
    /// The tool whose call opened the view, if any (`hostContext.toolInfo`).
    pub tool: Option<Value>,
    /// Whether a tool input will come (`tool_input`): a result then waits for it.
    pub expects_input: bool,
    /// `hostInfo`.
    pub host_info: Value,
    /// The host's context (theme, locale, time zone, container size, …) without the display
    /// mode and tool, which the bridge adds.
    pub host_context: Value,
    /// The external origins the view's CSP lets in, by directive (`hostCapabilities.sandbox`).
    pub sandbox_csp: Value,
}

/// A request from the view the host carries to the view's server.
#[derive(Debug, Clone, PartialEq)]
pub enum ProxyRequest {
    CallTool {
        name: String,
        arguments: Map<String, Value>,
    },
    ReadResource {
        uri: String,
    },
}

/// A request from the view that needs the user.
#[derive(Debug, Clone, PartialEq)]
pub enum AppAsk {
    /// `ui/open-link`: always asks.
    OpenLink { url: String },
    /// `ui/message`: the content blocks (a single block is made a list of one).
    Message { content: Value },
}

/// What the host does for the bridge.
#[derive(Debug, Clone, PartialEq)]
pub enum BridgeAction {
    /// Post this JSON text to the view (record it first).
    Post(String),
    /// Send to the view's server, then [`AppView::answer`] with the outcome.
    Proxy {
        id: RequestId,
        request: ProxyRequest,
    },
    /// Ask the user, then [`AppView::answer`].
    Ask { id: RequestId, ask: AppAsk },
    /// The view's content size changed (`ui/notifications/size-changed`).
    Resize {
        width: Option<f64>,
        height: Option<f64>,
    },
    /// Show the view in this mode (the answer is already posted).
    DisplayMode(McpAppDisplayMode),
    /// `ui/update-model-context`: what the app wants a model to see next turn.
    ModelContext(Value),
    /// `notifications/message` from the view: its params.
    Log(Value),
    /// The view asked to be closed (`ui/notifications/request-teardown`): the host tears it
    /// down with [`AppView::teardown`].
    RequestTeardown,
    /// The view answered `ui/resource-teardown`: it may be removed now.
    TeardownAnswered,
    /// What was wrong with the message just handed in (recorded beside it).
    Problem(String),
}

/// An error the host answers a view's request with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppError {
    pub code: i64,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl AppError {
    pub fn new(code: i64, message: impl Into<String>) -> AppError {
        AppError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// What the spec answers when the user says no (`ui/open-link`, `ui/message`).
    pub fn declined() -> AppError {
        AppError::new(error_code::SERVER_ERROR, "the user declined")
    }
}

/// How a teardown starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Teardown {
    /// The request was posted (the action); wait at most [`TEARDOWN_DEADLINE`] for
    /// [`BridgeAction::TeardownAnswered`].
    Sent(BridgeAction),
    /// The view never initialized (nothing may be sent to it): remove it at once.
    NotReady,
}

/// A request Periscope sent the view, by its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HostRequest {
    Teardown,
}

/// One view's protocol state.
#[derive(Debug)]
pub struct AppView {
    spec: ViewSpec,
    initialized: bool,
    /// Host → view messages waiting for `initialized`.
    queue: Vec<String>,
    input_sent: bool,
    /// A result that came before the input it follows.
    held_result: Option<Value>,
    /// What the app declared in `ui/initialize` (`appCapabilities.availableDisplayModes`).
    app_modes: Vec<McpAppDisplayMode>,
    mode: McpAppDisplayMode,
    next_id: i64,
    host_requests: HashMap<i64, HostRequest>,
    /// The view's requests the host is working on (proxied or asked), by id.
    open_requests: Vec<RequestId>,
    /// After a teardown was sent: later host messages are not sent.
    torn_down: bool,
}

fn text(message: &Value) -> String {
    message.to_string()
}

impl AppView {
    pub fn new(spec: ViewSpec) -> AppView {
        AppView {
            spec,
            initialized: false,
            queue: Vec::new(),
            input_sent: false,
            held_result: None,
            app_modes: Vec::new(),
            mode: McpAppDisplayMode::Inline,
            next_id: 1,
            host_requests: HashMap::new(),
            open_requests: Vec::new(),
            torn_down: false,
        }
    }

    pub fn initialized(&self) -> bool {
        self.initialized
    }

    pub fn display_mode(&self) -> McpAppDisplayMode {
        self.mode
    }

    /// The host's own message to the view: now, or once the view is initialized.
    fn send(&mut self, message: Value) -> Vec<BridgeAction> {
        if self.torn_down {
            return Vec::new();
        }
        let text = text(&message);
        if self.initialized {
            vec![BridgeAction::Post(text)]
        } else {
            self.queue.push(text);
            Vec::new()
        }
    }

    fn respond(id: &RequestId, outcome: Result<Value, AppError>) -> BridgeAction {
        BridgeAction::Post(text(&match outcome {
            Ok(result) => wire::result_response(id, result),
            Err(error) => wire::error_response(id, error),
        }))
    }

    /// `ui/notifications/tool-input`, once. A result handed in before it follows it.
    pub fn tool_input(&mut self, arguments: Value) -> Vec<BridgeAction> {
        if self.input_sent {
            return vec![BridgeAction::Problem(
                "the tool input was already sent; a view gets it once".into(),
            )];
        }
        self.input_sent = true;
        let mut out = self.send(wire::notification(
            names::UI_TOOL_INPUT,
            Some(json!({"arguments": arguments})),
        ));
        if let Some(result) = self.held_result.take() {
            out.extend(self.send(wire::notification(names::UI_TOOL_RESULT, Some(result))));
        }
        out
    }

    /// `ui/notifications/tool-result` (after the input, when one is expected).
    pub fn tool_result(&mut self, result: Value) -> Vec<BridgeAction> {
        if self.spec.expects_input && !self.input_sent {
            self.held_result = Some(result);
            return Vec::new();
        }
        self.send(wire::notification(names::UI_TOOL_RESULT, Some(result)))
    }

    /// `ui/notifications/tool-cancelled`.
    pub fn tool_cancelled(&mut self, reason: &str) -> Vec<BridgeAction> {
        self.held_result = None;
        self.send(wire::notification(
            names::UI_TOOL_CANCELLED,
            Some(json!({"reason": reason})),
        ))
    }

    /// `ui/notifications/host-context-changed` with the changed keys; a `displayMode` in it
    /// is the host's own switch (e.g. Esc leaving fullscreen).
    pub fn context_changed(&mut self, partial: Value) -> Vec<BridgeAction> {
        if let Some(mode) = partial
            .get("displayMode")
            .and_then(Value::as_str)
            .and_then(McpAppDisplayMode::parse)
        {
            self.mode = mode;
        }
        if let Some(base) = self.spec.host_context.as_object_mut()
            && let Some(partial) = partial.as_object()
        {
            for (k, v) in partial {
                if k != "displayMode" {
                    base.insert(k.clone(), v.clone());
                }
            }
        }
        self.send(wire::notification(
            names::UI_HOST_CONTEXT_CHANGED,
            Some(partial),
        ))
    }

    /// Starts tearing the view down: `ui/resource-teardown` is a request the view answers.
    pub fn teardown(&mut self, reason: &str) -> Teardown {
        if !self.initialized || self.torn_down {
            self.torn_down = true;
            return Teardown::NotReady;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.host_requests.insert(id, HostRequest::Teardown);
        let message = wire::request(
            &RequestId::Number(id),
            names::UI_RESOURCE_TEARDOWN,
            Some(json!({"reason": reason})),
        );
        self.torn_down = true;
        Teardown::Sent(BridgeAction::Post(text(&message)))
    }

    /// The outcome of a proxied or asked request of the view: its response.
    pub fn answer(
        &mut self,
        id: &RequestId,
        outcome: Result<Value, AppError>,
    ) -> Vec<BridgeAction> {
        let Some(at) = self.open_requests.iter().position(|r| r == id) else {
            return vec![BridgeAction::Problem(format!(
                "no request {id} of the view is waiting for an answer"
            ))];
        };
        self.open_requests.remove(at);
        if self.torn_down {
            // The view is going or gone: an answer that comes late is not sent.
            return Vec::new();
        }
        vec![Self::respond(id, outcome)]
    }

    fn host_context(&self) -> Value {
        let mut context = self.spec.host_context.clone();
        if let Some(map) = context.as_object_mut() {
            map.insert("displayMode".into(), self.mode.as_str().into());
            map.insert(
                "availableDisplayModes".into(),
                json!(["inline", "fullscreen"]),
            );
            if let Some(tool) = &self.spec.tool {
                map.insert("toolInfo".into(), json!({"tool": tool}));
            }
        }
        context
    }

    fn host_capabilities(&self) -> Value {
        json!({
            "openLinks": {},
            "serverTools": {},
            "serverResources": {},
            "logging": {},
            "message": {"text": {}},
            "updateModelContext": {"text": {}, "structuredContent": {}},
            "sandbox": {"csp": self.spec.sandbox_csp, "permissions": {}},
        })
    }

    /// Everything the view posted, as the exact text (already recorded by the host).
    pub fn on_from_app(&mut self, text: &str) -> Vec<BridgeAction> {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                return vec![
                    BridgeAction::Problem(format!("not JSON: {e}")),
                    BridgeAction::Post(
                        json!({"jsonrpc": "2.0", "id": null, "error":
                            {"code": error_code::PARSE_ERROR, "message": format!("not JSON: {e}")}})
                        .to_string(),
                    ),
                ];
            }
        };
        let invalid = |why: String, id: Option<&Value>| {
            let id = id
                .and_then(RequestId::from_value)
                .map_or(Value::Null, |id| id.to_value());
            vec![
                BridgeAction::Problem(why.clone()),
                BridgeAction::Post(
                    json!({"jsonrpc": "2.0", "id": id, "error":
                        {"code": error_code::INVALID_REQUEST, "message": why}})
                    .to_string(),
                ),
            ]
        };
        let Some(message) = value.as_object() else {
            return invalid("not a JSON-RPC message (not an object)".into(), None);
        };
        let raw_id = message.get("id");
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return invalid(
                "not JSON-RPC 2.0 (\"jsonrpc\": \"2.0\" missing)".into(),
                raw_id,
            );
        }
        let method = message.get("method");
        match (method, raw_id) {
            (None, Some(id)) => self.on_response(id, message),
            (Some(Value::String(method)), None) => {
                let params = message.get("params").cloned().unwrap_or(json!({}));
                self.on_notification(method, params)
            }
            (Some(Value::String(method)), Some(raw)) => {
                let Some(id) = RequestId::from_value(raw) else {
                    return invalid(format!("{raw} is not a JSON-RPC id"), None);
                };
                let params = message.get("params").cloned().unwrap_or(json!({}));
                if !params.is_object() {
                    return vec![
                        BridgeAction::Problem(format!("{method}: params is not an object")),
                        Self::respond(
                            &id,
                            Err(AppError::new(
                                error_code::INVALID_PARAMS,
                                "params must be an object",
                            )),
                        ),
                    ];
                }
                self.on_request(id, method, params)
            }
            _ => invalid(
                "neither a request, a notification nor a response".into(),
                raw_id,
            ),
        }
    }

    fn on_response(&mut self, raw: &Value, message: &Map<String, Value>) -> Vec<BridgeAction> {
        let request = match raw {
            Value::Number(n) => n.as_i64().and_then(|n| self.host_requests.remove(&n)),
            _ => None,
        };
        match request {
            Some(HostRequest::Teardown) => {
                let mut out = vec![BridgeAction::TeardownAnswered];
                if message.contains_key("error") {
                    out.push(BridgeAction::Problem(
                        "the view answered ui/resource-teardown with an error".into(),
                    ));
                }
                out
            }
            None => vec![BridgeAction::Problem(format!(
                "a response to no request Periscope sent (id {raw})"
            ))],
        }
    }

    fn on_notification(&mut self, method: &str, params: Value) -> Vec<BridgeAction> {
        match method {
            names::UI_INITIALIZED => {
                if self.initialized {
                    return vec![BridgeAction::Problem(
                        "initialized twice: the second is ignored".into(),
                    )];
                }
                self.initialized = true;
                std::mem::take(&mut self.queue)
                    .into_iter()
                    .map(BridgeAction::Post)
                    .collect()
            }
            names::UI_SIZE_CHANGED => {
                let number = |key: &str| params.get(key).and_then(Value::as_f64);
                let bad = ["width", "height"]
                    .iter()
                    .any(|k| params.get(*k).is_some_and(|v| !v.is_number()));
                let mut out = vec![BridgeAction::Resize {
                    width: number("width"),
                    height: number("height"),
                }];
                if bad {
                    out.push(BridgeAction::Problem(
                        "size-changed: width/height must be numbers".into(),
                    ));
                }
                out
            }
            names::UI_REQUEST_TEARDOWN => vec![BridgeAction::RequestTeardown],
            names::MESSAGE => vec![BridgeAction::Log(params)],
            other => vec![BridgeAction::Problem(format!(
                "unknown notification {other:?} (ignored)"
            ))],
        }
    }

    /// A view's request the host carries to the server; the bridge waits for its answer.
    fn proxy(&mut self, id: RequestId, request: ProxyRequest) -> Vec<BridgeAction> {
        self.open_requests.push(id.clone());
        vec![BridgeAction::Proxy { id, request }]
    }

    /// A view's request the user answers; the bridge waits for it.
    fn ask(&mut self, id: RequestId, ask: AppAsk) -> Vec<BridgeAction> {
        self.open_requests.push(id.clone());
        vec![BridgeAction::Ask { id, ask }]
    }

    fn on_request(&mut self, id: RequestId, method: &str, params: Value) -> Vec<BridgeAction> {
        let bad = |why: String| {
            vec![
                BridgeAction::Problem(format!("{method}: {why}")),
                Self::respond(&id, Err(AppError::new(error_code::INVALID_PARAMS, why))),
            ]
        };
        let str_param = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_string);
        match method {
            names::UI_INITIALIZE => {
                if let Some(modes) = params
                    .pointer("/appCapabilities/availableDisplayModes")
                    .and_then(Value::as_array)
                {
                    self.app_modes = modes
                        .iter()
                        .filter_map(Value::as_str)
                        .filter_map(McpAppDisplayMode::parse)
                        .collect();
                }
                let result = json!({
                    "protocolVersion": super::APPS_PROTOCOL_VERSION,
                    "hostInfo": self.spec.host_info,
                    "hostCapabilities": self.host_capabilities(),
                    "hostContext": self.host_context(),
                });
                vec![Self::respond(&id, Ok(result))]
            }
            names::PING => vec![Self::respond(&id, Ok(json!({})))],
            names::TOOLS_CALL => {
                let Some(name) = str_param("name") else {
                    return bad("name must be a string".into());
                };
                let arguments = match params.get("arguments") {
                    None | Some(Value::Null) => Map::new(),
                    Some(Value::Object(a)) => a.clone(),
                    Some(_) => return bad("arguments must be an object".into()),
                };
                let tool = self
                    .spec
                    .server_tools
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(&name));
                match tool {
                    None => bad(format!("this app's server has no tool {name:?}")),
                    Some(t) if !visibility_of(t).app => bad(format!(
                        "the tool {name:?} is not visible to apps (its _meta.ui.visibility lacks \"app\")"
                    )),
                    Some(_) => self.proxy(id, ProxyRequest::CallTool { name, arguments }),
                }
            }
            names::RESOURCES_READ => match str_param("uri") {
                Some(uri) => self.proxy(id, ProxyRequest::ReadResource { uri }),
                None => bad("uri must be a string".into()),
            },
            names::UI_OPEN_LINK => match str_param("url") {
                Some(url) => self.ask(id, AppAsk::OpenLink { url }),
                None => bad("url must be a string".into()),
            },
            names::UI_MESSAGE => {
                if params.get("role").and_then(Value::as_str) != Some("user") {
                    return bad("role must be \"user\"".into());
                }
                let content = match params.get("content") {
                    Some(Value::Array(blocks)) if blocks.iter().all(Value::is_object) => {
                        Value::Array(blocks.clone())
                    }
                    // The spec's example sends one block; the SDK a list: both are read.
                    Some(block @ Value::Object(_)) => Value::Array(vec![block.clone()]),
                    _ => return bad("content must be a content block or a list of them".into()),
                };
                self.ask(id, AppAsk::Message { content })
            }
            names::UI_REQUEST_DISPLAY_MODE => {
                let Some(word) = str_param("mode") else {
                    return bad("mode must be a string".into());
                };
                let wanted = McpAppDisplayMode::parse(&word).filter(|m| self.app_modes.contains(m));
                let mut out = Vec::new();
                if let Some(mode) = wanted
                    && mode != self.mode
                {
                    self.mode = mode;
                    out.push(BridgeAction::DisplayMode(mode));
                }
                out.push(Self::respond(&id, Ok(json!({"mode": self.mode.as_str()}))));
                out
            }
            names::UI_UPDATE_MODEL_CONTEXT => vec![
                BridgeAction::ModelContext(params),
                Self::respond(&id, Ok(json!({}))),
            ],
            other => vec![
                BridgeAction::Problem(format!("unknown method {other:?}")),
                Self::respond(
                    &id,
                    Err(AppError::new(
                        error_code::METHOD_NOT_FOUND,
                        format!("Periscope does not offer {other:?} to apps"),
                    )),
                ),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> ViewSpec {
        ViewSpec {
            server_tools: vec![
                json!({"name": "add"}),
                json!({"name": "calculator_log", "_meta": {"ui": {"visibility": ["app"]}}}),
                json!({"name": "secret", "_meta": {"ui": {"visibility": ["model"]}}}),
            ],
            tool: Some(json!({"name": "calculator_app"})),
            expects_input: true,
            host_info: json!({"name": "Periscope", "version": "0"}),
            host_context: json!({"theme": "dark", "locale": "en"}),
            sandbox_csp: json!({}),
        }
    }

    fn posts(actions: &[BridgeAction]) -> Vec<Value> {
        actions
            .iter()
            .filter_map(|a| match a {
                BridgeAction::Post(t) => Some(serde_json::from_str(t).unwrap()),
                _ => None,
            })
            .collect()
    }

    fn initialize(view: &mut AppView, modes: Value) -> Vec<BridgeAction> {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "ui/initialize", "params": {
            "appInfo": {"name": "t"}, "protocolVersion": "2026-01-26",
            "appCapabilities": {"availableDisplayModes": modes}}});
        let answered = view.on_from_app(&init.to_string());
        let reply = &posts(&answered)[0];
        assert_eq!(reply["result"]["protocolVersion"], "2026-01-26");
        assert!(
            reply["result"]["hostContext"]["theme"].is_string(),
            "{reply}"
        );
        view.on_from_app(r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized","params":{}}"#)
    }

    #[test]
    fn nothing_reaches_the_view_before_initialized() {
        let mut view = AppView::new(spec());
        assert!(view.tool_input(json!({"a": 1})).is_empty());
        assert!(view.context_changed(json!({"theme": "light"})).is_empty());
        let flushed = posts(&initialize(&mut view, json!(["inline"])));
        let methods: Vec<&str> = flushed
            .iter()
            .map(|m| m["method"].as_str().unwrap())
            .collect();
        assert_eq!(
            methods,
            [
                "ui/notifications/tool-input",
                "ui/notifications/host-context-changed"
            ]
        );
        // Once initialized, a host message goes at once.
        assert_eq!(posts(&view.tool_cancelled("stop")).len(), 1);
    }

    #[test]
    fn tool_input_is_sent_once_and_before_the_result() {
        let mut view = AppView::new(spec());
        initialize(&mut view, json!([]));
        assert!(view.tool_result(json!({"content": []})).is_empty(), "held");
        let sent = posts(&view.tool_input(json!({"a": 2})));
        assert_eq!(sent[0]["method"], "ui/notifications/tool-input");
        assert_eq!(sent[0]["params"]["arguments"]["a"], 2);
        assert_eq!(sent[1]["method"], "ui/notifications/tool-result");
        let again = view.tool_input(json!({"a": 3}));
        assert!(posts(&again).is_empty());
        assert!(matches!(again[0], BridgeAction::Problem(_)));
    }

    #[test]
    fn an_app_cannot_call_a_model_only_tool_or_another_servers_tool() {
        let mut view = AppView::new(spec());
        initialize(&mut view, json!([]));
        let call = |name: &str| {
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"name": name, "arguments": {"sum": 3}}})
            .to_string()
        };
        for refused in ["secret", "other_servers_tool"] {
            let out = view.on_from_app(&call(refused));
            let reply = &posts(&out)[0];
            assert_eq!(reply["error"]["code"], -32602, "{refused}: {reply}");
            assert_eq!(reply["id"], 7);
        }
        let out = view.on_from_app(&call("calculator_log"));
        let BridgeAction::Proxy { id, request } = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(*id, RequestId::Number(7));
        assert!(matches!(request, ProxyRequest::CallTool { name, .. } if name == "calculator_log"));
        let answered = posts(&view.answer(id, Ok(json!({"content": []}))));
        assert_eq!(answered[0]["id"], 7);
        assert!(answered[0].get("result").is_some());
    }

    #[test]
    fn display_mode_stays_when_the_app_did_not_declare_it() {
        let mut view = AppView::new(spec());
        initialize(&mut view, json!(["inline"]));
        let ask = |mode: &str| {
            json!({"jsonrpc": "2.0", "id": 3, "method": "ui/request-display-mode",
                "params": {"mode": mode}})
            .to_string()
        };
        let out = view.on_from_app(&ask("fullscreen"));
        assert_eq!(posts(&out)[0]["result"]["mode"], "inline");
        assert!(
            !out.iter()
                .any(|a| matches!(a, BridgeAction::DisplayMode(_)))
        );
        let mut view = AppView::new(spec());
        initialize(&mut view, json!(["inline", "fullscreen"]));
        let out = view.on_from_app(&ask("fullscreen"));
        assert_eq!(posts(&out)[0]["result"]["mode"], "fullscreen");
        assert!(out.contains(&BridgeAction::DisplayMode(McpAppDisplayMode::Fullscreen)));
        assert_eq!(view.display_mode(), McpAppDisplayMode::Fullscreen);
    }

    #[test]
    fn teardown_is_a_request_and_gives_up_after_3_s() {
        assert_eq!(TEARDOWN_DEADLINE, Duration::from_secs(3));
        let mut never = AppView::new(spec());
        assert_eq!(never.teardown("closed"), Teardown::NotReady);
        let mut view = AppView::new(spec());
        initialize(&mut view, json!([]));
        let Teardown::Sent(BridgeAction::Post(text)) = view.teardown("closed by the user") else {
            panic!("no teardown request")
        };
        let request: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(request["method"], "ui/resource-teardown");
        assert_eq!(request["params"]["reason"], "closed by the user");
        let id = request["id"].clone();
        // Nothing else is sent after it.
        assert!(view.tool_cancelled("late").is_empty());
        let answer = json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string();
        assert_eq!(
            view.on_from_app(&answer),
            vec![BridgeAction::TeardownAnswered]
        );
    }

    #[test]
    fn a_malformed_message_is_recorded_flagged_and_answered_invalid_request() {
        let mut view = AppView::new(spec());
        let out = view.on_from_app(r#"{"id": 4, "method": "ping"}"#);
        assert!(matches!(out[0], BridgeAction::Problem(_)));
        let reply = &posts(&out)[0];
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], 4);
        let out = view.on_from_app("{not json");
        assert_eq!(posts(&out)[0]["error"]["code"], -32700);
        let out =
            view.on_from_app(r#"{"jsonrpc":"2.0","id":5,"method":"ui/download-file","params":{}}"#);
        assert_eq!(posts(&out)[0]["error"]["code"], -32601);
        let out = view
            .on_from_app(r#"{"jsonrpc":"2.0","id":6,"method":"ui/open-link","params":{"url":3}}"#);
        assert_eq!(posts(&out)[0]["error"]["code"], -32602);
        let out = view.on_from_app(
            r#"{"jsonrpc":"2.0","id":8,"method":"ui/message","params":{"role":"user","content":{"type":"text","text":"hi"}}}"#,
        );
        assert!(
            matches!(&out[0], BridgeAction::Ask { ask: AppAsk::Message { content }, .. }
            if content.as_array().is_some_and(|c| c.len() == 1))
        );
    }
}
