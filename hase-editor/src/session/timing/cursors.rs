//! Logic-analyser cursors O and X: where they are, and snapping a placement to the nearest state
//! edge of the rows on screen.

use crate::replay::columns::Intervals;

/// Which cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The origin cursor.
    O,
    /// The measuring cursor.
    X,
}

/// The two cursors (ps).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursors {
    /// O, if placed.
    pub o: Option<u64>,
    /// X, if placed.
    pub x: Option<u64>,
}

impl Cursors {
    /// Place a cursor.
    pub fn set(&mut self, which: Which, t: u64) {
        match which {
            Which::O => self.o = Some(t),
            Which::X => self.x = Some(t),
        }
    }

    /// Where a cursor is.
    pub fn get(&self, which: Which) -> Option<u64> {
        match which {
            Which::O => self.o,
            Which::X => self.x,
        }
    }

    /// X − O in picoseconds, when both are placed.
    pub fn difference(&self) -> Option<i128> {
        Some(i128::from(self.x?) - i128::from(self.o?))
    }

    /// The interval between the cursors, earlier end first.
    pub fn interval(&self) -> Option<(u64, u64)> {
        let (o, x) = (self.o?, self.x?);
        Some((o.min(x), o.max(x)))
    }
}

/// `t` moved to the nearest interval edge of `rows` within `max_distance` ps (unchanged if none).
pub fn snap<'a>(rows: impl IntoIterator<Item = &'a Intervals>, t: u64, max_distance: u64) -> u64 {
    let mut best: Option<u64> = None;
    for row in rows {
        if let Some(edge) = row.nearest_edge(t, max_distance)
            && best.is_none_or(|b| edge.abs_diff(t) < b.abs_diff(t))
        {
            best = Some(edge);
        }
    }
    best.unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapping_picks_the_nearest_edge_of_any_row() {
        let mut a = Intervals::default();
        a.push(100, 200, 0);
        let mut b = Intervals::default();
        b.push(150, 180, 1);
        assert_eq!(snap([&a, &b], 176, 10), 180);
        assert_eq!(snap([&a, &b], 196, 10), 200);
        assert_eq!(snap([&a, &b], 103, 10), 100);
        // Nothing within reach: unchanged.
        assert_eq!(snap([&a, &b], 130, 10), 130);
        assert_eq!(snap(std::iter::empty(), 130, 10), 130);
    }
}
