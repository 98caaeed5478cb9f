//! Which rows the timing diagram shows: entities in trace order grouped under their compound groups
//! (a folded group is one summary row; unfolding shows its members), traced parameters under their
//! entity when asked for, and a filter that keeps rows whose path or visited states match. Processors
//! a rank placement leaves out are not shown.

use std::collections::BTreeSet;

use crate::replay::Replay;
use crate::replay::columns::Intervals;

/// What a row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RowKind {
    /// An entity's states.
    Entity(u32),
    /// A compound group's summary (busy members).
    Group(u32),
    /// A traced parameter's values (index into `Replay::params`).
    Param(usize),
}

/// One row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// What it shows.
    pub kind: RowKind,
    /// Nesting depth (indentation of the label).
    pub depth: u16,
    /// Short label (last path component, or the parameter name).
    pub label: String,
}

/// How rows are chosen.
#[derive(Clone, Copy, Debug)]
pub struct RowOptions<'a> {
    /// Paths of the groups shown unfolded (all others are folded).
    pub unfolded: &'a BTreeSet<String>,
    /// Case-insensitive text matched against paths and visited state names ("" keeps all).
    pub filter: &'a str,
    /// Show traced parameter rows.
    pub params: bool,
}

fn last_component(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// True if entity `e` matches the lower-case `query`.
pub fn entity_matches(replay: &Replay, e: u32, query: &str) -> bool {
    let Some(info) = replay.header.entities.get(e as usize) else {
        return false;
    };
    if info.path.to_lowercase().contains(query) {
        return true;
    }
    let visited = replay.visited.get(e as usize).copied().unwrap_or(0);
    info.states
        .iter()
        .enumerate()
        .any(|(s, name)| s < 64 && visited & (1 << s) != 0 && name.to_lowercase().contains(query))
}

/// The rows to show, top to bottom.
pub fn rows(replay: &Replay, options: RowOptions<'_>) -> Vec<Row> {
    let query = options.filter.trim().to_lowercase();
    let filtering = !query.is_empty();
    let mut out = Vec::new();
    let mut emitted: BTreeSet<u32> = BTreeSet::new();
    for (e, info) in replay.header.entities.iter().enumerate() {
        let e = e as u32;
        // Processors the rank placement leaves out do nothing: only those in use are shown.
        if replay.unused.contains(&e) {
            continue;
        }
        if filtering && !entity_matches(replay, e, &query) {
            continue;
        }
        let mut chain = replay.groups_of(e);
        chain.reverse();
        let mut hidden = false;
        for (depth, &g) in chain.iter().enumerate() {
            let Some(group) = replay.header.groups.get(g as usize) else {
                continue;
            };
            if emitted.insert(g) {
                out.push(Row {
                    kind: RowKind::Group(g),
                    depth: depth as u16,
                    label: last_component(&group.path).to_string(),
                });
            }
            if !filtering && !options.unfolded.contains(&group.path) {
                hidden = true;
                break;
            }
        }
        if hidden {
            continue;
        }
        let depth = chain.len() as u16;
        out.push(Row { kind: RowKind::Entity(e), depth, label: last_component(&info.path).to_string() });
        if options.params {
            let from = replay.params.partition_point(|p| p.entity < e);
            for (k, p) in replay.params.iter().enumerate().skip(from).take_while(|(_, p)| p.entity == e) {
                let name = info.params.get(usize::from(p.param)).map_or("?", String::as_str);
                out.push(Row { kind: RowKind::Param(k), depth: depth + 1, label: name.to_string() });
            }
        }
    }
    out
}

/// The intervals behind a row.
pub fn intervals(replay: &Replay, kind: RowKind) -> Option<&Intervals> {
    match kind {
        RowKind::Entity(e) => replay.rows.get(e as usize),
        RowKind::Group(g) => replay.groups.get(g as usize).map(|g| &g.busy),
        RowKind::Param(p) => replay.params.get(p).map(|p| &p.values),
    }
}

/// Full path (or `path.param`) of a row, for tooltips and exports.
pub fn row_path(replay: &Replay, kind: RowKind) -> String {
    match kind {
        RowKind::Entity(e) => {
            replay.header.entities.get(e as usize).map_or_else(String::new, |i| i.path.clone())
        }
        RowKind::Group(g) => {
            replay.header.groups.get(g as usize).map_or_else(String::new, |g| g.path.clone())
        }
        RowKind::Param(p) => replay.params.get(p).map_or_else(String::new, |p| {
            let info = replay.header.entities.get(p.entity as usize);
            let entity = info.map_or("?", |i| i.path.as_str());
            let name = info.and_then(|i| i.params.get(usize::from(p.param))).map_or("?", String::as_str);
            format!("{entity}.{name}")
        }),
    }
}

/// The row an entity is shown in: its own, or the innermost group row shown around it (the folded
/// group that summarises it).
pub fn row_of_entity(rows: &[Row], replay: &Replay, e: u32) -> Option<usize> {
    if let Some(i) = rows.iter().position(|r| r.kind == RowKind::Entity(e)) {
        return Some(i);
    }
    replay.groups_of(e).iter().find_map(|&g| rows.iter().position(|r| r.kind == RowKind::Group(g)))
}

#[cfg(test)]
mod tests {
    use hase_engine::time::SimTime;
    use hase_engine::trace::{EntityInfo, GroupInfo, Record, Trace, TraceHeader, TraceValue};

    use super::*;

    fn replay() -> Replay {
        let entity = |path: &str, group| EntityInfo {
            path: path.into(),
            states: vec!["IDLE".into(), "BUSY".into(), "BLOCKED".into()].into(),
            params: vec!["queue".into()].into(),
            group,
            ..EntityInfo::default()
        };
        let header = TraceHeader {
            entities: vec![
                entity("p0", None),
                entity("net/core/s0", Some(1)),
                entity("net/s1", Some(0)),
                entity("p1", None),
            ],
            groups: vec![
                GroupInfo { path: "net".into(), type_name: "Net".into(), parent: None },
                GroupInfo { path: "net/core".into(), type_name: "Core".into(), parent: Some(0) },
            ],
            ..TraceHeader::default()
        };
        let mut records =
            crate::fixtures::state_records(&[(0, 0, 0), (0, 1, 1), (0, 2, 0), (0, 3, 0), (5, 2, 2)]);
        records.push(Record::Param { time: SimTime(6), entity: 3, param: 0, value: TraceValue::Int(4) });
        records.extend(crate::fixtures::state_records(&[(10, 0, 1)]));
        records.push(Record::Comment { time: SimTime(20), entity: 0, text: "end".into() });
        Replay::build(&Trace { header, records })
    }

    fn kinds(rows: &[Row]) -> Vec<RowKind> {
        rows.iter().map(|r| r.kind).collect()
    }

    #[test]
    fn folded_groups_are_one_row_and_unfold_level_by_level() {
        let r = replay();
        let mut unfolded = BTreeSet::new();
        let opts = |u: &BTreeSet<String>| rows(&r, RowOptions { unfolded: u, filter: "", params: false });
        let folded = opts(&unfolded);
        assert_eq!(kinds(&folded), [RowKind::Entity(0), RowKind::Group(0), RowKind::Entity(3)]);
        assert_eq!(row_of_entity(&folded, &r, 1), Some(1));
        unfolded.insert("net".to_string());
        let one = opts(&unfolded);
        assert_eq!(
            kinds(&one),
            [
                RowKind::Entity(0),
                RowKind::Group(0),
                RowKind::Group(1),
                RowKind::Entity(2),
                RowKind::Entity(3)
            ]
        );
        assert_eq!((one[2].depth, one[2].label.as_str()), (1, "core"));
        // s0 sits in the still-folded core group.
        assert_eq!(row_of_entity(&one, &r, 1), Some(2));
        unfolded.insert("net/core".to_string());
        let all = opts(&unfolded);
        assert_eq!(all.len(), 6);
        assert_eq!((all[3].kind, all[3].depth), (RowKind::Entity(1), 2));
    }

    #[test]
    fn filter_matches_paths_and_visited_states() {
        let r = replay();
        let unfolded = BTreeSet::new();
        let by = |f| kinds(&rows(&r, RowOptions { unfolded: &unfolded, filter: f, params: false }));
        assert_eq!(by("P1"), [RowKind::Entity(3)]);
        // BLOCKED was entered only by net/s1: its group is shown as its header.
        assert_eq!(by("blocked"), [RowKind::Group(0), RowKind::Entity(2)]);
        // BUSY: p0 (at 10) and s0 (from 0).
        assert_eq!(
            by("busy"),
            [RowKind::Entity(0), RowKind::Group(0), RowKind::Group(1), RowKind::Entity(1)]
        );
        assert!(by("nothing").is_empty());
    }

    #[test]
    fn parameter_rows_follow_their_entity() {
        let r = replay();
        let unfolded = BTreeSet::new();
        let all = rows(&r, RowOptions { unfolded: &unfolded, filter: "", params: true });
        assert_eq!(
            all.last().map(|row| (row.kind, row.label.as_str(), row.depth)),
            Some((RowKind::Param(0), "queue", 1))
        );
        assert_eq!(row_path(&r, RowKind::Param(0)), "p1.queue");
        assert_eq!(intervals(&r, RowKind::Param(0)).map(Intervals::len), Some(1));
    }
}
