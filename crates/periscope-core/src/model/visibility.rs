//! Which of a server's tools a model may see: the apps engine decides (`apps::meta`, MCP Apps
//! `_meta.ui.visibility`); kept here as the model's name for it.

pub use crate::apps::meta::{Visibility, model_tools, visibility_of as of_tool};
