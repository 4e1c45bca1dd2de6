//! The checks' share of the CPU while the traffic outruns them.
//!
//! The worker runs niced, so that recording comes first when CPU is short. Nice alone did not
//! keep it to what was left: the threads that record a flood block and wake all the time (on
//! the pipe, on the record file's queue), each gap went to the worker, and each wake-up found
//! it on the CPU. On 2 cores a 1 000 000-frame flood with `--record` took 2.3–2.6 s with the
//! checks against 1.8–2.2 s without, and they checked a fifth of its frames all the same.
//!
//! So while frames are being skipped (the queue was full: the traffic is faster than the
//! checks, and some frames go unchecked anyway), the worker keeps to [`FLOOD_SHARE`] of one
//! core, sleeping off what it ran over. A flood is remembered for [`FLOOD_QUIET`] after its
//! last skipped frame: the session hands frames over again once the worker has emptied half
//! its queue, so a flood skips in bursts, and a worker that ran freely between the bursts took
//! a third of a core, not a fifth. Once nothing was skipped for that long it runs freely again:
//! a session that is not flooded, and the end of one that was, are checked at full speed.

use std::time::{Duration, Instant};

/// The most of one core the checks take while frames are being skipped.
pub(super) const FLOOD_SHARE: f64 = 0.2;
/// Frames checked between two looks at the budget (a look reads the thread's CPU clock).
pub(super) const LOOK_EVERY: usize = 64;
/// How long after its last skipped frame a flood still counts as one.
pub(super) const FLOOD_QUIET: Duration = Duration::from_secs(1);

/// Where the worker stands against its budget.
#[derive(Default)]
pub(super) struct Budget {
    /// Since when frames have been skipped: the wall time and the worker's CPU time then.
    outrun_since: Option<(Instant, Duration)>,
    /// The session's skipped frames at the last look, and when that count last grew.
    skipped_seen: u64,
    last_skip: Option<Instant>,
}

impl Budget {
    /// Looks at the budget, given how many frames the session has skipped so far; returns how
    /// long to sleep (zero unless the traffic outruns the checks and they ran over their share).
    pub(super) fn look(&mut self, skipped: u64) -> Duration {
        let now = Instant::now();
        if skipped > self.skipped_seen {
            self.skipped_seen = skipped;
            self.last_skip = Some(now);
        }
        let flooded = self
            .last_skip
            .is_some_and(|last| now.duration_since(last) < FLOOD_QUIET);
        let Some(cpu) = flooded.then(thread_cpu_time).flatten() else {
            self.outrun_since = None;
            return Duration::ZERO;
        };
        let (wall_then, cpu_then) = *self.outrun_since.get_or_insert((now, cpu));
        owed(now - wall_then, cpu.saturating_sub(cpu_then))
    }
}

/// The sleep that brings `cpu` spent over `wall` back to [`FLOOD_SHARE`].
fn owed(wall: Duration, cpu: Duration) -> Duration {
    cpu.div_f64(FLOOD_SHARE).saturating_sub(wall)
}

/// The calling thread's CPU time, where the platform tells it.
fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid, writable timespec; the call reads no other memory.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
        ok.then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nothing is owed while nothing is skipped, however much CPU went by.
    #[test]
    fn without_skipped_frames_the_checks_run_freely() {
        let mut budget = Budget::default();
        for _ in 0..3 {
            let start = Instant::now();
            while start.elapsed() < Duration::from_millis(5) {}
            assert_eq!(budget.look(0), Duration::ZERO);
        }
    }

    /// While frames are skipped, CPU spent busily is owed back as sleep, at the share.
    #[test]
    fn while_frames_are_skipped_busy_time_is_slept_off_at_the_share() {
        let mut budget = Budget::default();
        let start = Instant::now();
        assert_eq!(
            budget.look(10),
            Duration::ZERO,
            "the first look starts the count"
        );
        let cpu_then = thread_cpu_time().expect("a CPU clock on unix");
        while thread_cpu_time().unwrap() - cpu_then < Duration::from_millis(20) {}
        let sleep = budget.look(20);
        let wall = start.elapsed();
        // 20 ms of CPU at a fifth is 100 ms, less the wall time already gone.
        if wall < Duration::from_millis(95) {
            let total = sleep + wall;
            assert!(
                total >= Duration::from_millis(99) && total <= Duration::from_millis(110),
                "slept {sleep:?} after {wall:?}"
            );
        }
        // The skipping paused: the flood is still on, and the busy time still owed.
        let cpu_then = thread_cpu_time().unwrap();
        while thread_cpu_time().unwrap() - cpu_then < Duration::from_millis(5) {}
        let started = Instant::now();
        let sleep = budget.look(20);
        if started.duration_since(start) < Duration::from_millis(95) {
            assert!(
                sleep > Duration::ZERO,
                "a pause in the skipping ended the budget"
            );
        }
        // Nothing skipped for FLOOD_QUIET: nothing owed, and the count starts again.
        budget.last_skip = Some(Instant::now() - FLOOD_QUIET);
        assert_eq!(budget.look(20), Duration::ZERO);
        assert!(budget.outrun_since.is_none());
    }

    #[test]
    fn what_is_owed_is_the_cpu_at_the_share_less_the_wall_gone() {
        let ms = Duration::from_millis;
        assert_eq!(owed(ms(100), ms(10)), Duration::ZERO);
        assert_eq!(owed(ms(30), ms(10)), ms(20));
    }
}
