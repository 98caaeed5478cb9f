//! Logic-analyser cursors O and X: where they are, snapping a placement to the nearest state edge
//! of the rows on screen, and the readout of O, X and X − O (see `time_text`: digits follow the
//! zoom, the same for all three).

use crate::replay::columns::Intervals;

use hase_engine::time::SimTime;

use crate::ui::time_text;

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
pub fn readout(cursors: &Cursors, resolution_ps: u64) -> String {
    let mut parts = Vec::new();
    if let Some(o) = cursors.o {
        parts.push(format!("O {}", time_text::at(SimTime(o), resolution_ps)));
    }
    if let Some(x) = cursors.x {
        parts.push(format!("X {}", time_text::at(SimTime(x), resolution_ps)));
    }
    if let Some(d) = cursors.difference() {
        parts.push(format!("X − O {}", time_text::span(d, resolution_ps)));
    }
    if parts.is_empty() {
        return "O and X: press O or X over the diagram, or click the ruler (left O, right X)".to_string();
    }
    parts.join("   ")
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

    #[test]
    fn readout_shows_o_x_and_the_difference() {
        // 0.1 us per point: every figure to 0.1 us, in the unit of its size.
        let c = Cursors { o: Some(1_200_000_000), x: Some(1_840_700_000) };
        assert_eq!(readout(&c, 100_000), "O 1200.0 us   X 1840.7 us   X − O 640.7 us");
        let back = Cursors { o: Some(1_840_700_000), x: Some(1_200_000_000) };
        assert_eq!(back.difference(), Some(-640_700_000));
        assert_eq!(back.interval(), Some((1_200_000_000, 1_840_700_000)));
        assert!(readout(&back, 100_000).ends_with("X − O −640.7 us"));
        // Zoomed out (10 us per point): fewer digits, the same for all.
        assert_eq!(readout(&c, 10_000_000), "O 1.20 ms   X 1.84 ms   X − O 0.64 ms");
        let only_o = Cursors { o: Some(5_000), x: None };
        assert_eq!(readout(&only_o, 100), "O 5.0 ns");
        assert_eq!(only_o.difference(), None);
    }
}
