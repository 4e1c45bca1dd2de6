//! The catalog through Tauri's real IPC layer on the mock runtime, as the UI calls it: a
//! catalog with one entry this build cannot read still loads the others (the file kept, backed
//! up, the entry named); a secret environment value goes to the secret store, never into
//! catalog.json, reaches the server when it starts and is shown only on request; the data
//! files are owner-only. Its own test binary, so its XDG_DATA_HOME is its own.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{invoke, said, start_app};
use serde_json::json;

const SECRET: &str = "sk-catalog-ipc-test-7f3a9c";

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_broken_entry_costs_nothing_and_a_secret_value_lives_only_in_the_secret_store() {
    let data = std::env::temp_dir().join(format!("periscope-app-catalog-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    // SAFETY: set before the app (or any other thread of this test binary) reads them.
    unsafe {
        std::env::set_var("XDG_DATA_HOME", &data);
        std::env::set_var("PERISCOPE_CREDENTIALS_FILE_ONLY", "1");
    }
    // The mock context has no identifier: its data folder is XDG_DATA_HOME itself.
    let catalog_path = data.join("catalog.json");
    let broken = json!({"id": "future", "name": "From a newer Periscope",
                        "target": {"transport": "carrier_pigeon", "coop": 7}});
    std::fs::write(
        &catalog_path,
        json!({"servers": [
            {"id": "plain", "name": "Plain", "target": {"transport": "stdio", "command": "true"}},
            broken,
        ]})
        .to_string(),
    )
    .unwrap();
    std::fs::set_permissions(&catalog_path, std::fs::Permissions::from_mode(0o644)).unwrap();

    let (_app, webview) = start_app();
    let listed = invoke(&webview, "catalog_list", json!({})).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["id"], "plain");
    let problems = invoke(&webview, "catalog_problems", json!({})).unwrap();
    assert_eq!(problems[0]["kind"], "catalog_damaged", "{problems}");
    let problem = &said(&problems[0]);
    assert!(
        problem.contains(r#"entry 2 ("From a newer Periscope", id "future")"#),
        "{problem}"
    );
    let backup = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("catalog.json.bak-"))
        .expect("a backup of the catalog");
    assert!(problem.contains(&backup.display().to_string()), "{problem}");
    assert_eq!(mode(&backup), 0o600);
    assert_eq!(mode(&catalog_path), 0o600, "tightened when read");

    // A local server whose environment holds a secret; it starts only if the value arrives.
    let demo = std::env::current_exe()
        .unwrap()
        .ancestors()
        .nth(2)
        .unwrap()
        .join("periscope-demo-server");
    assert!(demo.exists(), "build periscope-demo-server first");
    // The expected value from a file, so the command line in the catalog does not hold it.
    let expected = data.join("expected");
    std::fs::write(&expected, SECRET).unwrap();
    let script = format!(
        "test \"$API_KEY\" = \"$(cat {})\" || exit 9; exec {}",
        expected.display(),
        demo.display()
    );
    let entry = json!({"id": "secretive", "name": "Secretive", "target": {
        "transport": "stdio", "command": "sh", "args": ["-c", script],
        "env": [["API_KEY", SECRET], ["LEVEL", "debug"]], "secret_env": ["API_KEY"],
        "cwd": null}});
    let saved = invoke(&webview, "catalog_save", json!({"entry": entry})).unwrap();
    let stored = saved
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "secretive")
        .unwrap();
    assert_eq!(
        stored["target"]["env"],
        json!([["API_KEY", ""], ["LEVEL", "debug"]])
    );
    assert_eq!(stored["target"]["secret_env"], json!(["API_KEY"]));
    let catalog = std::fs::read_to_string(&catalog_path).unwrap();
    assert!(!catalog.contains(SECRET), "{catalog}");
    assert!(
        catalog.contains("carrier_pigeon"),
        "the unreadable entry is written back"
    );
    assert_eq!(mode(&catalog_path), 0o600);
    let credentials = data.join("credentials.json");
    assert!(
        std::fs::read_to_string(&credentials)
            .unwrap()
            .contains(SECRET)
    );
    assert_eq!(mode(&credentials), 0o600);

    // Shown on request, and given to the server when it starts.
    let shown = invoke(
        &webview,
        "catalog_secret",
        json!({"serverId": "secretive", "slot": "env", "name": "API_KEY"}),
    )
    .unwrap();
    assert_eq!(shown, json!(SECRET));
    invoke(&webview, "connect", json!({"serverId": "secretive"})).unwrap();
    invoke(&webview, "ping_server", json!({"serverId": "secretive"})).unwrap();
    invoke(&webview, "disconnect", json!({"serverId": "secretive"})).unwrap();

    // Saved again from the form, the masked value untouched: the stored one stays.
    invoke(&webview, "catalog_save", json!({"entry": stored})).unwrap();
    invoke(&webview, "connect", json!({"serverId": "secretive"})).unwrap();
    invoke(&webview, "disconnect", json!({"serverId": "secretive"})).unwrap();

    // Saved calls and history are owner-only too.
    let call = json!({"id": "1", "server_id": "secretive", "name": "p", "kind": "tool",
                      "target": "add", "arguments": {}, "created_wall_us": 1});
    invoke(&webview, "saved_put", json!({"call": call})).unwrap();
    assert_eq!(mode(&data.join("saved.json")), 0o600);

    // Removing the server forgets its secret.
    invoke(&webview, "catalog_remove", json!({"id": "secretive"})).unwrap();
    assert!(
        !std::fs::read_to_string(&credentials)
            .unwrap()
            .contains(SECRET)
    );
    let shown = invoke(
        &webview,
        "catalog_secret",
        json!({"serverId": "secretive", "slot": "env", "name": "API_KEY"}),
    )
    .unwrap();
    assert_eq!(shown, json!(null));
    let _ = std::fs::remove_dir_all(&data);
}
