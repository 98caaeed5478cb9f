//! The statistics tables' sort order: which column each table is sorted by and which way, and the
//! rows of a run's entities and links in that order.

use std::cmp::Ordering;

use hase_engine::stats::{EntityStats, LinkStats, RunStats};

/// Columns of the entity table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EntityColumn {
    /// Path.
    #[default]
    Name,
    /// Type.
    Type,
    /// Busy fraction.
    Busy,
    /// Messages sent.
    Sent,
}

/// Columns of the link table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkColumn {
    /// Link direction name.
    Name,
    /// Utilisation.
    #[default]
    Utilisation,
    /// Messages.
    Messages,
    /// Bytes.
    Bytes,
}

/// Sort order of the two tables: a column and whether it runs from the largest down, each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsOrder {
    /// Entity table column and direction.
    pub entities: (EntityColumn, bool),
    /// Link table column and direction.
    pub links: (LinkColumn, bool),
}

impl StatsOrder {
    /// A click on the entity table's `column` heading: the same column turns round, another one
    /// sorts from the largest down.
    pub fn click_entities(&mut self, column: EntityColumn) {
        self.entities = turn(self.entities, column);
    }

    /// A click on the link table's `column` heading (as [`StatsOrder::click_entities`]).
    pub fn click_links(&mut self, column: LinkColumn) {
        self.links = turn(self.links, column);
    }
}

fn turn<C: PartialEq + Copy>(sort: (C, bool), column: C) -> (C, bool) {
    if sort.0 == column { (column, !sort.1) } else { (column, true) }
}

impl Default for StatsOrder {
    fn default() -> Self {
        StatsOrder { entities: (EntityColumn::Busy, true), links: (LinkColumn::Utilisation, true) }
    }
}

/// Messages an entity sent, over all its ports.
pub fn sent(e: &EntityStats) -> u64 {
    e.ports.values().map(|p| p.sent_msgs).sum()
}

/// Entities sorted by `column` (`descending` reverses), ties by name.
pub fn sorted_entities(
    stats: &RunStats,
    column: EntityColumn,
    descending: bool,
) -> Vec<(&String, &EntityStats)> {
    sorted_by(stats.entities.iter().collect(), descending, |a, b| match column {
        EntityColumn::Name => a.0.cmp(b.0),
        EntityColumn::Type => a.1.type_name.cmp(&b.1.type_name),
        EntityColumn::Busy => a.1.busy_fraction.total_cmp(&b.1.busy_fraction),
        EntityColumn::Sent => sent(a.1).cmp(&sent(b.1)),
    })
}

/// Links sorted by `column`, ties by name.
pub fn sorted_links(stats: &RunStats, column: LinkColumn, descending: bool) -> Vec<(&String, &LinkStats)> {
    sorted_by(stats.links.iter().collect(), descending, |a, b| match column {
        LinkColumn::Name => a.0.cmp(b.0),
        LinkColumn::Utilisation => a.1.utilisation.total_cmp(&b.1.utilisation),
        LinkColumn::Messages => a.1.msgs.cmp(&b.1.msgs),
        LinkColumn::Bytes => a.1.bytes.cmp(&b.1.bytes),
    })
}

/// A table's rows (name, figures) sorted by `compare` (`descending` turns it round), ties by name.
fn sorted_by<'a, T>(
    mut rows: Vec<(&'a String, &'a T)>,
    descending: bool,
    compare: impl Fn(&(&String, &T), &(&String, &T)) -> Ordering,
) -> Vec<(&'a String, &'a T)> {
    rows.sort_by(|a, b| {
        let order = compare(a, b);
        let order = if descending { order.reverse() } else { order };
        order.then_with(|| a.0.cmp(b.0))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_sort_by_the_chosen_column_with_ties_by_name() {
        let mut s = RunStats::default();
        for (name, busy) in [("b", 0.5), ("a", 0.5), ("c", 0.9)] {
            s.entities.insert(
                name.into(),
                EntityStats { busy_fraction: busy, type_name: "T".into(), ..EntityStats::default() },
            );
        }
        let names =
            |rows: Vec<(&String, &EntityStats)>| rows.into_iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(sorted_entities(&s, EntityColumn::Busy, true)), ["c", "a", "b"]);
        assert_eq!(names(sorted_entities(&s, EntityColumn::Busy, false)), ["a", "b", "c"]);
        assert_eq!(names(sorted_entities(&s, EntityColumn::Name, true)), ["c", "b", "a"]);
        for (name, u, msgs) in [("x", 0.2, 5), ("y", 0.7, 1)] {
            s.links.insert(name.into(), LinkStats { utilisation: u, msgs, ..LinkStats::default() });
        }
        let links =
            |rows: Vec<(&String, &LinkStats)>| rows.into_iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(links(sorted_links(&s, LinkColumn::Utilisation, true)), ["y", "x"]);
        assert_eq!(links(sorted_links(&s, LinkColumn::Messages, true)), ["x", "y"]);
    }
}
