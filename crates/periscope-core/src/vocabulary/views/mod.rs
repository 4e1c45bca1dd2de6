//! Typed views of what a server sends, read from its JSON alone: prompts, resources and
//! templates, icons, content blocks of every kind and the results made of them, elicitation
//! and sampling requests. Each is read leniently and keeps the JSON as sent beside it (`raw`):
//! a member that is missing or of the wrong type is left empty and named in the view's
//! `problems`, never repaired, and the item is never dropped. The views that also need the
//! engine's rules (a tool's, a task's) are in `crate::views`, which re-exports these.

pub mod content;
pub mod elicitation;
pub mod icon;
pub mod prompt;
pub mod read;
pub mod resource;
pub mod sampling;
pub mod server;
#[cfg(test)]
mod ui_fixtures;
