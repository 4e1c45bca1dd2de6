//! End-to-end: tasks in the real app against the demo server in its modern era
//! (`--eras dual`, the tasks extension): `long_job` run as a task from the Tools tab runs to
//! completion with its progress in the Tasks tab; another is cancelled there; one that asks
//! halfway is answered in the answering dialog and completes; each run is in the history once
//! it ended. Screenshots under
//! test-artifacts/e2e/tasks/.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

const READY: &str = r#"[data-testid="server-item"][data-server-id="dual"][data-status="ready"]"#;

/// Fills `long_job`'s form and clicks Run as task.
async fn run_long_job(h: &Harness, steps: &str, step_ms: &str) {
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.click(r#"[data-testid="tool-item"][data-tool-name="long_job"]"#)
        .await;
    for (field, value) in [("steps", steps), ("step_ms", step_ms)] {
        let input = h
            .find(&format!(r#"input[id="tool-long_job_{field}"]"#))
            .await;
        input.clear().await.expect("clear");
        input.send_keys(value).await.expect("typing");
    }
    h.click(r#"[data-testid="run-as-task-button"]"#).await;
    h.find(r#"[data-testid="task-started"]"#).await;
    h.click(r#"[data-testid="tab-tasks"]"#).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tasks_run_with_progress_are_cancelled_and_answered() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let demo = periscope_tests::bin("periscope-demo-server");
    let mut h = Harness::start_with("tasks", move |data| {
        let dir = data.join("dev.periscope.app");
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = serde_json::json!({"servers": [
            {"id": "dual", "name": "Demo (modern)", "era": "auto",
             "target": {"transport": "stdio", "command": demo, "args": ["--eras", "dual"]}},
        ]});
        std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    })
    .await;
    h.click(r#"[data-testid="server-item"][data-server-id="dual"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(READY).await;

    // Runs to completion; the progress shows while it runs.
    run_long_job(&h, "6", "500").await;
    h.text_containing(r#"[data-testid="task-message"]"#, "of 6")
        .await;
    h.shot("task-working").await;
    h.find(r#"[data-testid="task-card"][data-status="completed"]"#)
        .await;
    h.text_containing(
        r#"[data-testid="task-card"][data-status="completed"]"#,
        "long_job finished all 6 steps",
    )
    .await;
    h.shot("task-completed").await;

    // Cancelled from the Tasks tab.
    run_long_job(&h, "100", "300").await;
    h.click(r#"[data-testid="task-card"][data-status="working"] [data-testid="task-cancel"]"#)
        .await;
    h.find(r#"[data-testid="task-card"][data-status="cancelled"]"#)
        .await;
    h.shot("task-cancelled").await;

    // Asks halfway: the answering dialog opens, the answer goes back with tasks/update.
    h.click(r#"[data-testid="tab-tools"]"#).await;
    h.click(r#"[data-testid="tool-item"][data-tool-name="long_job"]"#)
        .await;
    h.click(r#"input[id="tool-long_job_ask"]"#).await;
    run_long_job(&h, "2", "200").await;
    h.find(r#"[data-testid="task-card"][data-status="input_required"]"#)
        .await;
    h.find(r#"[data-testid="elicit-form"]"#).await;
    h.shot("task-input-required").await;
    h.click(r#"[data-testid="elicit-accept"]"#).await;
    h.text_containing(
        r#"[data-testid="task-card"][data-status="completed"]"#,
        "long_job finished all 2 steps",
    )
    .await;
    h.shot("task-answered").await;

    // Each run is in the history once it ended: the two completed with their results, the
    // cancelled one as an error that says so.
    h.click(r#"[data-testid="tab-saved"]"#).await;
    let runs = r#"[data-testid="history-row"][data-target="long_job"]"#;
    h.count_is(&format!(r#"{runs}[data-outcome="ok"]"#), 2)
        .await;
    h.count_is(&format!(r#"{runs}[data-outcome="protocol_error"]"#), 1)
        .await;
    h.shot("task-history").await;
    h.stop().await;
}
