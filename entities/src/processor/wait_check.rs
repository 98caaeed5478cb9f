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

/// The pending wait's last look (or none: [`WaitCheck::NONE`]). Whether a request changed since is
/// kept by the rank's MPI engine ([`super::mpi::Mpi::requests_changed`]), behind its one pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WaitCheck {
    /// The earliest completion time of a request still pending then (`SimTime::MAX`: none has one).
    pub until: SimTime,
    /// The latest completion time of a request still pending then, when the wake-up timer is due
    /// (`SimTime::MAX`: none).
    pub wake_at: SimTime,
}

impl WaitCheck {
    /// No wait is pending, or it must be looked at.
    pub const NONE: WaitCheck = WaitCheck { until: SimTime::ZERO, wake_at: SimTime::MAX };

    /// True if, no request having changed since the look, the wait is still pending at `now` and
    /// looking again would change nothing: none of the pending requests is due yet, and the rank's
    /// wake-up timer (`timer`) is where the look would leave it.
    pub fn still_pending(&self, now: SimTime, timer: Option<SimTime>) -> bool {
        let timer_in_place =
            self.wake_at == SimTime::MAX || timer.is_some_and(|w| w >= now && w <= self.wake_at);
        now < self.until && timer_in_place
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(until_ns: u64, wake_ns: u64) -> WaitCheck {
        WaitCheck { until: SimTime::from_ns(until_ns), wake_at: SimTime::from_ns(wake_ns) }
    }

    #[test]
    fn none_always_looks_again() {
        assert!(!WaitCheck::NONE.still_pending(SimTime::ZERO, None));
    }

    #[test]
    fn a_due_request_makes_it_look_again() {
        let c = check(100, 300);
        let timer = Some(SimTime::from_ns(300));
        assert!(c.still_pending(SimTime::from_ns(99), timer));
        assert!(!c.still_pending(SimTime::from_ns(100), timer), "the first completion is due");
    }

    #[test]
    fn a_missing_stale_or_late_timer_makes_it_look_again() {
        let c = check(100, 300);
        let now = SimTime::from_ns(50);
        assert!(!c.still_pending(now, None), "the timer fired and was not set again");
        assert!(!c.still_pending(now, Some(SimTime::from_ns(40))), "stale");
        assert!(!c.still_pending(now, Some(SimTime::from_ns(301))), "later than the completions");
        assert!(c.still_pending(now, Some(SimTime::from_ns(200))), "an earlier timer is kept");
        let no_times = WaitCheck { wake_at: SimTime::MAX, until: SimTime::MAX };
        assert!(no_times.still_pending(now, None), "nothing to wake for: only a change ends it");
    }
}
