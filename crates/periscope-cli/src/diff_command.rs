//! `periscope diff A [B]`: what a server showed of itself (identity, tools, resources,
//! templates, prompts) in two record files — the last listing of each — or, with one file, at
//! its first and last listing. Exit 0 when the same, 1 when they differ (like diff(1); with
//! `--fail-on breaking`, only when a change breaks a client), 2 when a file cannot be read: a CI
//! job can fail a build when a server's tool surface changes.

use std::path::PathBuf;

use periscope_core::diff::{self, Moment, Surface};
use periscope_core::export::Recording;

use crate::args::{DiffFailOn, Format};
use crate::exit::Exit;

pub fn run(first: &PathBuf, second: Option<&PathBuf>, fail_on: DiffFailOn, format: Format) -> Exit {
    let read = |path: &PathBuf| {
        Recording::read(path).map_err(|e| {
            tell!("periscope: {e}");
            Exit::Usage
        })
    };
    let a = match read(first) {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    let (before, after) = match second {
        Some(path) => match read(path) {
            Ok(b) => (Surface::of(&a, Moment::Last), Surface::of(&b, Moment::Last)),
            Err(exit) => return exit,
        },
        None => (
            Surface::of(&a, Moment::First),
            Surface::of(&a, Moment::Last),
        ),
    };
    let result = diff::compare(&before, &after);
    match format {
        Format::Json => say!(
            "{}",
            serde_json::to_string_pretty(&result).unwrap_or_default()
        ),
        Format::Text => say!("{}", diff::to_text(&result).trim_end()),
    }
    let fails = match fail_on {
        DiffFailOn::Any => !result.is_same(),
        DiffFailOn::Breaking => !result.breaking.is_empty(),
    };
    if fails { Exit::Found } else { Exit::Ok }
}
