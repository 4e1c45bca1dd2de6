//! The app's own surface: the webview may call exactly the commands the UI uses, through the
//! capability Tauri resolved at build time, and nothing else (no plugin command, no unknown
//! command, nothing from another window). The real ACL runs on the mock runtime.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::invoke;
use serde_json::{Value, json};
use tauri::test::{MockRuntime, mock_builder};
use tauri::{App, Manager, WebviewWindow};

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The words of `text` between the first `start` after `after` and the next `end`.
fn block<'a>(text: &'a str, after: &str, end: &str) -> &'a str {
    let from = text
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} not found"))
        + after.len();
    let rest = &text[from..];
    &rest[..rest
        .find(end)
        .unwrap_or_else(|| panic!("{end:?} not found"))]
}

/// Every `"…"` string in `text`.
fn quoted(text: &str) -> BTreeSet<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The commands `generate_handler!` registers in src/lib.rs.
fn registered() -> BTreeSet<String> {
    let lib = read("src/lib.rs");
    block(&lib, "generate_handler![", "]")
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("commands::"))
        .map(|l| {
            l.trim_end_matches(',')
                .rsplit("::")
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn the_capability_grants_exactly_the_registered_commands_which_are_those_the_ui_calls() {
    let registered = registered();
    assert!(registered.len() > 30, "parsed {registered:?}");

    let manifest = quoted(block(
        &read("build.rs"),
        "const COMMANDS: &[&str] = &[",
        "];",
    ));
    assert_eq!(
        manifest, registered,
        "build.rs COMMANDS vs generate_handler!"
    );

    let file: PermissionFile = toml::from_str(&read("permissions/ui.toml")).unwrap();
    let [set] = &file.set[..] else {
        panic!("permissions/ui.toml holds one set")
    };
    let granted: BTreeSet<String> = set
        .permissions
        .iter()
        .map(|p| {
            p.strip_prefix("allow-")
                .unwrap_or_else(|| panic!("only allow-<command> in the set: {p}"))
                .replace('-', "_")
        })
        .collect();
    assert_eq!(
        granted, registered,
        "permissions/ui.toml vs generate_handler!"
    );

    let capability: Value = serde_json::from_str(&read("capabilities/default.json")).unwrap();
    assert_eq!(capability["windows"], json!(["main"]));
    assert_eq!(capability["permissions"], json!([set.identifier]));
    assert_eq!(
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities"))
            .unwrap()
            .count(),
        1,
        "one capability file"
    );

    // What the UI invokes (ui/src/ipc, the only place it calls invoke).
    let mut called = BTreeSet::new();
    for file in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/ipc")).unwrap()
    {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        for (i, _) in text.match_indices("invoke") {
            let after = &text[i + "invoke".len()..];
            let after = after.strip_prefix('<').map_or(after, |a| {
                // skip a type argument, nested generics included
                let mut depth = 1;
                let end = a
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '<' => 1,
                            '>' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(0, |(j, _)| j + 1);
                &a[end..]
            });
            if let Some(name) = after
                .trim_start()
                .strip_prefix("(")
                .map(str::trim_start)
                .and_then(|a| a.strip_prefix('"'))
                .and_then(|a| a.split('"').next())
            {
                called.insert(name.to_string());
            }
        }
    }
    assert_eq!(
        called, registered,
        "what ui/src/ipc invokes vs what is registered"
    );
}

/// permissions/ui.toml: one `[[set]]`.
#[derive(serde::Deserialize)]
struct PermissionFile {
    set: Vec<Set>,
}

#[derive(serde::Deserialize)]
struct Set {
    identifier: String,
    permissions: Vec<String>,
}

/// The app with the real context (its capability included) on the mock runtime.
fn start_real_app() -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let data = std::env::temp_dir().join(format!("periscope-app-acl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    // SAFETY: set before the app (or any other thread of this test binary) reads it.
    unsafe { std::env::set_var("XDG_DATA_HOME", &data) };
    let mut app = periscope_app::setup(mock_builder())
        .build(periscope_app::context())
        .expect("the app builds with its real context on the mock runtime");
    #[allow(deprecated)]
    app.run_iteration(|_, _| {});
    let main = match app.get_webview_window("main") {
        Some(window) => window,
        None => tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .unwrap(),
    };
    (app, main)
}

fn refused(result: Result<Value, Value>) -> String {
    match result {
        Ok(v) => panic!("allowed: {v}"),
        Err(e) => e.as_str().unwrap_or_default().to_string(),
    }
}

#[test]
fn the_webview_may_call_the_apps_commands_and_nothing_else() {
    let (app, main) = start_real_app();

    let catalog = invoke(&main, "catalog_list", json!({})).expect("a granted command runs");
    assert!(catalog.is_array(), "{catalog}");

    // Registered plugins' commands, a plugin the app no longer has, an unknown command.
    for cmd in [
        "plugin:store|load",
        "plugin:dialog|open",
        "plugin:opener|open_url",
        "plugin:event|listen",
        "plugin:webview|create_webview_window",
        "no_such_command",
    ] {
        let error = refused(invoke(&main, cmd, json!({})));
        assert!(error.contains("not allowed"), "{cmd}: {error}");
    }

    // Another window (were a server ever able to open one) gets nothing.
    let other = tauri::WebviewWindowBuilder::new(&app, "other", Default::default())
        .build()
        .unwrap();
    let error = refused(invoke(&other, "catalog_list", json!({})));
    assert!(error.contains("not allowed"), "{error}");
}
