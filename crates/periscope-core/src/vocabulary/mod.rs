//! MCP's words, said once: every method of every revision Periscope speaks ([`Method`], with
//! its wire names as constants in [`method::names`]) and the named JSON-RPC and MCP error codes
//! ([`ErrorCode`]). The engine matches and builds messages with these, never with a string
//! or a number of its own; the hosts and the UI read the same types (exported with ts-rs).
//! Why something failed is said the same way: a [`Problem`] of a named kind, worded by each host.

pub mod breach;
pub mod catalog_damage;
pub mod close;
pub mod error_code;
pub mod method;
pub mod model_error;
pub mod problem;
pub mod refusal;
pub mod seconds;
pub mod skill_check;
pub mod start;
pub mod transport_fault;
pub mod views;

pub use error_code::ErrorCode;
pub use method::Method;
pub use problem::Problem;
