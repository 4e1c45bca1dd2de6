//! How a server's answer broke the protocol, typed: the member that is missing or of the wrong
//! type, the cursor that loops, so each host words it in its user's language. Text the server
//! sent (a cursor) stays as sent.

use serde::{Deserialize, Serialize};

/// What is wrong with an answer that has the shape of none the protocol allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Breach {
    /// The response has neither `result` nor a well-formed `error`.
    #[error("the response has neither a result nor a well-formed error")]
    NeitherResultNorError,
    /// The result lacks a member it must have, or has it of another type (`expected`:
    /// array, string, object).
    #[error("result has no \"{member}\" {expected}")]
    MissingMember { member: String, expected: String },
    /// An item of a list member is not of the type it must be.
    #[error("an item of \"{member}\" is not a {expected}")]
    WrongItem { member: String, expected: String },
    /// A member has a value the protocol does not allow there (`value`: its JSON as sent).
    #[error("\"{member}\" is {value}, which the protocol does not allow")]
    BadValue { member: String, value: String },
    /// A content item has neither `text` nor `blob`.
    #[error("the content item has neither text nor blob")]
    NoBody,
    /// A `blob` is not valid base64 (`detail`: the decoder's words).
    #[error("the blob is not valid base64: {detail}")]
    BadBase64 { detail: String },
    /// A body over Periscope's limit.
    #[error("the body is {bytes} bytes, over the {limit}-byte limit")]
    TooBig { bytes: u64, limit: u64 },
    /// `nextCursor` is not a string (`cursor`: its JSON as sent).
    #[error("nextCursor {cursor} is not a string")]
    CursorNotString { cursor: String },
    /// `nextCursor` names a page already read: paging would never end.
    #[error("nextCursor {cursor} repeats an earlier cursor")]
    CursorRepeats { cursor: String },
    /// Still more pages after `pages`: Periscope stopped asking.
    #[error("still paging after {pages} pages")]
    TooManyPages { pages: u64 },
    /// An answer that should be a task is not one (`missing`: the member it lacks).
    #[error("not a task: no {missing}")]
    NotATask { missing: String },
    /// A task ended `status` without a result.
    #[error("the task ended {status} without a result")]
    TaskWithoutResult { status: String },
    /// Anything else, in the words of the code that found it (`detail`).
    #[error("{detail}")]
    Other { detail: String },
}
