//! The one units parser of hase: times, sizes, rates and flop rates as users type them on the command
//! line, in `--set`, the inspector, the template dialog and imported platform files.
//!
//! | quantity | base | examples |
//! | --- | --- | --- |
//! | time | picoseconds | `10us`, `2.5 ms`, `1e-6s`, `40ps`; a bare number is picoseconds |
//! | size | bytes, **binary** | `64K` = `64KiB` = `64KB` = 65,536 bytes; `2M`, `1G` |
//! | rate | bytes/s, **decimal** | `1G` = `1GB/s` = `1GBps` = 10⁹ B/s; `10Gbps` = 1.25·10⁹ B/s; `1GiB/s` = 1,024³ B/s |
//! | flop rate | flop/s | `1Gf` = 10⁹ flop/s, `100Mf`, `2.5e9` |
//!
//! Sizes stay binary (`1K` = 1,024 bytes) because MPI message sizes are counted that way; rates are
//! decimal because links are rated that way and SimGrid reads them so. Numbers are read exactly (an
//! integer mantissa and a power of ten) and rounded once to the base unit, so a value written by
//! [`format_in`] reads back to the same integer. A parse can also return the [`Unit`] as typed so a
//! value is shown back in it (the inspector does). Measured values (means, fits, plot ticks) are
//! written by [`format_measured`] in the unit their size calls for.

mod approx;
mod dimension;
mod error;
mod number;
mod table;
mod unit;

use std::str::FromStr;

use crate::time::SimTime;

pub use approx::{format_in_unit, format_measured, unit_for_range};
pub use dimension::Dimension;
pub use error::UnitError;
pub use number::MAX_NUMBER_CHARS;
pub use unit::Unit;

/// The longest text read as a quantity (number, blanks and unit).
pub const MAX_QUANTITY_CHARS: usize = crate::limits::MAX_QUANTITY_CHARS;

/// Split `text` into its number and its unit, and read both.
fn read(text: &str, dimension: Dimension) -> Result<(number::Decimal, Unit), UnitError> {
    let trimmed = text.trim();
    let expected = table::example(dimension);
    if trimmed.is_empty() {
        return Err(UnitError::Empty { expected });
    }
    if trimmed.len() > MAX_QUANTITY_CHARS {
        return Err(UnitError::TooLong(trimmed.chars().take(24).collect()));
    }
    let split = trimmed
        .char_indices()
        .find(|&(i, c)| c.is_alphabetic() && !is_exponent(trimmed, i))
        .map_or(trimmed.len(), |(i, _)| i);
    let (number_text, unit_text) = trimmed.split_at(split);
    let unit_text = unit_text.trim();
    let unit = Unit::new(dimension, unit_text).ok_or_else(|| UnitError::BadUnit {
        text: trimmed.to_string(),
        unit: unit_text.to_string(),
        help: table::unit_help(dimension),
    })?;
    let decimal = number::read_decimal(number_text.trim(), trimmed).map_err(|e| match e {
        UnitError::BadNumber { text, .. } => UnitError::BadNumber { text, expected },
        other => other,
    })?;
    if decimal.negative && decimal.mantissa != 0 {
        return Err(UnitError::Negative(trimmed.to_string()));
    }
    Ok((decimal, unit))
}

/// True when the alphabetic character at `i` is the `e` of a float exponent such as `1e-6`.
fn is_exponent(text: &str, i: usize) -> bool {
    let bytes = text.as_bytes();
    if !matches!(bytes[i], b'e' | b'E') || i == 0 || !bytes[i - 1].is_ascii_digit() && bytes[i - 1] != b'.' {
        return false;
    }
    match bytes.get(i + 1) {
        Some(b'-' | b'+') => bytes.get(i + 2).is_some_and(u8::is_ascii_digit),
        Some(c) => c.is_ascii_digit(),
        None => false,
    }
}

/// Read an unsigned quantity into its base integer, rounded to nearest; `whole_of` names the base
/// when only whole base quantities are accepted.
fn read_u64(
    text: &str,
    dimension: Dimension,
    whole_of: Option<&'static str>,
) -> Result<(u64, Unit), UnitError> {
    let (decimal, unit) = read(text, dimension)?;
    let trimmed = text.trim();
    let (value, exact) =
        number::scale(decimal, unit.num, unit.den).ok_or_else(|| UnitError::Overflow(trimmed.to_string()))?;
    // A number with more digits than 128 bits hold is rounded, not refused.
    if let Some(base) = whole_of
        && !exact
        && !decimal.truncated
    {
        return Err(UnitError::NotWhole(trimmed.to_string(), base));
    }
    let value = u64::try_from(value).map_err(|_| UnitError::Overflow(trimmed.to_string()))?;
    Ok((value, unit))
}

/// Read a time: `10us`, `2.5 ms`, `300ns`, `40ps`, `1s`, `1e-6s`; a bare number is picoseconds.
pub fn parse_time(text: &str) -> Result<SimTime, UnitError> {
    parse_time_typed(text).map(|(t, _)| t)
}

/// Read a time and the unit it was written in.
pub fn parse_time_typed(text: &str) -> Result<(SimTime, Unit), UnitError> {
    read_u64(text, Dimension::Time, None).map(|(ps, unit)| (SimTime(ps), unit))
}

/// Read a size in bytes: `512`, `64K`, `64KiB`, `2M`, `1G` (binary: `1K` = 1,024 bytes).
pub fn parse_size(text: &str) -> Result<u64, UnitError> {
    parse_size_typed(text).map(|(b, _)| b)
}

/// Read a size and the unit it was written in.
pub fn parse_size_typed(text: &str) -> Result<(u64, Unit), UnitError> {
    read_u64(text, Dimension::Size, Some("bytes"))
}

/// Read a rate in bytes per second: `1G`, `1GB/s`, `1GBps` (10⁹), `10Gbps` (1.25·10⁹), `1GiB/s`
/// (1,024³), a bare number of B/s, or `unlimited` (0, no serialisation).
pub fn parse_rate(text: &str) -> Result<u64, UnitError> {
    parse_rate_typed(text).map(|(r, _)| r)
}

/// Read a rate and the unit it was written in.
pub fn parse_rate_typed(text: &str) -> Result<(u64, Unit), UnitError> {
    if text.trim().eq_ignore_ascii_case("unlimited") {
        return Ok((0, Unit { dimension: Dimension::Rate, symbol: "B/s".into(), num: 1, den: 1 }));
    }
    read_u64(text, Dimension::Rate, None)
}

/// Read a processor speed in flop/s: `1Gf`, `100Mf`, `2.5e9`, `1 Gflops`.
pub fn parse_flop_rate(text: &str) -> Result<f64, UnitError> {
    parse_flop_rate_typed(text).map(|(f, _)| f)
}

/// Read a flop rate and the unit it was written in.
pub fn parse_flop_rate_typed(text: &str) -> Result<(f64, Unit), UnitError> {
    let (decimal, unit) = read(text, Dimension::FlopRate)?;
    let scale = unit.num as f64 / unit.den as f64;
    let value = decimal.mantissa as f64 * 10f64.powi(decimal.exponent) * scale;
    if value.is_finite() { Ok((value, unit)) } else { Err(UnitError::Overflow(text.trim().to_string())) }
}

/// Read a signed whole number with an optional binary suffix (`64K` = 65,536, `-1`, `1_000`): the
/// integer parameters' reading.
pub fn parse_int(text: &str) -> Result<i64, UnitError> {
    let trimmed = text.trim();
    let (negative, magnitude) = match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, trimmed),
    };
    let (bytes, _) = read_u64(magnitude, Dimension::Size, Some("units")).map_err(|e| match e {
        UnitError::Negative(_) => {
            UnitError::BadNumber { text: trimmed.to_string(), expected: "a whole number" }
        }
        other => other,
    })?;
    let value = i64::try_from(bytes).map_err(|_| UnitError::Overflow(trimmed.to_string()))?;
    Ok(if negative { -value } else { value })
}

/// Read a quantity of `dimension` as its base integer (a flop rate is rounded to whole flop/s).
pub fn parse_typed(dimension: Dimension, text: &str) -> Result<(u64, Unit), UnitError> {
    match dimension {
        Dimension::Time => parse_time_typed(text).map(|(t, u)| (t.as_ps(), u)),
        Dimension::Size => parse_size_typed(text),
        Dimension::Rate => parse_rate_typed(text),
        Dimension::FlopRate => parse_flop_rate_typed(text).map(|(f, u)| (f.round() as u64, u)),
    }
}

/// `value` (in base quantities) written exactly in `unit`: `format_in(1_250_000_000, Gbps)` is
/// `10 Gbps`. A unit with no symbol gives the bare number.
pub fn format_in(value: u64, unit: &Unit) -> String {
    let number = number::write_ratio(u128::from(value), unit.num, unit.den);
    if unit.symbol.is_empty() { number } else { format!("{number} {}", unit.symbol) }
}

/// A flop rate written in `unit` (`2.5 Gf`).
pub fn format_flops_in(value: f64, unit: &Unit) -> String {
    let number = value * unit.den as f64 / unit.num as f64;
    if unit.symbol.is_empty() { format!("{number}") } else { format!("{number} {}", unit.symbol) }
}

/// The unit a value of `dimension` is shown in when none was typed: the largest it reaches.
pub fn display_unit(dimension: Dimension, value: u64) -> Unit {
    let units = table::display_units(dimension);
    let (symbol, (num, den)) = units
        .iter()
        .find(|(_, (num, den))| u128::from(value) * den >= *num)
        .or(units.last())
        .copied()
        .unwrap_or(("", (1, 1)));
    Unit { dimension, symbol: symbol.to_string(), num, den }
}

/// A time written exactly in the largest unit it reaches (`1.5 us`, `0 ps`): what the editors show.
pub fn format_time(time: SimTime) -> String {
    format_in(time.as_ps(), &display_unit(Dimension::Time, time.as_ps()))
}

/// A rate written exactly in the largest decimal unit it reaches (`1 GB/s`, `1.25 GB/s`), or
/// `unlimited` for 0.
pub fn format_rate(bytes_per_s: u64) -> String {
    if bytes_per_s == 0 {
        return "unlimited".into();
    }
    format_in(bytes_per_s, &display_unit(Dimension::Rate, bytes_per_s))
}

/// A flop rate in the largest unit it reaches (`1 Gf`).
pub fn format_flop_rate(flops_per_s: f64) -> String {
    let whole = if flops_per_s.is_finite() && flops_per_s >= 0.0 { flops_per_s as u64 } else { 0 };
    format_flops_in(flops_per_s, &display_unit(Dimension::FlopRate, whole))
}

impl FromStr for SimTime {
    type Err = UnitError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_time(s)
    }
}

#[cfg(test)]
mod tests;
