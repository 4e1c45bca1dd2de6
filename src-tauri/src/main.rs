// Hides the console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::process::ExitCode;

use periscope_core::schema_worker;

// mimalloc: under a flood, glibc malloc's arena locks took a third of the engine's CPU
// (docs/engine.md, "Allocator").
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // The JSON Schema validator runs as this same program in a child process, so that its
    // time limit can stop it (periscope_core::schema_worker); no window, no Tauri.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == schema_worker::WORKER_ARG)
    {
        return schema_worker::serve();
    }
    // Before anything starts a thread: it may set WebKit's environment (rendering.rs).
    if periscope_app::rendering::choose_compositing()
        == periscope_app::rendering::Compositing::TurnedOff
    {
        eprintln!(
            "periscope-app: no GPU render node in /dev/dri, so WebKit's compositing is off \
             (set WEBKIT_DISABLE_COMPOSITING_MODE=0 to keep it on)"
        );
    }
    periscope_app::run();
    ExitCode::SUCCESS
}
