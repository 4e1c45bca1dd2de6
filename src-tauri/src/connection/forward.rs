//! The event forwarder: tells the UI that a session's record grew (a small summary, a few
//! times a second, never a row: the Traffic list asks for the rows it shows), and passes on
//! stderr lines, HTTP exchanges and the session's other events.

use periscope_core::vocabulary::Problem;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use periscope_core::doctor;
use periscope_core::event::{Event, ServerNotification, SessionState};
use periscope_core::live_logs::{Admit, LIVE_LOGS_PER_SECOND, LiveLogs};
use periscope_core::session::Session;
use periscope_core::traffic::Traffic;
use periscope_core::traffic_window::TrafficSummary;
use periscope_core::view::{AppEvent, ConnectionStatus};
use tokio::sync::broadcast;

use super::{Conn, STDERR_TAIL, lock};
use crate::events::EventHub;

/// How often, at most, the UI hears that the record grew (10 a second).
const TRAFFIC_TICK: Duration = Duration::from_millis(100);
/// After the session closed, how long the forwarder waits for the store to list the last
/// entries before it stops telling.
const SETTLE: Duration = Duration::from_secs(60);

/// Tells the UI about one session's record. Events only wake it up: it reads the record by
/// position, so a lagging feed loses nothing.
pub(super) async fn forward(
    server_id: String,
    conn: Arc<Conn>,
    mut events: broadcast::Receiver<Event>,
    session: Arc<Session>,
    hub: EventHub,
) {
    let traffic = session.traffic().clone();
    let mut told = Told::default();
    let mut logs = LiveLogs::default();
    let (mut stderr_seen, mut http_seen) = (0, 0);
    let mut tick = tokio::time::interval(TRAFFIC_TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let event = tokio::select! {
            event = events.recv() => event,
            _ = tick.tick() => {
                told.tell(&server_id, &traffic, &hub);
                tell_held(&server_id, logs.held_due(Instant::now()), &hub);
                continue;
            }
        };
        let lines = traffic.stderr_from(stderr_seen);
        if !lines.is_empty() {
            stderr_seen += lines.len();
            hub.send(AppEvent::Stderr {
                server_id: server_id.clone(),
                lines: lines.iter().map(|l| (**l).clone()).collect(),
            });
        }
        for exchange in traffic.exchanges_from(http_seen) {
            http_seen += 1;
            hub.send(AppEvent::Http {
                server_id: server_id.clone(),
                exchange: (*exchange).clone(),
            });
        }
        match event {
            Ok(Event::Notification(notification)) => {
                // A flood of log messages reaches the console only in part (live_logs.rs).
                if matches!(*notification, ServerNotification::Log { .. }) {
                    match logs.offer(Instant::now()) {
                        Admit::Hold => continue,
                        Admit::ShowAfterHeld(count) => tell_held(&server_id, Some(count), &hub),
                        Admit::Show => {}
                    }
                }
                hub.send(AppEvent::Notification {
                    server_id: server_id.clone(),
                    notification: Arc::unwrap_or_clone(notification),
                })
            }
            Ok(Event::Listen(state)) => hub.send(AppEvent::Listen {
                server_id: server_id.clone(),
                state,
            }),
            Ok(Event::ProbeWaiting { waited_ms }) => hub.send(AppEvent::ProbeWaiting {
                server_id: server_id.clone(),
                waited_ms,
            }),
            Ok(Event::Warning(problem)) => hub.send(AppEvent::Warning {
                server_id: server_id.clone(),
                problem,
            }),
            // Said where warnings are said: what is shown did not come from the server just now.
            Ok(Event::FromCache {
                method, left_ms, ..
            }) => hub.send(AppEvent::Warning {
                server_id: server_id.clone(),
                problem: Problem::FromCache {
                    method: method.to_string(),
                    left_s: left_ms.div_ceil(1000),
                },
            }),
            Ok(Event::StateChanged(SessionState::Closed { cause })) => {
                tell_held(&server_id, logs.held_now(), &hub);
                if !conn.user_closed.load(Ordering::SeqCst) {
                    let stderr_tail = traffic.stderr_tail(STDERR_TAIL);
                    let status = ConnectionStatus::Failed {
                        diagnoses: doctor::after_close(&cause, &stderr_tail),
                        error: Problem::ConnectionEnded { cause },
                        stderr_tail,
                    };
                    *lock(&conn.status) = status.clone();
                    hub.send(AppEvent::Status {
                        server_id: server_id.clone(),
                        status,
                    });
                }
                // Nothing more will come; the store may still be listing the last entries.
                told.settle(&server_id, &traffic, &hub).await;
                return;
            }
            Err(broadcast::error::RecvError::Closed) => {
                tell_held(&server_id, logs.held_now(), &hub);
                told.settle(&server_id, &traffic, &hub).await;
                return;
            }
            _ => {}
        }
    }
}

/// Says how many log messages were held back from the console, if any.
fn tell_held(server_id: &str, count: Option<u64>, hub: &EventHub) {
    if let Some(count) = count {
        hub.send(AppEvent::LogsHeld {
            server_id: server_id.into(),
            count,
            per_second: LIVE_LOGS_PER_SECOND,
        });
    }
}

/// What the UI was last told about the record.
#[derive(Default)]
struct Told(Option<TrafficSummary>);

impl Told {
    /// Sends the summary when it changed since the last one sent.
    fn tell(&mut self, server_id: &str, traffic: &Traffic, hub: &EventHub) -> TrafficSummary {
        let summary = traffic.summary();
        if self.0 != Some(summary) {
            self.0 = Some(summary);
            hub.send(AppEvent::TrafficChanged {
                server_id: server_id.into(),
                summary,
            });
        }
        summary
    }

    /// Keeps telling until everything recorded is listed (bounded by [`SETTLE`]).
    async fn settle(&mut self, server_id: &str, traffic: &Traffic, hub: &EventHub) {
        let deadline = tokio::time::Instant::now() + SETTLE;
        loop {
            let summary = self.tell(server_id, traffic, hub);
            let done = traffic
                .store()
                .is_none_or(|s| summary.listed_to >= traffic.last_seq() || s.failed());
            if done || tokio::time::Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep(TRAFFIC_TICK).await;
        }
    }
}
