//! End-to-end: the app's Settings on the real app. The theme switches the page to dark at
//! once; the request timeout and the default era are saved to `settings.json` and survive a
//! restart; a new server's form starts in the default era; the data folder is shown and opened
//! only on the click (the opener is the harness's seam); clearing the history says how much it
//! removed, and the history is then empty; a tool's last arguments are kept in `remembered.json`. Screenshots under test-artifacts/e2e/settings/.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

async fn theme(h: &Harness) -> String {
    h.client
        .execute("return document.documentElement.dataset.theme;", vec![])
        .await
        .expect("the page answers")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn settings_are_applied_saved_and_survive_a_restart() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start("settings").await;
    h.ready_demo().await;
    // One call, so the history has something to clear.
    h.call_tool("echo").await;
    h.find(r#"[data-testid="tool-result"]"#).await;

    h.click(r#"[data-testid="settings-button"]"#).await;
    let folder = h.text(r#"[data-testid="settings-data-folder"]"#).await;
    assert!(folder.ends_with("dev.periscope.app"), "{folder}");
    assert!(
        h.opened_urls().is_empty(),
        "nothing opened before the click"
    );
    h.click(r#"[data-testid="settings-open-folder"]"#).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while h.opened_urls().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the folder was not opened"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(h.opened_urls(), [format!("folder:{folder}")]);
    let secrets = h.text(r#"[data-testid="settings-secrets"]"#).await;
    assert!(secrets.contains("credentials.json"), "{secrets}");

    h.click(r#"[data-testid="settings-clear-history"]"#).await;
    h.text_containing(
        r#"[data-testid="settings-cleared-history"]"#,
        "Removed 1 history entry.",
    )
    .await;

    // An impossible timeout cannot be saved; a good one can.
    let timeout = h.find(r#"[data-testid="settings-timeout"]"#).await;
    timeout.clear().await.unwrap();
    timeout.send_keys("0").await.unwrap();
    assert!(
        h.find(r#"[data-testid="settings-save"]"#)
            .await
            .attr("disabled")
            .await
            .unwrap()
            .is_some(),
        "Save is disabled for a timeout of 0"
    );
    timeout.clear().await.unwrap();
    timeout.send_keys("45").await.unwrap();
    h.find(r#"[data-testid="settings-theme"]"#)
        .await
        .select_by_value("dark")
        .await
        .unwrap();
    h.find(r#"[data-testid="settings-era"]"#)
        .await
        .select_by_value("legacy")
        .await
        .unwrap();
    h.shot("settings").await;
    h.click(r#"[data-testid="settings-save"]"#).await;
    h.gone(r#"[data-testid="settings-dialog"]"#).await;
    assert_eq!(theme(&h).await, "dark");
    h.shot("dark").await;

    // The history is empty now.
    h.click(r#"[data-testid="tab-saved"]"#).await;
    h.count_is(r#"[data-testid="history-row"]"#, 0).await;

    // A new server starts in the default era.
    h.click(r#"[data-testid="add-server-button"]"#).await;
    let era = h
        .find(r#"[data-testid="server-form-era"]"#)
        .await
        .prop("value")
        .await
        .unwrap();
    assert_eq!(era.as_deref(), Some("legacy"));
    h.click(r#"[data-testid="server-form-cancel"]"#).await;

    // Saved where the app keeps its files, and read back after a restart.
    let file = h.data.join("data/dev.periscope.app/settings.json");
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        stored["settings"],
        serde_json::json!({"request_timeout_s": 45, "default_era": "legacy", "theme": "dark", "language": "system"})
    );
    // The tool's last arguments are kept beside them, not in the web view's storage.
    let remembered = std::fs::read_to_string(h.data.join("data/dev.periscope.app/remembered.json"))
        .expect("remembered.json is written");
    let remembered: serde_json::Value = serde_json::from_str(&remembered).unwrap();
    assert!(
        remembered["tool_args"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["server_id"] == "demo" && e["tool"] == "echo"),
        "{remembered}"
    );
    let h = h.restart().await;
    h.find(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while theme(&h).await != "dark" {
        assert!(
            std::time::Instant::now() < deadline,
            "the theme did not come back"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    h.click(r#"[data-testid="settings-button"]"#).await;
    let kept = h
        .find(r#"[data-testid="settings-timeout"]"#)
        .await
        .prop("value")
        .await
        .unwrap();
    assert_eq!(kept.as_deref(), Some("45"));
    h.stop().await;
}
