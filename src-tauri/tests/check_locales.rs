//! Every rule of the check is worded in each language of the UI: its title and its fix, and
//! the English words are the engine's own (so the CLI, the reports and the app say the same).

use periscope_core::check::rule::Rule;
use serde_json::Value;

fn locale(language: &str) -> Value {
    let path = format!(
        "{}/../ui/src/i18n/locales/{language}/check.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `jsonrpc.unknown-method` → `rules.jsonrpc.unknown-method` (nested, as i18next reads it).
fn words<'a>(locale: &'a Value, rule: Rule, what: &str) -> Option<&'a str> {
    let (area, name) = rule.id().split_once('.')?;
    locale["rules"][area][name][what].as_str()
}

#[test]
fn every_rule_has_a_title_and_a_fix_in_english_and_chinese() {
    let en = locale("en");
    let zh = locale("zh-Hans");
    let mut missing = Vec::new();
    for rule in Rule::ALL {
        let info = rule.info();
        if words(&en, *rule, "title") != Some(info.title) {
            missing.push(format!(
                "en title of {} differs from the engine's",
                rule.id()
            ));
        }
        if words(&en, *rule, "hint") != Some(info.hint) {
            missing.push(format!(
                "en hint of {} differs from the engine's",
                rule.id()
            ));
        }
        for what in ["title", "hint"] {
            match words(&zh, *rule, what) {
                Some(text)
                    if !text.trim().is_empty() && text != words(&en, *rule, what).unwrap_or("") => {
                }
                _ => missing.push(format!(
                    "zh-Hans {what} of {} is missing or untranslated",
                    rule.id()
                )),
            }
        }
    }
    // No words for a rule the engine does not have (a renamed rule leaves none behind).
    for language in [&en, &zh] {
        for (area, rules) in language["rules"].as_object().expect("rules is an object") {
            for name in rules.as_object().expect("an area is an object").keys() {
                let id = format!("{area}.{name}");
                if Rule::parse(&id).is_none() {
                    missing.push(format!("{id} is worded but is not a rule"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
