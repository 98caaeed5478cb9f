//! Communication phases drawn as bands on the timing diagram (View toggle "Phases"): the phases
//! `find_phases` finds in each run shown, computed once per run and kept, each with the short
//! label its band carries and the interval a click on it puts the O and X cursors on.

use std::collections::BTreeMap;
use std::sync::Arc;

use hase_engine::analysis::{Phase, PhaseKind, PhaseOptions, PhaseReport, find_phases};
use hase_engine::trace::Trace;

use crate::analysis_views::analysis_trace;
use crate::analysis_views::asked::AskedRuns;
use crate::run::FinishedRun;

/// Phases of the runs shown, by run id. The views ask for them ([`PhaseBands::ask`]); the app
/// finds them on a worker thread (`Session::analysis_work`, [`find_in_run`]) and hands them back
/// ([`PhaseBands::keep`]).
#[derive(Clone, Debug, Default)]
pub struct PhaseBands {
    /// Draw the bands.
    pub shown: bool,
    reports: BTreeMap<u64, Arc<PhaseReport>>,
    /// Runs whose phases are asked for or being found.
    pub asked: AskedRuns,
}

impl PhaseBands {
    /// Ask for the phases of run `id` (nothing when they are found, asked for or being found).
    pub fn ask(&mut self, id: u64) {
        if !self.reports.contains_key(&id) {
            self.asked.ask(id);
        }
    }

    /// True while the phases of run `id` are asked for or being found.
    pub fn is_finding(&self, id: u64) -> bool {
        self.asked.is_finding(id)
    }

    /// The phases of run `id`, if they were found already.
    pub fn found(&self, id: u64) -> Option<Arc<PhaseReport>> {
        self.reports.get(&id).map(Arc::clone)
    }

    /// Keep the phases found in run `id` (runs come and go: the phases of the last few only).
    pub fn keep(&mut self, id: u64, report: Arc<PhaseReport>) {
        self.asked.done(id);
        if self.reports.contains_key(&id) {
            return;
        }
        while self.reports.len() >= 4 {
            self.reports.pop_first();
        }
        self.reports.insert(id, report);
    }
}

/// The phases of `trace`.
pub fn find(trace: &Trace) -> Arc<PhaseReport> {
    Arc::new(find_phases(trace, PhaseOptions::default()))
}

/// The phases of a finished run (its trace's records, or the trace rebuilt from its replay).
pub fn find_in_run(run: &FinishedRun) -> Arc<PhaseReport> {
    find(&analysis_trace(&run.trace, &run.replay))
}

/// The class of a phase as the band names it: the two loosely synchronous kinds, pipeline, tree.
pub fn class_of(kind: PhaseKind) -> &'static str {
    match kind {
        PhaseKind::Exchange | PhaseKind::Shift => "loosely synchronous",
        PhaseKind::Pipeline => "pipeline",
        PhaseKind::Tree => "tree",
    }
}

/// The band's label: number and class, with the kind of a loosely synchronous phase and the
/// chain depth of an asynchronous one: `1 loosely synchronous (exchange)`, `3 tree, depth 2`.
pub fn label(phase: &Phase) -> String {
    if phase.kind.is_synchronous() {
        format!("{} {} ({})", phase.number, class_of(phase.kind), phase.kind.word())
    } else {
        format!("{} {}, depth {}", phase.number, class_of(phase.kind), phase.chain_depth)
    }
}

/// The band's hover text: class, kind, processes, messages, bytes, overlap with computation.
pub fn details(phase: &Phase) -> String {
    format!(
        "phase {} — {} ({}), chain depth {}\n{} senders, {} receivers, {} messages, {} bytes\n\
         computation overlapping it: {:.0}%\nclick: O and X on its edges",
        phase.number,
        class_of(phase.kind),
        phase.kind.word(),
        phase.chain_depth,
        phase.senders.len(),
        phase.receivers.len(),
        phase.messages,
        phase.bytes,
        phase.overlap_fraction * 100.0
    )
}

/// The phases that intersect `[t0, t1)`.
pub fn visible(report: &PhaseReport, t0: u64, t1: u64) -> impl Iterator<Item = &Phase> {
    report.phases.iter().filter(move |p| p.end.as_ps() >= t0 && p.start.as_ps() < t1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finished_tree_run;
    use crate::run::RunSlot;

    #[test]
    fn the_recursive_doubling_allreduce_has_one_exchange_per_call_found_once() {
        let dir = tempfile::tempdir().unwrap();
        let run = finished_tree_run(dir.path(), RunSlot::Main);
        let mut bands = PhaseBands::default();
        bands.ask(run.id);
        assert!(bands.is_finding(run.id) && bands.found(run.id).is_none());
        let report = find_in_run(&run);
        bands.keep(run.id, Arc::clone(&report));
        assert!(!bands.is_finding(run.id));
        // Recursive doubling on 8 processors, called twice: two loosely synchronous exchanges.
        let kinds: Vec<PhaseKind> = report.phases.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, [PhaseKind::Exchange, PhaseKind::Exchange], "{:?}", report.phases);
        assert_eq!(class_of(kinds[0]), "loosely synchronous");
        assert_eq!(label(&report.phases[1]), "2 loosely synchronous (exchange)");
        // Asked again, the phases are kept, not looked for again.
        bands.ask(run.id);
        assert!(bands.asked.start_asked().is_empty());
        assert!(Arc::ptr_eq(&report, &bands.found(run.id).unwrap()));
        let first = &report.phases[0];
        assert!(label(first).starts_with("1 "));
        assert!(details(first).contains(class_of(first.kind)));
        assert_eq!(visible(&report, 0, u64::MAX).count(), report.phases.len());
        assert_eq!(visible(&report, run.replay.end.as_ps() + 1, u64::MAX).count(), 0);
    }
}
