//! Hidden and invisible characters in a server's texts (hidden_text.rs finds them), and runs
//! of variation selectors, which hidden_text.rs leaves alone because one of them after an
//! emoji is ordinary text.

use super::Found;
use super::fields::{Text, TextKind};
use super::rules::AuditRule;
use crate::hidden_text::{self, HiddenKind};

/// Variation selectors in a row from which a run is a finding: an emoji takes one.
const SELECTOR_RUN: usize = 2;

pub(super) fn lint(text: &Text<'_>, found: &mut Vec<Found>) {
    for run in hidden_text::find(text.text) {
        // A Windows line end is a line end.
        if run.kind == HiddenKind::Control
            && text.text[run.start..run.end] == *"\r"
            && text.text[run.end..].starts_with('\n')
        {
            continue;
        }
        let rule = if text.kind == TextKind::Name {
            AuditRule::HiddenInName
        } else {
            match run.kind {
                HiddenKind::Tag => AuditRule::HiddenTagCharacters,
                HiddenKind::Bidi => AuditRule::HiddenBidiControl,
                HiddenKind::ZeroWidth => AuditRule::HiddenZeroWidth,
                HiddenKind::Control => AuditRule::HiddenControl,
                HiddenKind::Format | HiddenKind::BlankLetter => AuditRule::HiddenFormat,
            }
        };
        let count = run.code_points.len();
        let what = match run.kind {
            HiddenKind::Tag => "tag character",
            HiddenKind::Bidi => "bidi control",
            HiddenKind::ZeroWidth => "zero-width character",
            HiddenKind::Control => "control character",
            HiddenKind::Format => "invisible format character",
            HiddenKind::BlankLetter => "blank letter",
        };
        let plural = if count == 1 { "" } else { "s" };
        let mut message = format!(
            "{count} {what}{plural} in the {}: {}",
            text.field,
            hidden_text::mark(&run)
        );
        if let Some(spells) = &run.spells {
            message = format!(
                "{count} tag characters in the {} spell, invisibly: \"{spells}\"",
                text.field
            );
        }
        found.push(Found::at(rule, text, run.start..run.end, message));
    }
    for range in selector_runs(text.text) {
        let run: Vec<char> = text.text[range.clone()].chars().collect();
        let (first, last) = (run[0] as u32, run[run.len() - 1] as u32);
        let message = format!(
            "{} variation selectors in a row in the {}: ⟦U+{first:04X}…U+{last:04X}⟧",
            run.len(),
            text.field,
        );
        found.push(Found::at(
            AuditRule::HiddenVariationSelectors,
            text,
            range,
            message,
        ));
    }
}

fn is_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// Byte ranges of runs of variation selectors long enough to carry data, and any selector
/// of the supplement (U+E0100–U+E01EF), which no emoji takes.
fn selector_runs(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<(std::ops::Range<usize>, usize, bool)> = Vec::new();
    for (at, c) in text.char_indices() {
        if !is_selector(c) {
            continue;
        }
        let end = at + c.len_utf8();
        let supplement = c >= '\u{E0100}';
        match runs.last_mut() {
            Some((range, count, sup)) if range.end == at => {
                range.end = end;
                *count += 1;
                *sup |= supplement;
            }
            _ => runs.push((at..end, 1, supplement)),
        }
    }
    runs.into_iter()
        .filter(|(_, count, supplement)| *count >= SELECTOR_RUN || *supplement)
        .map(|(range, _, _)| range)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emoji_selector_is_text_and_a_run_is_a_finding() {
        assert!(selector_runs("Careful ⚠\u{FE0F} here").is_empty());
        let smuggled: String = std::iter::once('a')
            .chain((0..6).map(|i| char::from_u32(0xE0100 + i).unwrap()))
            .collect();
        assert_eq!(selector_runs(&smuggled), vec![1..1 + 6 * 4]);
        assert_eq!(selector_runs("x\u{FE00}\u{FE01}").len(), 1);
    }
}
