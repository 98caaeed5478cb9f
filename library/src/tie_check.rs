//! How much a project's result depends on the order of simultaneous events. The kernel runs the
//! events of one instant in the order they were scheduled; a modelled machine has no such rule
//! (two packets reaching a switch in the same picosecond have no "first"). This check runs the
//! project once in that order and `runs` more times with the instant's events shuffled
//! ([`TieOrder::Shuffled`], seeds 1 to `runs`), side by side on the machine's cores, and gives
//! the makespans, so the user sees the range the tie rule alone moves the result over.

use std::fmt;

use hase_engine::kernel::TieOrder;
use hase_engine::model::Project;
use hase_engine::time::SimTime;
use rayon::prelude::*;
use serde::Serialize;

use crate::runner::{RunError, RunOptions, TraceTarget, run_project};

/// What to check.
#[derive(Clone, Debug)]
pub struct TieCheckOptions {
    /// Shuffled orders to run besides the scheduled one.
    pub runs: u32,
    /// Seed, until-time and base directory of every run (trace and tie order are the check's).
    pub run: RunOptions,
}

/// One run of the check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TieRun {
    /// The seed of the shuffled order (`None`: the scheduled order).
    pub tie_seed: Option<u64>,
    /// How the run ended (`completed`, `deadlock`, …).
    pub outcome: String,
    /// When the last event ran.
    pub makespan_ps: u64,
    /// Events handled.
    pub events: u64,
}

/// The scheduled order's run and the shuffled ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TieCheck {
    /// The run in the kernel's order.
    pub scheduled: TieRun,
    /// The runs in shuffled orders, by seed.
    pub shuffled: Vec<TieRun>,
}

impl TieCheck {
    /// The smallest and the largest makespan over every run.
    pub fn makespan_range_ps(&self) -> (u64, u64) {
        let all = || std::iter::once(&self.scheduled).chain(&self.shuffled).map(|r| r.makespan_ps);
        (all().min().unwrap_or(0), all().max().unwrap_or(0))
    }

    /// A makespan's change from the scheduled order's, in per cent, signed.
    pub fn change_percent(&self, makespan_ps: u64) -> f64 {
        let base = self.scheduled.makespan_ps;
        if base == 0 { 0.0 } else { (makespan_ps as f64 - base as f64) / base as f64 * 100.0 }
    }

    /// The largest change of makespan from the scheduled order's, in per cent (up or down).
    pub fn largest_change_percent(&self) -> f64 {
        self.shuffled.iter().map(|r| self.change_percent(r.makespan_ps).abs()).fold(0.0, f64::max)
    }

    /// True when some order ended the run otherwise (a deadlock, say) than the scheduled one.
    pub fn outcomes_differ(&self) -> bool {
        self.shuffled.iter().any(|r| r.outcome != self.scheduled.outcome)
    }

    /// True when some order gave another makespan or outcome than the scheduled one.
    pub fn depends_on_ties(&self) -> bool {
        self.outcomes_differ() || self.shuffled.iter().any(|r| r.makespan_ps != self.scheduled.makespan_ps)
    }
}

/// Run `project` in the scheduled order and in `options.runs` shuffled orders.
pub fn check_ties(project: &Project, options: &TieCheckOptions) -> Result<TieCheck, RunError> {
    let cancelled =
        || options.run.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
    let run = |tie_seed: Option<u64>| -> Result<TieRun, RunError> {
        // A stopped check does not start the runs still waiting for a core.
        if cancelled() {
            return Ok(TieRun { tie_seed, outcome: "cancelled".into(), makespan_ps: 0, events: 0 });
        }
        let run_options = RunOptions {
            trace: TraceTarget::None,
            fingerprint: false,
            threads: Some(1),
            tie_order: tie_seed.map_or(TieOrder::Scheduled, |seed| TieOrder::Shuffled { seed }),
            ..options.run.clone()
        };
        let result = run_project(project, &run_options, |_| {})?;
        Ok(TieRun {
            tie_seed,
            outcome: result.stats.outcome,
            makespan_ps: result.stats.makespan_ps,
            events: result.stats.events,
        })
    };
    let mut runs: Vec<TieRun> = std::iter::once(None)
        .chain((1..=u64::from(options.runs)).map(Some))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(run)
        .collect::<Result<_, _>>()?;
    let scheduled = runs.remove(0);
    Ok(TieCheck { scheduled, shuffled: runs })
}

impl fmt::Display for TieCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = self.scheduled.makespan_ps;
        writeln!(f, "{:<20} {:>14} {:>9} {:>10}  outcome", "order of ties", "makespan", "change", "events")?;
        for run in std::iter::once(&self.scheduled).chain(&self.shuffled) {
            let order =
                run.tie_seed.map_or_else(|| "scheduled".to_string(), |s| format!("shuffled, seed {s}"));
            writeln!(
                f,
                "{order:<20} {:>14} {:>+8.2}% {:>10}  {}",
                SimTime(run.makespan_ps).display_with(6),
                self.change_percent(run.makespan_ps),
                run.events,
                run.outcome
            )?;
        }
        let (low, high) = self.makespan_range_ps();
        if self.depends_on_ties() {
            writeln!(
                f,
                "the result depends on the order of simultaneous events: makespans from {} to {} \
                 ({:+.2}% to {:+.2}% of the scheduled order's)",
                SimTime(low).display_with(6),
                SimTime(high).display_with(6),
                self.change_percent(low),
                self.change_percent(high)
            )
        } else {
            writeln!(f, "every order gave the same makespan and outcome: {}", SimTime(base).display_with(6))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;

    fn check(project: &Project, runs: u32) -> TieCheck {
        check_ties(project, &TieCheckOptions { runs, run: RunOptions::default() }).unwrap()
    }

    /// The binary tree's root links carry half of all traffic, and which of two packets reaching
    /// one at the same picosecond goes first changes what waits behind it: the allreduce's
    /// makespan moves with the tie order. The scheduled run is the example's own result.
    #[test]
    fn a_contended_tree_depends_on_ties_and_the_scheduled_run_is_the_plain_one() {
        let project = examples::binary_tree_allreduce().unwrap().project;
        let got = check(&project, 4);
        let plain = run_project(&project, &RunOptions::default(), |_| {}).unwrap();
        assert_eq!(got.scheduled.makespan_ps, plain.stats.makespan_ps);
        assert_eq!(got.scheduled.events, plain.stats.events);
        assert!(got.depends_on_ties(), "{got}");
        let (low, high) = got.makespan_range_ps();
        assert!(low < high, "{got}");
        // Another order may take other events (a queue found empty sets no timer), but every
        // order completes the program.
        assert!(got.shuffled.iter().all(|r| r.outcome == "completed"), "{got}");
        let text = got.to_string();
        assert!(text.contains("shuffled, seed 4"), "{text}");
        assert!(text.contains("the result depends on the order of simultaneous events"), "{text}");
        // The same seeds give the same runs.
        assert_eq!(check(&project, 4), got);
    }

    /// A check stopped before it starts runs nothing: every run says it was cancelled.
    #[test]
    fn a_stopped_check_starts_no_more_runs() {
        let project = examples::torus3d_halo().unwrap().project;
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let options =
            TieCheckOptions { runs: 3, run: RunOptions { cancel: Some(cancel), ..RunOptions::default() } };
        let got = check_ties(&project, &options).unwrap();
        let runs: Vec<&TieRun> = std::iter::once(&got.scheduled).chain(&got.shuffled).collect();
        assert_eq!(runs.len(), 4);
        assert!(runs.iter().all(|r| r.outcome == "cancelled" && r.events == 0), "{got}");
    }

    /// The task farm's workers never receive two things at one instant the same way twice: no
    /// order changes it.
    #[test]
    fn a_farm_without_contended_ties_does_not_move() {
        let got = check(&examples::task_farm().unwrap().project, 3);
        assert!(!got.depends_on_ties(), "{got}");
        assert!(got.to_string().contains("every order gave the same makespan"), "{got}");
    }
}
