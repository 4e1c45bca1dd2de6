//! The schema validator with a time limit that really stops it.
//!
//! A hostile schema can keep the validator busy for years (`schema_check`), and a thread
//! cannot be stopped from outside: abandoning it leaves it spinning, one more per keystroke.
//! So a host runs the validation in a child process, its own executable started with
//! [`WORKER_ARG`] (its `main` hands over to [`serve`]), and kills that process when the limit
//! passes; the operating system takes back the CPU and the memory. The worker also ends itself
//! at the limit, should the host die before it can kill it. A crash (a stack overflow on a
//! deep `$ref` chain) ends only the worker.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{ExitCode, Stdio};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::schema_check::{self, SchemaReport};

/// Longest a validation (compiling the schema included) may take.
pub const TIME_LIMIT: Duration = Duration::from_secs(3);
/// The first argument that makes a host's executable a validator worker.
pub const WORKER_ARG: &str = "--periscope-schema-worker";
/// How long a worker that has answered gets to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(1);
/// Largest report read back: at most `MAX_ISSUES` issues, each message quoting a bit of the
/// instance.
const MAX_REPORT_BYTES: u64 = 16 * 1024 * 1024;

/// What the host writes to the worker's stdin.
#[derive(Serialize, Deserialize)]
struct Request {
    schema: Value,
    instance: Value,
    limit_ms: u64,
}

/// Checks `instance` against `schema` in a child process (`program WORKER_ARG`), killed if it
/// has not answered within `limit`.
pub async fn validate(
    program: &Path,
    schema: &Value,
    instance: &Value,
    limit: Duration,
) -> SchemaReport {
    // Cheap refusals (too big, too deep) need no process.
    if let Some(problem) = schema_check::refuse(schema) {
        return SchemaReport::schema_error(problem);
    }
    let request = serde_json::to_vec(&Request {
        schema: schema.clone(),
        instance: instance.clone(),
        limit_ms: limit.as_millis().try_into().unwrap_or(u64::MAX),
    })
    .expect("JSON values serialize");
    let mut child = match Command::new(program)
        .arg(WORKER_ARG)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return SchemaReport::schema_error(format!("could not start the validator: {e}")),
    };
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return SchemaReport::schema_error("could not talk to the validator");
    };
    let exchange = async {
        stdin.write_all(&request).await?;
        drop(stdin);
        let mut answer = Vec::new();
        stdout
            .take(MAX_REPORT_BYTES)
            .read_to_end(&mut answer)
            .await?;
        Ok::<_, std::io::Error>(answer)
    };
    let answer = match tokio::time::timeout(limit, exchange).await {
        Ok(answer) => answer,
        Err(_) => {
            // SIGKILL: the work stops here, whatever the validator was doing.
            let _ = child.kill().await;
            return SchemaReport::schema_error(format!(
                "validation took longer than {:.1} s and was stopped (a recursive or very complex schema?)",
                limit.as_secs_f64()
            ));
        }
    };
    let status = match tokio::time::timeout(EXIT_GRACE, child.wait()).await {
        Ok(status) => status.ok(),
        Err(_) => {
            let _ = child.kill().await;
            None
        }
    };
    match answer.map(|bytes| serde_json::from_slice::<SchemaReport>(&bytes)) {
        Ok(Ok(report)) => report,
        Ok(Err(_)) => SchemaReport::schema_error(match status {
            Some(status) if !status.success() => {
                format!("the validator crashed on this schema ({status})")
            }
            _ => "the validator stopped without an answer".to_string(),
        }),
        Err(e) => SchemaReport::schema_error(format!("could not talk to the validator: {e}")),
    }
}

/// The worker: reads one request on stdin, writes the report on stdout. A host's `main` calls
/// it when its first argument is [`WORKER_ARG`], before anything else.
pub fn serve() -> ExitCode {
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return ExitCode::FAILURE;
    }
    let Ok(request) = serde_json::from_slice::<Request>(&input) else {
        return ExitCode::FAILURE;
    };
    // Should the host be gone before it kills this process, it ends at the limit by itself.
    let limit = Duration::from_millis(request.limit_ms);
    std::thread::spawn(move || {
        std::thread::sleep(limit + EXIT_GRACE);
        std::process::exit(3);
    });
    let report = schema_check::validate(&request.schema, &request.instance);
    let answer = serde_json::to_vec(&report).expect("a report serializes");
    let mut out = std::io::stdout().lock();
    match out.write_all(&answer).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}
