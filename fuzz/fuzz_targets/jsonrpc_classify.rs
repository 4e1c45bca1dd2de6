//! JSON-RPC classification (`wire::classify`) of arbitrary frame bytes: it never panics, gives
//! the verdict the full parse gives (the envelope's quick look, `wire/envelope.rs`, decides most
//! frames without building a JSON tree: the two must agree on every input), and its verdict
//! survives the record's JSON round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::wire::{Verdict, classify, classify_value};

fuzz_target!(|bytes: &[u8]| {
    let verdict = classify(bytes);
    // The full parse, as classification was before the envelope.
    let full = match std::str::from_utf8(bytes) {
        Err(e) => Verdict::NotUtf8 {
            valid_up_to: e.valid_up_to(),
        },
        Ok(text) if text.trim().is_empty() => Verdict::NotJson {
            error: "empty frame".into(),
        },
        Ok(text) => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(value) => classify_value(&value),
            Err(e) => Verdict::NotJson {
                error: e.to_string(),
            },
        },
    };
    assert_eq!(verdict, full, "the quick look and the full parse disagree");
    if let Verdict::Batch { items } = &verdict {
        assert!(!items.is_empty(), "an empty batch is not a batch");
        assert!(items.iter().all(|i| !matches!(i, Verdict::Batch { .. })));
    }
    let _ = verdict.summary();
    let _ = verdict.is_valid();
    // Verdicts are written into records and read back.
    let text = serde_json::to_string(&verdict).expect("a verdict serializes");
    let back: Verdict = serde_json::from_str(&text).expect("a verdict reads back");
    assert_eq!(back, verdict);
});
