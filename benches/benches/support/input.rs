//! Setting a React-controlled input the way one keystroke would, for the app benches that time
//! what follows (app_flood, app_lists).

use std::time::Instant;

use periscope_tests::app::Harness;

/// Sets the input's value with one input event; the time it was set.
pub async fn set_input(h: &Harness, test_id: &str, value: &str) -> Instant {
    let script = format!(
        "const el = document.querySelector('[data-testid=\"{test_id}\"]');
         const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
         set.call(el, {value:?});
         el.dispatchEvent(new Event('input', {{ bubbles: true }}));
         return true;"
    );
    let at = Instant::now();
    h.client
        .execute(&script, vec![])
        .await
        .expect("the page runs it");
    at
}
