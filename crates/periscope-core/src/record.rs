//! The entries of a session's record besides frames: stderr lines, HTTP exchanges, flags on
//! frames and the user's decisions, and the line format of a record file (docs/engine.md).
//!
//! [`Traffic`](crate::traffic::Traffic) is the store that appends them; these are only the
//! shapes, so that events and views can name them without depending on the store.

use serde::{Deserialize, Serialize};

use crate::wire::{Frame, RequestId};

/// One line the server wrote to stderr (lossily decoded: stderr is free-form logging).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct StderrLine {
    pub seq: u64,
    pub wall_us: u64,
    pub mono_us: u64,
    pub text: String,
}

/// One HTTP request/response under the JSON-RPC (HTTP transports only). Secret headers are
/// redacted before they are recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HttpExchange {
    pub seq: u64,
    pub wall_us: u64,
    pub mono_us: u64,
    pub method: String,
    pub url: String,
    /// `None` when no response arrived (connection refused, reset, timeout).
    pub status: Option<u16>,
    pub error: Option<String>,
    pub request_headers: Vec<(String, String)>,
    pub response_headers: Vec<(String, String)>,
    /// Time from sending the request to the response headers.
    pub duration_us: u64,
    /// The frame the request carried, if any (frames it brought back name this exchange).
    pub sent_frame: Option<u64>,
}

/// Something the session noticed about a frame after recording it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Flag {
    /// A response whose id matches no request we sent.
    UnknownResponseId { id: Option<RequestId> },
    /// A second response to a request that already had one.
    DuplicateResponse { id: RequestId },
    /// A response to a request we had given up on.
    LateResponse { id: RequestId, gave_up: GaveUp },
    /// Bigger than the frame size limit; only the first `limit` bytes were kept.
    Oversized { limit: u64 },
    /// The server answered `initialize` with a protocol version Periscope does not speak.
    UnsupportedProtocolVersion { version: String },
    /// The server sent a request for a capability the client did not declare.
    UndeclaredCapability { method: String },
    /// Bytes the user typed and sent as they were, which are not valid JSON-RPC.
    InvalidUserFrame,
    /// The server forgot the HTTP session (404): Periscope started a new one here. Names the
    /// exchange that got the 404.
    SessionExpired,
    /// An HTTP body that came with a content type the transport does not allow.
    UnexpectedContentType { content_type: String },
    /// An outgoing frame the server did not take in time: `unsent_bytes` of it were still
    /// unwritten when the request gave up (all of them: it never left).
    SendStalled { unsent_bytes: u64, total_bytes: u64 },
    /// A request from the server refused because `limit` of its requests were already being
    /// answered.
    TooManyServerRequests { limit: u64 },
    /// A frame that arrived incomplete: what came is kept, and this says why the rest did not.
    Incomplete { cut: Cut },
    /// A URL (or metadata document) the server pointed Periscope at was refused, nothing was
    /// fetched or sent there (`net_guard`). Names the exchange that led to it.
    UrlRefused {
        refused: crate::net_guard::RefusedUrl,
    },
    /// A notification tagged with a subscription id (`_meta`
    /// `io.modelcontextprotocol/subscriptionId`, as JSON text) that names no listen request
    /// Periscope sent.
    UnknownSubscriptionId { id: String },
    /// 2026-07-28 over HTTP: this request's response stream ended before its response (streams
    /// are not resumed in this era). `reissued_as`: the id of the new request Periscope sent in
    /// its place; none when it did not (the call's error says why).
    StreamBroke { reissued_as: Option<RequestId> },
    /// The frame breaks the official JSON Schema of `revision` (`protocol_check`): each
    /// violation with its JSON path and the schema rule.
    SchemaViolation {
        revision: String,
        violations: Vec<Violation>,
    },
    /// A request whose id a request from the same side still waits on (frame `first_seq`):
    /// the spec forbids reusing an id, and the responses cannot be told apart.
    ReusedRequestId { id: RequestId, first_seq: u64 },
    /// The protocol checks were behind: the `frames` frames before this one are recorded but
    /// were not checked.
    NotChecked { frames: u64 },
    /// An app frame (host ↔ MCP App view) that breaks the apps protocol: what the bridge
    /// found wrong (`apps::bridge`), e.g. not JSON-RPC, an unknown method, bad params.
    AppProblem { problem: String },
    /// A skill file (or a `SKILL.md`'s frontmatter) that fails its skill's manifest
    /// (`crate::skills`): its content was withheld, and `refusal` says what did not match.
    SkillRefused {
        uri: String,
        refusal: crate::vocabulary::skill_check::LoadRefusal,
    },
}

impl From<crate::net_guard::RefusedUrl> for Flag {
    fn from(refused: crate::net_guard::RefusedUrl) -> Flag {
        Flag::UrlRefused { refused }
    }
}

/// One way a frame breaks its revision's schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Violation {
    /// JSON pointer into the frame ("" is the whole message, "/result/tools/0" a nested value;
    /// in a batch, the item's index comes first).
    pub path: String,
    /// The schema keyword that failed ("required", "type", "anyOf"…).
    pub rule: String,
    /// Where that keyword is in the revision's schema.
    pub schema_path: String,
    pub message: String,
}

/// Why an inbound frame is incomplete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// The stream or body ended in the middle of it.
    StreamEnded,
    /// It arrived slower than the time limit for one event or body (slowloris, slow drip).
    TooSlow,
}

/// Why we stopped waiting for a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum GaveUp {
    TimedOut,
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FlagRecord {
    /// The flagged frame.
    pub seq: u64,
    pub flag: Flag,
}

/// How a step of a sign-in went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum StepOutcome {
    Ok,
    /// Went on, but the user should know (an odd server, a fallback).
    Warning,
    Failed,
}

impl RecordLine {
    /// The line a frame is written as: an app frame's own type, else `frame`.
    pub fn of_frame(frame: Frame) -> RecordLine {
        if frame.direction.is_app() {
            RecordLine::AppFrame(frame)
        } else {
            RecordLine::Frame(frame)
        }
    }
}

/// One step of a sign-in, for the OAuth view and the record (`{"type":"auth_step", …}`).
/// Never holds a token, secret or code; URLs in it are redacted ([`AuthStep::redacted`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AuthStep {
    pub wall_us: u64,
    /// What was done, e.g. "Protected resource metadata".
    pub title: String,
    /// What was decided and why, in plain words.
    pub detail: String,
    /// The HTTP exchange behind it: "GET https://…/.well-known/… → 200".
    pub http: Option<String>,
    pub outcome: StepOutcome,
}

impl AuthStep {
    /// The step as a record keeps it: secrets in the URLs of its words redacted (a step names
    /// the URLs it fetched, and an authorization or redirect URL carries a `code` or `state`).
    pub fn redacted(&self) -> AuthStep {
        AuthStep {
            title: crate::redact::urls_in_text(&self.title),
            detail: crate::redact::urls_in_text(&self.detail),
            http: self.http.as_deref().map(crate::redact::urls_in_text),
            ..self.clone()
        }
    }
}

/// The version of the record file format, `MAJOR.MINOR` (docs/recording-format.md). A newer
/// minor only adds line types or fields, so a reader skips what it does not know in such a
/// file; a newer major changed the meaning of something, and a reader refuses the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FormatVersion {
    pub major: u32,
    pub minor: u32,
}

impl FormatVersion {
    /// What this build writes: 1.1 added the version itself and `auth_step` lines; 1.2
    /// `app_frame` lines (MCP Apps).
    pub const CURRENT: FormatVersion = FormatVersion { major: 1, minor: 2 };
    /// Files written before the version was (a session line without `format_version`).
    pub const UNVERSIONED: FormatVersion = FormatVersion { major: 1, minor: 0 };

    /// Whether this build reads files of `self` (same major, any minor).
    pub fn readable(self) -> bool {
        self.major == Self::CURRENT.major
    }

    /// Whether a file of `self` may hold line types this build does not know (a newer minor).
    pub fn newer_than_this_build(self) -> bool {
        self > Self::CURRENT
    }
}

impl std::fmt::Display for FormatVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl std::str::FromStr for FormatVersion {
    type Err = String;
    fn from_str(text: &str) -> Result<FormatVersion, String> {
        let (major, minor) = text
            .split_once('.')
            .ok_or_else(|| format!("{text:?} is not MAJOR.MINOR"))?;
        let number = |part: &str| {
            part.parse::<u32>()
                .map_err(|_| format!("{text:?} is not MAJOR.MINOR"))
        };
        Ok(FormatVersion {
            major: number(major)?,
            minor: number(minor)?,
        })
    }
}

impl Serialize for FormatVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for FormatVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One line of a record file.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RecordLine {
    /// First line: what was recorded. Environment values are never written, only their names.
    Session {
        /// Absent in files written before the format was versioned (1.0).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        format_version: Option<FormatVersion>,
        periscope_version: String,
        started_wall_us: u64,
        target: serde_json::Value,
    },
    Frame(Frame),
    /// A message between Periscope and an MCP App view (format 1.2): a frame whose direction
    /// is `from_app` or `to_app` and which names its view (`app_view`). Its own line type, so
    /// a 1.1 reader skips it rather than misreading a direction it does not know.
    AppFrame(Frame),
    Stderr(StderrLine),
    Flag(FlagRecord),
    Http(HttpExchange),
    Decision(Decision),
    /// A request that is a later round of a multi round-trip call.
    Round(RoundRecord),
    /// A step of a sign-in (OAuth), redacted; never a token, code or secret.
    AuthStep(AuthStep),
}

/// Modern era: a request the server answered `input_required` goes again with a new id (with
/// `inputResponses` and `requestState`); each sending is one round of one logical call. The
/// frames alone do not say which requests belong together, so the record does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CallRound {
    /// The call's first request frame (round 1).
    pub first_seq: u64,
    /// Which sending this is: 1 is the first request, 2 the first one sent again.
    pub round: u32,
    /// The response frame (`input_required`) whose inputs this round answers.
    pub asked_by: u64,
}

/// One round of a multi round-trip call, as a frame's detail lists it: its request frame and the
/// response frame, once it came.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RoundFrames {
    /// 1 is the first request.
    pub round: u32,
    pub request_seq: u64,
    pub response_seq: Option<u64>,
}

/// A record line: request frame `seq` is round `call.round` of the call `call.first_seq` began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub seq: u64,
    #[serde(flatten)]
    pub call: CallRound,
}

/// What the user decided about a server's request (consent, answers, refusals): kept in the
/// record next to the frames, because the frames alone do not say whether a URL was opened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Decision {
    pub wall_us: u64,
    /// The JSON-RPC id of the server's request; None for a URL named in an error (-32042).
    pub request_id: Option<RequestId>,
    /// The server's request method, or "URLElicitationRequiredError" for a -32042 error's URL.
    pub method: String,
    /// What was decided (the words in record files: "accept", "open_failed", …).
    pub decision: DecisionKind,
    /// What the decision was about, e.g. the URL, or the rule that answered. Never content the
    /// user typed into a form (that is in the answer frame).
    pub detail: Option<String>,
    /// For URL elicitations: the id `notifications/elicitation/complete` will name.
    pub elicitation_id: Option<String>,
}

/// What was decided, as the record names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// A form elicitation accepted (with content).
    Accept,
    Decline,
    Cancel,
    /// A URL accepted and opened in the system browser.
    Open,
    /// A URL accepted; the user opens it (they copied it).
    AcceptWithoutOpening,
    /// A URL accepted, but the system browser could not be started.
    OpenFailed,
    /// A sampling request answered by the user.
    Reply,
    /// A sampling request rejected by the user.
    Reject,
    /// A sampling request answered by the host's reply rule, without asking.
    AutoReply,
    /// The user let the sign-in open the browser.
    SignIn,
    /// The user cancelled the sign-in.
    CancelSignIn,
    /// A sampling request answered with a configured model's draft, approved by the user.
    ModelReply,
    /// A sampling request answered by a configured model without asking (the server's
    /// "approve automatically" rule).
    AutoModelReply,
    /// A tool call a model asked for in the playground, approved by the user (once, for the
    /// rest of the conversation, or earlier with "always").
    ToolApproved,
    /// A tool call a model asked for in the playground, rejected by the user (not sent).
    ToolRejected,
    /// An MCP App's `ui/open-link` the user let open (or accepted without opening).
    AppLinkOpened,
    /// An MCP App's `ui/open-link` the user declined (the app got error -32000).
    AppLinkDeclined,
    /// An MCP App's `ui/message` the user accepted.
    AppMessageAccepted,
    /// An MCP App's `ui/message` the user declined.
    AppMessageDeclined,
    /// Periscope's own choice, not the user's: auto's `server/discover` said the server is
    /// legacy, so the session fell back to `initialize` (`detail`: what the probe got).
    EraFallback,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_version_reads_and_writes_as_major_dot_minor() {
        let v: FormatVersion = serde_json::from_str("\"1.2\"").unwrap();
        assert_eq!(v, FormatVersion::CURRENT);
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"1.2\"");
        assert!(serde_json::from_str::<FormatVersion>("\"1\"").is_err());
        assert!(serde_json::from_str::<FormatVersion>("\"x.1\"").is_err());
        let two = FormatVersion { major: 2, minor: 0 };
        assert!(!two.readable());
        assert!(two.newer_than_this_build());
        assert!(FormatVersion::UNVERSIONED.readable());
        assert!(!FormatVersion::UNVERSIONED.newer_than_this_build());
        let newer_minor = FormatVersion { major: 1, minor: 7 };
        assert!(newer_minor.readable() && newer_minor.newer_than_this_build());
    }

    #[test]
    fn a_session_line_without_a_version_is_the_unversioned_format() {
        let line =
            r#"{"type":"session","periscope_version":"0.1.0","started_wall_us":1,"target":{}}"#;
        let RecordLine::Session { format_version, .. } = serde_json::from_str(line).unwrap() else {
            panic!("not a session line")
        };
        assert_eq!(format_version, None);
    }

    #[test]
    fn an_auth_step_loses_codes_and_tokens_in_its_urls() {
        let step = AuthStep {
            wall_us: 1,
            title: "Authorization".into(),
            detail: "redirected to http://127.0.0.1:4000/callback?code=SECRETCODE&state=s1 \
                     with https://as.example/token?access_token=TOKEN123"
                .into(),
            http: Some("GET https://as.example/authorize?client_secret=CS&scope=a → 302".into()),
            outcome: StepOutcome::Ok,
        };
        let line = serde_json::to_string(&RecordLine::AuthStep(step.redacted())).unwrap();
        for secret in ["SECRETCODE", "TOKEN123", "client_secret=CS"] {
            assert!(!line.contains(secret), "{secret} in {line}");
        }
        assert!(
            line.starts_with(r#"{"type":"auth_step","wall_us":1,"#),
            "{line}"
        );
        assert!(line.contains("scope=a"), "{line}");
    }

    #[test]
    fn decision_kinds_keep_the_words_record_files_already_hold() {
        let words: Vec<String> = [
            DecisionKind::Accept,
            DecisionKind::Decline,
            DecisionKind::Cancel,
            DecisionKind::Open,
            DecisionKind::AcceptWithoutOpening,
            DecisionKind::OpenFailed,
            DecisionKind::Reply,
            DecisionKind::Reject,
            DecisionKind::AutoReply,
            DecisionKind::SignIn,
            DecisionKind::CancelSignIn,
            DecisionKind::AppLinkOpened,
            DecisionKind::AppLinkDeclined,
            DecisionKind::AppMessageAccepted,
            DecisionKind::AppMessageDeclined,
            DecisionKind::EraFallback,
        ]
        .iter()
        .map(|k| {
            serde_json::to_value(k)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
        assert_eq!(
            words,
            [
                "accept",
                "decline",
                "cancel",
                "open",
                "accept_without_opening",
                "open_failed",
                "reply",
                "reject",
                "auto_reply",
                "sign_in",
                "cancel_sign_in",
                "app_link_opened",
                "app_link_declined",
                "app_message_accepted",
                "app_message_declined",
                "era_fallback"
            ]
        );
    }

    #[test]
    fn a_decision_line_reads_back_as_it_was_written() {
        let line = r#"{"type":"decision","wall_us":5,"request_id":"s1","method":"elicitation/create","decision":"accept_without_opening","detail":"https://example.com/","elicitation_id":"e1"}"#;
        let RecordLine::Decision(decision) = serde_json::from_str(line).unwrap() else {
            panic!("not a decision line")
        };
        assert_eq!(decision.decision, DecisionKind::AcceptWithoutOpening);
        assert_eq!(
            serde_json::to_string(&RecordLine::Decision(decision)).unwrap(),
            line
        );
    }
}
