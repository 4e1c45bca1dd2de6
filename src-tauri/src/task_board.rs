//! The tasks the app follows, per server: the latest look at each, and the token that stops
//! following it (which sends `tasks/cancel`). The UI's Tasks view reads it; changes go out as
//! `AppEvent::Task`.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use periscope_core::tasks::TaskEntry;
use tokio_util::sync::CancellationToken;

/// Past this many tasks per server, the oldest finished ones are forgotten.
const MAX_TASKS_PER_SERVER: usize = 200;

#[derive(Default)]
pub struct TaskBoard {
    servers: Mutex<HashMap<String, Vec<Followed>>>,
}

struct Followed {
    entry: TaskEntry,
    stop: CancellationToken,
}

impl TaskBoard {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Vec<Followed>>> {
        self.servers.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds a task (or replaces the one with its id) and returns the token that stops
    /// following it.
    pub fn insert(&self, server_id: &str, entry: TaskEntry) -> CancellationToken {
        let stop = CancellationToken::new();
        let mut servers = self.lock();
        let tasks = servers.entry(server_id.to_string()).or_default();
        tasks.retain(|f| f.entry.task.task_id != entry.task.task_id);
        tasks.push(Followed {
            entry,
            stop: stop.clone(),
        });
        while tasks.len() > MAX_TASKS_PER_SERVER {
            match tasks.iter().position(|f| !f.entry.following) {
                Some(oldest) => tasks.remove(oldest),
                None => break,
            };
        }
        stop
    }

    /// Changes one task's entry; returns the new entry.
    pub fn update(
        &self,
        server_id: &str,
        task_id: &str,
        change: impl FnOnce(&mut TaskEntry),
    ) -> Option<TaskEntry> {
        let mut servers = self.lock();
        let followed = servers
            .get_mut(server_id)?
            .iter_mut()
            .find(|f| f.entry.task.task_id == task_id)?;
        change(&mut followed.entry);
        Some(followed.entry.clone())
    }

    /// The server's tasks, oldest first.
    pub fn list(&self, server_id: &str) -> Vec<TaskEntry> {
        self.lock()
            .get(server_id)
            .map(|t| t.iter().map(|f| f.entry.clone()).collect())
            .unwrap_or_default()
    }

    /// The token that stops following a task, if the app follows it.
    pub fn stop_token(&self, server_id: &str, task_id: &str) -> Option<CancellationToken> {
        self.lock()
            .get(server_id)?
            .iter()
            .find(|f| f.entry.task.task_id == task_id && f.entry.following)
            .map(|f| f.stop.clone())
    }
}
