//! The transport-independent MCP handler.
//!
//! [`DemoServer`] implements rmcp's [`ServerHandler`]; `main.rs` decides which
//! transport it is served over. Each instance holds the state of one MCP
//! session (bonus toggle, subscriptions, log level), so a multi-session
//! transport should create one instance per session.

use std::{
    borrow::Cow,
    collections::BTreeSet,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{SystemTime, UNIX_EPOCH},
};

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CancelledNotificationParam, CompleteRequestParams,
        CompleteResult, DiscoverRequestMethod, DiscoverResult, GetPromptRequestParams,
        GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
        ListResourcesResult, ListToolsResult, LoggingLevel, PaginatedRequestParams,
        ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
        ServerConfig, SetLevelRequestParams, SubscribeRequestParams, Tool,
        UnsubscribeRequestParams,
    },
    service::{NotificationContext, RequestContext},
};

use tokio_util::sync::CancellationToken;

use crate::{prompts, resources, tools};

/// The `serverInfo.name` the server reports.
pub const SERVER_NAME: &str = "periscope-demo-server";
/// The `serverInfo.title` the server reports.
pub const SERVER_TITLE: &str = "Periscope Demo Server";

const INSTRUCTIONS: &str = "This is the Periscope demo server, a test fixture for MCP clients \
and inspectors. It exercises every client-facing MCP feature: tools with rich input and output \
schemas and every content type, progress and cancellation (slow_task), elicitation in form and URL \
mode, sampling, roots, logging (emit_logs), list_changed notifications (trigger_list_changed), \
paginated resources with subscriptions (touch_resource), a resource template, prompts and \
completions. Nothing it does has side effects outside this process.";

/// Per-session state shared by all requests of one connection.
#[derive(Debug, Default)]
pub struct DemoState {
    bonus: AtomicBool,
    subscriptions: Mutex<BTreeSet<String>>,
    log_level: Mutex<Option<LoggingLevel>>,
    elicitations: AtomicU64,
    client_gone: CancellationToken,
    /// Set once `needs_authorization`'s URL elicitation completed.
    authorized: AtomicBool,
}

impl DemoState {
    /// Whether the bonus tool, resource and prompt are listed.
    pub fn bonus(&self) -> bool {
        self.bonus.load(Ordering::SeqCst)
    }

    /// Flips the bonus items in or out; returns whether they are now present.
    pub fn toggle_bonus(&self) -> bool {
        !self.bonus.fetch_xor(true, Ordering::SeqCst)
    }

    /// The minimum level set by `logging/setLevel`; `None` means "send all".
    pub fn log_level(&self) -> Option<LoggingLevel> {
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn set_log_level(&self, level: LoggingLevel) {
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// Whether the client subscribed to `uri`.
    pub fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(uri)
    }

    fn subscribe(&self, uri: String) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(uri)
    }

    fn unsubscribe(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(uri)
    }

    /// Cancelled once the transport knows the client cannot send anything
    /// more (stdin closed); tools then stop waiting for client replies.
    pub fn client_gone(&self) -> &CancellationToken {
        &self.client_gone
    }

    pub fn authorized(&self) -> bool {
        self.authorized.load(Ordering::SeqCst)
    }

    pub fn set_authorized(&self) {
        self.authorized.store(true, Ordering::SeqCst);
    }

    /// A fresh, unique id for a URL-mode elicitation.
    pub fn next_elicitation_id(&self) -> String {
        let n = self.elicitations.fetch_add(1, Ordering::SeqCst) + 1;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_nanos())
            .unwrap_or_default();
        format!("demo-{n}-{nanos:x}")
    }
}

/// The Periscope demo MCP server.
#[derive(Debug, Clone, Default)]
pub struct DemoServer {
    state: Arc<DemoState>,
}

impl DemoServer {
    /// A server with fresh session state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The token the transport cancels when the client can no longer send
    /// (see [`DemoState::client_gone`]).
    pub fn client_gone_token(&self) -> CancellationToken {
        self.state.client_gone.clone()
    }
}

fn cursor(request: Option<&PaginatedRequestParams>) -> Option<&str> {
    request.and_then(|request| request.cursor.as_deref())
}

impl ServerHandler for DemoServer {
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
            .build();
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

    /// Every version rmcp knows (the default, spelled out): `initialize`
    /// echoes 2024-11-05 … 2025-11-25 and answers anything else with
    /// 2025-11-25. 2026-07-28 stays listed so a 2026-style `server/discover`
    /// probe reaches [`Self::discover`] and gets "method not found" (the
    /// legacy-server answer) rather than a version error.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    /// This server implements the session (`initialize`) lifecycle only, so it
    /// answers `server/discover` like a pre-2026 server would: method not
    /// found. rmcp clients in auto mode then fall back to `initialize`.
    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, McpError> {
        Err(McpError::method_not_found::<DiscoverRequestMethod>())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools::all(
            self.state.bonus(),
        )))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find(name, self.state.bonus())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.unwrap_or_default();
        tracing::debug!(tool = %request.name, "tools/call");
        tools::call(&self.state, &request.name, &args, &context)
            .await
            .map(Into::into)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let (page, next_cursor) =
            resources::page(resources::all(self.state.bonus()), cursor(request.as_ref()))?;
        let mut result = ListResourcesResult::with_all_items(page);
        result.next_cursor = next_cursor;
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        resources::read(&request.uri, self.state.bonus()).map(Into::into)
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
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(prompts::all(
            self.state.bonus(),
        )))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        prompts::get(
            &request.name,
            request.arguments.as_ref(),
            self.state.bonus(),
        )
        .map(Into::into)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        prompts::complete(&request, self.state.bonus())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
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
