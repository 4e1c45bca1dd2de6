//! The event forwarder: turns one session's record into frame rows and batched UI events.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use periscope_core::event::{Event, SessionState};
use periscope_core::session::Session;
use periscope_core::view::{AppEvent, ConnectionStatus, FrameRow, RowBuilder};
use tokio::sync::broadcast;

use super::{Conn, STDERR_TAIL, lock};
use crate::events::EventHub;

/// Turns one session's record into rows and UI events. Events only wake it up: it reads the
/// record by position, so a lagging feed loses nothing.
pub(super) async fn forward(
    server_id: String,
    conn: Arc<Conn>,
    mut events: broadcast::Receiver<Event>,
    session: Arc<Session>,
    hub: EventHub,
) {
    let mut builder = RowBuilder::default();
    let (mut frames_seen, mut stderr_seen, mut flags_seen, mut http_seen) = (0, 0, 0, 0);
    loop {
        let event = events.recv().await;
        let traffic = session.traffic();
        let frames = traffic.frames_from(frames_seen);
        if !frames.is_empty() {
            frames_seen += frames.len();
            let rows: Vec<FrameRow> = frames
                .iter()
                .map(|f| builder.row_in_call(f, traffic.round_of(f.seq)))
                .collect();
            lock(&conn.rows).extend(rows.iter().cloned());
            hub.send(AppEvent::Frames {
                server_id: server_id.clone(),
                rows,
            });
        }
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
        for record in traffic.flags_from(flags_seen) {
            flags_seen += 1;
            hub.send(AppEvent::FrameFlagged {
                server_id: server_id.clone(),
                seq: record.seq,
                flag: record.flag,
            });
        }
        match event {
            Ok(Event::Notification(notification)) => hub.send(AppEvent::Notification {
                server_id: server_id.clone(),
                notification,
            }),
            Ok(Event::Listen(state)) => hub.send(AppEvent::Listen {
                server_id: server_id.clone(),
                text: state.describe(),
                state,
            }),
            Ok(Event::Warning(message)) => hub.send(AppEvent::Warning {
                server_id: server_id.clone(),
                message,
            }),
            // Said where warnings are said: what is shown did not come from the server just now.
            Ok(Event::FromCache {
                method, left_ms, ..
            }) => hub.send(AppEvent::Warning {
                server_id: server_id.clone(),
                message: format!(
                    "{method}: from cache, {} s left (the server said the result stays fresh that long)",
                    left_ms.div_ceil(1000)
                ),
            }),
            Ok(Event::StateChanged(SessionState::Closed { reason })) => {
                if !conn.user_closed.load(Ordering::SeqCst) {
                    let status = ConnectionStatus::Failed {
                        error: format!("the connection ended: {reason}"),
                        stderr_tail: traffic.stderr_tail(STDERR_TAIL),
                    };
                    *lock(&conn.status) = status.clone();
                    hub.send(AppEvent::Status {
                        server_id: server_id.clone(),
                        status,
                    });
                }
                // The record is complete and synced; nothing more will come.
                return;
            }
            Err(broadcast::error::RecvError::Closed) => return,
            _ => {}
        }
    }
}
