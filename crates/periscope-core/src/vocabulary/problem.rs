//! Why something Periscope was asked to do did not happen, as a value: a [`Problem`] names
//! its kind and carries its parameters (the server's code and message as sent, the limit that
//! was hit, the file, a library's own words as `detail`). Hosts word it: the UI in the user's
//! language (`ui/src/common/problem.ts`), the CLI in English through `Display`.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::breach::Breach;
use super::catalog_damage::{self, CatalogDamage, CopyKept};
use super::close::CloseCause;
use super::model_error::ModelError;
use super::refusal::{HeaderAnnotationError, NotSentWhy, ServerRequestRefusal};
use super::seconds::seconds;
use super::start::StartCause;
use super::transport_fault::TransportFault;

/// A failure, typed. In JSON (and TypeScript) its `kind` names it, beside its parameters.
/// Texts in `detail`, `message` and `reason` are quoted as they came (from a server, the
/// system or a library); every other word comes from the kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Problem {
    /// No catalog entry has this id.
    #[error("no server with id {id:?} in the catalog")]
    ServerNotFound { id: String },
    /// The server is not connected (or never was).
    #[error("not connected: connect to the server first")]
    NotConnected { server: String },
    /// The server is still connecting.
    #[error("still connecting; try again in a moment")]
    StillConnecting { server: String },
    /// The server's connection failed earlier; `cause` says how.
    #[error("the connection failed: {cause}")]
    ConnectionFailed { server: String, cause: Box<Problem> },
    /// The server could not be started or reached: `cause` says why.
    #[error("{cause}")]
    StartFailed { server: String, cause: StartCause },
    /// The connection ended while it was in use: `cause` says how.
    #[error("the connection ended: {cause}")]
    ConnectionEnded { cause: CloseCause },
    /// The server failed in the protocol era remembered for it, and answered in no other.
    #[error("the server failed in the era remembered for it")]
    RememberedEraFailed,
    /// The server answered a request with a JSON-RPC error: its code, message and data as sent
    /// (`code_name`: the code's name in the specs, when they name it).
    #[error("{method}: the server answered with error {code}{}: {message}", code_name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default())]
    RequestFailed {
        method: String,
        code: i64,
        code_name: Option<String>,
        message: String,
        data: Option<Box<Value>>,
    },
    /// No answer came in time (`after_ms`); Periscope sent `notifications/cancelled`.
    #[error("{method}: no answer within {} s; sent notifications/cancelled", seconds(*after_ms))]
    TimedOut { method: String, after_ms: u64 },
    /// The request was cancelled (by the user, or as its caller went away).
    #[error("{method}: cancelled; sent notifications/cancelled")]
    Cancelled { method: String },
    /// The connection closed before the answer: how, and the server's last stderr lines.
    #[error("{cause} before answering {method}{}", self::stderr_tail(stderr_tail))]
    ClosedBeforeAnswer {
        method: String,
        cause: CloseCause,
        stderr_tail: Vec<String>,
    },
    /// The HTTP server forgot the session (404).
    #[error("{method}: the server no longer knows this session (HTTP 404)")]
    SessionExpired { method: String },
    /// The transport could not carry the request or its answer: `fault` says what it ran into
    /// (`detail`: the same in English, as the CLI says it).
    #[error("{method}: {detail}")]
    Transport {
        method: String,
        detail: String,
        /// Boxed: a fault is larger than most problems.
        fault: Box<TransportFault>,
    },
    /// The answer does not have the shape the protocol requires (or is not what was asked,
    /// e.g. a task where none came).
    #[error("{method}: the server's answer breaks the protocol: {breach}")]
    ProtocolBroken { method: String, breach: Breach },
    /// Periscope did not send the request: the protocol era's rules forbid it.
    #[error("{method}: {why}")]
    NotSent {
        method: String,
        /// Boxed: a header rule is larger than most problems.
        why: Box<NotSentWhy>,
    },
    /// Something Periscope keeps (a frame, a model provider, a conversation, an app view, a
    /// host config file) does not exist.
    #[error("there is no {what} {id:?}")]
    NotFound { what: Thing, id: String },
    /// Something that was waiting (a server's request, a tool call, a draft) is not any more.
    #[error("{what} is no longer waiting (answered, or it went away)")]
    NoLongerWaiting { what: Waiting },
    /// A part of the app is not ready (the secret store, the model settings, the data folder).
    #[error("{what} is not available{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Unavailable {
        what: Facility,
        detail: Option<String>,
    },
    /// Something the user typed or picked is not usable.
    #[error("{field} {}{}", field.requirement(), detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    InvalidInput {
        field: Field,
        detail: Option<String>,
    },
    /// A number the user set is outside what is allowed.
    #[error("{field} must be between {low} and {high}")]
    OutOfRange { field: Field, low: u64, high: u64 },
    /// A limit was hit: at most `limit` (`asked`: how many were asked, when known).
    #[error("{what}: at most {limit}{}", asked.map(|a| format!(" ({a} asked)")).unwrap_or_default())]
    LimitHit {
        what: Limit,
        limit: u64,
        asked: Option<u64>,
    },
    /// Reading or writing a file failed.
    #[error("could not use {path}: {detail}")]
    Io { path: String, detail: String },
    /// What Periscope keeps could not be saved; `cause` says why.
    #[error("could not save the {what}: {cause}")]
    NotSaved { what: Stored, cause: Box<Problem> },
    /// A record (live, ended or reopened) could not be read.
    #[error("the record could not be read: {detail}")]
    RecordUnreadable { detail: String },
    /// A fetched icon is not an image (`content_type`: what its server said it is).
    #[error("not an image ({content_type})")]
    NotAnImage { content_type: String },
    /// A file or folder dialog closed without a choice.
    #[error("the dialog closed without a choice")]
    DialogClosed,
    /// A URL was refused before anything was opened or fetched.
    #[error("refusing {url:?}: {reason}")]
    UrlRefused { url: String, reason: UrlRefusal },
    /// A fetch (an icon) got something other than what it asked for.
    #[error("{url}: {detail}")]
    FetchFailed { url: String, detail: String },
    /// A program Periscope starts (the browser, the file manager, the validator) did not.
    #[error("could not start {program}: {detail}")]
    ProgramFailed { program: String, detail: String },
    /// A model provider failed: `error` says how, with its answer or the library's words.
    #[error("the model failed: {error}")]
    ModelFailed { error: ModelError },
    /// A server's sampling request does not have the shape the spec gives it (`detail`: what
    /// is wrong).
    #[error("the sampling request is malformed: {detail}")]
    SamplingMalformed { detail: String },
    /// The servers' tools could not be listed for the model (`detail`: why, as the session
    /// said).
    #[error("the servers' tools could not be listed: {detail}")]
    ToolsUnlisted { detail: String },
    /// The model is still answering in this conversation.
    #[error("the model is still answering; wait, or stop it first")]
    Busy,
    /// A check of this server is already running (one at a time: each starts the server).
    #[error("a check of this server is already running")]
    CheckRunning,
    /// The user stopped the check before it ended (its report is not kept).
    #[error("the check was cancelled")]
    CheckCancelled,
    /// A load run of this server is running, or waits for the user's confirmation.
    #[error("a load run of this server is already running or waiting to be confirmed")]
    LoadRunning,
    /// Start was asked with no run prepared (it was discarded, or never prepared).
    #[error("no load run is prepared for this server")]
    LoadNotPrepared,
    /// The load run could not be prepared: its plan, its workload, or the first session.
    #[error("the load run could not be prepared: {detail}")]
    LoadRefused { detail: String },
    /// An eval run of this server is running (one at a time per server).
    #[error("an eval run of this server is already running")]
    EvalRunning,
    /// The eval run could not start: its suite, its models or the server's tools.
    #[error("the eval run could not start: {detail}")]
    EvalRefused { detail: String },
    /// A skill (or one of its files) that failed its manifest was not used (`crate::skills`).
    #[error("{}", refusal.describe(uri))]
    SkillRefused {
        uri: String,
        refusal: crate::vocabulary::skill_check::LoadRefusal,
    },
    /// Sign-in does not apply to this server (a local one, or one never signed in to).
    #[error("{what}")]
    SignIn { server: String, what: SignIn },
    /// The server does not run tools as tasks.
    #[error("{method}: the server does not offer tasks for this")]
    TasksNotOffered { method: String },
    /// A task ended without a result: its status, and the server's status message as sent.
    #[error("the task ended {status}{}", message.as_deref().map(|m| format!(": {m}")).unwrap_or_default())]
    TaskEnded {
        status: String,
        message: Option<String>,
    },
    /// Importing stopped at a server entry (`imported`: how many went in before it).
    #[error("could not import {name:?} ({imported} imported before it): {cause}")]
    NotImported {
        name: String,
        imported: u64,
        cause: Box<Problem>,
    },
    /// Something inside Periscope failed (an encoding, a worker thread); `detail` as said.
    #[error("an internal step failed: {detail}")]
    Internal { detail: String },
    /// Protocol checks could not start for this session (`detail`: the system's words): the
    /// session works, its frames go unchecked.
    #[error("protocol checks are off for this session: {detail}")]
    ChecksOff { detail: String },
    /// The server answered `initialize` with a version Periscope does not speak (`speaks`:
    /// those it does); the session goes on, as an inspector shows mismatches.
    #[error("the server answered with protocol version {version:?}, which Periscope does not speak (it speaks {}); continuing anyway", speaks.join(", "))]
    VersionNotSpoken {
        version: String,
        speaks: Vec<String>,
    },
    /// `server/discover` listed no version Periscope speaks (`offered`, as sent); the session
    /// goes on in `using`.
    #[error(
        "the server lists no version Periscope speaks ({}); continuing with {using}",
        offered_versions(offered)
    )]
    NoVersionInCommon { offered: Vec<String>, using: String },
    /// The server refused the version `refused` (-32022) and named `version`: asked again in it.
    #[error(
        "{method}: the server refused {refused} (-32022); asked again with {version}, which it named"
    )]
    VersionRetried {
        method: String,
        refused: String,
        version: String,
    },
    /// Sign-in was tried `attempts` times and the server still refused (HTTP `status`).
    #[error("gave up after {attempts} sign-ins: the server still refuses (HTTP {status})")]
    SignInGaveUp { attempts: u64, status: u16 },
    /// The HTTP server forgot the session (404) during `method`: Periscope started a new one and
    /// sent the request again.
    #[error(
        "{method}: the server no longer knew the session (HTTP 404); Periscope started a new one"
    )]
    SessionRenewed { method: String },
    /// The response stream of `method` broke (`detail`: the transport's account); the request
    /// went again, once, as id `id`.
    #[error("{method}: {detail}; re-issued as a new request (id {id})")]
    Reissued {
        method: String,
        detail: String,
        id: String,
    },
    /// A request from the server (`method`, `id` as sent) was answered with an error, as the
    /// spec says, instead of going to the user.
    #[error("refused {method} (id {id}): {why}")]
    ServerRequestRefused {
        method: String,
        id: String,
        why: ServerRequestRefusal,
    },
    /// The answer to the server's input request `key` (`method`) was left out of
    /// `inputResponses`: Periscope's answer was error `code`.
    #[error("input {key:?} ({method}) was not given: Periscope answered with error {code}{}", code_name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default())]
    InputNotGiven {
        key: String,
        method: String,
        code: i64,
        code_name: Option<String>,
    },
    /// Over HTTP, the tool `tool` will not be called: its header annotations break the rules.
    #[error("the tool {tool:?} is refused (Periscope will not call it over HTTP): {why}")]
    ToolRefused {
        tool: String,
        why: HeaderAnnotationError,
    },
    /// A result shown came from the cache, fresh for `left_s` more seconds.
    #[error(
        "{method}: from cache, {left_s} s left (the server said the result stays fresh that long)"
    )]
    FromCache { method: String, left_s: u64 },
    /// The model could not answer a sampling request by itself, so the user is asked.
    #[error("the model could not answer the sampling request by itself, so you are asked: {cause}")]
    AutoAnswerFailed { cause: Box<Problem> },
    /// Loading the server catalog `path` found `damage`; the file was copied aside or not.
    #[error("{} ({copy}).", catalog_damage::english(path, damage))]
    CatalogDamaged {
        path: String,
        damage: CatalogDamage,
        copy: CopyKept,
    },
    /// A call could not go into the history.
    #[error("could not record the call in the history: {cause}")]
    NotRecorded { cause: Box<Problem> },
}

macro_rules! words {
    ($( $(#[$doc:meta])* $name:ident { $( $variant:ident => $english:literal, )* } )*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $( $variant, )* }

        impl $name {
            /// Every value, for the tests that walk them all.
            pub const ALL: &'static [$name] = &[$( $name::$variant, )*];
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $( $name::$variant => $english, )* })
            }
        }
    )*};
}

words! {
    /// What [`Problem::NotFound`] looked for.
    Thing {
        Frame => "frame",
        ModelProvider => "model provider",
        Conversation => "conversation",
        ConversationServer => "server in this conversation",
        AppView => "app view",
        HostConfigFile => "host config file here named",
        Record => "record of server",
        CheckReport => "check report of server",
        LoadRun => "load run",
        EvalRun => "eval run",
        Tool => "tool",
    }
    /// What [`Problem::NoLongerWaiting`] was about.
    Waiting {
        ServerRequest => "this request",
        ToolCall => "this tool call",
        Turn => "the turn",
        Draft => "the request being drafted",
        SavedCall => "that saved call",
        Recording => "this recording",
    }
    /// What [`Problem::Unavailable`] names.
    Facility {
        SecretStore => "the secret store",
        ModelSettings => "the model settings",
        BrowserOpener => "the browser opener",
        DataFolder => "the app's data folder",
        Model => "a model (add one in Settings → Models)",
    }
    /// The input [`Problem::InvalidInput`] is about.
    Field {
        SavedCallName => "a saved call's name",
        Arguments => "the arguments",
        ProviderId => "the provider's id",
        ProviderName => "the provider's name",
        ModelName => "the model's name",
        FolderPath => "the folder path",
        Message => "the message",
        Servers => "the servers",
        ConversationId => "the conversation id",
        ServerEntry => "the server entry",
        ServerName => "a server's name",
        ServerCommand => "a local server's command",
        ServerUrl => "a remote server's URL",
        Blob => "the blob",
        Frame => "the frame",
        LogLevel => "the log level",
        Recording => "the recording",
        AskKind => "the request",
        Conversation => "the conversation file",
        LocalFile => "the chosen file",
        LocalFolder => "the chosen folder",
        RequestTimeoutSeconds => "the request timeout in seconds",
        HostConfig => "the host config",
        CallId => "the call id",
        Approval => "the approval",
    }
    /// What [`Problem::LimitHit`] counts.
    Limit {
        OpenRecordings => "open recordings",
        MarkdownFrames => "frames in a Markdown report",
        TimelineServers => "servers in a timeline",
        IconKib => "KiB in an icon",
        ModelAnswerSeconds => "seconds for the provider to answer",
        EvalCaseSeconds => "seconds for one repetition of an eval case",
    }
    /// What [`Problem::NotSaved`] names.
    Stored {
        Settings => "settings",
        ServerCatalog => "server catalog",
        ServerSettings => "server settings",
        SavedCalls => "saved calls",
        History => "history",
        Arguments => "arguments",
        ModelProviders => "model providers",
        ApiKey => "API key",
        Secrets => "secret values",
        Conversation => "conversation",
        SignIns => "sign-ins",
    }
    /// Why [`Problem::UrlRefused`] refused.
    UrlRefusal {
        NotAUrl => "not a URL",
        NotHttps => "only https: is fetched",
        Credentials => "a URL with credentials in it is not fetched",
        NotOpenable => "only http: and https: URLs open in the browser",
    }
    /// Why [`Problem::SignIn`] does not apply.
    SignIn {
        NotRemote => "only remote servers sign in",
        NoneToEnd => "this server has no sign-in to end",
    }
}

impl Field {
    /// What the field must be, in English (the UI has its own words for each).
    fn requirement(self) -> &'static str {
        match self {
            Field::SavedCallName
            | Field::ProviderId
            | Field::ProviderName
            | Field::ModelName
            | Field::FolderPath
            | Field::Message
            | Field::Servers
            | Field::ServerName
            | Field::ServerCommand
            | Field::ServerUrl => "is missing",
            Field::Arguments => "must be a JSON object",
            Field::LocalFile | Field::LocalFolder => "is not on this computer",
            Field::Frame => "is not UTF-8 text: a command line cannot carry it",
            Field::LogLevel => {
                "is not one of debug, info, notice, warning, error, critical, alert, emergency"
            }
            _ => "cannot be used",
        }
    }
}

/// The server's last stderr lines, as said after a close ("; last stderr line: …").
pub fn stderr_tail(lines: &[String]) -> String {
    match lines {
        [] => "; it wrote nothing to stderr".to_string(),
        [line] => format!("; last stderr line: {line}"),
        lines => format!("; last stderr lines:\n  {}", lines.join("\n  ")),
    }
}

/// The versions a server listed, or that it listed none.
fn offered_versions(offered: &[String]) -> String {
    if offered.is_empty() {
        "no supportedVersions".to_string()
    } else {
        offered.join(", ")
    }
}

/// The name the specs give `code` ("MethodNotFound"), if they name it.
pub fn code_name(code: i64) -> Option<String> {
    super::ErrorCode::of(code).name().map(String::from)
}

impl Problem {
    /// The server's JSON-RPC error code, when the server answered with one.
    pub fn code(&self) -> Option<i64> {
        match self {
            Problem::RequestFailed { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// A file operation on `path` that failed.
    pub fn io(path: &std::path::Path, error: impl fmt::Display) -> Problem {
        Problem::Io {
            path: path.display().to_string(),
            detail: error.to_string(),
        }
    }

    /// What Periscope keeps, not saved.
    pub fn not_saved(what: Stored, cause: Problem) -> Problem {
        Problem::NotSaved {
            what,
            cause: Box::new(cause),
        }
    }

    /// A record read that failed, in the words of what failed.
    pub fn record(error: impl fmt::Display) -> Problem {
        Problem::RecordUnreadable {
            detail: error.to_string(),
        }
    }

    /// A JSON-RPC error a server answered `method` with, named when the specs name its code.
    pub fn request_failed(
        method: impl Into<String>,
        code: i64,
        message: impl Into<String>,
        data: Option<Value>,
    ) -> Problem {
        Problem::RequestFailed {
            method: method.into(),
            code,
            code_name: code_name(code),
            message: message.into(),
            data: data.map(Box::new),
        }
    }

    /// A model provider's failure.
    pub fn model(error: ModelError) -> Problem {
        Problem::ModelFailed { error }
    }

    /// An internal step that failed, in the words of what failed.
    pub fn internal(error: impl fmt::Display) -> Problem {
        Problem::Internal {
            detail: error.to_string(),
        }
    }

    /// Input the user gave that cannot be used, with nothing more to say.
    pub fn invalid(field: Field) -> Problem {
        Problem::InvalidInput {
            field,
            detail: None,
        }
    }

    /// A thing that is not there.
    pub fn not_found(what: Thing, id: impl fmt::Display) -> Problem {
        Problem::NotFound {
            what,
            id: id.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::close::ProcessEnd;
    use crate::vocabulary::refusal::ModernReplacement;

    /// One of every kind, with every parameter set to a value that shows in the wording.
    pub fn samples() -> Vec<Problem> {
        let cause = Box::new(Problem::NotConnected {
            server: "srv-1".into(),
        });
        let mut all = vec![
            Problem::ServerNotFound { id: "srv-1".into() },
            Problem::NotConnected {
                server: "srv-1".into(),
            },
            Problem::StillConnecting {
                server: "srv-1".into(),
            },
            Problem::ConnectionFailed {
                server: "srv-1".into(),
                cause: cause.clone(),
            },
            Problem::StartFailed {
                server: "srv-1".into(),
                cause: StartCause::ProgramNotFound {
                    command: "npx".into(),
                },
            },
            Problem::ConnectionEnded {
                cause: CloseCause::Process {
                    end: ProcessEnd::Exited { code: 3 },
                    shutdown: None,
                },
            },
            Problem::RememberedEraFailed,
            Problem::request_failed("tools/call", -32601, "no such tool", None),
            Problem::TimedOut {
                method: "tools/call".into(),
                after_ms: 30_000,
            },
            Problem::Cancelled {
                method: "tools/call".into(),
            },
            Problem::ClosedBeforeAnswer {
                method: "tools/call".into(),
                cause: CloseCause::Process {
                    end: ProcessEnd::Exited { code: 3 },
                    shutdown: None,
                },
                stderr_tail: vec!["out of cheese".into()],
            },
            Problem::SessionExpired {
                method: "tools/call".into(),
            },
            Problem::Transport {
                method: "tools/call".into(),
                detail: "connection reset".into(),
                fault: Box::new(TransportFault::Other {
                    detail: "connection reset".into(),
                }),
            },
            Problem::ProtocolBroken {
                method: "tools/list".into(),
                breach: Breach::MissingMember {
                    member: "tools".into(),
                    expected: "array".into(),
                },
            },
            Problem::NotSent {
                method: "ping".into(),
                why: Box::new(NotSentWhy::RemovedInModern {
                    replaced_by: ModernReplacement::NoSession,
                }),
            },
            Problem::NoLongerWaiting {
                what: Waiting::ToolCall,
            },
            Problem::Unavailable {
                what: Facility::SecretStore,
                detail: Some("locked".into()),
            },
            Problem::InvalidInput {
                field: Field::Blob,
                detail: Some("bad padding".into()),
            },
            Problem::OutOfRange {
                field: Field::RequestTimeoutSeconds,
                low: 1,
                high: 3600,
            },
            Problem::LimitHit {
                what: Limit::OpenRecordings,
                limit: 8,
                asked: Some(9),
            },
            Problem::Io {
                path: "/tmp/a.json".into(),
                detail: "permission denied".into(),
            },
            Problem::NotSaved {
                what: Stored::Settings,
                cause: Box::new(Problem::Io {
                    path: "/tmp/a.json".into(),
                    detail: "disk full".into(),
                }),
            },
            Problem::RecordUnreadable {
                detail: "EOF".into(),
            },
            Problem::NotAnImage {
                content_type: "text/html".into(),
            },
            Problem::DialogClosed,
            Problem::UrlRefused {
                url: "ftp://x".into(),
                reason: UrlRefusal::NotHttps,
            },
            Problem::FetchFailed {
                url: "https://x/icon.png".into(),
                detail: "HTTP 500".into(),
            },
            Problem::ProgramFailed {
                program: "xdg-open".into(),
                detail: "not found".into(),
            },
            Problem::ModelFailed {
                error: ModelError::provider("invalid api key"),
            },
            Problem::SamplingMalformed {
                detail: "a text block without text".into(),
            },
            Problem::ToolsUnlisted {
                detail: "not connected".into(),
            },
            Problem::Busy,
            Problem::CheckRunning,
            Problem::CheckCancelled,
            Problem::LoadRunning,
            Problem::LoadNotPrepared,
            Problem::LoadRefused {
                detail: "the workload is empty".into(),
            },
            Problem::EvalRunning,
            Problem::EvalRefused {
                detail: "the suite has no cases".into(),
            },
            Problem::SkillRefused {
                uri: "skill://a/SKILL.md".into(),
                refusal: crate::vocabulary::skill_check::LoadRefusal::NotText,
            },
            Problem::SignIn {
                server: "srv-1".into(),
                what: SignIn::NotRemote,
            },
            Problem::TasksNotOffered {
                method: "tools/call".into(),
            },
            Problem::TaskEnded {
                status: "failed".into(),
                message: Some("out of cheese".into()),
            },
            Problem::NotImported {
                name: "fs".into(),
                imported: 2,
                cause: Box::new(Problem::Busy),
            },
            Problem::Internal {
                detail: "EOF".into(),
            },
            Problem::ChecksOff {
                detail: "no threads left".into(),
            },
            Problem::VersionNotSpoken {
                version: "1999-01-01".into(),
                speaks: vec!["2025-06-18".into()],
            },
            Problem::NoVersionInCommon {
                offered: vec!["1999-01-01".into()],
                using: "2026-07-28".into(),
            },
            Problem::VersionRetried {
                method: "server/discover".into(),
                refused: "2026-07-28".into(),
                version: "2026-09-01".into(),
            },
            Problem::SignInGaveUp {
                attempts: 3,
                status: 401,
            },
            Problem::SessionRenewed {
                method: "tools/list".into(),
            },
            Problem::Reissued {
                method: "tools/list".into(),
                detail: "the stream broke".into(),
                id: "7".into(),
            },
            Problem::ServerRequestRefused {
                method: "elicitation/create".into(),
                id: "4".into(),
                why: ServerRequestRefusal::UnknownMode {
                    mode: "telepathy".into(),
                },
            },
            Problem::InputNotGiven {
                key: "name".into(),
                method: "roots/list".into(),
                code: -32601,
                code_name: code_name(-32601),
            },
            Problem::ToolRefused {
                tool: "deploy".into(),
                why: HeaderAnnotationError::Duplicate {
                    name: "Region".into(),
                },
            },
            Problem::CatalogDamaged {
                path: "/tmp/catalog.json".into(),
                damage: CatalogDamage::Unreadable {
                    detail: "not valid JSON".into(),
                },
                copy: CopyKept::Copied {
                    path: "/tmp/catalog.json.bak-1".into(),
                },
            },
            Problem::FromCache {
                method: "tools/list".into(),
                left_s: 12,
            },
            Problem::AutoAnswerFailed {
                cause: cause.clone(),
            },
            Problem::NotRecorded { cause },
        ];
        all.extend(Thing::ALL.iter().map(|&what| Problem::NotFound {
            what,
            id: "x-1".into(),
        }));
        all
    }

    /// The parameters a sample's wording must show: every string and number it carries
    /// (enums are worded by their own Display, which the sentence includes).
    fn shown_parameters(problem: &Problem) -> Vec<String> {
        let Value::Object(fields) = serde_json::to_value(problem).unwrap() else {
            unreachable!()
        };
        fields
            .into_iter()
            .filter(|(k, _)| k != "kind" && k != "server" && k != "data")
            .filter_map(|(_, v)| match v {
                Value::String(s) => Some(s),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect()
    }

    /// The English of every word enum's value spelled `name` in JSON.
    fn enum_words(name: &str) -> Vec<String> {
        fn word<T: serde::de::DeserializeOwned + fmt::Display>(name: &str) -> Option<String> {
            serde_json::from_value::<T>(Value::String(name.into()))
                .ok()
                .map(|v| v.to_string())
        }
        [
            word::<Thing>(name),
            word::<Waiting>(name),
            word::<Facility>(name),
            word::<Field>(name),
            word::<Limit>(name),
            word::<Stored>(name),
            word::<UrlRefusal>(name),
            word::<SignIn>(name),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    #[test]
    fn every_kind_has_an_english_sentence_that_names_its_parameters() {
        for problem in samples() {
            let text = problem.to_string();
            assert!(!text.trim().is_empty(), "{problem:?}");
            for shown in shown_parameters(&problem) {
                let shown = match problem {
                    // Said in seconds.
                    Problem::TimedOut { .. } => "30".to_string(),
                    _ => shown,
                };
                // A value of one of the word enums is said in its own words.
                let words = enum_words(&shown);
                assert!(
                    text.contains(&shown) || words.iter().any(|w| text.contains(w.as_str())),
                    "{text:?} does not name {shown:?}"
                );
            }
        }
    }

    #[test]
    fn a_problem_travels_as_a_kind_beside_its_parameters() {
        let json = serde_json::to_value(Problem::ServerNotFound { id: "a".into() }).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "server_not_found", "id": "a"})
        );
        for problem in samples() {
            let back: Problem =
                serde_json::from_value(serde_json::to_value(&problem).unwrap()).unwrap();
            assert_eq!(back, problem);
        }
    }
}
