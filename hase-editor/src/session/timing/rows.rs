//! Which rows the timing diagram shows: entities in the replay's row order (numbers in numeric
//! order) grouped under their compound groups (a folded group is one summary row; unfolding shows
//! its members), traced parameters under their entity when asked for, and a search that keeps the
//! rows it finds (see [`RowQuery`]). Processors a rank placement leaves out are not shown.

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
    /// The search typed (see [`RowQuery`]; "" keeps all).
    pub filter: &'a str,
    /// Show traced parameter rows.
    pub params: bool,
}

fn last_component(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// What the row search finds, case-insensitively: with `*` (any text) or `?` (one character), the
/// entities whose path, or the end of it after a `/`, the pattern matches whole (`fabric/*`,
/// `r_12_*`); otherwise the entities named exactly so (`p2` finds p2, not p20) when there are any,
/// else those whose path or a visited state's name contains the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowQuery {
    /// Everything.
    All,
    /// A pattern with `*` and `?` (lower case).
    Pattern(String),
    /// A plain text (lower case).
    Text(String),
}

impl RowQuery {
    /// Read what was typed.
    pub fn parse(typed: &str) -> RowQuery {
        let query = typed.trim().to_lowercase();
        if query.is_empty() {
            RowQuery::All
        } else if query.contains(['*', '?']) {
            RowQuery::Pattern(query)
        } else {
            RowQuery::Text(query)
        }
    }
}

/// True if `pattern` (`*` any text, `?` one character) matches all of `text`.
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    // Where the last `*` was, and how much of the text it has taken.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

fn pattern_matches(pattern: &str, path: &str) -> bool {
    glob_matches(pattern, path) || path.match_indices('/').any(|(i, _)| glob_matches(pattern, &path[i + 1..]))
}

/// True if entity `e` matches the lower-case `query` as a plain text (path or visited state).
pub fn entity_matches(replay: &Replay, e: u32, query: &str) -> bool {
    let Some(info) = replay.header.entities.get(e as usize) else {
        return false;
    };
    if info.path.to_lowercase().contains(query) {
        return true;
    }
    replay.states_entered(e).any(|name| name.to_lowercase().contains(query))
}

/// The entities `query` keeps (all of them for [`RowQuery::All`]).
fn entities_found(replay: &Replay, query: &RowQuery) -> Option<BTreeSet<u32>> {
    let entities = &replay.header.entities;
    let numbered = || (0..entities.len() as u32).zip(entities.iter());
    match query {
        RowQuery::All => None,
        RowQuery::Pattern(pattern) => Some(
            numbered()
                .filter(|(_, info)| pattern_matches(pattern, &info.path.to_lowercase()))
                .map(|(e, _)| e)
                .collect(),
        ),
        RowQuery::Text(text) => {
            let named: BTreeSet<u32> = numbered()
                .filter(|(_, info)| {
                    let path = info.path.to_lowercase();
                    path == *text || last_component(&path) == text
                })
                .map(|(e, _)| e)
                .collect();
            if named.is_empty() {
                Some((0..entities.len() as u32).filter(|&e| entity_matches(replay, e, text)).collect())
            } else {
                Some(named)
            }
        }
    }
}

/// The rows to show, top to bottom.
pub fn rows(replay: &Replay, options: RowOptions<'_>) -> Vec<Row> {
    let found = entities_found(replay, &RowQuery::parse(options.filter));
    let filtering = found.is_some();
    let mut out = Vec::new();
    let mut emitted: BTreeSet<u32> = BTreeSet::new();
    let count = replay.header.entities.len() as u32;
    let trace_order: Vec<u32>;
    let order = if replay.row_order.len() == count as usize {
        &replay.row_order
    } else {
        trace_order = (0..count).collect();
        &trace_order
    };
    for &e in order {
        let Some(info) = replay.header.entities.get(e as usize) else { continue };
        // Processors the rank placement leaves out do nothing: only those in use are shown.
        if replay.unused.contains(&e) {
            continue;
        }
        if found.as_ref().is_some_and(|f| !f.contains(&e)) {
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
        // p0 and p1 together (one stem, named first), then the net group.
        let folded = opts(&unfolded);
        assert_eq!(kinds(&folded), [RowKind::Entity(0), RowKind::Entity(3), RowKind::Group(0)]);
        assert_eq!(row_of_entity(&folded, &r, 1), Some(2));
        unfolded.insert("net".to_string());
        let one = opts(&unfolded);
        assert_eq!(
            kinds(&one),
            [
                RowKind::Entity(0),
                RowKind::Entity(3),
                RowKind::Group(0),
                RowKind::Group(1),
                RowKind::Entity(2)
            ]
        );
        assert_eq!((one[3].depth, one[3].label.as_str()), (1, "core"));
        // s0 sits in the still-folded core group.
        assert_eq!(row_of_entity(&one, &r, 1), Some(3));
        unfolded.insert("net/core".to_string());
        let all = opts(&unfolded);
        assert_eq!(all.len(), 6);
        assert_eq!((all[4].kind, all[4].depth), (RowKind::Entity(1), 2));
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
    fn a_name_finds_itself_and_patterns_find_paths() {
        let r = replay();
        let unfolded = BTreeSet::new();
        let by = |f| kinds(&rows(&r, RowOptions { unfolded: &unfolded, filter: f, params: false }));
        // A whole name finds that entity only; a part of one finds every path containing it.
        assert_eq!(by("s1"), [RowKind::Group(0), RowKind::Entity(2)]);
        assert_eq!(by("p"), [RowKind::Entity(0), RowKind::Entity(3)]);
        // Patterns match a whole path or the end of one after a `/`.
        let net = [RowKind::Group(0), RowKind::Group(1), RowKind::Entity(1), RowKind::Entity(2)];
        assert_eq!(by("net/*"), net);
        assert_eq!(by("S?"), net);
        assert_eq!(by("core/*"), [RowKind::Group(0), RowKind::Group(1), RowKind::Entity(1)]);
        assert_eq!(by("p*"), [RowKind::Entity(0), RowKind::Entity(3)]);
        assert!(by("q*").is_empty());
    }

    #[test]
    fn glob_matches_whole_texts() {
        for (pattern, text, expected) in [
            ("r_12_7", "r_12_7", true),
            ("r_12_*", "r_12_7", true),
            ("r_1?_7", "r_12_7", true),
            ("r_1?_7", "r_1_7", false),
            ("*_7", "r_12_7", true),
            ("*_7", "r_12_70", false),
            ("fabric/*", "fabric/r_1", true),
            ("fabric/*", "fabric", false),
            ("*", "", true),
            ("a*b*c", "axxbyyc", true),
            ("a*b*c", "axxbyy", false),
        ] {
            assert_eq!(glob_matches(pattern, text), expected, "{pattern} on {text}");
        }
    }

    #[test]
    fn parameter_rows_follow_their_entity() {
        let r = replay();
        let unfolded = BTreeSet::new();
        let all = rows(&r, RowOptions { unfolded: &unfolded, filter: "", params: true });
        let p1 = all.iter().position(|row| row.kind == RowKind::Entity(3)).unwrap();
        assert_eq!(
            all.get(p1 + 1).map(|row| (row.kind, row.label.as_str(), row.depth)),
            Some((RowKind::Param(0), "queue", 1))
        );
        assert_eq!(row_path(&r, RowKind::Param(0)), "p1.queue");
        assert_eq!(intervals(&r, RowKind::Param(0)).map(Intervals::len), Some(1));
    }
}
