//! The UI's tests start from what the engine reads: fixture files under `ui/src` that hold JSON
//! as a server sends it beside the view the engine gives for it. These tests keep the views
//! true, so a UI test never holds a shape the engine would not give (`BLESS=1` rewrites them
//! after a change to the views). `ui/src/testing/fixtures/results.json` holds results,
//! sampling requests and what a server says of itself (`serverInfo`, `capabilities`); the
//! elicitation forms have their own (`elicitation.rs`).

use serde_json::Value;

use super::content::{PromptResultView, ReadResultView, ToolResultView};
use super::sampling::SamplingView;
use super::server::{CapabilitiesView, ServerInfoView};

/// Checks each entry of the fixture file at `path` (from the repository's root): its `field`
/// must be what `view_of` gives for the entry; with `BLESS` set, writes what it gives instead.
pub(super) fn keep_true(path: &str, field: &str, view_of: impl Fn(&Value) -> Value) {
    let path = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut fixtures: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    let mut stale = Vec::new();
    for (name, fixture) in fixtures.iter_mut() {
        let view = view_of(fixture);
        if fixture[field] != view {
            stale.push(name.clone());
            fixture[field] = view;
        }
    }
    if std::env::var_os("BLESS").is_some() {
        let out = serde_json::to_string_pretty(&fixtures).unwrap() + "\n";
        std::fs::write(&path, out).unwrap();
    } else {
        assert!(
            stale.is_empty(),
            "stale fixtures in {path}: {stale:?}: run with BLESS=1"
        );
    }
}

/// The view of `raw` that the reader named by `reads` gives.
fn view_of(reads: &str, raw: &Value) -> Value {
    let view = match reads {
        "tool_result" => serde_json::to_value(ToolResultView::read(raw)),
        "prompt_result" => serde_json::to_value(PromptResultView::read(raw)),
        "read_result" => serde_json::to_value(ReadResultView::read(raw)),
        "sampling" => serde_json::to_value(SamplingView::read(raw)),
        "server_info" => serde_json::to_value(ServerInfoView::read(raw)),
        "capabilities" => serde_json::to_value(CapabilitiesView::read(raw)),
        other => panic!("no reader {other:?}"),
    };
    view.unwrap()
}

#[test]
fn the_ui_result_fixtures_are_what_the_engine_reads() {
    keep_true("ui/src/testing/fixtures/results.json", "view", |fixture| {
        view_of(
            fixture["reads"].as_str().unwrap_or_default(),
            &fixture["raw"],
        )
    });
}
