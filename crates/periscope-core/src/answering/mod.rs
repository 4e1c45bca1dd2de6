//! Answering the server's requests with a human in the loop: the asks waiting for the user and
//! their answers, the check on a requested elicitation form, the analysis of an elicitation URL,
//! the pages a -32042 error asks the user to visit,
//! and what a host answers on its own per server (roots, a sampling rule). The engine's side
//! (dispatch, turning an answer into a response) is in `session::handler`; this module does not
//! depend on the session, so the session may use it.

pub mod ask;
pub mod form_schema;
pub mod settings;
pub mod url_analysis;
pub mod url_required;

pub use ask::{Answer, Ask, ElicitAction, McpAppLabel, PendingAsk, UrlDecision};
pub use settings::{HostSettings, Root, SamplingRule, file_uri, roots_result};
pub use url_analysis::{
    NotForBrowser, UrlAnalysis, UrlWarning, UrlWarningKind, analyze_url, browser_url,
};
pub use url_required::{UrlRequired, urls_required};
