//! The audit of every connected server together (the engine's `audit::together`): what a host
//! that loads them all hands its model, the findings between them, and what their tools cost
//! together. Each server's lists are read anew, the same way `periscope audit` reads them.

use futures_util::future::join_all;
use periscope_core::audit::collect;
use periscope_core::audit::together::{self, TogetherReport};
use periscope_core::audit::tokens::DEFAULT_BUDGET;
use periscope_core::vocabulary::Problem;
use serde::Serialize;
use tauri::State;

use crate::AppState;

/// The audit of the connected servers, and which server is which.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ConnectedAudit {
    pub report: TogetherReport,
    /// Each audited server: its catalog id and the name the report gives it (the catalog's
    /// name, made unique), in the catalog's order.
    pub servers: Vec<AuditedServer>,
    /// A list a server could not give, with why (the audit went on with the rest).
    pub unread: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AuditedServer {
    pub server_id: String,
    pub name: String,
}

/// Audits every ready connection together (none: an empty report).
#[tauri::command]
pub async fn audit_connected(state: State<'_, AppState>) -> Result<ConnectedAudit, Problem> {
    let mut ready = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for entry in state.catalog() {
        let Ok(session) = state.session(&entry.id) else {
            continue;
        };
        // Two entries of one name would make the report's names ambiguous.
        let mut name = entry.name.clone();
        if names.contains(&name) {
            name = format!("{name} ({})", entry.id);
        }
        names.push(name.clone());
        ready.push((
            AuditedServer {
                server_id: entry.id.clone(),
                name,
            },
            session,
        ));
    }
    let read = join_all(ready.iter().map(|(server, session)| async move {
        let (mut surface, unread) = collect::surface(session, &server.name).await;
        surface.server = server.name.clone();
        let unread: Vec<String> = unread
            .into_iter()
            .map(|line| format!("{}: {line}", server.name))
            .collect();
        (surface, unread)
    }))
    .await;
    let (surfaces, unread): (Vec<_>, Vec<_>) = read.into_iter().unzip();
    // Counting tokens of thousands of tools takes seconds: not on an async worker.
    let report = super::off_main("the audit", move || {
        Ok(together::together(&surfaces, DEFAULT_BUDGET))
    })
    .await?;
    Ok(ConnectedAudit {
        report,
        servers: ready.into_iter().map(|(server, _)| server).collect(),
        unread: unread.into_iter().flatten().collect(),
    })
}
