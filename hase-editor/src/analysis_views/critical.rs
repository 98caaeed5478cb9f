//! The critical path in the views (View toggle "Critical path"): the path of each run shown,
//! computed once per run and kept, with what the views draw from it — the stretches to outline on
//! each timing-diagram row, the weight of each link and router on the drawing (by time blamed),
//! and the O–X interval of the longest segment. The analysis is
//! `hase_engine::analysis::critical_path`; the method is in `docs/analysis.md`.

use std::collections::BTreeMap;
use std::sync::Arc;

use hase_engine::analysis::{
    CriticalPathError, CriticalPathReport, Step, critical_path, find_phases_choosing_window,
};
use hase_engine::trace::Trace;

use crate::analysis_views::analysis_trace;
use crate::analysis_views::asked::AskedRuns;
use crate::run::FinishedRun;
use crate::session::timing::cursors::Cursors;

/// A run's critical path with its blame, or why it has none.
pub type Found = Result<CriticalPathReport, CriticalPathError>;

/// The critical paths of the runs shown, by run id. Finding one in a big run takes seconds, so the
/// views only ask for it ([`CriticalPathView::ask`]); the app finds it on a worker thread
/// (`Session::analysis_work`, [`find_in_run`]) and hands it back ([`CriticalPathView::keep`]).
#[derive(Clone, Debug, Default)]
pub struct CriticalPathView {
    /// Outline the path and show its blame.
    pub shown: bool,
    reports: BTreeMap<u64, Arc<Found>>,
    /// Runs whose path is asked for or being found.
    pub asked: AskedRuns,
}

impl CriticalPathView {
    /// The path of run `id`, if it was found already.
    pub fn found(&self, id: u64) -> Option<Arc<Found>> {
        self.reports.get(&id).map(Arc::clone)
    }

    /// Ask for the path of run `id` (nothing when it is found, asked for or being found).
    pub fn ask(&mut self, id: u64) {
        if !self.reports.contains_key(&id) {
            self.asked.ask(id);
        }
    }

    /// True while the path of run `id` is asked for or being found.
    pub fn is_finding(&self, id: u64) -> bool {
        self.asked.is_finding(id)
    }

    /// Keep the path found in run `id` (the paths of the last few runs only).
    pub fn keep(&mut self, id: u64, report: Arc<Found>) {
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

/// The critical path of `trace` with its blame.
pub fn find(trace: &Trace) -> Arc<Found> {
    Arc::new(
        critical_path(trace)
            .map(|path| CriticalPathReport::of(trace, &path, &find_phases_choosing_window(trace))),
    )
}

/// The critical path of a finished run (its trace's records, or the trace rebuilt from its replay).
pub fn find_in_run(run: &FinishedRun) -> Arc<Found> {
    find(&analysis_trace(&run.trace, &run.replay))
}

/// The stretches `[start, end)` (ps) of the path on the timing-diagram row of `entity`: its own
/// time, the time it forwarded packets, and the hops it sent on the path (queueing and transit).
pub fn row_spans(report: &CriticalPathReport, entity: u32) -> Vec<(u64, u64)> {
    report
        .segments
        .iter()
        .filter(|s| match s.step {
            Step::Local { entity: e, .. } | Step::Forward { entity: e, .. } => e == entity,
            Step::Queue { from, .. } | Step::Transit { from, .. } => from.0 == entity,
        })
        .map(|s| (s.start.as_ps(), s.end.as_ps()))
        .collect()
}

/// What the drawing highlights: each link (the two entities it joins, in either order) and each
/// router with its share of the makespan (0–1), over both directions of a link.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawingWeights {
    /// By (smaller entity, larger entity).
    pub links: BTreeMap<(u32, u32), f64>,
    /// By entity: routers and network models forwarding, and ranks' own time.
    pub entities: BTreeMap<u32, f64>,
}

/// The weights the drawing shows for `report`.
pub fn drawing_weights(report: &CriticalPathReport) -> DrawingWeights {
    let mut w = DrawingWeights::default();
    for row in &report.links {
        if let (Some(a), Some(b)) = (row.entity, row.to_entity) {
            *w.links.entry((a.min(b), a.max(b))).or_default() += row.share;
        }
    }
    for row in report.routers.iter().chain(&report.ranks) {
        if let Some(e) = row.entity {
            *w.entities.entry(e).or_default() += row.share;
        }
    }
    w
}

/// O and X on the longest segment.
pub fn longest_cursors(report: &CriticalPathReport) -> Option<Cursors> {
    report.longest.as_ref().map(|s| Cursors { o: Some(s.start.as_ps()), x: Some(s.end.as_ps()) })
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::fixtures::finished_tree_run;
    use crate::run::RunSlot;

    #[test]
    fn a_finished_runs_path_covers_its_end_and_weighs_links_and_rows() {
        let dir = tempfile::tempdir().unwrap();
        let run = finished_tree_run(dir.path(), RunSlot::Main);
        let trace: Cow<'_, Trace> = analysis_trace(&run.trace, &run.replay);
        let found = find(&trace);
        let report = found.as_ref().as_ref().expect("a run traced at level 2 has a path");
        assert_eq!(report.length, report.makespan);
        assert_eq!(report.makespan.as_ps(), run.replay.end.as_ps());
        // Every segment is on some row: the rows' stretches add up to the makespan.
        let rows: u64 = (0..run.replay.header.entities.len() as u32)
            .flat_map(|e| row_spans(report, e))
            .map(|(a, b)| b - a)
            .sum();
        assert_eq!(rows, report.makespan.as_ps());
        let w = drawing_weights(report);
        let total: f64 = w.links.values().chain(w.entities.values()).sum();
        assert!((total - 1.0).abs() < 1e-9, "shares add up to the whole path: {total}");
        assert!(!w.links.is_empty(), "an allreduce on a tree crosses links");
        let c = longest_cursors(report).unwrap();
        let longest = report.longest.as_ref().unwrap();
        assert_eq!((c.o, c.x), (Some(longest.start.as_ps()), Some(longest.end.as_ps())));
        let span = |s: &hase_engine::analysis::SegmentRow| s.end.saturating_sub(s.start);
        assert!(report.segments.iter().all(|s| span(s) <= span(longest)));

        let mut view = CriticalPathView::default();
        view.ask(run.id);
        assert!(view.is_finding(run.id));
        view.keep(run.id, Arc::clone(&found));
        assert!(!view.is_finding(run.id));
        view.ask(run.id);
        assert!(view.asked.start_asked().is_empty(), "a kept path is not asked for again");
        assert!(Arc::ptr_eq(&view.found(run.id).unwrap(), &found));
        assert!(view.found(run.id + 1).is_none());
    }
}
