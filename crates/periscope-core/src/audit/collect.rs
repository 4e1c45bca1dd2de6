//! A connected server's surface for the audit: every list its capabilities declare, paged to
//! the end, read as the views the rest of Periscope shows, and its instructions.

use serde_json::Value;

use super::Surface;
use crate::session::{ServerIdentity, Session};
use crate::tasks::TaskFlavour;
use crate::views::tool::ToolView;
use crate::vocabulary::method::names;
use crate::vocabulary::views::prompt::PromptView;
use crate::vocabulary::views::resource::{ResourceView, TemplateView};

/// The surface of `session`'s server, and a line for each list that could not be read (the
/// audit goes on with the others).
pub async fn surface(session: &Session, fallback_name: &str) -> (Surface, Vec<String>) {
    let mut unread = Vec::new();
    let Some(identity) = session.identity() else {
        let surface = Surface {
            server: fallback_name.to_string(),
            ..Surface::default()
        };
        return (surface, unread);
    };
    let offers = &identity.offers;
    let tools = if offers.tools || offers.unknown {
        read(session.list_tools().await, names::TOOLS_LIST, &mut unread)
    } else {
        Vec::new()
    };
    let prompts = if offers.prompts || offers.unknown {
        read(
            session.list_prompts().await,
            names::PROMPTS_LIST,
            &mut unread,
        )
    } else {
        Vec::new()
    };
    let (resources, templates) = if offers.resources || offers.unknown {
        (
            read(
                session.list_resources().await,
                names::RESOURCES_LIST,
                &mut unread,
            ),
            read(
                session.list_resource_templates().await,
                names::RESOURCE_TEMPLATES_LIST,
                &mut unread,
            ),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let surface = from_items(
        fallback_name,
        &identity,
        &tools,
        &prompts,
        &resources,
        &templates,
    );
    (surface, unread)
}

/// A list's items, or none and a line in `unread` saying why.
fn read(
    got: Result<Vec<Value>, crate::session::RequestError>,
    method: &str,
    unread: &mut Vec<String>,
) -> Vec<Value> {
    got.unwrap_or_else(|e| {
        unread.push(format!("{method}: {e}"));
        Vec::new()
    })
}

/// The surface of a server from its lists' raw items, read as Periscope's views, with its
/// instructions (`periscope check` audits the lists it paged through itself).
pub fn from_items(
    fallback_name: &str,
    identity: &ServerIdentity,
    tools: &[Value],
    prompts: &[Value],
    resources: &[Value],
    templates: &[Value],
) -> Surface {
    let flavour = TaskFlavour::of(identity.era);
    Surface {
        server: identity
            .info
            .name
            .clone()
            .unwrap_or_else(|| fallback_name.to_string()),
        instructions: identity.instructions.clone(),
        tools: tools
            .iter()
            .map(|t| ToolView::read(t, &identity.capabilities, flavour))
            .collect(),
        prompts: prompts.iter().map(PromptView::read).collect(),
        resources: resources.iter().map(ResourceView::read).collect(),
        templates: templates.iter().map(TemplateView::read).collect(),
    }
}
