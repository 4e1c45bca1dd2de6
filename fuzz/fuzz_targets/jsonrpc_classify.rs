//! JSON-RPC classification (`wire::classify`) of arbitrary frame bytes: it never panics, agrees
//! with itself on the parsed value, and its verdict survives the record's JSON round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::wire::{Verdict, classify, classify_value};

fuzz_target!(|bytes: &[u8]| {
    let (verdict, value) = classify(bytes);
    match (&verdict, &value) {
        (Verdict::NotUtf8 { valid_up_to }, None) => {
            let e = std::str::from_utf8(bytes).expect_err("valid UTF-8 called NotUtf8");
            assert_eq!(e.valid_up_to(), *valid_up_to);
        }
        (Verdict::NotJson { .. }, None) => {
            let text = std::str::from_utf8(bytes).expect("NotJson is UTF-8");
            assert!(
                text.trim().is_empty() || serde_json::from_str::<serde_json::Value>(text).is_err()
            );
        }
        (_, Some(value)) => assert_eq!(classify_value(value), verdict),
        (other, None) => panic!("{other:?} without the parsed value"),
    }
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
