//! Evals: does a model use the server's tools right? A suite's cases (user turns with
//! expected tool calls, arguments and answers) run across models, K repetitions each, through
//! the playground's agent loop; each repetition graded, each case's pass rate given with its
//! 95 % interval, tokens and latency; tool wordings tried as variants without changing the
//! server; runs compared and gated for CI. See docs/evals.md.
//!
//! - [`suite`]: the suite file (YAML) and its checks; [`matching`]: argument matchers.
//! - [`run`]: running it; [`tools`]: the surface, variants and approvals; [`trace`]: what a
//!   repetition did; [`grade`]: its expectations judged; [`judge`]: the advisory model judge.
//! - [`report`], [`stats`]: the figures; [`compare`]: two runs, and the gates;
//!   [`format`]: JUnit; [`starter`]: a first suite made from a server's tools.

pub mod compare;
pub mod format;
pub mod grade;
pub mod judge;
pub mod matching;
pub mod report;
pub mod run;
pub mod starter;
pub mod stats;
pub mod suite;
pub mod tools;
pub mod trace;
