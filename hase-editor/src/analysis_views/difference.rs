//! The comparison's difference mode: the two runs compared with `diff_traces` (rows paired by MPI
//! rank or by instance path, as `hase trace diff --align`), the rows that differ beyond the
//! tolerance, the key each timing-diagram row is aligned by, the stretches of time where two
//! aligned rows are in different states, and the row of the table of largest differences the
//! user asked to go to.
//!
//! Comparing two big runs takes seconds, so the view only asks for a comparison
//! ([`DifferenceMode::ask`]); the app takes the request (`Session::analysis_work`), works it out on
//! a worker thread ([`compare_runs`]) and hands it back ([`DifferenceMode::keep`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use hase_engine::analysis::{
    Align, DiffOptions, RankMessages, Tolerance, ToleranceError, TraceDiff, diff_traces,
};
use hase_engine::time::SimTime;
use hase_engine::trace::Trace;

use super::rebuild::analysis_trace;
use crate::replay::Replay;
use crate::replay::columns::Intervals;

/// Rows listed in the table of largest differences.
pub const TABLE_ROWS: usize = 20;

/// The difference mode's settings and its last comparison.
#[derive(Clone, Debug, Default)]
pub struct DifferenceMode {
    /// Shown (the diagrams aligned, differences highlighted, the table beside them).
    pub on: bool,
    /// How rows are paired.
    pub align: Align,
    /// Equality margin as typed (`0`, `10ns`, `1%`).
    pub tolerance_text: String,
    /// The row of the table clicked last: its name (as the comparison names it), highlighted.
    pub focus: Option<String>,
    /// The diagrams still have to scroll and zoom to `focus`.
    pub focus_pending: bool,
    computed: Option<Arc<Computed>>,
    /// A comparison asked for and not yet handed to a worker.
    asked: Option<DifferenceRequest>,
    /// The comparison a worker is working out.
    finding: Option<DifferenceKey>,
}

/// What a comparison is of: the two runs (by id), how rows are paired, the tolerance as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DifferenceKey {
    /// The runs, left then right.
    pub runs: [u64; 2],
    /// How rows are paired.
    pub align: Align,
    /// The tolerance as typed, trimmed.
    pub tolerance_text: String,
}

/// A comparison to work out: what of, and the tolerance it reads.
#[derive(Clone, Debug)]
pub struct DifferenceRequest {
    /// What the comparison is of.
    pub key: DifferenceKey,
    /// The tolerance read from `key.tolerance_text`.
    pub tolerance: Tolerance,
}

/// Where the comparison of two runs stands.
#[derive(Clone, Debug)]
pub enum Comparison {
    /// Made, for the runs, alignment and tolerance shown.
    Ready(Arc<Computed>),
    /// Asked for, or being worked out.
    Finding,
    /// Not asked for yet: the view asks ([`DifferenceMode::ask`]).
    NotAsked,
}

/// A comparison of two runs.
#[derive(Debug)]
pub struct Computed {
    key: DifferenceKey,
    /// The comparison.
    pub diff: TraceDiff,
    /// Names of the rows that differ beyond the tolerance.
    pub differing: BTreeSet<String>,
    /// Per side, the MPI rank of each process entity.
    pub ranks: [BTreeMap<u32, u32>; 2],
}

/// Why the difference mode cannot compare the runs.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DifferenceError {
    /// The tolerance typed does not read (the engine's reason).
    #[error(transparent)]
    Tolerance(#[from] ToleranceError),
}

impl DifferenceMode {
    /// The comparison of runs `runs` with the alignment and tolerance set now (or the reason
    /// the tolerance does not read).
    fn request(&self, runs: [u64; 2]) -> Result<DifferenceRequest, DifferenceError> {
        let text = self.tolerance_text.trim();
        let tolerance = if text.is_empty() {
            Tolerance::default()
        } else {
            Tolerance::parse(text).map_err(DifferenceError::Tolerance)?
        };
        Ok(DifferenceRequest {
            key: DifferenceKey { runs, align: self.align, tolerance_text: text.into() },
            tolerance,
        })
    }

    /// Where the comparison of runs `runs` with the settings shown stands, or why it cannot be
    /// made (a tolerance that does not read).
    pub fn comparison(&self, runs: [u64; 2]) -> Result<Comparison, DifferenceError> {
        let key = self.request(runs)?.key;
        if let Some(c) = self.computed.as_ref().filter(|c| c.key == key) {
            return Ok(Comparison::Ready(Arc::clone(c)));
        }
        let asked = self.asked.as_ref().is_some_and(|r| r.key == key);
        Ok(if asked || self.finding.as_ref() == Some(&key) {
            Comparison::Finding
        } else {
            Comparison::NotAsked
        })
    }

    /// Ask for the comparison of runs `runs` with the settings shown (nothing when it is made,
    /// asked for or being worked out already, or when the tolerance does not read).
    pub fn ask(&mut self, runs: [u64; 2]) {
        if let Ok(Comparison::NotAsked) = self.comparison(runs)
            && let Ok(request) = self.request(runs)
        {
            self.asked = Some(request);
        }
    }

    /// True if a comparison is asked for and not yet started.
    pub fn is_asked(&self) -> bool {
        self.asked.is_some()
    }

    /// The comparison asked for since the last call; it counts as being worked out from now.
    pub fn start_asked(&mut self) -> Option<DifferenceRequest> {
        let request = self.asked.take()?;
        self.finding = Some(request.key.clone());
        Some(request)
    }

    /// The comparison being worked out will not come (its runs are gone).
    pub fn dropped(&mut self) {
        self.finding = None;
    }

    /// True while a comparison is asked for or being worked out.
    pub fn is_finding(&self) -> bool {
        self.asked.is_some() || self.finding.is_some()
    }

    /// Keep `computed` as the last comparison.
    pub fn keep(&mut self, computed: Arc<Computed>) {
        if self.finding.as_ref() == Some(&computed.key) {
            self.finding = None;
        }
        self.computed = Some(computed);
    }

    /// The last comparison made, if any.
    pub fn last(&self) -> Option<&Computed> {
        self.computed.as_deref()
    }
}

/// Work out the comparison `request` of two finished runs, each its trace and its replay
/// (seconds on big runs: a worker thread's job). A run that kept no records in memory is compared
/// through the trace rebuilt from its replay.
pub fn compare_runs(request: &DifferenceRequest, runs: [(&Trace, &Replay); 2]) -> Arc<Computed> {
    let [a, b] = runs.map(|(trace, replay)| analysis_trace(trace, replay));
    compare_traces(request, [&a, &b])
}

/// Work out the comparison `request` of two traces.
pub fn compare_traces(request: &DifferenceRequest, traces: [&Trace; 2]) -> Arc<Computed> {
    let [a, b] = traces;
    let tolerance = request.tolerance;
    let diff = diff_traces(a, b, DiffOptions { align: request.key.align, tolerance, top: TABLE_ROWS });
    let differing = diff
        .rows
        .iter()
        .filter(|r| !r.states.iter().all(|(_, p)| tolerance.agrees(SimTime(p.a_ps), SimTime(p.b_ps))))
        .map(|r| r.name.clone())
        .collect();
    let ranks_of =
        |t: &Trace| RankMessages::of(t).processes.iter().filter_map(|p| Some((p.entity, p.rank?))).collect();
    Arc::new(Computed { key: request.key.clone(), differing, ranks: [ranks_of(a), ranks_of(b)], diff })
}

impl Computed {
    /// The name side `side`'s entity `e` is paired by: `r<rank>` for a process when aligned by
    /// rank, else its path.
    pub fn entity_key(&self, side: usize, replay: &Replay, e: u32) -> String {
        if self.diff.align == Align::Rank
            && let Some(rank) = self.ranks[side].get(&e)
        {
            return format!("r{rank}");
        }
        replay.header.entities.get(e as usize).map_or_else(String::new, |i| i.path.clone())
    }

    /// The entity of side `side` a row of the comparison names (`r3`, a path, or a link
    /// `a.out -> b.in`, which goes to its sender).
    pub fn entity_of(&self, side: usize, replay: &Replay, name: &str) -> Option<u32> {
        let name = name.split(" -> ").next().unwrap_or(name);
        if self.diff.align == Align::Rank
            && let Some(rank) = name.strip_prefix('r').and_then(|r| r.parse::<u32>().ok())
            && let Some((&e, _)) = self.ranks[side].iter().find(|(_, r)| **r == rank)
        {
            return Some(e);
        }
        replay.by_path.get(name).copied().or_else(|| {
            let (path, _port) = name.rsplit_once('.')?;
            replay.by_path.get(path).copied()
        })
    }

    /// True when the row named `name` differs beyond the tolerance.
    pub fn differs(&self, name: &str) -> bool {
        self.differing.contains(name)
    }
}

/// The stretches of `[t0, t1)` where row `a` (states named `names_a`) and row `b` (`names_b`)
/// are not in the same state — a state in one and none in the other counts as different.
pub fn differing_spans(
    a: (&Intervals, &[String]),
    b: (&Intervals, &[String]),
    t0: u64,
    t1: u64,
) -> Vec<(u64, u64)> {
    fn state_at<'r>((iv, names): (&Intervals, &'r [String]), t: u64) -> Option<&'r str> {
        iv.at(t).map(|i| names.get(usize::from(iv.state[i])).map_or("?", String::as_str))
    }
    let mut edges: Vec<u64> = vec![t0, t1];
    for (iv, _) in [a, b] {
        for i in iv.visible(t0, t1) {
            edges.extend([iv.start[i].max(t0), iv.end[i].min(t1)]);
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let mut out: Vec<(u64, u64)> = Vec::new();
    for w in edges.windows(2) {
        let (s, e) = (w[0], w[1]);
        if state_at(a, s) != state_at(b, s) {
            match out.last_mut() {
                Some(last) if last.1 == s => last.1 = e,
                _ => out.push((s, e)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(spans: &[(u64, u64, u16)]) -> Intervals {
        let mut iv = Intervals::default();
        for &(s, e, st) in spans {
            iv.push(s, e, st);
        }
        iv
    }

    #[test]
    fn spans_differ_where_the_states_differ() {
        let names = ["busy".to_string(), "idle".to_string()];
        let other = ["idle".to_string(), "busy".to_string()];
        let a = row(&[(0, 10, 0), (10, 20, 1)]);
        let b = row(&[(0, 12, 0), (12, 20, 1), (20, 25, 1)]);
        assert_eq!(differing_spans((&a, &names), (&b, &names), 0, 30), [(10, 12), (20, 25)]);
        // Same intervals, states named the other way round: the names count, not the numbers.
        assert_eq!(differing_spans((&a, &names), (&a, &other), 0, 30), [(0, 20)]);
        assert_eq!(differing_spans((&a, &names), (&a, &names), 0, 30), []);
        // Only the window asked for.
        assert_eq!(differing_spans((&a, &names), (&b, &names), 11, 22), [(11, 12), (20, 22)]);
    }
}
