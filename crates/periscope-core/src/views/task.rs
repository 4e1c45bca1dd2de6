//! A task (`tasks/get`, a `CreateTaskResult`, a status notification) read leniently, with the
//! JSON as sent: the engine's [`Task`] when it has an id and a status, else what could be read.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::tasks::Task;

/// A task as the server sent it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TaskView {
    /// The task, when it could be read (it needs a `taskId` and a `status`).
    pub task: Option<Task>,
    /// Why it could not, when it could not.
    pub problem: Option<crate::vocabulary::breach::Breach>,
    pub raw: Value,
}

impl TaskView {
    pub fn read(raw: &Value) -> TaskView {
        let (task, problem) = match Task::from_wire(raw) {
            Ok(task) => (Some(task), None),
            Err(problem) => (None, Some(problem)),
        };
        TaskView {
            task,
            problem,
            raw: raw.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskStatus;
    use serde_json::json;

    #[test]
    fn a_task_reads_from_either_shape_with_its_raw_json() {
        let legacy = json!({"task": {"taskId": "t-1", "status": "working", "pollInterval": 500}});
        let view = TaskView::read(&legacy);
        let task = view.task.unwrap();
        assert_eq!(
            (task.task_id.as_str(), &task.status),
            ("t-1", &TaskStatus::Working)
        );
        assert_eq!(task.poll_interval_ms, Some(500));
        assert_eq!(view.raw, legacy);
    }

    #[test]
    fn a_malformed_task_is_kept_with_the_reason() {
        let raw = json!({"status": "working"});
        let view = TaskView::read(&raw);
        assert_eq!(view.task, None);
        assert_eq!(
            view.problem,
            Some(crate::vocabulary::breach::Breach::NotATask {
                missing: "taskId".into()
            })
        );
        assert_eq!(view.raw, raw);
    }
}
