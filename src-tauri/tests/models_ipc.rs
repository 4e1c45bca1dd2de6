//! Model providers through Tauri's real IPC layer on the mock runtime, as Settings → Models
//! calls it: a key sent with `models_save` lives in the secret store, never in models.json nor
//! in what any command returns; a key over plain http to another machine is refused without
//! keeping anything; models.json is owner-only. Its own test binary, so its XDG_DATA_HOME is
//! its own.

mod common;

use std::os::unix::fs::PermissionsExt;

use common::{invoke, start_app};
use serde_json::json;

const KEY: &str = "sk-models-ipc-test-51c0de";

#[test]
fn a_providers_key_lives_in_the_secret_store_and_never_in_models_json() {
    let data = std::env::temp_dir().join(format!("periscope-app-models-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    // SAFETY: set before the app (or any other thread of this test binary) reads them.
    unsafe {
        std::env::set_var("XDG_DATA_HOME", &data);
        std::env::set_var("PERISCOPE_CREDENTIALS_FILE_ONLY", "1");
    }
    let (_app, webview) = start_app();
    let provider = json!({"id": "local", "name": "Local", "kind": "open_ai_compatible",
        "base_url": "http://127.0.0.1:11434/v1", "model": "llama3.2", "max_tokens": null,
        "default": false});
    let saved = invoke(
        &webview,
        "models_save",
        json!({"provider": provider, "key": {"action": "set", "key": KEY}}),
    )
    .unwrap();
    assert_eq!(saved[0]["has_key"], true, "{saved}");
    assert_eq!(
        saved[0]["provider"]["default"], true,
        "the only provider is the default"
    );
    let listed = invoke(&webview, "models_list", json!({})).unwrap();
    assert!(!listed.to_string().contains(KEY), "{listed}");

    // The mock context has no identifier: its data folder is XDG_DATA_HOME itself.
    let models = std::fs::read_to_string(data.join("models.json")).unwrap();
    assert!(
        models.contains("llama3.2") && !models.contains(KEY),
        "{models}"
    );
    let mode = std::fs::metadata(data.join("models.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let credentials = std::fs::read_to_string(data.join("credentials.json")).unwrap();
    assert!(credentials.contains(KEY), "the key is in the secret store");

    // A key that would cross the network in clear: refused, nothing kept, the key not echoed.
    let remote = json!({"id": "remote", "name": "Remote", "kind": "open_ai_compatible",
        "base_url": "http://models.example.com/v1", "model": "m", "max_tokens": null,
        "default": false});
    let error = invoke(
        &webview,
        "models_save",
        json!({"provider": remote, "key": {"action": "set", "key": "sk-remote-9"}}),
    )
    .unwrap_err();
    assert!(!error.to_string().contains("sk-remote-9"), "{error}");
    let listed = invoke(&webview, "models_list", json!({})).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");

    // Removed: the key is forgotten too.
    invoke(&webview, "models_remove", json!({"id": "local"})).unwrap();
    let credentials = std::fs::read_to_string(data.join("credentials.json")).unwrap();
    assert!(!credentials.contains(KEY), "{credentials}");
}
