//! The documented exit codes.

use std::process::ExitCode;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    /// `diff`, `replay`: the two sessions differ (like diff(1)); `check`: a rule at or above
    /// `--fail-on` failed.
    Found = 1,
    /// Bad command line (clap also exits 2).
    Usage = 2,
    /// The server could not be started, or went away.
    Connect = 3,
    /// An error response, or an answer that breaks the protocol.
    Protocol = 4,
    /// The tool ran and returned `isError: true`.
    ToolError = 5,
    /// No answer in time.
    Timeout = 6,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}
