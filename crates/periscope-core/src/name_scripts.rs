//! Letters of another script in a name: a Latin name with one Cyrillic letter (`sеnd_email`)
//! looks like the plain name and is another string. Judged by Unicode TR39's restriction
//! levels (the `unicode-security` crate): Latin beside Chinese, Japanese or Korean, or one
//! other script, is how people write names and is left alone; Latin with Cyrillic or Greek,
//! or three scripts, is how spoofing writes them. The audit's `mixed-script-name` rule and
//! every list that shows a tool's name (its odd letters marked) read the same answer.

use serde::{Deserialize, Serialize};
use unicode_script::{Script, UnicodeScript};
use unicode_security::{RestrictionLevel, RestrictionLevelDetection};

use crate::hidden_text;

/// A name mixing scripts the way spoofing does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mixed {
    /// The script most of the name is in.
    pub main: Script,
    /// The letters of other scripts: byte offset, the letter, its script.
    pub odd: Vec<(usize, char, Script)>,
}

/// `name`'s letters of other scripts than its main one, when it mixes scripts the way
/// spoofing does; None for a plain name.
pub fn mixed(name: &str) -> Option<Mixed> {
    if name.is_ascii() {
        return None;
    }
    // Punctuation (`.`, `/`) and hidden characters have rules of their own: TR39 calls any
    // name with them "unrestricted".
    let letters: String = name
        .chars()
        .filter(|c| !c.is_ascii_punctuation() && hidden_text::kind_of(*c).is_none())
        .collect();
    if letters.as_str().detect_restriction_level() < RestrictionLevel::MinimallyRestrictive {
        return None;
    }
    let mut counts: Vec<(Script, usize)> = Vec::new();
    for script in name.chars().filter_map(script_of) {
        match counts.iter_mut().find(|(s, _)| *s == script) {
            Some((_, n)) => *n += 1,
            None => counts.push((script, 1)),
        }
    }
    // The most letters; a tie goes to Latin.
    let main = counts
        .iter()
        .max_by_key(|(script, n)| (*n, *script == Script::Latin))
        .map(|(s, _)| *s)?;
    let odd: Vec<(usize, char, Script)> = name
        .char_indices()
        .filter_map(|(at, c)| script_of(c).filter(|s| *s != main).map(|s| (at, c, s)))
        .collect();
    (!odd.is_empty()).then_some(Mixed { main, odd })
}

/// A letter's script, none for the scripts every script shares (digits, `_`, marks).
pub fn script_of(c: char) -> Option<Script> {
    match c.script() {
        Script::Common | Script::Inherited | Script::Unknown => None,
        s => Some(s),
    }
}

/// One letter of another script in a name, for a list to mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct OddLetter {
    /// Where in the name, in characters (Unicode scalar values).
    pub at: u32,
    /// `U+0435`.
    pub code_point: String,
    /// `Cyrillic`.
    pub script: String,
    /// The script the rest of the name is in: `Latin`.
    pub main: String,
}

/// [`mixed`]'s odd letters as a list marks them; none for a plain name.
pub fn odd_letters(name: &str) -> Vec<OddLetter> {
    let Some(mixed) = mixed(name) else {
        return Vec::new();
    };
    mixed
        .odd
        .iter()
        .map(|(at, c, script)| OddLetter {
            at: name[..*at].chars().count() as u32,
            code_point: format!("U+{:04X}", *c as u32),
            script: script.full_name().to_string(),
            main: mixed.main.full_name().to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_latin_name_with_a_cyrillic_letter_is_marked_where_the_letter_is() {
        assert_eq!(
            odd_letters("s\u{0435}nd_email"),
            [OddLetter {
                at: 1,
                code_point: "U+0435".into(),
                script: "Cyrillic".into(),
                main: "Latin".into(),
            }]
        );
    }

    #[test]
    fn names_people_write_are_left_alone() {
        for name in [
            "send_email",
            "get_天气",
            "翻訳_text",
            "поиск",
            "поиск_2",
            "files.read",
            "send\u{200D}mail",
        ] {
            assert_eq!(odd_letters(name), [], "{name}");
        }
    }
}
