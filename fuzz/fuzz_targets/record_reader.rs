//! The record reader: each line of a JSON Lines record file read as a `record::RecordLine`, as
//! every reader of records does (docs/engine.md, "The record file"). Any bytes: no panic; a
//! line that reads writes back to a line that reads the same, and a frame's bytes survive the
//! trip exactly (text or base64).
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::record::RecordLine;

fuzz_target!(|bytes: &[u8]| {
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(entry) = serde_json::from_slice::<RecordLine>(line) else {
            continue;
        };
        let written = serde_json::to_string(&entry).expect("a record line serializes");
        assert!(!written.contains('\n'), "a record line spans lines");
        let back: RecordLine = serde_json::from_str(&written).expect("a written line reads back");
        let again = serde_json::to_string(&back).expect("a record line serializes");
        assert_eq!(again, written, "the record line changed on a round trip");
        if let (RecordLine::Frame(a), RecordLine::Frame(b)) = (&entry, &back) {
            assert_eq!(a.bytes, b.bytes);
            assert_eq!(a.verdict, b.verdict);
        }
    }
});
