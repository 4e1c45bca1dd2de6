//! A wait as hosts' English says it: whole seconds, or seconds with one decimal.

/// `ms` in seconds, with one decimal when it is not whole.
pub fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{:.1}", ms as f64 / 1000.0)
    }
}
