//! `periscope tools call NAME --task`: runs a tool as a task (crate `periscope_core::tasks`),
//! prints each status change on stderr while it polls, and the result like a normal call.
//! Ctrl-C sends `tasks/cancel`.

use periscope_core::session::{CallOptions, RequestError, Session};
use periscope_core::tasks::{self, CallOutcome, FollowOptions, Task, TaskCallError, TaskStatus};
use serde_json::{Map, Value};

use crate::exit::Exit;
use crate::output::{self, Output};
use periscope_core::vocabulary::method::names;

pub async fn call_as_task(
    session: &Session,
    out: &Output,
    name: &str,
    arguments: Map<String, Value>,
) -> Exit {
    let follow = FollowOptions::default();
    // Ctrl-C stops the task on the server (tasks/cancel), not just Periscope.
    let on_interrupt = follow.cancel.clone();
    let interrupt = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_interrupt.cancel();
        }
    });
    let options = CallOptions {
        cancel: Some(follow.cancel.clone()),
        ..CallOptions::default()
    };
    let started = tasks::call_tool(session, name, Value::Object(arguments), options).await;
    let task = match started {
        Ok(CallOutcome::Task(task)) => *task,
        Ok(CallOutcome::Result(result)) => {
            // The extension lets the server answer at once; that is a normal result.
            tell!("periscope: {name} answered without a task");
            interrupt.abort();
            return finish(out, Ok(result));
        }
        Err(TaskCallError::Request(e)) => {
            interrupt.abort();
            return finish(out, Err(e));
        }
        Err(e @ TaskCallError::NotOffered) => {
            interrupt.abort();
            tell!("periscope: {e}");
            return Exit::Protocol;
        }
    };
    let followed = tasks::follow(session, task, follow, |t| tell!("{}", status_line(t))).await;
    interrupt.abort();
    let end = match followed {
        Ok(end) => end,
        Err(e) => return finish(out, Err(e)),
    };
    if end.cancelled_by_user {
        // Exit 4, like a normal call stopped with Ctrl-C.
        tell!(
            "periscope: task {} cancelled (tasks/cancel sent)",
            end.task.task_id
        );
        return Exit::Protocol;
    }
    match (end.task.status, end.result) {
        (_, Some(result)) => finish(out, Ok(result)),
        (TaskStatus::Failed, None) => finish(
            out,
            Err(RequestError::Protocol {
                method: names::TASKS_GET.into(),
                breach: periscope_core::vocabulary::breach::Breach::Other {
                    detail: format!(
                        "the task failed: {}",
                        end.task.error.map(|e| e.to_string()).unwrap_or_default()
                    ),
                },
            }),
        ),
        (status, None) => finish(
            out,
            Err(RequestError::Protocol {
                method: names::TASKS_GET.into(),
                breach: periscope_core::vocabulary::breach::Breach::TaskWithoutResult {
                    status: status.to_string(),
                },
            }),
        ),
    }
}

/// `task t-1: working: step 3 of 10 (30%)`.
fn status_line(task: &Task) -> String {
    match &task.status_message {
        Some(message) => format!("task {}: {}: {message}", task.task_id, task.status),
        None => format!("task {}: {}", task.task_id, task.status),
    }
}

fn finish(out: &Output, result: Result<Value, RequestError>) -> Exit {
    let is_error = matches!(&result, Ok(r) if r.get("isError") == Some(&Value::Bool(true)));
    let exit = out.result(result, output::print_tool_result);
    if exit == Exit::Ok && is_error {
        return Exit::ToolError;
    }
    exit
}
