//! The 20 000-tool server of the app benches (app_lists, app_audit): `chaos-server many-tools
//! N 500` in the app's catalog, and the frame times of a view scrolling.

use std::path::Path;

use periscope_tests::app::Harness;
use periscope_tests::bin_str;

/// Tools per `tools/list` page.
pub const PAGE: usize = 500;

/// The server's tools: 20 000, or `PERISCOPE_BENCH_TOOLS`.
pub fn tools() -> usize {
    std::env::var("PERISCOPE_BENCH_TOOLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000)
}

/// A catalog of one server, `many`, listing `n` tools.
pub fn catalog(data: &Path, n: usize) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let servers = serde_json::json!({"servers": [
        {"id": "many", "name": "Many tools", "era": "legacy", "target": {"transport": "stdio",
            "command": bin_str("chaos-server"), "args": ["many-tools", n.to_string(), PAGE.to_string()],
            "env": [], "cwd": null}},
    ]});
    std::fs::write(dir.join("catalog.json"), servers.to_string()).unwrap();
}

/// `requestAnimationFrame` deltas (ms) for 3 s; with `scroll`, the element `css` scrolls 120 px
/// a frame meanwhile, down and back up (from a third of the way down).
pub async fn frame_times(h: &Harness, css: &str, scroll: bool) -> Vec<f64> {
    let script = format!(
        "
        const done = arguments[arguments.length - 1];
        const view = document.querySelector({css:?});
        const scroll = {scroll};
        const deltas = [];
        let last = performance.now();
        const end = last + 3000;
        let down = true;
        function frame(now) {{
            deltas.push(now - last);
            last = now;
            if (scroll) {{
                const max = view.scrollHeight - view.clientHeight;
                if (down && view.scrollTop >= max - 1) down = false;
                if (!down && view.scrollTop <= 0) down = true;
                view.scrollTop += (down ? 1 : -1) * 120;
            }}
            if (now < end) requestAnimationFrame(frame); else done(deltas);
        }}
        view.scrollTop = view.scrollHeight / 3;
        requestAnimationFrame((now) => {{ last = now; requestAnimationFrame(frame); }});
    "
    );
    let value = h
        .client
        .execute_async(&script, vec![])
        .await
        .expect("the page scrolls");
    value
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
        .unwrap_or_default()
}
