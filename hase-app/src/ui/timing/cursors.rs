//! Logic-analyser cursors O and X: where they are, snapping a placement to the nearest state edge
//! of the rows on screen, and the readout of O, X and X − O in the axis unit.

use crate::replay::columns::Intervals;

use super::ticks::{Unit, format_span};

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

/// "O 1.2000 ms   X 1.8407 ms   X − O 0.6407 ms": times with five significant digits, the
/// difference with four, all in `unit`; cursors not placed yet are left out.
pub fn readout(cursors: &Cursors, unit: Unit) -> String {
    let mut parts = Vec::new();
    if let Some(o) = cursors.o {
        parts.push(format!("O {}", format_span(i128::from(o), unit, 5)));
    }
    if let Some(x) = cursors.x {
        parts.push(format!("X {}", format_span(i128::from(x), unit, 5)));
    }
    if let Some(d) = cursors.difference() {
        parts.push(format!("X − O {}", format_span(d, unit, 4)));
    }
    if parts.is_empty() {
        return "O and X: press O or X over the diagram, or click the ruler (left O, right X)".to_string();
    }
    parts.join("   ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::timing::ticks::unit_for;

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

    #[test]
    fn readout_shows_o_x_and_the_difference() {
        let ms = unit_for(1_000_000_000);
        let c = Cursors { o: Some(1_200_000_000), x: Some(1_840_700_000) };
        assert_eq!(readout(&c, ms), "O 1.2000 ms   X 1.8407 ms   X − O 0.6407 ms");
        let back = Cursors { o: Some(1_840_700_000), x: Some(1_200_000_000) };
        assert_eq!(back.difference(), Some(-640_700_000));
        assert_eq!(back.interval(), Some((1_200_000_000, 1_840_700_000)));
        assert!(readout(&back, ms).ends_with("X − O −0.6407 ms"));
        let only_o = Cursors { o: Some(5_000), x: None };
        assert_eq!(readout(&only_o, unit_for(5_000)), "O 5.0000 ns");
        assert_eq!(only_o.difference(), None);
    }
}
