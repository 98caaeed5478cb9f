//! What a pending wait found when it last looked at its requests, so that the packets arriving
//! while it waits need not look again. A wait is looked at each time the rank handles an event; in
//! a halo exchange that is every packet that arrives, and looking (finding each request, checking
//! each completion time, keeping those still pending) took a fifth of the run.
//!
//! Looking again would change nothing, and is skipped, while all of these hold: no request of the
//! rank has completed or been dropped since (each request's completion time is as it was, so the
//! same requests are pending); the earliest completion time among the pending ones has not come;
//! and the wake-up timer the look would set is already set.

use hase_engine::time::SimTime;

/// The pending wait's last look (or none: [`WaitCheck::NONE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WaitCheck {
    /// The rank's count of request changes at the look ([`super::mpi::Mpi::request_changes`]).
    pub changes: u64,
    /// The earliest completion time of a request still pending then (`SimTime::MAX`: none has one).
    pub until: SimTime,
    /// The latest completion time of a request still pending then, when the wake-up timer is due
    /// (`SimTime::MAX`: none).
    pub wake_at: SimTime,
}

impl WaitCheck {
    /// No wait is pending, or it must be looked at.
    pub const NONE: WaitCheck = WaitCheck { changes: 0, until: SimTime::ZERO, wake_at: SimTime::MAX };

    /// True if the wait is still pending at `now` and looking again would change nothing: no request
    /// changed (`changes`), none of the pending ones is due yet, and the rank's wake-up timer
    /// (`timer`) is where the look would leave it.
    pub fn still_pending(&self, changes: u64, now: SimTime, timer: Option<SimTime>) -> bool {
        let timer_in_place =
            self.wake_at == SimTime::MAX || timer.is_some_and(|w| w >= now && w <= self.wake_at);
        changes == self.changes && now < self.until && timer_in_place
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(until_ns: u64, wake_ns: u64) -> WaitCheck {
        WaitCheck { changes: 7, until: SimTime::from_ns(until_ns), wake_at: SimTime::from_ns(wake_ns) }
    }

    #[test]
    fn none_always_looks_again() {
        assert!(!WaitCheck::NONE.still_pending(0, SimTime::ZERO, None));
    }

    #[test]
    fn a_changed_request_or_a_due_one_makes_it_look_again() {
        let c = check(100, 300);
        let timer = Some(SimTime::from_ns(300));
        assert!(c.still_pending(7, SimTime::from_ns(99), timer));
        assert!(!c.still_pending(8, SimTime::from_ns(99), timer), "a request changed");
        assert!(!c.still_pending(7, SimTime::from_ns(100), timer), "the first completion is due");
    }

    #[test]
    fn a_missing_stale_or_late_timer_makes_it_look_again() {
        let c = check(100, 300);
        let now = SimTime::from_ns(50);
        assert!(!c.still_pending(7, now, None), "the timer fired and was not set again");
        assert!(!c.still_pending(7, now, Some(SimTime::from_ns(40))), "stale");
        assert!(!c.still_pending(7, now, Some(SimTime::from_ns(301))), "later than the completions");
        assert!(c.still_pending(7, now, Some(SimTime::from_ns(200))), "an earlier timer is kept");
        let no_times = WaitCheck { wake_at: SimTime::MAX, until: SimTime::MAX, ..c };
        assert!(no_times.still_pending(7, now, None), "nothing to wake for: only a change ends it");
    }
}
