//! The transport-independent MCP handler.
//!
//! [`DemoServer`] implements rmcp's [`ServerHandler`]; `main.rs` decides which
//! transport it is served over. Each instance holds the state of one MCP
//! session (bonus toggle, subscriptions, log level), so a multi-session
//! transport should create one instance per session.
//!
//! With `--eras modern|dual` it also serves 2026-07-28 requests: those are
//! recognised per request ([`is_modern_request`]) and handed to
//! [`crate::modern`], whose state is shared by the whole process because
//! stateless HTTP serves each request with a fresh instance.

use std::{borrow::Cow, sync::Arc};

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
        CompleteRequestParams, CompleteResult, DiscoverRequestMethod, DiscoverResult, ErrorCode,
        GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
        GetTaskParams, GetTaskResult, Implementation, InitializeRequestParams, InitializeResult,
        ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
        ListToolsResult, PaginatedRequestParams, ProtocolVersion,
        ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ReadResourceResponse,
        ServerCapabilities, ServerConfig, SetLevelRequestMethod, SetLevelRequestParams,
        SubscribeRequestParams, SubscriptionFilter, TASKS_EXTENSION_ID, Tool,
        UnsubscribeRequestParams, UpdateTaskParams,
    },
    service::{NotificationContext, RequestContext, SubscriptionContext},
};
use serde_json::json;

use tokio_util::sync::CancellationToken;

use crate::{
    app,
    era::{Eras, is_modern_request},
    modern::{self, ModernState, caching},
    prompts, resources, skills,
    state::DemoState,
    tools,
};

/// The `serverInfo.name` the server reports.
pub const SERVER_NAME: &str = "periscope-demo-server";
/// The `serverInfo.title` the server reports.
pub const SERVER_TITLE: &str = "Periscope Demo Server";

const INSTRUCTIONS: &str = "This is the Periscope demo server, a test fixture for MCP clients \
and inspectors. It exercises every client-facing MCP feature: tools with rich input and output \
schemas and every content type, progress and cancellation (slow_task), elicitation in form and URL \
mode, sampling, roots, logging (emit_logs), list_changed notifications (trigger_list_changed), \
paginated resources with subscriptions (touch_resource), a resource template, prompts and \
completions, an MCP App (calculator_app, rendered by hosts that declare the \
io.modelcontextprotocol/ui extension), and two Agent Skills (skills/list: release-notes, \
arithmetic; extension io.modelcontextprotocol/skills). Nothing it does has side effects outside \
this process.";

/// The Periscope demo MCP server.
#[derive(Debug, Clone, Default)]
pub struct DemoServer {
    /// This session's state (legacy era).
    state: Arc<DemoState>,
    eras: Eras,
    /// The process-wide state of modern requests.
    modern: Arc<ModernState>,
}

impl DemoServer {
    /// A legacy-only server with fresh session state.
    pub fn new() -> Self {
        Self::default()
    }

    /// A server for `eras` with fresh session state, sharing `modern` with
    /// every other instance of the process.
    pub fn with_eras(eras: Eras, modern: Arc<ModernState>) -> Self {
        Self {
            state: Arc::default(),
            eras,
            modern,
        }
    }

    /// Whether `context` gets the modern era's behaviour: a 2026-07-28
    /// request to a server started with `--eras modern|dual`. With the
    /// default `--eras legacy` such a request is served as before.
    fn is_modern(&self, context: &RequestContext<RoleServer>) -> bool {
        self.eras.serves_modern() && is_modern_request(context)
    }

    /// The state that holds the bonus toggle for `context`'s era.
    fn state_for(&self, context: &RequestContext<RoleServer>) -> &Arc<DemoState> {
        if self.is_modern(context) {
            &self.modern.demo
        } else {
            &self.state
        }
    }

    /// The token the transport cancels when the client can no longer send
    /// (see [`DemoState::client_gone`]).
    pub fn client_gone_token(&self) -> CancellationToken {
        self.state.client_gone().clone()
    }
}

/// A list served in one page has no cursor to give: any cursor is one it never gave, refused
/// as the spec says (-32602, "Pagination").
fn single_page(request: Option<&PaginatedRequestParams>) -> Result<(), McpError> {
    match cursor(request) {
        None => Ok(()),
        Some(cursor) => Err(McpError::invalid_params(
            format!("invalid cursor: {cursor}"),
            Some(serde_json::json!({ "cursor": cursor })),
        )),
    }
}

fn cursor(request: Option<&PaginatedRequestParams>) -> Option<&str> {
    request.and_then(|request| request.cursor.as_deref())
}

/// The methods of the spec a client may send this server. One of them that rmcp could not
/// read into its typed request arrives as a custom request: its params were wrong.
const SPEC_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/cancel",
    "tasks/update",
    "skills/list",
    "skills/get",
    "resources/directory/read",
];

impl ServerHandler for DemoServer {
    /// rmcp hands a known method with params it cannot read over as a custom request, and its
    /// default answers "method not found": the spec's answer is -32602 (invalid params).
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, McpError> {
        if SPEC_METHODS.contains(&request.method.as_str()) {
            return Err(McpError::invalid_params(
                format!("invalid params for {}", request.method),
                None,
            ));
        }
        Err(McpError::new(
            ErrorCode::METHOD_NOT_FOUND,
            request.method,
            None,
        ))
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_completions()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_skills_with_directory_read()
            .build();
        let mut capabilities = capabilities;
        if self.eras.serves_modern() {
            capabilities
                .extensions
                .get_or_insert_default()
                .insert(TASKS_EXTENSION_ID.to_string(), Default::default());
        }
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"))
                    .with_title(SERVER_TITLE)
                    .with_description(
                        "A demo MCP server that exercises every client-facing feature.",
                    ),
            )
            .with_instructions(INSTRUCTIONS)
            // Used when the client asks for a version without an initialize
            // handshake (2026-07-28+) or one rmcp does not know.
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    /// With `--eras legacy|dual`, every version rmcp knows: `initialize`
    /// echoes 2024-11-05 … 2025-11-25 and answers anything else with
    /// 2025-11-25, and 2026-07-28 stays listed (with `--eras legacy`, so a
    /// `server/discover` probe reaches [`Self::discover`] and gets "method not
    /// found", the legacy-server answer, rather than a version error). With
    /// `--eras modern`, 2026-07-28 alone.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.eras.supported_versions()
    }

    /// `--eras modern` refuses the handshake, naming the versions it speaks
    /// (a legacy client has no other way to learn why). Otherwise a legacy
    /// session opens as before; the tasks extension, which belongs to the
    /// modern era, is left out of its capabilities (the skills extension,
    /// which does not, stays).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        if !self.eras.serves_legacy() {
            tracing::info!(requested = %request.protocol_version, "refused initialize (--eras modern)");
            return Err(McpError::new(
                ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
                "This server was started with --eras modern: it speaks only 2026-07-28, which \
                 has no initialize handshake (use server/discover and per-request _meta)",
                Some(json!({
                    "supported": self.eras.supported_versions(),
                    "requested": request.protocol_version,
                })),
            ));
        }
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        if let Some(extensions) = result.capabilities.extensions.as_mut() {
            extensions.remove(TASKS_EXTENSION_ID);
            if extensions.is_empty() {
                result.capabilities.extensions = None;
            }
        }
        Ok(result)
    }

    /// With `--eras modern|dual`: the supported versions, capabilities,
    /// identity and instructions, cacheable. With `--eras legacy` it answers
    /// like a pre-2026 server would: method not found, so rmcp clients in
    /// auto mode fall back to `initialize`.
    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, McpError> {
        if self.eras.serves_modern() {
            Ok(modern::discover(self.eras, self.get_info()))
        } else {
            Err(McpError::method_not_found::<DiscoverRequestMethod>())
        }
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        single_page(request.as_ref())?;
        let capabilities = context.client_capabilities();
        if self.is_modern(&context) {
            let mut tools = modern::tools(self.modern.demo.bonus());
            app::link(&mut tools, capabilities.as_ref());
            return Ok(caching::tools(ListToolsResult::with_all_items(tools)));
        }
        let mut tools = tools::all(self.state.bonus());
        app::link(&mut tools, capabilities.as_ref());
        Ok(ListToolsResult::with_all_items(tools))
    }

    /// Used by rmcp's HTTP layer to check `Mcp-Param-*` headers against a
    /// tool's `x-mcp-header` annotations.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find(name, self.state.bonus()).or_else(|| {
            self.eras
                .serves_modern()
                .then(|| modern::tools(self.modern.demo.bonus()))
                .and_then(|tools| tools.into_iter().find(|tool| tool.name == name))
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        tracing::debug!(tool = %request.name, "tools/call");
        if self.is_modern(&context) {
            return modern::call(&self.modern, &request, &context).await;
        }
        let args = request.arguments.unwrap_or_default();
        tools::call(&self.state, &request.name, &args, &context)
            .await
            .map(Into::into)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let bonus = self.state_for(&context).bonus();
        let (page, next_cursor) = resources::page(resources::all(bonus), cursor(request.as_ref()))?;
        let mut result = ListResourcesResult::with_all_items(page);
        result.next_cursor = next_cursor;
        if self.is_modern(&context) {
            return Ok(caching::resources(result));
        }
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        single_page(request.as_ref())?;
        let result = ListResourceTemplatesResult::with_all_items(resources::templates());
        if self.is_modern(&context) {
            return Ok(caching::templates(result));
        }
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let result = match skills::read(&request.uri) {
            Some(result) => result,
            None => resources::read(&request.uri, self.state_for(&context).bonus())?,
        };
        if self.is_modern(&context) {
            return Ok(caching::read(&request.uri, result).into());
        }
        Ok(result.into())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, McpError> {
        single_page(request.as_ref())?;
        let result = skills::list();
        if self.is_modern(&context) {
            return Ok(caching::skills(result));
        }
        Ok(result)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, McpError> {
        let result = skills::get(&request.uri)?;
        if self.is_modern(&context) {
            return Ok(caching::skill(result));
        }
        Ok(result)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        if let Some(cursor) = request.cursor.as_deref() {
            return Err(McpError::invalid_params(
                format!("invalid cursor: {cursor}"),
                Some(json!({ "cursor": cursor })),
            ));
        }
        let result = skills::read_directory(&request.uri)?;
        if self.is_modern(&context) {
            return Ok(caching::directory(result));
        }
        Ok(result)
    }

    /// Modern requests only: every list-changed kind, and updates of the
    /// resources that exist. `None` (method not found) with `--eras legacy`.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let accepted = self
            .eras
            .serves_modern()
            .then(|| modern::listen::accepted_filter(requested, self.modern.demo.bonus()));
        if accepted.is_some() {
            self.modern.listeners.accepting();
        }
        accepted
    }

    /// Holds the listen stream open until the client cancels it, or closes
    /// it gracefully when stdin closes.
    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), McpError> {
        self.modern
            .listeners
            .hold(subscription, self.state.client_gone().cancelled())
            .await;
        Ok(())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        self.modern
            .tasks
            .get_task(&request.task_id)
            .map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.modern
            .tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        tracing::info!(task_id = %request.task_id, "tasks/cancel");
        self.modern.tasks.cancel_task(&request.task_id)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if !resources::exists(&request.uri, self.state.bonus()) {
            return Err(resources::not_found(&request.uri));
        }
        if self.state.subscribe(request.uri.clone()) {
            tracing::info!(uri = %request.uri, "subscribed");
        }
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if self.state.unsubscribe(&request.uri) {
            tracing::info!(uri = %request.uri, "unsubscribed");
        }
        Ok(())
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        single_page(request.as_ref())?;
        let result =
            ListPromptsResult::with_all_items(prompts::all(self.state_for(&context).bonus()));
        if self.is_modern(&context) {
            return Ok(caching::prompts(result));
        }
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        prompts::get(
            &request.name,
            request.arguments.as_ref(),
            self.state_for(&context).bonus(),
        )
        .map(Into::into)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        prompts::complete(&request, self.state_for(&context).bonus())
    }

    /// Removed in 2026-07-28 (a request carries its own log level), so a
    /// modern request gets "method not found".
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if self.is_modern(&context) {
            return Err(McpError::method_not_found::<SetLevelRequestMethod>());
        }
        tracing::info!(level = ?request.level, "logging/setLevel");
        self.state.set_log_level(request.level);
        Ok(())
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        tracing::info!(
            request_id = ?notification.request_id,
            reason = ?notification.reason,
            "client cancelled a request"
        );
    }

    async fn on_initialized(&self, _context: NotificationContext<RoleServer>) {
        tracing::info!("client initialized");
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        tracing::info!("client roots changed");
    }
}
