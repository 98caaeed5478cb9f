//! The computation window of the phase analysis, chosen from the trace when none is given.
//!
//! Between two consecutive message events of a process there is some computation: none or a
//! little inside one communication step (a real program computes a few microseconds between the
//! sends and receives of one halo exchange, and its recorder adds its own), much more between
//! steps (the iteration's work). Sorted, these gaps fall into groups with jumps between them; the
//! window is put in the lowest jump (at the geometric mean of the largest gap below it and the
//! smallest above), which separates the negligible gaps (call overheads, the recorder's grain)
//! from the program's computation, so events with nothing but overhead between them form one
//! block. (A program that overlaps its work with communication — posts its sends, computes,
//! then waits for its receives — has its largest gaps *inside* an exchange, so the largest jump
//! would be the wrong one; the phase analysis leaves the gaps from a send to a receive out of
//! the choice, and the crossing of the messages joins an exchange's sends to its receives.)
//! The jump chosen is the lowest ratio of at least [`MIN_JUMP`] between consecutive gaps that
//! leaves at least
//! [`MIN_STEP_GAPS_PER_PROCESS`] gaps per process above it (a single long start-up gap is not
//! the program's steps) and at most three fifths of them (an exchange has about as many gaps of
//! overhead inside it, between its sends and between its receives, as gaps of work); without one there is no such structure
//! and the window is 0. Gaps shorter than [`GAP_FLOOR`]
//! count as that long: a jump from no computation to 300 ns of packing is the recorder's and the
//! timer's grain, not the program's structure.
//!
//! Some gaps are known to lie between steps: where an exchange *turns* — a process received from
//! some processes and then sends to one of them, the next step's exchange. A jump whose lower
//! group is mostly such turns is between ordinary and longer steps (a step before a collective,
//! an interrupt), not between the calls of one exchange and the work, and is not taken: a halo
//! with one neighbour has no gaps inside an exchange at all (the sends and receives it overlaps
//! are left out by the caller), and its window stays 0.

use std::fmt;

use serde::Serialize;

use crate::time::SimTime;

/// Gaps above the window, per process, for a jump to count as the steps of a program.
pub const MIN_STEP_GAPS_PER_PROCESS: usize = 2;

/// Smallest ratio between the gaps either side of the window (the negligible gaps of a real
/// recording spread over ×2 or so: 0.1–0.7 µs).
pub const MIN_JUMP: f64 = 2.5;

/// Gaps below this count as this when ratios are taken (100 ns: below a timer's and a PMPI
/// recorder's grain).
pub const GAP_FLOOR: SimTime = SimTime::from_ns(100);

/// How the window of a phase analysis was set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum WindowChoice {
    /// Given by the caller (`--window`).
    #[default]
    Given,
    /// Chosen in the jump between the gaps within steps and those between them.
    Chosen {
        /// The largest computation between two events of one step.
        within: SimTime,
        /// The smallest computation between two steps.
        between: SimTime,
        /// Gaps at or above `between`.
        step_gaps: usize,
        /// Gaps in all.
        gaps: usize,
    },
    /// No jump of [`MIN_JUMP`] or more: window 0.
    NoJump {
        /// The largest ratio found (0 when there were too few gaps).
        largest_ratio: f64,
        /// Gaps in all.
        gaps: usize,
        /// Of them, where an exchange turns to the next step's sends.
        turns: usize,
    },
}

/// Choose the window from the computation gaps between consecutive events of `processes`
/// processes: `gaps` inside steps or between them, `turns` where an exchange turns to the next
/// step's sends (between steps).
pub fn choose_window(gaps: &[SimTime], turns: &[SimTime], processes: usize) -> (SimTime, WindowChoice) {
    let mut flagged: Vec<(SimTime, bool)> =
        gaps.iter().map(|g| (*g, false)).chain(turns.iter().map(|g| (*g, true))).collect();
    flagged.sort_unstable();
    let sorted: Vec<SimTime> = flagged.iter().map(|(g, _)| *g).collect();
    let need_above = MIN_STEP_GAPS_PER_PROCESS * processes.max(1);
    let mut best: Option<(f64, usize)> = None;
    let mut turns_below = 0;
    for i in 1..sorted.len() {
        turns_below += usize::from(flagged[i - 1].1);
        let above = sorted.len() - i;
        if above < need_above {
            break;
        }
        if 5 * above > 3 * sorted.len() || 2 * turns_below > i {
            continue;
        }
        let (lo, hi) = (sorted[i - 1].max(GAP_FLOOR), sorted[i].max(GAP_FLOOR));
        let ratio = hi.as_ps() as f64 / lo.as_ps() as f64;
        if best.is_none_or(|(r, _)| ratio > r) {
            best = Some((ratio, i));
        }
        if ratio >= MIN_JUMP {
            break;
        }
    }
    match best {
        Some((ratio, i)) if ratio >= MIN_JUMP => {
            let (within, between) = (sorted[i - 1], sorted[i]);
            let window =
                SimTime::from_f64_ps((within.max(GAP_FLOOR).as_ps() as f64 * between.as_ps() as f64).sqrt());
            let choice =
                WindowChoice::Chosen { within, between, step_gaps: sorted.len() - i, gaps: sorted.len() };
            (window, choice)
        }
        _ => (
            SimTime::ZERO,
            WindowChoice::NoJump {
                largest_ratio: best.map_or(0.0, |(r, _)| r),
                gaps: sorted.len(),
                turns: turns.len(),
            },
        ),
    }
}

impl fmt::Display for WindowChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WindowChoice::Given => f.write_str("given"),
            WindowChoice::Chosen { within, between, step_gaps, gaps } => write!(
                f,
                "chosen: of {gaps} computation gaps between events of a process, {} are at most {within} \
                 (within a step) and {step_gaps} at least {between} (between steps)",
                gaps - step_gaps
            ),
            WindowChoice::NoJump { largest_ratio, gaps, turns } => write!(
                f,
                "0: the {gaps} computation gaps between events of a process ({turns} where an exchange turns to \
                 the next step's sends) do not fall into calls of one exchange and work (largest jump \
                 ×{largest_ratio:.1}, less than ×{MIN_JUMP}); give --window to join events"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_goes_in_the_jump_between_steps_and_not_at_a_lone_outlier() {
        // Two processes, ten steps each: gaps of 0–3 µs inside a step, 100–120 µs between steps,
        // and one 5 ms start-up. (The jump from 0 to 1 µs is lower, but would put 21 of the 31
        // gaps above the window.)
        let mut gaps = Vec::new();
        for step in 0..10_u64 {
            gaps.extend([SimTime::ZERO, SimTime::from_us(1 + step % 3), SimTime::from_us(100 + 2 * step)]);
        }
        gaps.push(SimTime::from_ms(5));
        let (window, choice) = choose_window(&gaps, &[], 2);
        let WindowChoice::Chosen { within, between, step_gaps, gaps: all } = choice else {
            panic!("{choice:?}")
        };
        assert_eq!((within, between, step_gaps, all), (SimTime::from_us(3), SimTime::from_us(100), 11, 31));
        // √(3 µs · 100 µs) ≈ 17.3 µs.
        assert!(window > SimTime::from_us(17) && window < SimTime::from_us(18), "{window}");
        assert!(choice.to_string().starts_with("chosen: of 31 computation gaps"), "{choice}");
        // Gaps of one kind: no window.
        let even: Vec<SimTime> = (1..40).map(|i| SimTime::from_us(10 + i % 5)).collect();
        // The lowest jump, not the largest: 0.5 µs of call overhead between posted sends, 4 µs
        // of border work between steps, 24 µs of interior work overlapped with the exchange.
        let mut overlapped = Vec::new();
        for step in 0..20_u64 {
            overlapped.extend([SimTime::from_ns(500), SimTime::from_us(24 + step % 2), SimTime::ZERO]);
            overlapped.push(SimTime::from_us(4 + step % 3));
        }
        let (window, choice) = choose_window(&overlapped, &[], 1);
        assert!(
            matches!(choice, WindowChoice::Chosen { within, .. } if within == SimTime::from_ns(500)),
            "{choice:?}"
        );
        assert!(window > SimTime::from_ns(500) && window < SimTime::from_us(4), "{window}");
        let (window, choice) = choose_window(&even, &[], 2);
        assert_eq!(window, SimTime::ZERO);
        assert!(matches!(choice, WindowChoice::NoJump { largest_ratio, .. } if largest_ratio < MIN_JUMP));
        assert!(matches!(choose_window(&[], &[], 4), (SimTime::ZERO, WindowChoice::NoJump { gaps: 0, .. })));
        // A halo with one neighbour: every gap is a turn, 1.6–4.5 µs of border work, and a few of
        // 12–20 µs (the steps before a collective, interrupts). No window: the border is work.
        let turns: Vec<SimTime> = (0..40_u64)
            .map(|i| SimTime::from_ns(1600 + 70 * i))
            .chain((0..8).map(|i| SimTime::from_us(12 + i)))
            .collect();
        let (window, choice) = choose_window(&[], &turns, 2);
        assert_eq!(window, SimTime::ZERO);
        assert!(matches!(choice, WindowChoice::NoJump { turns: 48, gaps: 48, .. }), "{choice:?}");
        assert!(choice.to_string().contains("(48 where an exchange turns"), "{choice}");
    }
}
