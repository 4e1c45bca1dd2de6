//! `periscope replay FILE -- <command>` / `--url <url>`: a record file's client requests and
//! notifications sent again to a live server, in order, each response compared with the
//! recorded one (the engine's `replay`). Exit 0 when every response is the same, 1 when one
//! differs or does not come (like `periscope diff`), 2 when the file cannot be read.

use std::path::Path;
use std::time::Duration;

use periscope_core::export::Recording;
use periscope_core::replay::{self, ReplayOptions};
use periscope_core::session::Session;

use crate::args::Format;
use crate::exit::Exit;

pub async fn run(
    session: &Session,
    file: &Path,
    ignore: &[String],
    timeout_s: f64,
    format: Format,
) -> Exit {
    let recording = match Recording::read(file) {
        Ok(r) => r,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let options = ReplayOptions {
        wait: Duration::from_secs_f64(timeout_s),
        ignore: ignore.to_vec(),
    };
    let report = replay::replay(session, &recording, &options).await;
    match format {
        Format::Json => say!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
        Format::Text => say!("{}", replay::to_text(&report).trim_end()),
    }
    if report.is_same() {
        Exit::Ok
    } else {
        Exit::Found
    }
}
