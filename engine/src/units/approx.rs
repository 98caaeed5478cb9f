//! Measured quantities (means, fits, plot ticks: floating point, not exact) written in the unit
//! their size calls for: times in s, ms, us, ns or ps, sizes in B, KiB, MiB, GiB or TiB, rates and
//! flop rates in their decimal units, with a given number of significant digits. A set of values
//! shown together (an axis) shares one unit: [`unit_for_range`] chooses it, [`format_in_unit`]
//! writes each value in it. The units are those [`super::parse_typed`] reads, so a value shown can
//! be typed back.

use super::dimension::Dimension;
use super::table;
use super::unit::Unit;

/// Units a measured size is shown in (binary, as sizes are read), largest first.
const SIZE_UNITS: [(&str, u128); 5] =
    [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("B", 1)];

/// The display units of `dimension`, largest first, as (symbol, base quantities per unit).
fn units(dimension: Dimension) -> Vec<(&'static str, f64)> {
    match dimension {
        Dimension::Size => SIZE_UNITS.iter().map(|&(s, n)| (s, n as f64)).collect(),
        other => table::display_units(other).iter().map(|&(s, (n, d))| (s, n as f64 / d as f64)).collect(),
    }
}

/// The largest unit of `dimension` that `magnitude` (base quantities) reaches; the smallest for
/// values below it (and for zero).
pub fn unit_for_range(dimension: Dimension, magnitude: f64) -> Unit {
    let all = units(dimension);
    let magnitude = if magnitude.is_finite() { magnitude.abs() } else { 0.0 };
    let (symbol, _) =
        all.iter().find(|(_, factor)| magnitude >= *factor).or(all.last()).copied().unwrap_or(("", 1.0));
    let (num, den) = match dimension {
        Dimension::Size => (SIZE_UNITS.iter().find(|(s, _)| *s == symbol).map_or(1, |&(_, n)| n), 1),
        other => table::display_units(other).iter().find(|(s, _)| *s == symbol).map_or((1, 1), |&(_, r)| r),
    };
    Unit { dimension, symbol: symbol.to_string(), num, den }
}

/// `value` (base quantities) in `unit` with `decimals` decimals: `1.50 us`.
pub fn format_in_unit(value: f64, unit: &Unit, decimals: usize) -> String {
    let number = value / unit.factor();
    if unit.symbol.is_empty() {
        format!("{number:.decimals$}")
    } else {
        format!("{number:.decimals$} {}", unit.symbol)
    }
}

/// `value` (base quantities) in the unit its size calls for, with at most `digits` significant
/// digits (at least one), trailing zeros dropped: `10.56 ms` for 10,557,000,000 ps at 4 digits,
/// `64 KiB`, `1.3 s`, `0 ps`.
pub fn format_measured(dimension: Dimension, value: f64, digits: usize) -> String {
    if !value.is_finite() {
        return format!("{value}");
    }
    let unit = unit_for_range(dimension, value);
    let number = value.abs() / unit.factor();
    let whole_digits = if number < 1.0 { 1 } else { number.log10().floor() as usize + 1 };
    let decimals = digits.max(1).saturating_sub(whole_digits);
    let mut text = format!("{:.decimals$}", value / unit.factor());
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if text == "-0" {
        text = "0".into();
    }
    if unit.symbol.is_empty() { text } else { format!("{text} {}", unit.symbol) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_range_has_its_unit_and_the_digits_asked_for() {
        let time = |ps: f64| format_measured(Dimension::Time, ps, 4);
        assert_eq!(time(10.56e9), "10.56 ms");
        assert_eq!(time(1.3e12), "1.3 s");
        assert_eq!(time(4.2616e10), "42.62 ms");
        assert_eq!(time(355_520_000.0), "355.5 us");
        assert_eq!(time(82_680.0), "82.68 ns");
        assert_eq!(time(12.0), "12 ps");
        assert_eq!(time(0.0), "0 ps");
        assert_eq!(time(-2.5e6), "-2.5 us");
        assert_eq!(time(999_999.0), "1000 ns", "rounding stays in the unit chosen");
        let size = |b: f64| format_measured(Dimension::Size, b, 3);
        assert_eq!(size(65_536.0), "64 KiB");
        assert_eq!(size(1_572_864.0), "1.5 MiB");
        assert_eq!(size(100.0), "100 B");
        assert_eq!(size(100.4), "100 B");
        assert_eq!(format_measured(Dimension::Rate, 1.25e9, 3), "1.25 GB/s");
    }

    #[test]
    fn an_axis_shares_the_unit_of_its_largest_value() {
        let unit = unit_for_range(Dimension::Time, 1.3e12);
        assert_eq!(unit.symbol, "s");
        assert_eq!(format_in_unit(2.5e11, &unit, 2), "0.25 s");
        let unit = unit_for_range(Dimension::Size, 3.0 * 1024.0 * 1024.0);
        assert_eq!(unit.symbol, "MiB");
        assert_eq!(format_in_unit(512.0 * 1024.0, &unit, 1), "0.5 MiB");
        // Every unit chosen reads back through the one parser.
        for dimension in [Dimension::Time, Dimension::Size, Dimension::Rate, Dimension::FlopRate] {
            for magnitude in [0.0, 1.0, 2e3, 3e6, 4e9, 5e12, 6e15] {
                let unit = unit_for_range(dimension, magnitude);
                let text = format_in_unit(1.0 * unit.factor(), &unit, 0);
                assert_eq!(
                    super::super::parse_typed(dimension, &text).map(|(v, _)| v as f64),
                    Ok(unit.factor()),
                    "{text}"
                );
            }
        }
    }
}
