//! The JSON-RPC and MCP error codes Periscope reads and sends, by name. A code no spec names
//! is [`ErrorCode::Other`], kept as sent.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident => $konst:ident = $code:literal, $name:literal; )*) => {
        /// An error's `code`: one a spec names, or [`ErrorCode::Other`]. In JSON (and
        /// TypeScript) it is its number.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "number"))]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
            /// A code no spec names (a server's own, in its range or not).
            Other(i64),
        }

        /// The codes as numbers: usable in a `match` on an `i64`.
        pub mod codes {
            $( $(#[$doc])* pub const $konst: i64 = $code; )*
        }

        impl ErrorCode {
            /// Every code a spec names.
            pub const KNOWN: &'static [ErrorCode] = &[$( ErrorCode::$variant, )*];

            /// The number on the wire.
            pub fn code(self) -> i64 {
                match self {
                    $( ErrorCode::$variant => $code, )*
                    ErrorCode::Other(code) => code,
                }
            }

            /// The code a number is.
            pub fn of(code: i64) -> ErrorCode {
                match code {
                    $( $code => ErrorCode::$variant, )*
                    other => ErrorCode::Other(other),
                }
            }

            /// The name the specs give it, for messages; None for [`ErrorCode::Other`].
            pub fn name(self) -> Option<&'static str> {
                match self {
                    $( ErrorCode::$variant => Some($name), )*
                    ErrorCode::Other(_) => None,
                }
            }
        }
    };
}

codes! {
    /// The bytes were not JSON.
    ParseError => PARSE_ERROR = -32700, "ParseError";
    /// JSON, but not a valid request object.
    InvalidRequest => INVALID_REQUEST = -32600, "InvalidRequest";
    MethodNotFound => METHOD_NOT_FOUND = -32601, "MethodNotFound";
    /// The request's params are not acceptable (e.g. an elicitation the spec says to refuse;
    /// 2026-07-28 also for a resource that does not exist).
    InvalidParams => INVALID_PARAMS = -32602, "InvalidParams";
    InternalError => INTERNAL_ERROR = -32603, "InternalError";
    /// The start of JSON-RPC's range for implementation-defined server errors (MCP Apps' hosts
    /// use it for a refusal).
    ServerError => SERVER_ERROR = -32000, "ServerError";
    /// MCP: the request needs the user to complete URL elicitations first; `data` names them.
    UrlElicitationRequired => URL_ELICITATION_REQUIRED = -32042, "URLElicitationRequired";
    /// MCP: the user rejected the request (e.g. a sampling request).
    UserRejected => USER_REJECTED = -1, "UserRejected";
    /// MCP 2026-07-28: the HTTP headers do not match the body, or a required one is missing.
    HeaderMismatch => HEADER_MISMATCH = -32020, "HeaderMismatch";
    /// MCP 2026-07-28: the request needs a client capability it did not declare in `_meta`.
    MissingClientCapability => MISSING_CLIENT_CAPABILITY = -32021, "MissingRequiredClientCapability";
    /// MCP 2026-07-28: the server does not speak the request's protocol version;
    /// `data.supported` lists the ones it does.
    UnsupportedProtocolVersion => UNSUPPORTED_PROTOCOL_VERSION = -32022, "UnsupportedProtocolVersion";
}

impl From<i64> for ErrorCode {
    fn from(code: i64) -> Self {
        ErrorCode::of(code)
    }
}

impl fmt::Display for ErrorCode {
    /// `-32601 (MethodNotFound)`, or the bare number of a code no spec names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{} ({name})", self.code()),
            None => write!(f, "{}", self.code()),
        }
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(self.code())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(ErrorCode::of(i64::deserialize(deserializer)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_code_reads_back_as_itself() {
        for code in ErrorCode::KNOWN {
            assert_eq!(ErrorCode::of(code.code()), *code);
            assert!(code.name().is_some());
        }
    }

    #[test]
    fn a_code_no_spec_names_is_kept_as_sent() {
        assert_eq!(ErrorCode::of(-31999), ErrorCode::Other(-31999));
        assert_eq!(ErrorCode::of(-31999).to_string(), "-31999");
        assert_eq!(
            ErrorCode::MethodNotFound.to_string(),
            "-32601 (MethodNotFound)"
        );
    }

    #[test]
    fn a_code_crosses_json_as_its_number() {
        assert_eq!(
            serde_json::to_string(&ErrorCode::UrlElicitationRequired).unwrap(),
            "-32042"
        );
        let back: ErrorCode = serde_json::from_str("-32602").unwrap();
        assert_eq!(back, ErrorCode::InvalidParams);
        assert_eq!(codes::HEADER_MISMATCH, ErrorCode::HeaderMismatch.code());
    }
}
