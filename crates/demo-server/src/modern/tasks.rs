//! A tool that runs as a task (the `io.modelcontextprotocol/tasks`
//! extension of 2026-07-28): `tools/call` answers `resultType: "task"` at
//! once, and the client follows it with `tasks/get` (status, progress in
//! `statusMessage`, the result), `tasks/update` (answers to the task's input
//! requests) and `tasks/cancel`.
//!
//! rmcp's [`TaskManager`] keeps the tasks; the demo holds one per process so
//! every stateless HTTP request sees the same tasks. The extension defines no
//! `notifications/progress` for tasks, so progress is the status message.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError,
    model::{
        CallToolResponse, ClientCapabilities, CreateTaskResult, JsonObject, Tool, ToolAnnotations,
        object,
    },
    task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions},
};
use serde_json::{Value, json};

use super::mrtr::{Needed, elicitation, require};
use crate::tool_result::text_result;

pub const LONG_JOB: &str = "long_job";
/// How long a task is kept, from its creation.
pub const TASK_TTL_MS: u64 = 10 * 60 * 1000;
/// The polling interval the demo suggests.
pub const POLL_INTERVAL_MS: u64 = 500;
/// The `inputRequests` key of the halfway question.
const CONTINUE_KEY: &str = "continue";

pub fn tool() -> Tool {
    Tool::new(
        LONG_JOB,
        "Runs as a task (extension io.modelcontextprotocol/tasks; the client must declare it): \
         returns a task handle at once, then works through `steps` steps of `step_ms` ms, \
         reporting progress in the task's statusMessage (\"step 3 of 10 (30%)\"). With `ask`, \
         it stops halfway in input_required with an elicitation (key \"continue\") answered \
         through tasks/update. tasks/cancel stops it (status cancelled).",
        object(json!({
            "type": "object",
            "properties": {
                "steps": {
                    "type": "integer", "description": "Number of steps.",
                    "minimum": 1, "maximum": 100, "default": 10
                },
                "step_ms": {
                    "type": "integer", "description": "Duration of each step in milliseconds.",
                    "minimum": 0, "maximum": 60000, "default": 1000
                },
                "ask": {
                    "type": "boolean",
                    "description": "Ask for confirmation halfway (needs elicitation).",
                    "default": false
                }
            }
        })),
    )
    .with_title("Long job (task)")
    .with_annotations(
        ToolAnnotations::with_title("Long job (task)")
            .read_only(true)
            .idempotent(false)
            .open_world(false),
    )
}

/// The job's arguments, checked.
#[derive(Debug, Clone, Copy)]
struct Job {
    steps: u64,
    step_ms: u64,
    ask: bool,
}

impl Job {
    fn parse(args: &JsonObject) -> Result<Self, String> {
        let integer = |name: &str, default: u64, max: u64, min: u64| -> Result<u64, String> {
            let value = match args.get(name) {
                None | Some(Value::Null) => default,
                Some(value) => value
                    .as_u64()
                    .ok_or_else(|| format!("{name} must be a non-negative integer"))?,
            };
            if !(min..=max).contains(&value) {
                return Err(format!("{name} must be between {min} and {max}"));
            }
            Ok(value)
        };
        Ok(Self {
            steps: integer("steps", 10, 100, 1)?,
            step_ms: integer("step_ms", 1000, 60_000, 0)?,
            ask: match args.get("ask") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(ask)) => *ask,
                Some(_) => return Err("ask must be a boolean".to_string()),
            },
        })
    }

    /// The step after which the job asks to continue.
    fn halfway(self) -> u64 {
        (self.steps / 2).max(1)
    }
}

/// Starts `long_job` as a task; -32021 when the request did not declare
/// the tasks extension (or elicitation, with `ask`).
pub fn call(
    args: &JsonObject,
    capabilities: Option<&ClientCapabilities>,
    tasks: &TaskManager,
) -> Result<CallToolResponse, McpError> {
    if !capabilities.is_some_and(ClientCapabilities::supports_tasks) {
        return Err(McpError::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        ));
    }
    let job = match Job::parse(args) {
        Ok(job) => job,
        Err(error) => {
            return Ok(
                crate::tool_result::error_result(format!("invalid arguments: {error}")).into(),
            );
        }
    };
    if job.ask {
        require(capabilities, &[Needed::ElicitationForm])?;
    }
    let options = TaskOptions::new()
        .with_ttl_ms(TASK_TTL_MS)
        .with_poll_interval_ms(POLL_INTERVAL_MS)
        .with_status_message(progress(0, job.steps));
    let task = tasks.spawn(options, |context| Box::pin(run(job, context)));
    tracing::info!(task_id = %task.task_id, ?job, "long_job task started");
    Ok(CreateTaskResult::new(task).into())
}

fn progress(step: u64, steps: u64) -> String {
    format!("step {step} of {steps} ({}%)", step * 100 / steps)
}

async fn run(job: Job, context: TaskContext) -> Result<rmcp::model::CallToolResult, TaskExit> {
    for step in 1..=job.steps {
        tokio::select! {
            () = context.cancelled() => return Err(TaskExit::Cancelled),
            () = tokio::time::sleep(Duration::from_millis(job.step_ms)) => {}
        }
        context.set_status_message(progress(step, job.steps));
        if job.ask && step == job.halfway() && step < job.steps {
            context.set_status_message(format!(
                "waiting for confirmation after {}",
                progress(step, job.steps)
            ));
            let question = elicitation(
                &format!("long_job is at step {step} of {}. Continue?", job.steps),
                json!({
                    "type": "object",
                    "properties": {
                        "continue": { "type": "boolean", "title": "Continue", "default": true }
                    },
                    "required": ["continue"]
                }),
            )?;
            // Cancelling the task drops the pending question, which ends this wait.
            let answer = context.request_input(CONTINUE_KEY, question).await?;
            let accepted = answer["action"] == "accept" && answer["content"]["continue"] == true;
            if !accepted {
                return Ok(text_result(format!(
                    "stopped by the user after {}",
                    progress(step, job.steps)
                )));
            }
            context.set_status_message(progress(step, job.steps));
        }
    }
    Ok(text_result(format!(
        "long_job finished all {} steps",
        job.steps
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_checked() {
        let job = Job::parse(&JsonObject::new()).unwrap();
        assert_eq!((job.steps, job.step_ms, job.ask), (10, 1000, false));
        assert_eq!(job.halfway(), 5);
        assert!(Job::parse(&object(json!({ "steps": 0 }))).is_err());
        assert!(Job::parse(&object(json!({ "ask": "yes" }))).is_err());
        assert_eq!(
            Job::parse(&object(json!({ "steps": 1 })))
                .unwrap()
                .halfway(),
            1
        );
    }

    #[test]
    fn progress_reads_as_a_fraction() {
        assert_eq!(progress(3, 10), "step 3 of 10 (30%)");
    }
}
