//! Periscope's desktop shell: a window, a store for the catalog, and thin commands over
//! `periscope-core`. Protocol logic lives in the core; this crate only hosts it.

mod app_settings;
pub mod apps;
mod asks;
mod browser;
mod call_history;
mod catalog_store;
mod check_runs;
pub mod commands;
mod connection;
mod eval_history;
mod eval_runs;
mod events;
mod found_eras;
mod json_file;
mod kept_runs;
mod launch_args;
mod load_runs;
mod models;
mod playground;
mod recordings;
mod remembered_args;
pub mod rendering;
mod save_file;
mod saved_store;
mod task_board;
mod temporary;
mod tool_pins;

use tauri::{Builder, Manager, Runtime};

pub use connection::AppState;

/// Registers plugins, state and commands. Shared by the app and by tests on the mock runtime.
pub fn setup<R: Runtime>(builder: Builder<R>) -> Builder<R> {
    // MCP Apps' pages: `periscope-app://<token>/`, served to the main window only.
    apps::protocol::register(builder)
        .plugin(tauri_plugin_dialog::init())
        .manage(AppState::default())
        .manage(task_board::TaskBoard::default())
        .manage(temporary::Temporary::default())
        .manage(commands::timeline::LatencyTrackers::default())
        .manage(playground::Playground::default())
        .manage(apps::McpApps::default())
        .manage(check_runs::CheckRuns::default())
        .manage(load_runs::LoadRuns::default())
        .manage(eval_runs::EvalRuns::default())
        .setup(|app| {
            let state = app.state::<AppState>();
            state.asks.set_opener(browser::opener());
            // Tokens and client secrets: the OS keychain, else a 0600 file beside the catalog
            // (shared with the CLI). In test builds only (`test-seams`),
            // PERISCOPE_CREDENTIALS_FILE_ONLY skips the keychain.
            let data = app.path().app_data_dir()?;
            let force_file = cfg!(feature = "test-seams")
                && std::env::var_os("PERISCOPE_CREDENTIALS_FILE_ONLY").is_some();
            let secrets = std::sync::Arc::new(periscope_core::auth::store::SecretStore::open(
                data.join("credentials.json"),
                force_file,
            ));
            // Each session's traffic goes to a store file here (docs/store.md).
            let _ = state.traffic_dir.set(data.join("traffic"));
            // The Check view's last run of each server, and its record (docs/check.md).
            app.state::<check_runs::CheckRuns>()
                .set_dir(data.join("checks"));
            // The Load view's kept runs of each server, and their records (docs/load.md).
            app.state::<load_runs::LoadRuns>()
                .set_dir(data.join("loads"));
            // The Evals view's suites and kept runs of each server (docs/evals.md).
            app.state::<eval_runs::EvalRuns>()
                .set_dir(data.join("evals"));
            state.found_eras.load(data.join("eras.json"));
            state.tool_pins.load(data.join("pins.json"));
            let _ = state.secrets.set(secrets.clone());
            // Model providers: models.json beside the catalog; their keys in the same store.
            state
                .asks
                .set_models(std::sync::Arc::new(models::Models::new(
                    data.join("models.json"),
                    secrets,
                )));
            state.settings.set(app_settings::load(app.handle()));
            let first_launch = catalog_store::load(app.handle(), &state)?;
            app.manage(commands::catalog::FirstLaunch(first_launch));
            if first_launch {
                // The built-in demo server connects by itself on first launch, so a new user
                // sees a live server within seconds (it is ours, bundled with the app).
                let handle = app.handle().clone();
                tauri::async_runtime::spawn(async move {
                    let state = handle.state::<AppState>();
                    let _ = state.connect_if_idle(catalog_store::DEMO_ID).await;
                });
            }
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            // The About dialog.
            commands::about::about,
            commands::about::open_about_link,
            // The server catalog.
            commands::catalog::catalog_list,
            commands::catalog::first_launch,
            commands::catalog::catalog_save,
            commands::catalog::catalog_remove,
            commands::catalog::catalog_problems,
            commands::catalog::catalog_secret,
            commands::catalog::secret_hints,
            commands::catalog::catalog_temporary,
            commands::catalog::catalog_keep,
            // The app's settings.
            commands::settings::app_settings_get,
            commands::settings::app_settings_save,
            commands::settings::system_languages,
            commands::settings::data_places,
            commands::settings::open_data_folder,
            commands::settings::clear_all_history,
            commands::settings::clear_sign_ins,
            commands::settings::remembered_args_all,
            commands::settings::remembered_args_put,
            // Import from other hosts' configs.
            commands::host_import::import_host_files,
            commands::host_import::import_preview,
            commands::host_import::import_preview_file,
            commands::host_import::import_save,
            // Connections and the event feed.
            commands::connection::subscribe_events,
            commands::connection::connections,
            commands::connection::connect,
            commands::connection::disconnect,
            commands::connection::forget_era,
            commands::connection::reconnect_legacy,
            commands::tools::diagnose_tool_result,
            // The record: traffic, HTTP exchanges, stderr.
            commands::traffic::traffic_summary,
            commands::traffic::traffic_count,
            commands::traffic::traffic_tail,
            commands::traffic::traffic_window,
            commands::traffic::traffic_position,
            commands::traffic::traffic_search,
            commands::traffic::frame_detail,
            commands::traffic::frame_raw_command,
            commands::export::export_traffic,
            commands::traffic::http_exchanges,
            commands::traffic::stderr_lines,
            commands::timeline::timeline,
            commands::timeline::latency,
            commands::timeline::timeline_all,
            commands::timeline::latency_all,
            // Recordings: a session saved, a record file reopened read-only.
            commands::recordings::save_session,
            commands::recordings::open_recording,
            commands::recordings::recordings_list,
            commands::recordings::close_recording,
            commands::recordings::resend_frame,
            commands::recordings::replay_recording,
            commands::recordings::compare_sessions,
            // The Check view.
            commands::check::check_run,
            commands::check::check_cancel,
            commands::check::check_last,
            commands::check::check_export,
            // The Load view.
            commands::load::load_prepare,
            commands::load::load_discard,
            commands::load::load_start,
            commands::load::load_stop,
            commands::load::load_runs,
            commands::load::load_get,
            commands::load::load_compare,
            commands::load::load_delete,
            commands::load::load_export,
            // The Evals view.
            commands::evals::evals_suite,
            commands::evals::evals_suite_save,
            commands::evals::evals_starter,
            commands::evals::evals_run,
            commands::evals::evals_stop,
            commands::evals::evals_runs,
            commands::evals::evals_get,
            commands::evals::evals_compare,
            commands::evals::evals_delete,
            commands::evals::evals_export,
            // The Skills view.
            commands::skills::skills_list,
            commands::skills::skills_get,
            commands::skills::skills_load,
            commands::skills::skills_read,
            commands::skills::skills_directory,
            // Every connected server audited together.
            commands::audit::audit_connected,
            // The server's lists.
            commands::lists::list_items,
            commands::lists::accept_tool_change,
            commands::lists::list_page,
            // Tools.
            commands::tools::call_tool,
            commands::tools::cancel_call,
            commands::tasks::call_tool_as_task,
            commands::tasks::task_list,
            commands::tasks::cancel_task,
            commands::tools::validate_json,
            // Resources.
            commands::resources::read_resource,
            commands::resources::fill_resource_template,
            commands::resources::subscribe_resource,
            commands::resources::unsubscribe_resource,
            commands::resources::save_blob,
            // Prompts and completion.
            commands::prompts::get_prompt,
            commands::prompts::complete,
            // Saved calls and history.
            commands::saved_calls::saved_list,
            commands::saved_calls::saved_put,
            commands::saved_calls::saved_remove,
            commands::saved_calls::history_list,
            commands::saved_calls::history_clear,
            // Answering the server.
            commands::asks::pending_asks,
            commands::asks::answer_ask,
            commands::asks::analyze_url,
            commands::asks::consent_url,
            commands::asks::decisions,
            commands::asks::root_of_path,
            commands::asks::pick_folder,
            // Sign-in.
            commands::oauth::oauth_report,
            commands::oauth::sign_out,
            commands::oauth::set_client_secret,
            commands::oauth::has_client_secret,
            // Host settings.
            commands::settings::host_settings,
            commands::settings::save_host_settings,
            // Server utilities.
            commands::utilities::set_log_level,
            commands::utilities::ping_server,
            // Remote icons.
            commands::icons::fetch_icon,
            // Model providers and sampling drafts.
            commands::models::models_list,
            commands::models::models_save,
            commands::models::models_remove,
            commands::models::models_test,
            commands::models::sampling_draft,
            // The playground.
            commands::playground::chat_new,
            commands::playground::chat_list,
            commands::playground::chat_load,
            commands::playground::chat_send,
            commands::playground::chat_approve,
            commands::playground::chat_cancel,
            commands::playground::chat_save,
            commands::playground::chat_export_markdown,
            // MCP Apps.
            commands::mcp_apps::mcp_app_open,
            commands::mcp_apps::mcp_app_from_view,
            commands::mcp_apps::mcp_app_context,
            commands::mcp_apps::mcp_app_tool_result,
            commands::mcp_apps::mcp_app_tool_cancelled,
            commands::mcp_apps::mcp_app_close,
            commands::mcp_apps::mcp_app_resources,
        ])
}

/// The app's context: tauri.conf.json, the embedded UI and the capability (the ACL resolved
/// at build time from capabilities/ and permissions/). Generic so tests can run the real ACL
/// on the mock runtime.
pub fn context<R: Runtime>() -> tauri::Context<R> {
    tauri::generate_context!()
}

pub fn run() {
    let builder =
        tauri::Builder::default().plugin(tauri_plugin_single_instance::init(|app, argv, cwd| {
            // A second launch focuses the running window instead of opening another app, and
            // hands over the server it names (`periscope-app -- …`, `--url …`), if any.
            if let Some(window) = app.get_webview_window("main") {
                let _ = window.unminimize();
                let _ = window.set_focus();
            }
            let cwd = (!cwd.is_empty()).then(|| cwd.into());
            temporary::open_from_argv(app, &argv, cwd);
        }));
    setup(builder)
        .build(context())
        .expect("Periscope's window starts")
        .run(|app, event| match event {
            // After `setup` has loaded the catalog (it runs when the loop starts, not in
            // `build`). Read here, not in `setup`, which tests share: only the real app has a
            // command line.
            tauri::RunEvent::Ready => {
                let argv: Vec<String> = std::env::args().collect();
                temporary::open_from_argv(app, &argv, std::env::current_dir().ok());
            }
            tauri::RunEvent::Exit => {
                // Shut every server down politely (stdin, SIGTERM, SIGKILL) before leaving.
                let state = app.state::<AppState>();
                tauri::async_runtime::block_on(state.disconnect_all());
            }
            _ => {}
        });
}
