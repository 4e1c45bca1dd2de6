//! A connected server's surface for the audit: every list its capabilities declare, paged to
//! the end, read as the views the rest of Periscope shows, and its instructions.

use super::Surface;
use crate::session::Session;
use crate::tasks::TaskFlavour;
use crate::views::tool::ToolView;
use crate::vocabulary::views::prompt::PromptView;
use crate::vocabulary::views::resource::{ResourceView, TemplateView};

/// The surface of `session`'s server, and a line for each list that could not be read (the
/// audit goes on with the others).
pub async fn surface(session: &Session, fallback_name: &str) -> (Surface, Vec<String>) {
    let identity = session.identity();
    let mut surface = Surface {
        server: fallback_name.to_string(),
        ..Surface::default()
    };
    let mut unread = Vec::new();
    let Some(identity) = identity else {
        return (surface, unread);
    };
    if let Some(name) = identity.info.name.clone() {
        surface.server = name;
    }
    surface.instructions = identity.instructions.clone();
    let offers = &identity.offers;
    let capabilities = &identity.capabilities;
    let flavour = TaskFlavour::of(identity.era);
    if offers.tools || offers.unknown {
        match session.list_tools().await {
            Ok(items) => {
                surface.tools = items
                    .iter()
                    .map(|t| ToolView::read(t, capabilities, flavour))
                    .collect();
            }
            Err(e) => unread.push(format!("tools/list: {e}")),
        }
    }
    if offers.prompts || offers.unknown {
        match session.list_prompts().await {
            Ok(items) => surface.prompts = items.iter().map(PromptView::read).collect(),
            Err(e) => unread.push(format!("prompts/list: {e}")),
        }
    }
    if offers.resources || offers.unknown {
        match session.list_resources().await {
            Ok(items) => surface.resources = items.iter().map(ResourceView::read).collect(),
            Err(e) => unread.push(format!("resources/list: {e}")),
        }
        match session.list_resource_templates().await {
            Ok(items) => surface.templates = items.iter().map(TemplateView::read).collect(),
            Err(e) => unread.push(format!("resources/templates/list: {e}")),
        }
    }
    (surface, unread)
}
