//! The results table's order: by point (the default), by a variable's value or by a metric's mean,
//! ascending or descending. Values that read as numbers sort as numbers, others as text; points
//! without a measurement sort last either way.

use std::cmp::Ordering;

use super::results::PointSummary;

/// The column the table is sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortColumn {
    /// Point index.
    #[default]
    Point,
    /// A variable, by index.
    Variable(usize),
    /// A metric's mean, by index.
    Metric(usize),
}

/// The table's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableSort {
    /// Column.
    pub column: SortColumn,
    /// Largest first.
    pub descending: bool,
}

impl TableSort {
    /// A click on `column`'s header: sort by it, or flip the direction if it already is.
    pub fn click(&mut self, column: SortColumn) {
        if self.column == column {
            self.descending = !self.descending;
        } else {
            *self = TableSort { column, descending: false };
        }
    }

    /// Indices of `points` in this order.
    pub fn order(&self, points: &[PointSummary]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..points.len()).collect();
        let key = |p: &PointSummary| -> (Option<f64>, Option<String>) {
            match self.column {
                SortColumn::Point => (Some(p.point as f64), None),
                SortColumn::Variable(i) => {
                    let text = p.values.get(i).cloned();
                    (text.as_deref().and_then(|t| t.parse().ok()), text)
                }
                SortColumn::Metric(i) => (p.metrics.get(i).copied().flatten().map(|s| s.mean), None),
            }
        };
        order.sort_by(|&a, &b| {
            let (ka, kb) = (key(&points[a]), key(&points[b]));
            let by_value = match (ka, kb) {
                ((Some(x), _), (Some(y), _)) => {
                    let o = x.total_cmp(&y);
                    if self.descending { o.reverse() } else { o }
                }
                ((None, Some(x)), (None, Some(y))) => {
                    let o = x.cmp(&y);
                    if self.descending { o.reverse() } else { o }
                }
                ((Some(_), _), _) => Ordering::Less,
                (_, (Some(_), _)) => Ordering::Greater,
                _ => Ordering::Equal,
            };
            by_value.then(points[a].point.cmp(&points[b].point))
        });
        order
    }
}
