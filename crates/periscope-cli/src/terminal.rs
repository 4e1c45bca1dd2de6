//! Text a server sent, made harmless for a terminal before it is printed.
//!
//! A terminal obeys control sequences in what it prints: a server could write to the user's
//! clipboard (OSC 52), retitle the window, hide or rewrite earlier lines (CSI, a bare `\r`),
//! or plant a link (OSC 8). Every sequence starts with a control character (ESC, or a C1
//! control such as U+009B), so removing every control character but `\n` and `\t` is enough
//! for safety; whole escape sequences are stripped first (anstream, the parser clap already
//! links) so that what remains reads well.
//!
//! What a terminal would not show at all is shown too: tag characters, zero-width and bidi
//! controls and the other hidden characters a model reads (periscope_core::hidden_text) are
//! written where they are, `⟦U+202E⟧`, in text; in JSON they are `\u` escapes (the same value).

use std::borrow::Cow;

use periscope_core::hidden_text;

/// The 8-bit (C1) controls.
const C1: std::ops::RangeInclusive<char> = '\u{80}'..='\u{9f}';

/// `text` without terminal control sequences or control characters, except `\n` and `\t`,
/// and with every other hidden character marked where it is (`⟦U+202E⟧`).
pub fn safe(text: &str) -> Cow<'_, str> {
    match stripped(text) {
        Cow::Borrowed(text) => hidden_text::visible(text),
        // No copy when nothing is hidden: a server's text can be megabytes.
        Cow::Owned(text) => match hidden_text::visible(&text) {
            Cow::Borrowed(_) => Cow::Owned(text),
            Cow::Owned(marked) => Cow::Owned(marked),
        },
    }
}

/// `text` without terminal control sequences or control characters, except `\n` and `\t`.
fn stripped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    // An 8-bit control (U+0080..U+009F) is the same as ESC and a letter (U+009B is `ESC [`):
    // spelled that way, the parser strips the whole sequence it starts.
    let mut seven_bit = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if C1.contains(&c) {
            seven_bit.push('\u{1b}');
            seven_bit.push(char::from(c as u8 - 0x40));
        } else {
            seven_bit.push(c);
        }
    }
    let stripped = anstream::adapter::strip_str(&seven_bit).to_string();
    Cow::Owned(stripped.chars().filter(|&c| !is_unsafe(c)).collect())
}

/// C0 controls, DEL and C1 controls (what Unicode calls `Cc`), except newline and tab.
fn is_unsafe(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// Pretty JSON with DEL, the C1 controls and every hidden character written as `\u` escapes:
/// the same JSON value, but nothing a terminal would obey or not show. serde_json already
/// escapes the C0 controls (ESC included), not these.
pub fn json(value: &serde_json::Value) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string());
    let escape = |c: char| ('\u{7f}'..='\u{9f}').contains(&c) || hidden_text::kind_of(c).is_some();
    if !text.chars().any(escape) {
        return text;
    }
    // Outside strings JSON has only ASCII punctuation, digits, letters and whitespace (the
    // newlines and indents of pretty printing among them), so these characters are always
    // inside a string, where `\uXXXX` (a surrogate pair past U+FFFF) means the same.
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escape(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            escaped.push(c);
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_passes_through_untouched() {
        let text = "Echo: héllo\n\tindented — ✓";
        assert!(matches!(safe(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn osc_52_clipboard_writes_are_removed_with_either_terminator() {
        assert_eq!(safe("a\x1b]52;c;ZXZpbA==\x07b"), "ab");
        assert_eq!(safe("a\x1b]52;c;ZXZpbA==\x1b\\b"), "ab");
    }

    #[test]
    fn csi_sequences_and_lone_controls_are_removed() {
        assert_eq!(safe("\x1b[2J\x1b[31mred\x1b[0m"), "red");
        assert_eq!(safe("ok\rFAKE\x08\x07\x00\x7f"), "okFAKE");
        assert_eq!(safe("line\r\nnext"), "line\nnext");
    }

    #[test]
    fn eight_bit_sequences_are_removed_whole() {
        // U+009D is OSC, U+009C is ST and U+009B is CSI, in their 8-bit form.
        assert_eq!(safe("a\u{9d}52;c;ZXZpbA==\u{9c}b\u{9b}2Jc\u{85}d"), "abcd");
    }

    #[test]
    fn json_stays_the_same_value_with_no_raw_control_character() {
        let value = serde_json::json!({"text": "a\u{1b}]52;c;x\u{7}b\u{9b}c\u{7f}"});
        let printed = json(&value);
        assert!(
            !printed.chars().any(|c| c.is_control() && c != '\n'),
            "{printed}"
        );
        let back: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn hidden_characters_are_marked_in_text_and_escaped_in_json() {
        let tags: String = "Ignore"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        let text = format!("Reads a file.{tags} abc\u{202E}fed");
        assert_eq!(
            safe(&text),
            "Reads a file.⟦U+E0049…U+E0065, 6 tag characters: \"Ignore\"⟧ abc⟦U+202E⟧fed"
        );
        // Marks are plain text: printing twice marks nothing more.
        assert_eq!(safe(&safe(&text)), safe(&text));
        let value = serde_json::json!({ "description": text });
        let printed = json(&value);
        assert!(
            printed.contains("\\udb40\\udc49") && printed.contains("\\u202e"),
            "{printed}"
        );
        assert!(hidden_text::find(&printed).is_empty(), "{printed}");
        let back: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(back, value);
    }
}
