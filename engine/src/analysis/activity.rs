//! What a process was doing over time, read from its state intervals: computing, communicating
//! point to point, inside a collective, or idle. Phase detection asks how much computation lies
//! between two communication events and whether an event happened inside a collective call.
//!
//! The state names are those of the built-in processor (`COMPUTE`; `SEND`, `RECV`, `WAIT`; one state
//! per collective; `IDLE`, `DONE`), compared without regard to case. A process with no state
//! records at all (a trace from elsewhere) counts every gap between its events as computation.

use crate::time::SimTime;
use crate::trace::{StateInterval, Trace};

/// What a state means for the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateClass {
    /// Useful work (`COMPUTE`).
    Compute,
    /// Handing a message to the network (`SEND`).
    Sending,
    /// Other point-to-point communication (`RECV`, `WAIT`, and any state not named here).
    PointToPoint,
    /// Inside a collective call (`BARRIER`, `BCAST`, `REDUCE`, `ALLREDUCE`, `GATHER`, `SCATTER`,
    /// `ALLGATHER`, `ALLTOALL`).
    Collective,
    /// Nothing to do (`IDLE`, `DONE`).
    Idle,
}

/// Class of a state name.
pub fn classify_state(name: &str) -> StateClass {
    const COLLECTIVES: [&str; 8] =
        ["BARRIER", "BCAST", "REDUCE", "ALLREDUCE", "GATHER", "SCATTER", "ALLGATHER", "ALLTOALL"];
    let upper = name.to_ascii_uppercase();
    if upper == "COMPUTE" {
        StateClass::Compute
    } else if upper == "SEND" {
        StateClass::Sending
    } else if upper == "IDLE" || upper == "DONE" {
        StateClass::Idle
    } else if COLLECTIVES.contains(&upper.as_str()) {
        StateClass::Collective
    } else {
        StateClass::PointToPoint
    }
}

/// One process's classified state intervals, in time order.
#[derive(Clone, Debug, Default)]
pub struct Activity {
    intervals: Vec<(SimTime, SimTime, StateClass)>,
}

impl Activity {
    /// The activity of `entity` in `trace`, from intervals already computed by
    /// [`Trace::state_intervals`].
    pub fn of(trace: &Trace, entity: u32, intervals: &[StateInterval]) -> Self {
        let states = trace.header.entities.get(entity as usize).map(|e| &e.states[..]).unwrap_or_default();
        let class =
            |s: u16| states.get(usize::from(s)).map_or(StateClass::PointToPoint, |n| classify_state(n));
        Activity { intervals: intervals.iter().map(|i| (i.start, i.end, class(i.state))).collect() }
    }

    /// True when the process has no state intervals.
    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// Time spent computing within `[from, to)` (with no states: all of it).
    pub fn compute_between(&self, from: SimTime, to: SimTime) -> SimTime {
        if to <= from {
            return SimTime::ZERO;
        }
        if self.intervals.is_empty() {
            return to.saturating_sub(from);
        }
        let first = self.intervals.partition_point(|i| i.1 <= from);
        let mut total = SimTime::ZERO;
        for &(start, end, class) in &self.intervals[first..] {
            if start >= to {
                break;
            }
            if class == StateClass::Compute {
                total += end.min(to).saturating_sub(start.max(from));
            }
        }
        total
    }

    /// The class of the state the process is in at `t` (`None` before its first state or with
    /// no states).
    pub fn class_at(&self, t: SimTime) -> Option<StateClass> {
        let i = self.intervals.partition_point(|i| i.1 <= t);
        self.intervals.get(i).filter(|i| i.0 <= t).map(|i| i.2)
    }

    /// When a message that arrived at `t` can have been taken in: not while the process computes
    /// or hands its own messages to the network (a receive completes when the program reaches it,
    /// and a program that was computing sends what it computed before it waits). So `t`, moved to
    /// the end of any computation or sending the process was busy with. Computation that starts
    /// exactly at `t` came after: a wait that ends at the arrival hands over to the work.
    pub fn ready_after(&self, t: SimTime) -> SimTime {
        let mut at = t;
        let mut i = self.intervals.partition_point(|i| i.1 <= at);
        while let Some(&(start, end, class)) = self.intervals.get(i) {
            let busy = match class {
                StateClass::Compute => start < at,
                StateClass::Sending => start <= at,
                _ => false,
            };
            if !busy {
                break;
            }
            at = end;
            i += 1;
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn activity(spans: &[(u64, u64, StateClass)]) -> Activity {
        Activity { intervals: spans.iter().map(|&(a, b, c)| (SimTime(a), SimTime(b), c)).collect() }
    }

    #[test]
    fn state_names_are_classified_without_case() {
        assert_eq!(classify_state("COMPUTE"), StateClass::Compute);
        assert_eq!(classify_state("compute"), StateClass::Compute);
        assert_eq!(classify_state("AllReduce"), StateClass::Collective);
        assert_eq!(classify_state("WAIT"), StateClass::PointToPoint);
        assert_eq!(classify_state("send"), StateClass::Sending);
        assert_eq!(classify_state("BUSY"), StateClass::PointToPoint);
        assert_eq!(classify_state("DONE"), StateClass::Idle);
    }

    #[test]
    fn compute_between_counts_only_compute_overlap() {
        use StateClass::{Compute, PointToPoint, Sending};
        let a = activity(&[
            (0, 10, Compute),
            (10, 20, PointToPoint),
            (20, 35, Compute),
            (35, 38, Sending),
            (38, 40, PointToPoint),
        ]);
        assert_eq!(a.compute_between(SimTime(5), SimTime(25)), SimTime(10));
        assert_eq!(a.compute_between(SimTime(10), SimTime(20)), SimTime::ZERO);
        assert_eq!(a.compute_between(SimTime(0), SimTime(100)), SimTime(25));
        assert_eq!(a.compute_between(SimTime(30), SimTime(30)), SimTime::ZERO);
        assert_eq!(a.class_at(SimTime(12)), Some(PointToPoint));
        assert_eq!(a.class_at(SimTime(40)), None);
        assert_eq!(a.class_at(SimTime(37)), Some(Sending));
        // Arriving at 3 while computing until 10: taken in at 10.
        assert_eq!(a.ready_after(SimTime(3)), SimTime(10));
        assert_eq!(a.ready_after(SimTime(12)), SimTime(12));
        // Computing until 35, then sending until 38: taken in when the sends are done.
        assert_eq!(a.ready_after(SimTime(25)), SimTime(38));
        assert_eq!(a.ready_after(SimTime(36)), SimTime(38));
        assert_eq!(a.ready_after(SimTime(20)), SimTime(20), "the work starts after the wait took it in");
        let none = Activity::default();
        assert_eq!(none.compute_between(SimTime(5), SimTime(8)), SimTime(3));
        assert_eq!(none.ready_after(SimTime(5)), SimTime(5));
    }
}
