//! A stdio server never outlives Periscope, even when Periscope is killed (SIGKILL, a crash, an
//! OOM kill) and no shutdown code runs.
//!
//! Linux: the child asks the kernel for SIGKILL when its parent dies (`PR_SET_PDEATHSIG`),
//! between fork and exec. The kernel sends it when the *thread* that forked the child exits,
//! not the process; runtime threads come and go (tokio's blocking pool retires idle threads
//! after ten seconds), so every server is forked from one thread that lives as long as
//! Periscope. What the server itself started sees its stdin close when the server dies, the
//! spec's signal to stop; a graceful close takes the whole process group (`stdio.rs`).
//!
//! Windows: TODO — a job object with `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`, assigned to the
//! child after spawn, does the same for the whole tree. Not written yet: the transport is
//! unix-only today (process groups and signals through `nix`), and no Windows target can be
//! built on the machines this project is developed on.
//! macOS and the BSDs have no parent-death signal; there the graceful close is the guarantee.

use std::io;
use std::sync::OnceLock;
use std::sync::mpsc;

use tokio::process::{Child, Command};

/// Starts `cmd` so that its process dies with Periscope's.
pub fn spawn(mut cmd: Command) -> io::Result<Child> {
    #[cfg(target_os = "linux")]
    die_with_parent(&mut cmd);
    spawn_on_lasting_thread(cmd)
}

#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut Command) {
    use nix::sys::signal::Signal;
    use nix::unistd::{getpid, getppid};

    let parent = getpid();
    // SAFETY: the closure runs in the forked child before exec and only makes two system calls
    // (async-signal-safe, no allocation, no lock), as `pre_exec` requires.
    unsafe {
        cmd.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
            // Periscope may have died between fork and prctl: then no signal will ever come,
            // and the child was already adopted by another process.
            if getppid() != parent {
                return Err(io::Error::from_raw_os_error(
                    nix::errno::Errno::ESRCH as i32,
                ));
            }
            Ok(())
        });
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// Runs `cmd.spawn()` on the one thread that forks servers, inside the caller's runtime (the
/// child's exit is watched by that runtime, as if spawned here).
fn spawn_on_lasting_thread(mut cmd: Command) -> io::Result<Child> {
    static SPAWNER: OnceLock<mpsc::Sender<Job>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("periscope-server-spawner".into())
            .spawn(move || queue.into_iter().for_each(|job| job()))
            .expect("the server spawner thread starts");
        jobs
    });
    let runtime = tokio::runtime::Handle::current();
    let (done, result) = mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        let _in_runtime = runtime.enter();
        let _ = done.send(cmd.spawn());
    });
    spawner
        .send(job)
        .map_err(|_| io::Error::other("the server spawner thread is gone"))?;
    // A fork and an exec: as long as spawning here would block this thread anyway.
    result
        .recv()
        .map_err(|_| io::Error::other("the server spawner thread is gone"))?
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_child_spawned_on_the_lasting_thread_is_watched_by_the_callers_runtime() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "exit 3"]);
        let mut child = spawn(cmd).expect("sh starts");
        let status = child.wait().await.expect("its exit is seen");
        assert_eq!(status.code(), Some(3));
    }

    #[tokio::test]
    async fn a_server_outlives_the_short_lived_thread_that_asked_for_it() {
        let runtime = tokio::runtime::Handle::current();
        let mut child = std::thread::spawn(move || {
            let _in_runtime = runtime.enter();
            let mut cmd = Command::new("sleep");
            cmd.arg("30").kill_on_drop(true);
            spawn(cmd).expect("sleep starts")
        })
        .join()
        .unwrap();
        // Had that thread forked it, the parent-death signal would have killed it by now.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            child.try_wait().unwrap().is_none(),
            "the server is still running"
        );
    }
}
