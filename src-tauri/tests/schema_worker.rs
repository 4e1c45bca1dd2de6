//! `validate_json`'s validator: the app's own binary in its worker mode, killed at the time
//! limit, so a schema that would run for years costs the limit and leaves nothing running.

use std::path::Path;
use std::time::{Duration, Instant};

use periscope_core::schema_worker::{self, WORKER_ARG};
use serde_json::{Value, json};

fn app() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_periscope-app"))
}

/// `levels` of `anyOf` with two `$ref`s to the next level, ending in `false`: a few hundred
/// bytes that take 2^levels evaluations.
fn exponential(levels: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..levels {
        let next = json!({"$ref": format!("#/$defs/a{}", i + 1)});
        defs.insert(format!("a{i}"), json!({"anyOf": [next.clone(), next]}));
    }
    defs.insert(format!("a{levels}"), json!(false));
    json!({"$defs": defs, "$ref": "#/$defs/a0"})
}

/// Workers of this test still running (their command line holds `WORKER_ARG`).
fn running_workers() -> usize {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| {
            let dir = entry.ok()?.path();
            let cmdline = std::fs::read(dir.join("cmdline")).ok()?;
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            let (_, rest) = stat.rsplit_once(')')?;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // state, ppid: a live child of this test.
            let alive_child = fields.first().is_some_and(|s| !s.starts_with(['Z', 'X']))
                && fields.get(1) == Some(&me.as_str());
            let worker = String::from_utf8_lossy(&cmdline).contains(WORKER_ARG);
            (alive_child && worker).then_some(())
        })
        .count()
}

#[tokio::test]
async fn the_worker_answers_with_the_report() {
    let schema = json!({"type": "object", "required": ["a"]});
    let report = schema_worker::validate(app(), &schema, &json!({}), Duration::from_secs(30)).await;
    assert!(!report.valid, "{report:?}");
    assert_eq!(report.issues[0].path, "/a");
    let ok =
        schema_worker::validate(app(), &schema, &json!({"a": 1}), Duration::from_secs(30)).await;
    assert!(ok.valid, "{ok:?}");
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_validation_past_its_time_limit_is_killed_not_left_spinning() {
    let started = Instant::now();
    // 2^60 evaluations: years, were it not stopped.
    let report = schema_worker::validate(
        app(),
        &exponential(60),
        &json!(1),
        Duration::from_millis(500),
    )
    .await;
    let answered = started.elapsed();
    assert!(
        report
            .schema_error
            .as_deref()
            .is_some_and(|e| e.contains("was stopped")),
        "{report:?}"
    );
    // A generous bound: the limit, then a kill.
    assert!(answered < Duration::from_secs(10), "{answered:?}");
    // The other test of this binary may have a worker of its own for a moment.
    let deadline = Instant::now() + Duration::from_secs(10);
    while running_workers() > 0 {
        assert!(Instant::now() < deadline, "a worker is still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}
