//! A server request waiting for the user (an ask) and the user's answer to it. The response an
//! answer sends is made by `session::handler` (`Answer::to_response`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::url_analysis::UrlAnalysis;
use crate::vocabulary::views::content::ContentBlock;
use crate::vocabulary::views::elicitation::ElicitationView;
use crate::vocabulary::views::sampling::SamplingView;
use crate::wire::RequestId;

/// A server request waiting for the user's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PendingAsk {
    /// The host's handle for answering (not the JSON-RPC id).
    pub ask_id: u64,
    pub server_id: String,
    /// The catalog name of the asking server, as the user knows it.
    pub server_name: String,
    /// The JSON-RPC id of the server's request (None for a sign-in).
    pub request_id: Option<RequestId>,
    pub received_wall_us: u64,
    pub ask: Ask,
}

/// What the server asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ask {
    /// `elicitation/create` in form mode (or without a mode). The schema passed
    /// [`check_schema`](super::form_schema::check_schema). `view`: the params read (its
    /// fields are what the form shows).
    ElicitForm {
        message: String,
        schema: Value,
        view: Box<ElicitationView>,
    },
    /// `elicitation/create` in URL mode. Nothing has been fetched.
    ElicitUrl {
        message: String,
        url: String,
        elicitation_id: String,
        analysis: UrlAnalysis,
    },
    /// `sampling/createMessage`: the params as the server sent them, and read.
    Sampling {
        params: Value,
        view: Box<SamplingView>,
    },
    /// The server requires sign-in: open the authorization URL in the browser? Nothing is
    /// opened before the user says so.
    SignIn {
        prompt: crate::auth::browser::AuthorizationPrompt,
    },
    /// An MCP App asks to open a link (`ui/open-link`): always asked, answered with
    /// [`Answer::UrlConsent`]. Nothing is opened before the user's Open.
    AppOpenLink {
        url: String,
        analysis: UrlAnalysis,
        app: McpAppLabel,
    },
    /// An MCP App asks to add a message to the conversation (`ui/message`): the content
    /// blocks as the app sent them; answered with [`Answer::AppMessage`].
    AppMessage {
        content: Value,
        /// `content` read as blocks.
        blocks: Vec<ContentBlock>,
        app: McpAppLabel,
    },
}

/// Which open app view an ask comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct McpAppLabel {
    pub view: u32,
    pub server_id: String,
    pub title: String,
    pub resource_uri: String,
}

/// The user's answer to a [`PendingAsk`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// Form elicitation: accept (with the content), decline or cancel.
    Elicit {
        action: ElicitAction,
        content: Option<Value>,
    },
    /// URL elicitation: accept and open the URL in the system browser now, accept without
    /// opening (the user copied it), decline or cancel.
    UrlConsent { decision: UrlDecision },
    /// Sampling approved: the `CreateMessageResult` to send.
    SamplingReply { result: Value },
    /// Sampling rejected: error -1 with this message.
    SamplingReject { reason: String },
    /// Sign in (open the browser) or not.
    SignIn { proceed: bool },
    /// An app's `ui/message`: accepted (the app gets `{}`) or declined (error -32000).
    AppMessage { accept: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ElicitAction {
    Accept,
    Decline,
    Cancel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum UrlDecision {
    /// Accepted; the host opens the URL in the system browser.
    Open,
    /// Accepted; the user opens it (they copied it).
    AcceptWithoutOpening,
    Decline,
    Cancel,
}
