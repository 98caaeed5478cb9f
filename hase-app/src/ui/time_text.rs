//! The one rule for showing a simulated time in the editor. A time is shown in the largest unit not
//! above it, with as many decimals as the place it is shown in can resolve:
//! - where there is a zoom to follow (the timing diagram, the replay bar, the canvas clock), the
//!   resolution is the time one screen point spans, so O, X, X − O, the animator's time and the
//!   hover details all show the same digits, and more of them as the view zooms in
//!   ([`at`], [`span`]);
//! - where there is none (a makespan, a summary line), four significant digits ([`figure`]);
//! - a rate (playback speed) three significant digits ([`rate`]).
//!
//! Decimals are never trimmed, so a readout keeps its width while it changes. The ruler's tick
//! labels follow the same units with the decimals their step needs (see `timing::ticks`).

use hase_engine::time::SimTime;

use crate::ui::timing::ticks::{TimeUnit, UNITS, decimals_for, unit_for};

/// Significant digits of a time shown with no zoom to follow.
pub const FIGURE_DIGITS: usize = 4;
/// Significant digits of a rate.
pub const RATE_DIGITS: usize = 3;
/// Most decimals shown before the next smaller unit is used instead.
const MAX_DECIMALS: usize = 3;

/// The unit and decimals for `ps` shown at `resolution_ps`.
fn unit_and_decimals(ps: u64, resolution_ps: u64) -> (TimeUnit, usize) {
    let resolution = resolution_ps.max(1);
    // Small times at a coarse zoom read in the unit of their neighbours (`0.0 us`, not `0 ns`).
    let mut unit = unit_for(ps.max(resolution.saturating_mul(100)));
    let mut decimals = decimals_for(resolution, unit);
    while decimals > MAX_DECIMALS
        && let Some(smaller) = UNITS.iter().rev().find(|u| u.ps < unit.ps)
    {
        unit = *smaller;
        decimals = decimals_for(resolution, unit);
    }
    (unit, decimals)
}

/// `t` as finely as `resolution_ps` (the time one screen point spans) resolves: `432.5 us` at
/// 0.37 us per point, `432.475 us` at 1 ns per point.
pub fn at(t: SimTime, resolution_ps: u64) -> String {
    let (unit, decimals) = unit_and_decimals(t.0, resolution_ps);
    let value = t.0 as f64 / unit.ps as f64;
    format!("{value:.decimals$} {}", unit.symbol)
}

/// A signed span (X − O) in the unit of its size, at `resolution_ps`: `−12.5 us`.
pub fn span(ps: i128, resolution_ps: u64) -> String {
    let magnitude = u64::try_from(ps.unsigned_abs()).unwrap_or(u64::MAX);
    let sign = if ps < 0 { "−" } else { "" };
    format!("{sign}{}", at(SimTime(magnitude), resolution_ps))
}

/// `t` with `digits` significant digits: `439.4 us`, `1.156 ms`, `0 s`.
pub fn significant(t: SimTime, digits: usize) -> String {
    if t.0 == 0 {
        return "0 s".to_string();
    }
    let unit = unit_for(t.0);
    let value = t.0 as f64 / unit.ps as f64;
    let exponent = value.log10().floor() as i64;
    let decimals = if unit.ps == 1 { 0 } else { (digits as i64 - 1 - exponent).clamp(0, 12) as usize };
    format!("{value:.decimals$} {}", unit.symbol)
}

/// A time shown with no zoom to follow (a makespan): [`FIGURE_DIGITS`] significant digits.
pub fn figure(t: SimTime) -> String {
    significant(t, FIGURE_DIGITS)
}

/// Simulated time per second of playback: `22.4 us/s`.
pub fn rate(ps_per_s: f64) -> String {
    format!("{}/s", significant(SimTime::from_f64_ps(ps_per_s.max(0.0)), RATE_DIGITS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_follow_the_resolution_and_stay_the_same_for_neighbours() {
        // The whole 439 us run on ~1,200 points: 0.37 us per point, one decimal.
        let t = SimTime(432_474_900);
        assert_eq!(at(t, 366_000), "432.5 us");
        assert_eq!(at(SimTime(439_448_000), 366_000), "439.4 us");
        // Zoomed in to 1 ns per point: three decimals, same unit.
        assert_eq!(at(t, 1_000), "432.475 us");
        // Finer still: the next smaller unit rather than more than three decimals.
        assert_eq!(at(t, 10), "432474.90 ns");
        // Whole units when a point spans more than one.
        assert_eq!(at(SimTime(1_156_000_000), 5_000_000), "1.156 ms");
        assert_eq!(at(SimTime(1_156_000_000), 100_000_000), "1.2 ms");
        // Zero reads in the resolution's unit.
        assert_eq!(at(SimTime::ZERO, 366_000), "0.0 us");
        assert_eq!(span(-12_500_000, 100_000), "−12.5 us");
        assert_eq!(span(640_700_000, 1_000_000), "641 us");
        assert_eq!(span(640_700_000, 100_000), "640.7 us");
    }

    #[test]
    fn figures_and_rates_have_fixed_significant_digits() {
        assert_eq!(figure(SimTime(439_448_000)), "439.4 us");
        assert_eq!(figure(SimTime(1_156_000_000)), "1.156 ms");
        assert_eq!(figure(SimTime(1_200_000_000)), "1.200 ms");
        assert_eq!(figure(SimTime(40)), "40 ps");
        assert_eq!(figure(SimTime::ZERO), "0 s");
        assert_eq!(rate(22_387_200.0), "22.4 us/s");
        assert_eq!(rate(1e8), "100 us/s");
    }
}
