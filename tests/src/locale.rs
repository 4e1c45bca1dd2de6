//! The UI's own strings, read from its locale files (ui/src/i18n/locales/<lang>/<ns>.json), so a
//! test of the translated UI checks what the UI must show without copying the wording here.

use std::path::PathBuf;

fn locale_file(lang: &str, namespace: &str) -> PathBuf {
    crate::tests_dir()
        .join("../ui/src/i18n/locales")
        .join(lang)
        .join(format!("{namespace}.json"))
}

/// The string of `key` ("form.call", nested keys joined by dots) in `lang`'s `namespace`, with
/// `{{placeholders}}` left as they are.
pub fn ui_string(lang: &str, namespace: &str, key: &str) -> String {
    let path = locale_file(lang, namespace);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tree: serde_json::Value = serde_json::from_str(&text).unwrap();
    let value = key
        .split('.')
        .try_fold(&tree, |node, part| node.get(part))
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("{lang}/{namespace}.json has no string {key}"));
    value.to_string()
}

/// The Simplified Chinese string of `key`, checked to differ from the English one (a test
/// that finds it then proves the UI is not showing English).
pub fn zh(namespace: &str, key: &str) -> String {
    let zh = ui_string("zh-Hans", namespace, key);
    assert_ne!(
        zh,
        ui_string("en", namespace, key),
        "{namespace}:{key} is the same in both languages"
    );
    zh
}
