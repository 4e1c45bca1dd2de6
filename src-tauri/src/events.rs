//! Batches engine events for the UI, so a flood of frames becomes a few IPC messages a second
//! instead of one per frame.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use periscope_core::view::AppEvent;
use tauri::ipc::Channel;
use tokio::sync::mpsc;

/// Longest an event waits before it is sent.
const BATCH_WINDOW: Duration = Duration::from_millis(40);
/// Most events in one message.
const BATCH_MAX: usize = 5000;

#[derive(Clone)]
pub struct EventHub {
    tx: mpsc::UnboundedSender<AppEvent>,
    channel: Arc<Mutex<Option<Channel<Vec<AppEvent>>>>>,
}

impl Default for EventHub {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        let channel = Arc::new(Mutex::new(None));
        tauri::async_runtime::spawn(batch(rx, channel.clone()));
        EventHub { tx, channel }
    }
}

impl EventHub {
    pub fn send(&self, event: AppEvent) {
        let _ = self.tx.send(event);
    }

    /// Points the feed at the UI's channel (a reloaded UI subscribes again).
    pub fn attach(&self, channel: Channel<Vec<AppEvent>>) {
        *self.channel.lock().unwrap_or_else(|p| p.into_inner()) = Some(channel);
        // A server opened from the command line may have joined the catalog after the UI read
        // it and before it subscribed (its `Catalog` event then went nowhere): read it again.
        self.send(AppEvent::Catalog);
    }
}

async fn batch(
    mut rx: mpsc::UnboundedReceiver<AppEvent>,
    channel: Arc<Mutex<Option<Channel<Vec<AppEvent>>>>>,
) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        let deadline = tokio::time::Instant::now() + BATCH_WINDOW;
        while batch.len() < BATCH_MAX {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(event)) => batch.push(event),
                _ => break,
            }
        }
        let merged = merge(batch);
        let target = channel.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(target) = target {
            // A UI that went away is not an error; it fetches what it missed when it returns.
            let _ = target.send(merged);
        }
    }
}

/// Keeps only the newest of consecutive `traffic_changed` events of one server (each says
/// everything the one before it did).
fn merge(events: Vec<AppEvent>) -> Vec<AppEvent> {
    let mut out: Vec<AppEvent> = Vec::with_capacity(events.len());
    for event in events {
        if let (
            Some(AppEvent::TrafficChanged {
                server_id: last_id,
                summary: last,
            }),
            AppEvent::TrafficChanged { server_id, summary },
        ) = (out.last_mut(), &event)
            && last_id == server_id
        {
            *last = *summary;
            continue;
        }
        out.push(event);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use periscope_core::traffic_window::TrafficSummary;

    #[test]
    fn consecutive_traffic_changes_of_one_server_keep_the_newest_and_others_keep_their_order() {
        let changed = |id: &str, listed_to: u64| AppEvent::TrafficChanged {
            server_id: id.into(),
            summary: TrafficSummary {
                listed_to,
                ..TrafficSummary::default()
            },
        };
        let status = AppEvent::Status {
            server_id: "a".into(),
            status: periscope_core::view::ConnectionStatus::Connecting,
        };
        let merged = merge(vec![
            changed("a", 2),
            changed("a", 5),
            status.clone(),
            changed("a", 6),
            changed("b", 1),
        ]);
        assert_eq!(merged.len(), 4);
        assert_eq!(merged[0], changed("a", 5));
        assert_eq!(merged[1], status);
        assert_eq!(merged[2], changed("a", 6));
    }
}
