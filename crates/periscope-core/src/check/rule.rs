//! The rules `check` holds a server to: each one's id, area, weight, the era it applies to,
//! where the spec says it, the official conformance scenario that tests the same thing, and
//! the one-line fix a server's author reads when it fails. One table, so the CLI, the app,
//! the reports (JUnit, SARIF) and docs/check.md name a rule the same way.

use serde::{Deserialize, Serialize};

use crate::era::Era;

/// Where in the protocol a rule sits (a report groups by it; `--only`/`--skip` take it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Area {
    Lifecycle,
    Eras,
    JsonRpc,
    Lists,
    Tools,
    Resources,
    Prompts,
    Utilities,
    Http,
    Stdio,
}

impl Area {
    pub const ALL: &'static [Area] = &[
        Area::Lifecycle,
        Area::Eras,
        Area::JsonRpc,
        Area::Lists,
        Area::Tools,
        Area::Resources,
        Area::Prompts,
        Area::Utilities,
        Area::Http,
        Area::Stdio,
    ];

    /// The name `--only`/`--skip` and the JSON report use.
    pub fn id(self) -> &'static str {
        match self {
            Area::Lifecycle => "lifecycle",
            Area::Eras => "eras",
            Area::JsonRpc => "json_rpc",
            Area::Lists => "lists",
            Area::Tools => "tools",
            Area::Resources => "resources",
            Area::Prompts => "prompts",
            Area::Utilities => "utilities",
            Area::Http => "http",
            Area::Stdio => "stdio",
        }
    }
}

/// How much a broken rule weighs: a MUST of the spec fails the check; a SHOULD, or a habit
/// every host relies on, is a warning (`--fail-on warning` makes those fail a build too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// Which era's sessions a rule is asked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Applies {
    /// Both eras (in each session the check opens).
    Both,
    /// The `initialize` era (2024-11-05 to 2025-11-25).
    Legacy,
    /// 2026-07-28.
    Modern,
    /// Once per check, across eras (the comparison of the two, a process's life).
    Once,
}

/// Everything said of a rule, for reports and docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RuleInfo {
    pub rule: Rule,
    pub area: Area,
    pub severity: Severity,
    pub applies: Applies,
    /// The spec page and anchor, relative to a revision's root
    /// (`https://modelcontextprotocol.io/specification/<revision>/`).
    pub spec: &'static str,
    /// The official conformance suite's server scenario that tests the same rule.
    pub official_scenario: Option<&'static str>,
    /// What the rule asks, in a line.
    pub title: &'static str,
    /// What to change in the server when it fails, in a line.
    pub hint: &'static str,
}

macro_rules! rules {
    ($(
        $variant:ident = $id:literal, $area:ident, $severity:ident, $applies:ident,
        $spec:literal, $official:expr,
        $title:literal,
        $hint:literal;
    )*) => {
        /// A rule, by its id (`jsonrpc.unknown-method`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
        pub enum Rule {
            $( #[serde(rename = $id)] $variant, )*
        }

        impl Rule {
            /// Every rule, in the order reports list them.
            pub const ALL: &'static [Rule] = &[$( Rule::$variant, )*];

            pub fn id(self) -> &'static str {
                match self { $( Rule::$variant => $id, )* }
            }

            pub fn info(self) -> RuleInfo {
                match self {
                    $( Rule::$variant => RuleInfo {
                        rule: Rule::$variant,
                        area: Area::$area,
                        severity: Severity::$severity,
                        applies: Applies::$applies,
                        spec: $spec,
                        official_scenario: $official,
                        title: $title,
                        hint: $hint,
                    }, )*
                }
            }

            pub fn parse(id: &str) -> Option<Rule> {
                Rule::ALL.iter().copied().find(|r| r.id() == id)
            }
        }
    };
}

rules! {
    // Lifecycle.
    InitializeLatest = "lifecycle.initialize-latest", Lifecycle, Error, Legacy,
        "basic/lifecycle#version-negotiation", Some("server-initialize"),
        "initialize offering the newest legacy revision is answered with a revision the server speaks",
        "Answer initialize with the offered protocolVersion when you support it, else the newest one you do.";
    InitializeOlder = "lifecycle.initialize-older", Lifecycle, Error, Legacy,
        "basic/lifecycle#version-negotiation", None,
        "initialize offering an older revision (2025-03-26) gets that revision or another the server speaks",
        "When the client offers a revision you support, answer with the same one; otherwise with one you support.";
    InitializeUnknown = "lifecycle.initialize-unknown", Lifecycle, Error, Legacy,
        "basic/lifecycle#version-negotiation", None,
        "initialize offering an unknown revision is answered with a revision the server speaks, not the unknown one",
        "Never echo a protocolVersion you do not speak: answer with the newest revision you support.";
    ServerInfo = "lifecycle.server-info", Lifecycle, Error, Both,
        "basic/lifecycle#initialization", Some("server-initialize"),
        "serverInfo names the server: a name and a version, as strings",
        "Send serverInfo with string name and version (title, description, websiteUrl and icons are optional).";
    CapabilitiesShape = "lifecycle.capabilities-shape", Lifecycle, Error, Both,
        "basic/lifecycle#capability-negotiation", Some("server-initialize"),
        "capabilities is an object whose declared capabilities are objects",
        "Declare each capability as an object ({} when it has no flags), never true or a string.";
    Instructions = "lifecycle.instructions", Lifecycle, Error, Both,
        "basic/lifecycle#initialization", None,
        "instructions, when sent, is a string",
        "Send instructions as one string, or leave it out.";
    DiscoverShape = "lifecycle.discover-shape", Lifecycle, Error, Modern,
        "basic/lifecycle#server-discovery", None,
        "server/discover's result is a valid DiscoverResult whose supportedVersions lists 2026-07-28",
        "Answer server/discover with supportedVersions (including 2026-07-28), capabilities, resultType and the caching hints.";
    DeclaredAnswers = "lifecycle.declared-answers", Lifecycle, Error, Both,
        "basic/lifecycle#capability-negotiation", None,
        "each declared capability's list method answers",
        "Serve tools/list, prompts/list and resources/list for every capability you declare, or stop declaring it.";
    UndeclaredRefused = "lifecycle.undeclared-refused", Lifecycle, Warning, Both,
        "basic/lifecycle#capability-negotiation", None,
        "an undeclared capability's list method is refused with -32601",
        "Declare every capability you serve; answer the methods of one you do not declare with -32601.";
    // Both eras.
    SameSurface = "eras.same-surface", Eras, Warning, Once,
        "basic/versioning", None,
        "a server of both eras lists the same prompts and resources in each (tools that differ are named)",
        "Serve the same prompts and resources in both eras: only tools may differ (a tool that asks the client mid-call exists in one era).";
    ModernToolWorks = "eras.modern-tool-works", Eras, Error, Once,
        "basic/utilities/multi-round-trip", None,
        "a tool that works in the legacy era also works in 2026-07-28",
        "A tool that asks the client mid-call (ctx.elicit, ctx.sample) must return input_required in 2026-07-28 (multi round-trip), not send a request.";
    // JSON-RPC.
    UnknownMethod = "jsonrpc.unknown-method", JsonRpc, Error, Both,
        "basic#responses", None,
        "a method nobody defines is refused with -32601 (Method not found)",
        "Answer an unknown method with a JSON-RPC error, code -32601.";
    ParseError = "jsonrpc.parse-error", JsonRpc, Warning, Both,
        "basic#responses", None,
        "bytes that are not JSON are answered with -32700 (Parse error) and no id (null before 2025-11-25), or ignored, and the server keeps serving",
        "Survive bytes that do not parse: answer {\"error\": {\"code\": -32700, …}} without an id, or ignore them, and keep serving.";
    InvalidRequest = "jsonrpc.invalid-request", JsonRpc, Warning, Both,
        "basic#requests", None,
        "a request whose method is not a string is answered with -32600 (Invalid Request)",
        "Validate the envelope: a request with a non-string method gets error -32600.";
    InvalidParams = "jsonrpc.invalid-params", JsonRpc, Error, Both,
        "server/tools#error-handling", None,
        "tools/call without a tool name is refused with -32602 (Invalid params)",
        "Validate params: a call with no name (or a name of the wrong type) gets error -32602.";
    StringId = "jsonrpc.string-id", JsonRpc, Error, Both,
        "basic#requests", None,
        "a string request id is echoed back as the same string",
        "Echo the request's id exactly: a string stays a string.";
    NumberId = "jsonrpc.number-id", JsonRpc, Error, Both,
        "basic#requests", None,
        "a number request id is echoed back as the same number",
        "Echo the request's id exactly: a number stays a number.";
    NotificationUnanswered = "jsonrpc.notification-unanswered", JsonRpc, Error, Both,
        "basic#notifications", None,
        "a notification (no id), even an unknown one, gets no response",
        "Never answer a notification, not even with an error.";
    Batch = "jsonrpc.batch", JsonRpc, Warning, Both,
        "basic#requests", None,
        "a JSON-RPC batch is answered where the revision has batches (2025-03-26 and before), and never stops the server",
        "Answer each request of a batch in 2025-03-26; from 2025-06-18 answer, refuse or ignore it, but keep serving.";
    ErrorShape = "jsonrpc.error-shape", JsonRpc, Error, Both,
        "basic#responses", None,
        "every error response has an integer code and a string message",
        "Send errors as {\"code\": <integer>, \"message\": <string>}.";
    SchemaValid = "jsonrpc.schema-valid", JsonRpc, Error, Both,
        "basic", None,
        "every frame the server sent during the check is valid against the revision's JSON Schema",
        "Fix the members the schema names (open the frame in Traffic for the path and rule).";
    // Lists.
    ToolsList = "lists.tools", Lists, Error, Both,
        "server/tools#listing-tools", Some("tools-list"),
        "every tools/list page is a valid ListToolsResult",
        "Answer tools/list with {\"tools\": [...]} whose tools have a name and an inputSchema.";
    ResourcesList = "lists.resources", Lists, Error, Both,
        "server/resources#listing-resources", Some("resources-list"),
        "every resources/list page is a valid ListResourcesResult",
        "Answer resources/list with {\"resources\": [...]} whose entries have a uri and a name.";
    TemplatesList = "lists.templates", Lists, Error, Both,
        "server/resources#resource-templates", None,
        "every resources/templates/list page is a valid ListResourceTemplatesResult",
        "Answer resources/templates/list with {\"resourceTemplates\": [...]} whose entries have a uriTemplate and a name.";
    PromptsList = "lists.prompts", Lists, Error, Both,
        "server/prompts#listing-prompts", Some("prompts-list"),
        "every prompts/list page is a valid ListPromptsResult",
        "Answer prompts/list with {\"prompts\": [...]} whose prompts have a name.";
    CursorsEnd = "lists.cursors-end", Lists, Error, Both,
        "server/utilities/pagination", None,
        "paging through every list ends: no cursor comes back twice, within 100 pages",
        "Return nextCursor only while there is a next page, and never a cursor you already returned.";
    BogusCursor = "lists.bogus-cursor", Lists, Warning, Both,
        "server/utilities/pagination#error-handling", None,
        "a cursor the server never gave is refused with -32602",
        "Refuse a cursor you did not issue with error -32602 instead of serving a page.";
    UniqueToolNames = "lists.unique-tool-names", Lists, Error, Both,
        "server/tools#listing-tools", None,
        "no two tools share a name",
        "Give each tool its own name: a host can call only one of two tools named alike.";
    UniquePromptNames = "lists.unique-prompt-names", Lists, Error, Both,
        "server/prompts#listing-prompts", None,
        "no two prompts share a name",
        "Give each prompt its own name.";
    UniqueResourceUris = "lists.unique-resource-uris", Lists, Warning, Both,
        "server/resources#listing-resources", None,
        "no two listed resources share a URI",
        "List each resource once: a URI names one resource.";
    ToolNameFormat = "lists.tool-name-format", Lists, Warning, Both,
        "server/tools#tool-names", None,
        "tool names are 1 to 128 characters of A-Z, a-z, 0-9, _, - and .",
        "Rename tools to 1-128 characters of letters, digits, _, - and . (no spaces): hosts refuse others.";
    ListChangedDeclared = "lists.list-changed-declared", Lists, Error, Both,
        "server/tools#list-changed-notification", None,
        "a list_changed notification comes only for a list whose capability declares listChanged",
        "Declare listChanged: true on the capability before sending notifications/*/list_changed.";
    // Tools.
    InputSchemaObject = "tools.input-schema-object", Tools, Error, Both,
        "server/tools#tool", None,
        "each tool's inputSchema is a JSON Schema of type \"object\"",
        "Give every tool an inputSchema with \"type\": \"object\" ({\"type\": \"object\"} when it takes nothing).";
    InputSchemaValid = "tools.input-schema-valid", Tools, Error, Both,
        "server/tools#tool", None,
        "each tool's inputSchema is a valid JSON Schema (2020-12 unless $schema says otherwise)",
        "Fix the inputSchema so a JSON Schema validator compiles it (the message names the keyword).";
    OutputSchemaValid = "tools.output-schema-valid", Tools, Error, Both,
        "server/tools#output-schema", None,
        "each outputSchema is a valid JSON Schema of type \"object\"",
        "Fix the outputSchema: an object schema a JSON Schema validator compiles.";
    UnknownTool = "tools.unknown-tool", Tools, Error, Both,
        "server/tools#error-handling", None,
        "calling a tool that does not exist is refused with a JSON-RPC error (-32602 the spec's example), not a result",
        "Answer a call to an unknown tool with JSON-RPC error -32602, not a result with isError.";
    CallResult = "tools.call-result", Tools, Error, Both,
        "server/tools#tool-result", None,
        "a call with arguments generated from the input schema gets a valid CallToolResult",
        "Return {\"content\": [...]} (and isError: true for a failure) from every call.";
    StructuredContent = "tools.structured-content", Tools, Error, Both,
        "server/tools#structured-content", None,
        "a tool with an outputSchema returns structuredContent valid against it",
        "Return structuredContent matching the tool's outputSchema on every successful call.";
    BadArguments = "tools.bad-arguments", Tools, Warning, Both,
        "server/tools#error-handling", None,
        "a call with arguments of the wrong type is refused (isError or -32602), not run",
        "Validate arguments against the inputSchema and report a mismatch (isError: true) instead of running.";
    // Resources.
    ReadResult = "resources.read", Resources, Error, Both,
        "server/resources#reading-resources", None,
        "each listed resource (the first 20) reads into valid contents naming its URI",
        "Answer resources/read with {\"contents\": [{\"uri\", \"text\" | \"blob\"}]} for every URI you list.";
    MimeConsistent = "resources.mime-consistent", Resources, Warning, Both,
        "server/resources#resource-contents", None,
        "a resource's contents carry the MIME type it was listed with",
        "Send the same mimeType in resources/list and in the read contents.";
    Base64 = "resources.base64", Resources, Error, Both,
        "server/resources#binary-content", None,
        "binary contents (blob) are valid base64",
        "Encode blob with standard base64 (RFC 4648, with padding).";
    UnknownUri = "resources.unknown-uri", Resources, Error, Both,
        "server/resources#error-handling", Some("sep-2164-resource-not-found"),
        "reading a URI that does not exist is refused with a JSON-RPC error, not a result",
        "Answer a read of an unknown URI with a JSON-RPC error (resource not found), not empty contents.";
    UnknownUriCode = "resources.unknown-uri-code", Resources, Warning, Both,
        "server/resources#error-handling", Some("sep-2164-resource-not-found"),
        "that error has the code the revision names: -32602 in 2026-07-28 (SEP-2164), -32002 or -32602 before",
        "Use -32602 (Invalid params) for a resource that does not exist in 2026-07-28; -32002 before it.";
    TemplateSyntax = "resources.template-syntax", Resources, Error, Both,
        "server/resources#resource-templates", None,
        "each uriTemplate is a valid RFC 6570 template",
        "Fix the uriTemplate: balanced braces, RFC 6570 operators and variable names.";
    Subscribe = "resources.subscribe", Resources, Error, Legacy,
        "server/resources#subscriptions", Some("resources-subscribe"),
        "with subscribe declared, resources/subscribe and resources/unsubscribe answer with an empty result",
        "Answer resources/subscribe and resources/unsubscribe with {}, or stop declaring subscribe.";
    // Prompts.
    PromptGet = "prompts.get", Prompts, Error, Both,
        "server/prompts#getting-a-prompt", None,
        "each prompt, got with its required arguments filled, gives valid messages",
        "Answer prompts/get with {\"messages\": [{\"role\", \"content\"}]} for every prompt you list.";
    MissingArgument = "prompts.missing-argument", Prompts, Warning, Both,
        "server/prompts#error-handling", None,
        "prompts/get without a required argument is refused with -32602",
        "Check required arguments and answer a missing one with error -32602.";
    UnknownPrompt = "prompts.unknown-prompt", Prompts, Warning, Both,
        "server/prompts#error-handling", None,
        "getting a prompt that does not exist is refused with -32602",
        "Answer prompts/get for an unknown name with JSON-RPC error -32602.";
    // Utilities.
    Ping = "utilities.ping", Utilities, Error, Legacy,
        "basic/utilities/ping", Some("ping"),
        "ping is answered with an empty result",
        "Answer ping with {} promptly.";
    SetLevel = "utilities.logging-set-level", Utilities, Error, Legacy,
        "server/utilities/logging", Some("logging-set-level"),
        "with logging declared, logging/setLevel is answered with an empty result",
        "Answer logging/setLevel with {}, or stop declaring logging.";
    Completion = "utilities.completion", Utilities, Error, Both,
        "server/utilities/completion", None,
        "with completions declared, completion/complete for a prompt argument gives at most 100 values",
        "Answer completion/complete with {\"completion\": {\"values\": [...]}} (100 values at most).";
    ProgressMonotonic = "utilities.progress", Utilities, Error, Both,
        "basic/utilities/progress", None,
        "progress notifications carry the request's token and a progress that only increases",
        "Send notifications/progress with the request's progressToken and a growing progress value.";
    CancelHonoured = "utilities.cancellation", Utilities, Warning, Legacy,
        "basic/utilities/cancellation", None,
        "a tool call cancelled with notifications/cancelled while it runs is not answered",
        "On notifications/cancelled, stop the request's work and send no response for it.";
    CacheHints = "utilities.cache-hints", Utilities, Error, Modern,
        "server/utilities/caching", Some("caching"),
        "every list result carries caching hints, well formed: ttlMs a non-negative integer, cacheScope public or private",
        "Send ttlMs (whole milliseconds, 0 or more) and cacheScope (\"public\" or \"private\") with every list and read result.";
    // Streamable HTTP.
    SessionIdAscii = "http.session-id-ascii", Http, Error, Once,
        "basic/transports#session-management", Some("server-initialize"),
        "the Mcp-Session-Id the server gives is visible ASCII (0x21 to 0x7E)",
        "Make session ids of visible ASCII only (a UUID, a JWT, a hash).";
    UnknownSession = "http.unknown-session", Http, Warning, Once,
        "basic/transports#session-management", None,
        "a request with a session id the server never gave gets 404",
        "Answer a request whose Mcp-Session-Id you do not know with 404 Not Found.";
    MissingSession = "http.missing-session", Http, Error, Once,
        "basic/transports#session-management", None,
        "after initialization, a request without the session id gets 400",
        "Answer a request without Mcp-Session-Id (other than initialize) with 400 Bad Request.";
    DeletedSession = "http.deleted-session", Http, Error, Once,
        "basic/transports#session-management", Some("server-session-lifecycle"),
        "DELETE ends the session (later requests get 404), or is refused with 405",
        "On DELETE with a session id, end the session and answer its later requests with 404 (or refuse DELETE with 405).";
    ProtocolVersionHeader = "http.protocol-version-header", Http, Error, Once,
        "basic/transports#protocol-version-header", None,
        "a request with an unsupported MCP-Protocol-Version header gets 400",
        "Check MCP-Protocol-Version and answer a version you do not speak with 400 Bad Request.";
    AcceptHeader = "http.accept-header", Http, Warning, Once,
        "basic/transports#sending-messages-to-the-server", None,
        "a POST whose Accept offers neither application/json nor text/event-stream gets 406",
        "Answer a POST that accepts neither JSON nor SSE with 406 Not Acceptable.";
    ContentType = "http.content-type", Http, Warning, Once,
        "basic/transports#sending-messages-to-the-server", None,
        "a POST whose body is not declared application/json gets 415",
        "Answer a POST whose Content-Type is not application/json with 415 Unsupported Media Type.";
    GetStream = "http.get-stream", Http, Error, Once,
        "basic/transports#listening-for-messages-from-the-server", None,
        "GET on the endpoint opens an SSE stream or is refused with 405",
        "Answer GET with Content-Type: text/event-stream, or 405 Method Not Allowed.";
    NotificationAccepted = "http.notification-accepted", Http, Error, Once,
        "basic/transports#sending-messages-to-the-server", None,
        "a notification POSTed is accepted with 202 and no body",
        "Answer a POSTed notification (or response) with 202 Accepted and an empty body.";
    MethodHeader = "http.method-header", Http, Error, Once,
        "basic/transports#request-headers", Some("http-header-validation"),
        "a 2026-07-28 request whose Mcp-Method header differs from its body is refused (400, -32020)",
        "Compare Mcp-Method with the body's method and refuse a mismatch with 400 and error -32020.";
    Origin = "http.origin", Http, Error, Once,
        "basic/transports#security-warning", Some("dns-rebinding-protection"),
        "a server on loopback refuses a request from a foreign Origin with 403",
        "Validate Origin on a local server: answer an origin you do not expect with 403 Forbidden (DNS rebinding).";
    AuthChallenge = "http.auth-challenge", Http, Error, Once,
        "basic/authorization#authorization-server-discovery", None,
        "a protected server answers 401 with a Bearer challenge whose protected-resource document names its authorization servers",
        "Send WWW-Authenticate: Bearer resource_metadata=\"…\" with 401, and serve the document with resource and authorization_servers.";
    TokenInQuery = "http.token-in-query", Http, Warning, Once,
        "basic/authorization#access-token-usage", None,
        "a protected server does not take its access token from the URL's query string (?access_token=)",
        "Read the access token from the Authorization header only, and refuse a request that carries it in the query string with 401.";
    // stdio.
    StdoutOnlyJson = "stdio.stdout-only-json", Stdio, Error, Once,
        "basic/transports#stdio", None,
        "nothing but JSON is written on stdout (no banner, no log line)",
        "Write logs and banners to stderr: stdout carries only JSON-RPC messages, one per line.";
    ExitsOnStdinClose = "stdio.exits-on-stdin-close", Stdio, Warning, Once,
        "basic/lifecycle#stdio", None,
        "the server exits within 5 s of its stdin closing",
        "Exit when stdin reaches end of file: it is how a host says the session is over.";
    NoOrphans = "stdio.no-orphans", Stdio, Warning, Once,
        "basic/lifecycle#stdio", None,
        "when the server exits, no process it started is left running in its process group",
        "Stop the processes you start (or have them exit with you) when the session ends.";
    ExitsOnSigterm = "stdio.exits-on-sigterm", Stdio, Warning, Once,
        "basic/lifecycle#stdio", None,
        "the server exits within 5 s of SIGTERM",
        "Exit on SIGTERM: hosts send it when stdin's end went unheeded.";
}

/// The spec page a result points at, in the revision of its era.
pub fn spec_link(rule: Rule, era: Option<Era>) -> String {
    let info = rule.info();
    let version = match (era, info.applies) {
        (Some(Era::Modern), _) | (None, Applies::Modern) => crate::revision::LATEST_MODERN,
        _ => crate::revision::LATEST_STATEFUL,
    };
    format!(
        "https://modelcontextprotocol.io/specification/{version}/{}",
        info.spec
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_unique_id_within_its_area_prefix_and_reads_back() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            assert!(seen.insert(rule.id()), "{} twice", rule.id());
            assert_eq!(Rule::parse(rule.id()), Some(*rule));
            let info = rule.info();
            let prefix = rule
                .id()
                .split('.')
                .next()
                .unwrap()
                .replace("jsonrpc", "json_rpc");
            assert_eq!(prefix, info.area.id(), "{}", rule.id());
            assert!(info.hint.len() > 10 && info.title.len() > 10);
        }
    }
}
