//! Typed views of what a server sends, in one place: a tool's and a task's here, the rest from
//! `vocabulary::views` (read from the JSON alone), and the items of a list read as their
//! views. Each keeps the JSON as sent beside it (`raw`) and names what was off.
//! A tool's view lives outside the vocabulary because it reads task support (`tasks`), the
//! app link (`apps`) and the header rules (`request_headers`), which use the vocabulary
//! themselves: inside it, the modules would import each other in a circle.

pub mod task;
pub mod tool;

pub use crate::vocabulary::views::content::{
    BlockKind, BodyKind, ContentBlock, ContentProblem, ContentsItem, PromptResultView,
    ReadResultView, ResourceContents, ToolResultView,
};
pub use crate::vocabulary::views::elicitation::ElicitationView;
pub use crate::vocabulary::views::icon::{IconSource, IconView};
pub use crate::vocabulary::views::prompt::{PromptArgumentView, PromptView};
pub use crate::vocabulary::views::read::OffSpec;
pub use crate::vocabulary::views::resource::{ResourceView, TemplateView};
pub use crate::vocabulary::views::sampling::SamplingView;
pub use crate::vocabulary::views::server::{
    CapabilitiesView, CapabilitySetting, CapabilityView, ServerInfoView,
};
pub use task::TaskView;
pub use tool::ToolView;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The items of one of a server's lists, each read as its view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", content = "items", rename_all = "snake_case")]
pub enum ListItems {
    Tools(Vec<ToolView>),
    Resources(Vec<ResourceView>),
    ResourceTemplates(Vec<TemplateView>),
    Prompts(Vec<PromptView>),
}

impl ListItems {
    /// `tools/list` items; the session's task flavour and the server's capabilities decide
    /// each tool's task support (`tasks::task_support`, the one place it is decided).
    pub fn tools(
        items: &[Value],
        server_capabilities: &Value,
        flavour: crate::tasks::TaskFlavour,
    ) -> ListItems {
        ListItems::Tools(
            items
                .iter()
                .map(|t| ToolView::read(t, server_capabilities, flavour))
                .collect(),
        )
    }

    pub fn resources(items: &[Value]) -> ListItems {
        ListItems::Resources(items.iter().map(ResourceView::read).collect())
    }

    pub fn resource_templates(items: &[Value]) -> ListItems {
        ListItems::ResourceTemplates(items.iter().map(TemplateView::read).collect())
    }

    pub fn prompts(items: &[Value]) -> ListItems {
        ListItems::Prompts(items.iter().map(PromptView::read).collect())
    }
}
