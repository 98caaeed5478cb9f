//! Time axis ticks and time text: major ticks every 1, 2 or 5 × 10^k picoseconds, spaced at least
//! a label's width apart at the current zoom, minor ticks between them, and labels in one unit
//! chosen from the visible span (not from how late it is: a 5 us window at 1.1 ms reads in us)
//! with as many decimals as the step needs. The O/X readout
//! formats spans in the axis unit with four significant digits ("0.6407 ms").

/// A time unit for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeUnit {
    /// Picoseconds per unit.
    pub ps: u64,
    /// Symbol.
    pub symbol: &'static str,
}

/// Units from small to large.
pub const UNITS: [TimeUnit; 5] = [
    TimeUnit { ps: 1, symbol: "ps" },
    TimeUnit { ps: 1_000, symbol: "ns" },
    TimeUnit { ps: 1_000_000, symbol: "us" },
    TimeUnit { ps: 1_000_000_000, symbol: "ms" },
    TimeUnit { ps: 1_000_000_000_000, symbol: "s" },
];

/// The largest unit not above `ps` (picoseconds for zero).
pub fn unit_for(ps: u64) -> TimeUnit {
    UNITS.iter().rev().find(|u| ps >= u.ps).copied().unwrap_or(UNITS[0])
}

/// The axis unit for a view showing `t0..=t1` with major ticks `major_ps` apart: the largest unit
/// not above the visible span (nor above the step, which is what labels must resolve), so labels
/// keep at most a few decimals however late in the run the view is.
pub fn axis_unit(t0: u64, t1: u64, major_ps: u64) -> TimeUnit {
    let span = t1.saturating_sub(t0).max(1);
    unit_for(span.min(major_ps.saturating_mul(1_000)))
}

/// Major and minor tick spacing for a zoom: the smallest 1-2-5 step at least `min_gap_pt` apart.
pub fn tick_step(ps_per_pt: f64, min_gap_pt: f32) -> (u64, u64) {
    let want = (ps_per_pt * f64::from(min_gap_pt)).max(1.0);
    let mut decade = 1u64;
    loop {
        for m in [1, 2, 5] {
            let step = decade.saturating_mul(m);
            if step as f64 >= want || step == u64::MAX {
                let minor = if m == 2 { step / 4 } else { step / 5 };
                return (step, minor.max(1));
            }
        }
        match decade.checked_mul(10) {
            Some(d) => decade = d,
            None => return (u64::MAX, u64::MAX / 5),
        }
    }
}

/// Decimals needed to tell ticks `step` apart in `unit`.
pub fn decimals_for(step: u64, unit: TimeUnit) -> usize {
    let mut decimals = 0;
    let mut resolution = unit.ps;
    while resolution > step && decimals < 12 {
        resolution /= 10;
        decimals += 1;
    }
    decimals
}

/// `t` in `unit` with `decimals` decimals and the symbol: `1.25 ms`.
pub fn format_fixed(t: u64, unit: TimeUnit, decimals: usize) -> String {
    let value = t as f64 / unit.ps as f64;
    format!("{value:.decimals$} {}", unit.symbol)
}

/// A signed span in `unit` with `digits` significant digits: `0.6407 ms`, `−12.5 us`.
pub fn format_span(ps: i128, unit: TimeUnit, digits: usize) -> String {
    let value = ps as f64 / unit.ps as f64;
    let magnitude = value.abs();
    let exponent = if magnitude > 0.0 { magnitude.log10().floor() as i64 } else { 0 };
    let decimals = (digits as i64 - 1 - exponent).clamp(0, 12) as usize;
    let sign = if ps < 0 { "−" } else { "" };
    format!("{sign}{magnitude:.decimals$} {}", unit.symbol)
}

/// Ticks within `[t0, t1]`: (time, is major).
pub fn ticks(t0: u64, t1: u64, major: u64, minor: u64) -> Vec<(u64, bool)> {
    let mut out = Vec::new();
    if minor == 0 || t1 < t0 {
        return out;
    }
    let mut t = t0.div_ceil(minor).saturating_mul(minor);
    while t <= t1 && out.len() < 10_000 {
        out.push((t, t.is_multiple_of(major)));
        match t.checked_add(minor) {
            Some(next) => t = next,
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_the_zoom() {
        // 1,000 ps per point, labels 80 points apart: at least 80,000 ps → 100 ns, minor 20 ns.
        assert_eq!(tick_step(1_000.0, 80.0), (100_000, 20_000));
        // 300 ps/pt × 80 = 24,000 → 50 ns.
        assert_eq!(tick_step(300.0, 80.0), (50_000, 10_000));
        // 2-steps get quarter minors: 15,000 → 20 ns, minor 5 ns.
        assert_eq!(tick_step(187.5, 80.0), (20_000, 5_000));
        assert_eq!(tick_step(0.001, 80.0), (1, 1));
    }

    #[test]
    fn units_and_decimals() {
        assert_eq!(unit_for(1_156_000_000).symbol, "ms");
        assert_eq!(unit_for(999_999).symbol, "ns");
        assert_eq!(unit_for(0).symbol, "ps");
        let ms = unit_for(1_000_000_000);
        assert_eq!(decimals_for(200_000_000, ms), 1);
        assert_eq!(decimals_for(50_000_000, ms), 2);
        assert_eq!(decimals_for(2_000_000_000, ms), 0);
        assert_eq!(format_fixed(1_200_000_000, ms, 1), "1.2 ms");
    }

    #[test]
    fn the_axis_unit_follows_the_visible_span_not_the_time() {
        // 5 us visible late in a 1.1 ms run, a 1 us step: us ticks, no decimals.
        let (t0, t1) = (1_100_000_000, 1_105_000_000);
        let unit = axis_unit(t0, t1, 1_000_000);
        assert_eq!(unit.symbol, "us");
        assert_eq!(decimals_for(1_000_000, unit), 0);
        assert_eq!(format_fixed(1_101_000_000, unit, 0), "1101 us");
        // A 500 ns step there: one decimal.
        assert_eq!(decimals_for(500_000, unit), 1);
        assert_eq!(format_fixed(1_100_500_000, unit, 1), "1100.5 us");
        // 40 ns visible at 2 ms, a 5 ns step: ns, no decimals ("2000005 ns"), where the unit of
        // the right edge would need six decimals of ms ("2.000005 ms").
        let unit = axis_unit(2_000_000_000, 2_000_040_000, 5_000);
        assert_eq!((unit.symbol, decimals_for(5_000, unit)), ("ns", 0));
        assert_eq!(decimals_for(5_000, unit_for(2_000_040_000)), 6);
        // The whole run visible: the span's unit.
        assert_eq!(axis_unit(0, 1_156_000_000, 200_000_000).symbol, "ms");
        // An empty or reversed view falls back to ps without panicking.
        assert_eq!(axis_unit(10, 10, 1).symbol, "ps");
        assert_eq!(axis_unit(10, 5, 1).symbol, "ps");
    }

    #[test]
    fn spans_have_four_significant_digits() {
        let ms = unit_for(1_000_000_000);
        assert_eq!(format_span(640_700_000, ms, 4), "0.6407 ms");
        assert_eq!(format_span(1_156_000_000, ms, 4), "1.156 ms");
        assert_eq!(format_span(-12_500_000_000, ms, 4), "−12.50 ms");
        assert_eq!(format_span(0, ms, 4), "0.000 ms");
    }

    #[test]
    fn ticks_land_on_multiples_of_the_minor_step() {
        let t = ticks(15, 60, 20, 5);
        assert_eq!(t.first(), Some(&(15, false)));
        assert!(t.contains(&(20, true)) && t.contains(&(40, true)) && t.contains(&(60, true)));
        assert_eq!(t.len(), 10);
        assert!(ticks(10, 5, 20, 5).is_empty());
    }
}
