//! Typed views of what a server sends: tools, prompts, resources and templates, content blocks,
//! elicitation and sampling requests, tasks. Each is read leniently from the JSON as sent and
//! keeps that JSON beside it (`raw`): a member that is missing or of the wrong type is left
//! empty and named in the view's `problems`, never repaired, and the item is never dropped.
//! The engine and the hosts read these, and the UI renders them instead of parsing MCP JSON.
//! Beside `vocabulary/` (MCP's words), not in it: a tool's view reads its task support
//! (`tasks`), app link (`apps`) and header rules (`request_headers`), which name methods
//! from the vocabulary themselves.

pub mod content;
pub mod elicitation;
pub mod prompt;
mod read;
pub mod resource;
pub mod sampling;
pub mod task;
pub mod tool;

pub use content::{
    BlockKind, ContentBlock, ContentProblem, PromptResultView, ResourceContents, ToolResultView,
};
pub use elicitation::ElicitationView;
pub use prompt::{PromptArgumentView, PromptView};
pub use read::Problem;
pub use resource::{ResourceView, TemplateView};
pub use sampling::SamplingView;
pub use task::TaskView;
pub use tool::{IconView, ToolView};
