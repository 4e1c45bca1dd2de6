//! How many of one server's log messages a host hands its live console each second.
//!
//! A server that floods `notifications/message` (tens of thousands a second) would otherwise
//! have every one serialized, sent to the UI and parsed there: a profile of the app under a
//! 50 000-a-second flood put about 40 % of its CPU in that alone, beside clicks that must
//! answer (docs/chaos.md). The console draws its newest thousand entries (a fiftieth of a
//! second of that flood), and nobody reads faster than a few hundred lines a second. So past
//! [`LIVE_LOGS_PER_SECOND`] in a second, log messages are held back from the live feed and
//! counted; the host says how many, in order, once their second is over. Nothing is lost:
//! every message is a frame in the record (Traffic).

use std::time::{Duration, Instant};

/// The most log messages of one server handed to the live console in a second.
pub const LIVE_LOGS_PER_SECOND: u32 = 500;

const WINDOW: Duration = Duration::from_secs(1);

/// What to do with one log message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Hand it over.
    Show,
    /// First say that this many were held back (in the second that just ended), then hand it
    /// over.
    ShowAfterHeld(u64),
    /// Hold it back: counted, said later.
    Hold,
}

/// One server's gate (one per live feed).
#[derive(Debug, Default)]
pub struct LiveLogs {
    /// When the current second started: at the first message after the last one ended.
    since: Option<Instant>,
    shown: u32,
    held: u64,
}

impl LiveLogs {
    /// A log message arrives at `now`.
    pub fn offer(&mut self, now: Instant) -> Admit {
        let held = self.roll(now);
        if self.since.is_none() {
            self.since = Some(now);
        }
        if self.shown < LIVE_LOGS_PER_SECOND {
            self.shown += 1;
            return match held {
                Some(n) => Admit::ShowAfterHeld(n),
                None => Admit::Show,
            };
        }
        self.held += 1;
        Admit::Hold
    }

    /// For a timer: how many were held back once their second is over (and not yet said), so
    /// the count is told even when the flood stops.
    pub fn held_due(&mut self, now: Instant) -> Option<u64> {
        self.roll(now)
    }

    /// Whatever is held, now (the feed ends).
    pub fn held_now(&mut self) -> Option<u64> {
        self.since = None;
        self.shown = 0;
        let held = std::mem::take(&mut self.held);
        (held > 0).then_some(held)
    }

    /// Ends the current second when it is over: returns what it held back.
    fn roll(&mut self, now: Instant) -> Option<u64> {
        let over = self
            .since
            .is_some_and(|since| now.duration_since(since) >= WINDOW);
        if !over {
            return None;
        }
        self.held_now()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_shows_the_first_few_hundred_and_holds_the_rest_until_it_is_over() {
        let start = Instant::now();
        let mut gate = LiveLogs::default();
        let mut shown = 0;
        for i in 0..5_000u32 {
            let at = start + Duration::from_micros(u64::from(i) * 100);
            match gate.offer(at) {
                Admit::Show => shown += 1,
                Admit::Hold => {}
                Admit::ShowAfterHeld(n) => panic!("said {n} within the second"),
            }
        }
        assert_eq!(shown, LIVE_LOGS_PER_SECOND);
        // Within the second nothing is due yet.
        assert_eq!(gate.held_due(start + Duration::from_millis(999)), None);
        // The next second's first message comes after the count of the one before.
        assert_eq!(
            gate.offer(start + WINDOW),
            Admit::ShowAfterHeld(5_000 - u64::from(LIVE_LOGS_PER_SECOND))
        );
        assert_eq!(gate.offer(start + WINDOW), Admit::Show);
    }

    #[test]
    fn a_flood_that_stops_is_counted_by_the_timer_and_a_quiet_server_passes_whole() {
        let start = Instant::now();
        let mut gate = LiveLogs::default();
        for _ in 0..LIVE_LOGS_PER_SECOND + 500 {
            gate.offer(start);
        }
        assert_eq!(gate.held_due(start + WINDOW), Some(500));
        assert_eq!(gate.held_due(start + WINDOW * 3), None);
        // A few messages a second, for minutes: every one shown, nothing ever held.
        for s in 0..300u64 {
            for _ in 0..5 {
                assert_eq!(gate.offer(start + Duration::from_secs(2 + s)), Admit::Show);
            }
        }
        assert_eq!(gate.held_now(), None);
    }

    #[test]
    fn what_is_held_when_the_feed_ends_is_said_at_once() {
        let start = Instant::now();
        let mut gate = LiveLogs::default();
        for _ in 0..=LIVE_LOGS_PER_SECOND {
            gate.offer(start);
        }
        assert_eq!(gate.held_now(), Some(1));
        assert_eq!(gate.held_now(), None);
    }
}
