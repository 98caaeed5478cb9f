//! The comparison's difference mode: the two runs compared with `diff_traces` (rows paired by MPI
//! rank or by instance path, as `hase trace diff --align`), the rows that differ beyond the
//! tolerance, the key each timing-diagram row is aligned by, the stretches of time where two
//! aligned rows are in different states, and the row of the table of largest differences the
//! user asked to go to.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use hase_engine::analysis::{
    Align, DiffOptions, RankMessages, Tolerance, ToleranceError, TraceDiff, diff_traces,
};
use hase_engine::time::SimTime;
use hase_engine::trace::Trace;

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
}

/// A comparison of two runs.
#[derive(Debug)]
pub struct Computed {
    key: (u64, u64, Align, String),
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
    /// The comparison of runs `ids`: the one kept when it is of the same runs, alignment and
    /// tolerance (then `false`), else made now from `traces()` (then `true`: [`Self::keep`] it);
    /// or why it cannot be made (a tolerance that does not parse).
    pub fn comparison<'t>(
        &self,
        ids: [u64; 2],
        traces: impl FnOnce() -> [Cow<'t, Trace>; 2],
    ) -> Result<(Arc<Computed>, bool), DifferenceError> {
        let text = self.tolerance_text.trim();
        let tolerance = if text.is_empty() {
            Tolerance::default()
        } else {
            Tolerance::parse(text).map_err(DifferenceError::Tolerance)?
        };
        let key = (ids[0], ids[1], self.align, text.to_string());
        if let Some(c) = self.computed.as_ref().filter(|c| c.key == key) {
            return Ok((Arc::clone(c), false));
        }
        let [a, b] = traces();
        let diff = diff_traces(&a, &b, DiffOptions { align: self.align, tolerance, top: TABLE_ROWS });
        let differing = diff
            .rows
            .iter()
            .filter(|r| !r.states.iter().all(|(_, p)| tolerance.agrees(SimTime(p.a_ps), SimTime(p.b_ps))))
            .map(|r| r.name.clone())
            .collect();
        let ranks_of = |t: &Trace| {
            RankMessages::of(t).processes.iter().filter_map(|p| Some((p.entity, p.rank?))).collect()
        };
        Ok((Arc::new(Computed { key, differing, ranks: [ranks_of(&a), ranks_of(&b)], diff }), true))
    }

    /// Keep `computed` as the last comparison.
    pub fn keep(&mut self, computed: Arc<Computed>) {
        self.computed = Some(computed);
    }

    /// The last comparison made, if any.
    pub fn last(&self) -> Option<&Computed> {
        self.computed.as_deref()
    }
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
