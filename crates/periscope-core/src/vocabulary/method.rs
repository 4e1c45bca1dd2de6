//! Every MCP method, by revision and direction: the requests a client sends, the requests a
//! server sends back, the notifications both send, and MCP Apps' `ui/*` messages between a
//! view and its host. A name no revision defines is [`Method::Other`], kept as sent.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Who sends a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// A request or notification from the client to the server.
    Client,
    /// A request or notification from the server to the client.
    Server,
    /// Either side (`ping`, `notifications/cancelled`, `notifications/progress`).
    Either,
    /// An MCP App's view or its host (MCP Apps, `ui/*`): never on a server's wire.
    App,
}

macro_rules! methods {
    ($( $(#[$doc:meta])* $variant:ident => $konst:ident = $name:literal, $sender:ident; )*) => {
        /// A JSON-RPC method: one MCP defines, or [`Method::Other`] with the name as sent. In
        /// JSON (and TypeScript) it is its name.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
        pub enum Method {
            $( $(#[$doc])* $variant, )*
            /// A name no revision Periscope speaks defines (an extension's, or a mistake).
            Other(String),
        }

        /// The methods' names on the wire, as constants: usable in a `match` on a `&str`.
        pub mod names {
            $( pub const $konst: &str = $name; )*
        }

        impl Method {
            /// Every method MCP defines, in the order above.
            pub const KNOWN: &'static [Method] = &[$( Method::$variant, )*];

            /// The method's name on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Method::$variant => $name, )*
                    Method::Other(name) => name,
                }
            }

            /// The method a name says (any name: an unknown one is [`Method::Other`]).
            pub fn parse(name: &str) -> Method {
                match name {
                    $( $name => Method::$variant, )*
                    other => Method::Other(other.to_string()),
                }
            }

            /// Who sends it; None for [`Method::Other`].
            pub fn sender(&self) -> Option<Sender> {
                match self {
                    $( Method::$variant => Some(Sender::$sender), )*
                    Method::Other(_) => None,
                }
            }
        }
    };
}

methods! {
    // The handshake (up to 2025-11-25) and discovery (2026-07-28).
    Initialize => INITIALIZE = "initialize", Client;
    Initialized => INITIALIZED = "notifications/initialized", Client;
    /// 2026-07-28: what a server speaks, asked without a handshake.
    ServerDiscover => SERVER_DISCOVER = "server/discover", Client;
    Ping => PING = "ping", Either;
    // Tools, resources, prompts, completion, logging.
    ToolsList => TOOLS_LIST = "tools/list", Client;
    ToolsCall => TOOLS_CALL = "tools/call", Client;
    ResourcesList => RESOURCES_LIST = "resources/list", Client;
    ResourceTemplatesList => RESOURCE_TEMPLATES_LIST = "resources/templates/list", Client;
    ResourcesRead => RESOURCES_READ = "resources/read", Client;
    ResourcesSubscribe => RESOURCES_SUBSCRIBE = "resources/subscribe", Client;
    ResourcesUnsubscribe => RESOURCES_UNSUBSCRIBE = "resources/unsubscribe", Client;
    PromptsList => PROMPTS_LIST = "prompts/list", Client;
    PromptsGet => PROMPTS_GET = "prompts/get", Client;
    CompletionComplete => COMPLETION_COMPLETE = "completion/complete", Client;
    LoggingSetLevel => LOGGING_SET_LEVEL = "logging/setLevel", Client;
    /// 2026-07-28: the one stream a client listens on for the server's notifications.
    SubscriptionsListen => SUBSCRIPTIONS_LISTEN = "subscriptions/listen", Client;
    // Tasks: 2025-11-25 (experimental) and the 2026-07-28 extension (`tasks/update`).
    TasksGet => TASKS_GET = "tasks/get", Client;
    TasksList => TASKS_LIST = "tasks/list", Client;
    TasksResult => TASKS_RESULT = "tasks/result", Client;
    TasksCancel => TASKS_CANCEL = "tasks/cancel", Client;
    TasksUpdate => TASKS_UPDATE = "tasks/update", Client;
    // Skills (SEP-2640, the `io.modelcontextprotocol/skills` extension), both eras.
    SkillsList => SKILLS_LIST = "skills/list", Client;
    SkillsGet => SKILLS_GET = "skills/get", Client;
    /// A folder's children; only to a server that declared `directoryRead`.
    ResourcesDirectoryRead => RESOURCES_DIRECTORY_READ = "resources/directory/read", Client;
    // What a server asks the client.
    SamplingCreateMessage => SAMPLING_CREATE_MESSAGE = "sampling/createMessage", Server;
    ElicitationCreate => ELICITATION_CREATE = "elicitation/create", Server;
    RootsList => ROOTS_LIST = "roots/list", Server;
    // Notifications.
    Cancelled => CANCELLED = "notifications/cancelled", Either;
    Progress => PROGRESS = "notifications/progress", Either;
    Message => MESSAGE = "notifications/message", Server;
    ToolsListChanged => TOOLS_LIST_CHANGED = "notifications/tools/list_changed", Server;
    ResourcesListChanged => RESOURCES_LIST_CHANGED = "notifications/resources/list_changed", Server;
    ResourceUpdated => RESOURCE_UPDATED = "notifications/resources/updated", Server;
    PromptsListChanged => PROMPTS_LIST_CHANGED = "notifications/prompts/list_changed", Server;
    RootsListChanged => ROOTS_LIST_CHANGED = "notifications/roots/list_changed", Client;
    ElicitationComplete => ELICITATION_COMPLETE = "notifications/elicitation/complete", Server;
    SubscriptionsAcknowledged => SUBSCRIPTIONS_ACKNOWLEDGED = "notifications/subscriptions/acknowledged", Server;
    TaskStatus => TASK_STATUS = "notifications/tasks/status", Server;
    // MCP Apps: between a view and its host.
    UiInitialize => UI_INITIALIZE = "ui/initialize", App;
    UiInitialized => UI_INITIALIZED = "ui/notifications/initialized", App;
    UiToolInput => UI_TOOL_INPUT = "ui/notifications/tool-input", App;
    UiToolResult => UI_TOOL_RESULT = "ui/notifications/tool-result", App;
    UiToolCancelled => UI_TOOL_CANCELLED = "ui/notifications/tool-cancelled", App;
    UiSizeChanged => UI_SIZE_CHANGED = "ui/notifications/size-changed", App;
    UiHostContextChanged => UI_HOST_CONTEXT_CHANGED = "ui/notifications/host-context-changed", App;
    UiRequestTeardown => UI_REQUEST_TEARDOWN = "ui/notifications/request-teardown", App;
    UiResourceTeardown => UI_RESOURCE_TEARDOWN = "ui/resource-teardown", App;
    UiRequestDisplayMode => UI_REQUEST_DISPLAY_MODE = "ui/request-display-mode", App;
    UiOpenLink => UI_OPEN_LINK = "ui/open-link", App;
    UiMessage => UI_MESSAGE = "ui/message", App;
    UiUpdateModelContext => UI_UPDATE_MODEL_CONTEXT = "ui/update-model-context", App;
    UiDownloadFile => UI_DOWNLOAD_FILE = "ui/download-file", App;
}

impl Method {
    /// A notification (no answer is sent): `notifications/…`, also MCP Apps' `ui/notifications/…`.
    pub fn is_notification(&self) -> bool {
        let name = self.as_str();
        name.starts_with("notifications/") || name.starts_with("ui/notifications/")
    }
}

impl From<&str> for Method {
    fn from(name: &str) -> Self {
        Method::parse(name)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Method {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Method {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

// On the wire and across the IPC boundary a method is its name.
impl Serialize for Method {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Method {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Method::parse(&name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_name_reads_back_as_its_method() {
        for method in Method::KNOWN {
            assert_eq!(&Method::parse(method.as_str()), method, "{method}");
            assert!(method.sender().is_some());
        }
        let mut names: Vec<&str> = Method::KNOWN.iter().map(Method::as_str).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Method::KNOWN.len(), "a name is listed twice");
    }

    #[test]
    fn an_unknown_name_is_kept_as_sent() {
        let method = Method::parse("x-vendor/do");
        assert_eq!(method, Method::Other("x-vendor/do".into()));
        assert_eq!(method.as_str(), "x-vendor/do");
        assert_eq!(method.sender(), None);
    }

    #[test]
    fn a_method_crosses_json_as_its_name() {
        let json = serde_json::to_string(&Method::ToolsCall).unwrap();
        assert_eq!(json, r#""tools/call""#);
        let back: Method = serde_json::from_str(r#""notifications/progress""#).unwrap();
        assert_eq!(back, Method::Progress);
        assert!(back.is_notification());
        assert!(!Method::ToolsCall.is_notification());
        assert!(Method::UiToolResult.is_notification());
    }

    #[test]
    fn the_constants_are_the_names() {
        assert_eq!(names::TOOLS_CALL, Method::ToolsCall.as_str());
        assert_eq!(names::SERVER_DISCOVER, "server/discover");
        assert_eq!(Method::ElicitationCreate.sender(), Some(Sender::Server));
    }
}
