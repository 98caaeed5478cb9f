//! The timing diagram's rows kept between frames: a frame asks for them several times (bars, labels,
//! figures, cursors), and a big network has a row per entity (131,072 on a 256×256 torus), so they
//! are built again only when the replay, the folding, the search or the parameter toggle changed.
//!
//! A replay is recognised by where it lives and by figures that differ between runs (entities,
//! groups, end, flights, parameter rows, processors left out): a replay is not changed once it is
//! shown, and a new run gets a new one.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};

use super::rows::{self, Row, RowOptions};
use crate::replay::Replay;

/// Which replay rows were built from: where it lives and figures that differ between runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ReplayMark {
    address: usize,
    entities: usize,
    groups: usize,
    end_ps: u64,
    flights: usize,
    param_rows: usize,
    unused: usize,
}

impl ReplayMark {
    fn of(replay: &Replay) -> ReplayMark {
        ReplayMark {
            address: std::ptr::from_ref(replay) as usize,
            entities: replay.header.entities.len(),
            groups: replay.header.groups.len(),
            end_ps: replay.end.0,
            flights: replay.flights().len(),
            param_rows: replay.params.len(),
            unused: replay.unused.len(),
        }
    }
}

/// What the rows were built from.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RowsKey {
    replay: ReplayMark,
    unfolded: BTreeSet<String>,
    filter: String,
    params: bool,
}

impl RowsKey {
    fn new(replay: &Replay, options: RowOptions<'_>) -> RowsKey {
        RowsKey {
            replay: ReplayMark::of(replay),
            unfolded: options.unfolded.clone(),
            filter: options.filter.to_string(),
            params: options.params,
        }
    }

    /// True when these are the rows of `replay` under `options`, compared without copying.
    fn matches(&self, replay: &Replay, options: RowOptions<'_>) -> bool {
        self.replay == ReplayMark::of(replay)
            && self.params == options.params
            && self.filter == options.filter
            && self.unfolded == *options.unfolded
    }
}

/// The rows of the last few replays asked for (a comparison shows two or three at once).
#[derive(Debug, Default)]
pub struct RowCache {
    kept: Mutex<Vec<(RowsKey, Arc<[Row]>)>>,
}

/// How many replays' rows are kept: the most a comparison shows.
const KEPT: usize = 3;

impl RowCache {
    /// The rows of `replay` under `options`, built now only if they are not kept.
    pub fn rows(&self, replay: &Replay, options: RowOptions<'_>) -> Arc<[Row]> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = kept.iter().position(|(key, _)| key.matches(replay, options)) {
            let hit = kept.remove(i);
            let rows = Arc::clone(&hit.1);
            kept.insert(0, hit);
            return rows;
        }
        let rows: Arc<[Row]> = rows::rows(replay, options).into();
        kept.insert(0, (RowsKey::new(replay, options), Arc::clone(&rows)));
        kept.truncate(KEPT);
        rows
    }
}

/// A copy starts empty: the rows are built again when first asked for.
impl Clone for RowCache {
    fn clone(&self) -> Self {
        RowCache::default()
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::trace::{EntityInfo, GroupInfo, Trace, TraceHeader};

    use super::*;

    fn replay(names: &[&str]) -> Replay {
        let header = TraceHeader {
            entities: names
                .iter()
                .map(|n| EntityInfo { path: format!("net/{n}"), group: Some(0), ..EntityInfo::default() })
                .collect(),
            groups: vec![GroupInfo { path: "net".into(), type_name: "Net".into(), parent: None }],
            ..TraceHeader::default()
        };
        Replay::build(&Trace { header, records: Vec::new() })
    }

    fn options<'a>(unfolded: &'a BTreeSet<String>, filter: &'a str) -> RowOptions<'a> {
        RowOptions { unfolded, filter, params: false }
    }

    #[test]
    fn rows_are_built_again_when_what_they_show_changes() {
        let cache = RowCache::default();
        let first = replay(&["a", "b"]);
        let mut unfolded = BTreeSet::new();
        let folded = cache.rows(&first, options(&unfolded, ""));
        assert_eq!(folded.len(), 1);
        // Asked again: the same rows, not built anew.
        assert!(Arc::ptr_eq(&folded, &cache.rows(&first, options(&unfolded, ""))));
        unfolded.insert("net".to_string());
        let open = cache.rows(&first, options(&unfolded, ""));
        assert_eq!(open.len(), 3);
        assert_eq!(cache.rows(&first, options(&unfolded, "b")).len(), 2);
        // Another replay of the same design: its own rows.
        let second = replay(&["a", "b", "c"]);
        assert_eq!(cache.rows(&second, options(&unfolded, "")).len(), 4);
        // Each of the last three is still kept.
        assert!(Arc::ptr_eq(&open, &cache.rows(&first, options(&unfolded, ""))));
        assert_eq!(*cache.rows(&first, options(&unfolded, "")), *rows::rows(&first, options(&unfolded, "")));
    }

    #[test]
    fn a_copy_starts_empty_and_builds_the_same_rows() {
        let cache = RowCache::default();
        let r = replay(&["a"]);
        let unfolded = BTreeSet::new();
        let options = RowOptions { unfolded: &unfolded, filter: "", params: false };
        let kept = cache.rows(&r, options);
        let copy = cache.clone();
        let again = copy.rows(&r, options);
        assert!(!Arc::ptr_eq(&kept, &again));
        assert_eq!(*kept, *again);
    }
}
