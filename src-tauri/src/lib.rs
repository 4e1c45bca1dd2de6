//! Periscope's desktop shell: a window, a store for the catalog, and thin commands over
//! `periscope-core`. Protocol logic lives in the core; this crate only hosts it.

mod catalog;
mod cmd_resources;
mod cmd_saved;
mod cmd_tools;
mod commands;
mod connections;
mod events;
mod host;
mod icons;
mod saved;
#[cfg(test)]
mod tests;

use tauri::{Builder, Manager, Runtime};

pub use connections::AppState;

/// Registers plugins, state and commands. Shared by the app and by tests on the mock runtime.
pub fn setup<R: Runtime>(builder: Builder<R>) -> Builder<R> {
    builder
        .plugin(tauri_plugin_store::Builder::default().build())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_dialog::init())
        .manage(AppState::default())
        .setup(|app| {
            let state = app.state::<AppState>();
            state.asks.set_opener(host::opener(app.handle()));
            // Tokens and client secrets: the OS keychain, else a 0600 file beside the catalog
            // (shared with the CLI). PERISCOPE_CREDENTIALS_FILE_ONLY skips the keychain.
            let data = app.path().app_data_dir()?;
            let force_file = std::env::var_os("PERISCOPE_CREDENTIALS_FILE_ONLY").is_some();
            let _ = state.secrets.set(std::sync::Arc::new(
                periscope_core::auth::store::SecretStore::open(
                    data.join("credentials.json"),
                    force_file,
                ),
            ));
            let first_launch = catalog::load(app.handle(), &state)?;
            if first_launch {
                // The built-in demo server connects by itself on first launch, so a new user
                // sees a live server within seconds (it is ours, bundled with the app).
                let handle = app.handle().clone();
                tauri::async_runtime::spawn(async move {
                    let state = handle.state::<AppState>();
                    let _ = state.connect_if_idle(catalog::DEMO_ID).await;
                });
            }
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::catalog_list,
            commands::catalog_save,
            commands::catalog_remove,
            commands::subscribe_events,
            commands::connections,
            commands::connect,
            commands::disconnect,
            commands::list_items,
            commands::call_tool,
            commands::read_resource,
            commands::get_prompt,
            commands::traffic_rows,
            commands::frame_detail,
            commands::stderr_lines,
            commands::http_exchanges,
            commands::pending_asks,
            commands::answer_ask,
            commands::analyze_url,
            commands::consent_url,
            commands::host_settings,
            commands::save_host_settings,
            commands::root_of_path,
            commands::pick_folder,
            commands::decisions,
            commands::oauth_report,
            commands::sign_out,
            commands::set_client_secret,
            commands::has_client_secret,
            icons::fetch_icon,
            // commands: tools (keep this marker line)
            cmd_tools::validate_json,
            cmd_tools::cancel_call,
            // commands: resources and prompts (keep this marker line)
            cmd_resources::list_page,
            cmd_resources::complete,
            cmd_resources::subscribe_resource,
            cmd_resources::unsubscribe_resource,
            cmd_resources::save_blob,
            // commands: saved calls, history and utilities (keep this marker line)
            cmd_saved::saved_list,
            cmd_saved::saved_put,
            cmd_saved::saved_remove,
            cmd_saved::history_list,
            cmd_saved::history_record,
            cmd_saved::history_clear,
            cmd_saved::set_log_level,
            cmd_saved::ping_server,
        ])
}

pub fn run() {
    let builder =
        tauri::Builder::default().plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            // A second launch focuses the running window instead of opening another app.
            if let Some(window) = app.get_webview_window("main") {
                let _ = window.unminimize();
                let _ = window.set_focus();
            }
        }));
    setup(builder)
        .build(tauri::generate_context!())
        .expect("Periscope's window starts")
        .run(|app, event| {
            if let tauri::RunEvent::Exit = event {
                // Shut every server down politely (stdin, SIGTERM, SIGKILL) before leaving.
                let state = app.state::<AppState>();
                tauri::async_runtime::block_on(state.disconnect_all());
            }
        });
}
