//! What the CLI says on stderr while a command runs: the server's log messages and other
//! notifications, what is normal but worth knowing, every frame that breaks the protocol, and
//! how many events went by too fast to print.

use std::time::Duration;

use periscope_core::event::{Event, ServerNotification};
use periscope_core::record::Flag;
use periscope_core::vocabulary::Problem;
use periscope_core::wire::Direction;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::output;

/// Shows, on stderr, what the server says along the way: log messages and other
/// notifications (unless `--quiet`), what is normal but worth knowing (with `-v`), and always
/// every frame that breaks the protocol.
pub async fn print_events(
    mut events: broadcast::Receiver<Event>,
    quiet: bool,
    verbose: bool,
    recorded: bool,
) {
    let mut missed = Missed::new(recorded);
    loop {
        let event = match events.recv().await {
            Ok(event) => event,
            Err(broadcast::error::RecvError::Lagged(n)) => {
                missed.add(n);
                continue;
            }
            Err(broadcast::error::RecvError::Closed) => {
                missed.tell();
                return;
            }
        };
        match event {
            Event::MalformedFrame(frame) if frame.direction == Direction::In => {
                tell!(
                    "periscope: warning: the server sent a frame that is {} (frame {}, {} bytes): {}",
                    frame.verdict.summary(),
                    frame.seq,
                    frame.size(),
                    output::preview(&output::frame_start(&frame.bytes, 80), 80)
                );
            }
            Event::Warning(text) => tell!("periscope: warning: {text}"),
            Event::Info(text) if verbose => tell!("periscope: {text}"),
            // Said even with -q: it explains a wait of up to the probe's whole timeout.
            Event::ProbeWaiting { waited_ms } => tell!(
                "periscope: waiting for the server to answer server/discover (the 2026-07-28 era's probe, {:.0} s so far); a server that ignores it costs the probe's whole wait: `--era legacy` skips it",
                waited_ms as f64 / 1000.0
            ),
            Event::FromCache {
                method, left_ms, ..
            } if !quiet => tell!(
                "periscope: {}",
                Problem::FromCache {
                    method: method.to_string(),
                    left_s: left_ms.div_ceil(1000),
                }
            ),
            Event::InputRound {
                method,
                round,
                asked,
                ..
            } if !quiet => {
                let asked: Vec<String> = asked
                    .iter()
                    .map(|(key, m)| format!("{key} ({m})"))
                    .collect();
                let asked = if asked.is_empty() {
                    "nothing, only its requestState back".to_string()
                } else {
                    asked.join(", ")
                };
                tell!("periscope: {method}: round {round}: the server asks for {asked}");
            }
            // Each gap the checks left is counted; the CLI says the total once, at the end
            // (a flood left a line a gap on stderr).
            Event::FrameFlagged(record) if matches!(record.flag, Flag::NotChecked { .. }) => {}
            Event::FrameFlagged(record) => {
                if let Some(text) = output::flag_text(&record.flag) {
                    tell!("periscope: warning: frame {}: {text}", record.seq);
                }
            }
            Event::Notification(n) if !quiet => match &*n {
                ServerNotification::Log {
                    level,
                    logger,
                    data,
                } => {
                    let logger = logger.as_ref().map(|l| format!(" {l}")).unwrap_or_default();
                    let data = match data {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    tell!("[server {level}{logger}] {data}");
                }
                ServerNotification::Progress(_) => {}
                other => tell!("[server notification] {}", other.method()),
            },
            _ => {}
        }
    }
}

/// Events the printer fell behind on, told at most once a second (a flood would otherwise
/// print a line per lag, hundreds of them) and once more at the end.
struct Missed {
    count: u64,
    told_at: Option<std::time::Instant>,
    recorded: bool,
}

impl Missed {
    fn new(recorded: bool) -> Missed {
        Missed {
            count: 0,
            told_at: None,
            recorded,
        }
    }

    fn add(&mut self, n: u64) {
        self.count += n;
        if self
            .told_at
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(1))
        {
            self.tell();
        }
    }

    fn tell(&mut self) {
        if self.count == 0 {
            return;
        }
        let count = self.count;
        if self.recorded {
            tell!(
                "periscope: {count} events went by too fast to print; the record file has them all"
            );
        } else {
            tell!(
                "periscope: {count} events went by too fast to print (`--record FILE` keeps every frame)"
            );
        }
        self.count = 0;
        self.told_at = Some(std::time::Instant::now());
    }
}
