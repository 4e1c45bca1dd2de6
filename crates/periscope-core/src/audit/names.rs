//! Names a person cannot tell apart: a name mixing scripts (a Latin name with one Cyrillic
//! letter), two names Unicode's confusable table maps to one skeleton (Unicode TR39, through
//! the unicode-security crate), the same tool name on two servers, and a description that
//! names another server's tool.

use std::collections::HashMap;

use unicode_security::skeleton;

use super::Surface;
use super::fields::{Text, TextKind};
use super::finding::SubjectKind;
use super::rules::AuditRule;
use super::{Found, excerpt_of};
use crate::name_scripts::{self, Mixed, script_of};

/// A name mixing scripts the way spoofing does (Latin with Cyrillic or Greek, or three
/// scripts). Latin beside Chinese, Japanese or Korean, or one other script, is how people
/// write names, and not a finding.
pub(super) fn lint_name(text: &Text<'_>, found: &mut Vec<Found>) {
    let Some(Mixed { main, odd }) = name_scripts::mixed(text.text) else {
        return;
    };
    let Some(&(first, c, _)) = odd.first() else {
        return;
    };
    let listed: Vec<String> = odd
        .iter()
        .map(|(_, c, script)| format!("'{c}' (U+{:04X}, {})", *c as u32, script.full_name()))
        .collect();
    // What it passes for: each odd letter as the letter of the main script it imitates.
    let passes_for: String = text
        .text
        .chars()
        .map(|c| {
            let twin: String = skeleton(&c.to_string()).collect();
            match script_of(c) {
                Some(s) if s != main && twin.chars().count() == 1 => twin,
                _ => c.to_string(),
            }
        })
        .collect();
    let message = format!(
        "the {} \"{}\" is {} with {}: {}; it passes for \"{}\"",
        text.field_label(),
        excerpt_of(text.text),
        main.full_name(),
        if odd.len() == 1 {
            "one letter of another script"
        } else {
            "letters of other scripts"
        },
        listed.join(", "),
        excerpt_of(&passes_for)
    );
    found.push(Found::at(
        AuditRule::MixedScriptName,
        text,
        first..first + c.len_utf8(),
        message,
    ));
}

impl Text<'_> {
    /// "tool name", "parameter name"… for a message.
    fn field_label(&self) -> String {
        let what = match self.subject {
            SubjectKind::Tool if self.field == "name" => "tool name",
            SubjectKind::Tool => "parameter name",
            SubjectKind::Prompt if self.field == "name" => "prompt name",
            SubjectKind::Prompt => "argument name",
            _ => "name",
        };
        what.to_string()
    }
}

/// A name of one of the servers' tools or prompts.
struct Named<'a> {
    server: usize,
    subject: SubjectKind,
    name: &'a str,
}

fn named(surfaces: &[Surface]) -> Vec<Named<'_>> {
    let mut out = Vec::new();
    for (server, surface) in surfaces.iter().enumerate() {
        for name in surface.tools.iter().filter_map(|t| t.name.as_deref()) {
            out.push(Named {
                server,
                subject: SubjectKind::Tool,
                name,
            });
        }
        for name in surface.prompts.iter().filter_map(|p| p.name.as_deref()) {
            out.push(Named {
                server,
                subject: SubjectKind::Prompt,
                name,
            });
        }
    }
    out
}

/// Findings on server `index`'s names and texts against every server's names: look-alikes
/// (here or on another server), a tool name another server also has, and a description that
/// names another server's tool.
pub(super) fn lint_across(
    surfaces: &[Surface],
    index: usize,
    texts: &[Text<'_>],
    found: &mut Vec<Found>,
) {
    let all = named(surfaces);
    let mut by_skeleton: HashMap<(SubjectKind, String), Vec<&Named<'_>>> = HashMap::new();
    for n in &all {
        by_skeleton
            .entry((n.subject, skeleton(n.name).collect()))
            .or_default()
            .push(n);
    }
    for mine in all.iter().filter(|n| n.server == index) {
        let twins = &by_skeleton[&(mine.subject, skeleton(mine.name).collect::<String>())];
        for other in twins.iter().filter(|o| o.name != mine.name) {
            let elsewhere = other.server != index;
            // Of an ASCII name and its non-ASCII double, the double is the imitation.
            if !elsewhere && mine.name.is_ascii() && !other.name.is_ascii() {
                continue;
            }
            let whose = if elsewhere {
                format!("server \"{}\"'s", surfaces[other.server].server)
            } else {
                "this server's".to_string()
            };
            found.push(Found::whole(
                AuditRule::ConfusableName,
                mine.subject,
                mine.name,
                "name",
                format!(
                    "\"{}\" looks like {whose} \"{}\" (Unicode's confusable table maps both to one skeleton)",
                    excerpt_of(mine.name),
                    excerpt_of(other.name),
                ),
            ));
        }
        if mine.subject == SubjectKind::Tool
            && let Some(other) = all.iter().find(|o| {
                o.server != index && o.subject == SubjectKind::Tool && o.name == mine.name
            })
        {
            found.push(Found::whole(
                AuditRule::ShadowedName,
                SubjectKind::Tool,
                mine.name,
                "name",
                format!(
                    "server \"{}\" has a tool named \"{}\" too",
                    surfaces[other.server].server,
                    excerpt_of(mine.name)
                ),
            ));
        }
    }
    // Another server's distinctive tool names, mentioned in this server's prose.
    let own: Vec<&str> = all
        .iter()
        .filter(|n| n.server == index)
        .map(|n| n.name)
        .collect();
    let theirs: Vec<&Named<'_>> = all
        .iter()
        .filter(|n| {
            n.server != index
                && n.subject == SubjectKind::Tool
                && distinctive(n.name)
                && !own.contains(&n.name)
        })
        .collect();
    if theirs.is_empty() {
        return;
    }
    for text in texts.iter().filter(|t| t.kind == TextKind::Prose) {
        for other in &theirs {
            if let Some(at) = word_at(text.text, other.name) {
                found.push(Found::at(
                    AuditRule::OtherServerTool,
                    text,
                    at..at + other.name.len(),
                    format!(
                        "the {} names \"{}\", a tool of server \"{}\"",
                        text.field, other.name, surfaces[other.server].server
                    ),
                ));
            }
        }
    }
}

/// A name unlikely to be an ordinary word: long enough, with a separator or an inner
/// capital (`send_email`, `readFile`; not `search`).
fn distinctive(name: &str) -> bool {
    name.chars().count() >= 5
        && (name.contains(['_', '-', '.']) || name.chars().skip(1).any(|c| c.is_uppercase()))
}

/// Where `word` occurs in `text` with no letter, digit or `_` on either side.
fn word_at(text: &str, word: &str) -> Option<usize> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}
