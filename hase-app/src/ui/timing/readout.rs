//! The readout of the logic-analyser cursors O, X and X − O (see `time_text`: digits follow the
//! zoom, the same for all three).

use hase_editor::session::timing::cursors::Cursors;
use hase_engine::time::SimTime;

use crate::ui::time_text;

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
