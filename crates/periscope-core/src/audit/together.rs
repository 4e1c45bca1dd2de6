//! The servers a host loads together: each one's findings and those between them (a tool that
//! shadows or imitates another server's, a description that names another server's tool), and
//! what their tools cost together in a model's context, which a host pays on every request.

use serde::{Deserialize, Serialize};

use super::FindingCounts;
use super::tokens::{self, TokenCount};
use super::{AuditReport, Surface, audit_all};

/// One server's part of the whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerPart {
    /// The server's name, as its findings name it.
    pub server: String,
    pub tools: u32,
    /// Its tools and instructions.
    pub tokens: TokenCount,
    /// Its findings, those between it and the others included.
    pub counts: FindingCounts,
}

/// The servers together, the dearest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TogetherReport {
    pub servers: Vec<ServerPart>,
    /// What a host that loads them all pays.
    pub total: TokenCount,
    /// The o200k count above which the total is worth a warning.
    pub budget: u32,
    pub over_budget: bool,
    /// Every finding of every server, and those between them; worst first.
    pub audit: AuditReport,
}

/// The audit of `surfaces` loaded together, against `budget` tokens (o200k).
pub fn together(surfaces: &[Surface], budget: u32) -> TogetherReport {
    let audit = audit_all(surfaces);
    let costs: Vec<_> = surfaces.iter().map(tokens::count).collect();
    let mut servers: Vec<ServerPart> = surfaces
        .iter()
        .zip(&costs)
        .map(|(surface, cost)| {
            let mut counts = FindingCounts::default();
            for f in audit.findings.iter().filter(|f| f.server == surface.server) {
                counts.add(f.severity);
            }
            ServerPart {
                server: surface.server.clone(),
                tools: surface.tools.len() as u32,
                tokens: cost.total,
                counts,
            }
        })
        .collect();
    servers.sort_by_key(|s| std::cmp::Reverse(s.tokens.o200k));
    let total = tokens::sum(&costs);
    TogetherReport {
        servers,
        total,
        budget,
        over_budget: total.o200k > budget,
        audit,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::audit::rules::AuditRule;
    use crate::tasks::TaskFlavour;
    use crate::views::tool::ToolView;

    fn server(name: &str, tools: &[(&str, &str)]) -> Surface {
        Surface {
            server: name.into(),
            tools: tools
                .iter()
                .map(|(n, d)| {
                    ToolView::read(
                        &json!({"name": n, "description": d, "inputSchema": {"type": "object"}}),
                        &json!({}),
                        TaskFlavour::Legacy,
                    )
                })
                .collect(),
            ..Surface::default()
        }
    }

    #[test]
    fn servers_add_up_and_what_lies_between_them_is_found() {
        let mail = server("mail", &[("send_email", "Sends an email.")]);
        let notes = server(
            "notes",
            &[
                ("send_email", "Sends a note by mail."),
                ("save", &format!("Saves a note. {}", "word ".repeat(300))),
            ],
        );
        let report = together(&[mail.clone(), notes.clone()], 100);
        let alone: u32 = [mail, notes]
            .iter()
            .map(|s| tokens::count(s).total.o200k)
            .sum();
        assert_eq!(report.total.o200k, alone);
        assert!(report.over_budget);
        assert!(!together(&[], 100).over_budget);
        // The dearest first, each with its own count.
        assert_eq!(report.servers[0].server, "notes");
        assert_eq!(report.servers[0].tools, 2);
        assert!(
            report
                .audit
                .findings
                .iter()
                .any(|f| f.rule == AuditRule::ShadowedName && f.server == "notes"),
            "{:?}",
            report.audit.findings
        );
        let counted: u32 = report
            .servers
            .iter()
            .map(|s| s.counts.error + s.counts.warning + s.counts.info)
            .sum();
        assert_eq!(counted as usize, report.audit.findings.len());
    }
}
