//! How the experiments view writes its numbers: a metric or variable whose name says what it
//! measures (`makespan_ps`, `wait_time_ps`: a time; `bytes`, `message_bytes`: a size;
//! `…_bytes_per_s`: a rate) is written in the unit its value calls for (`10.56 ms`, `64 KiB`)
//! through the engine's one formatter (`hase_engine::units::format_measured`); other numbers
//! compactly (`1024`, `1.5M`, `0.25`). A spread of zero (a deterministic run repeated) is not
//! written. Axes share one unit for all their ticks ([`Axis`]).

use hase_engine::units::{Dimension, Unit, format_in_unit, format_measured, unit_for_range};

/// Significant digits of a measured value.
pub const DIGITS: usize = 4;

/// What a metric or variable named `name` measures, read from its name (its last part after a
/// `.`): a time if it ends in `_ps` (or is `time_ps`, `makespan`), a rate if it ends in `_per_s`,
/// a size if it names bytes or a size; `None` for counts and words.
pub fn dimension_of(name: &str) -> Option<Dimension> {
    // A per-state metric names its state and the entities it sums after the quantity:
    // `state_ps:ALLREDUCE@type:Processor` is a time.
    let name = name.split('@').next().unwrap_or(name);
    let last = name.rsplit('.').next().unwrap_or(name);
    last.split(':').find_map(|part| dimension_of_word(&part.to_lowercase()))
}

/// What one word of a name measures.
fn dimension_of_word(name: &str) -> Option<Dimension> {
    if name.ends_with("_per_s") || name.ends_with("bandwidth") {
        Some(Dimension::Rate)
    } else if name.ends_with("_ps") || name == "ps" || name == "makespan" || name.ends_with("latency") {
        Some(Dimension::Time)
    } else if name == "bytes" || name.ends_with("_bytes") || name == "size" || name.ends_with("_size") {
        Some(Dimension::Size)
    } else {
        None
    }
}

/// Compact number text: `1024`, `1.5M`, `0.25`, `3.2e-5`.
pub fn plain_number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    if a >= 1e4 {
        let (div, suffix) = if a >= 1e12 {
            (1e12, "T")
        } else if a >= 1e9 {
            (1e9, "G")
        } else if a >= 1e6 {
            (1e6, "M")
        } else {
            (1e3, "k")
        };
        let s = format!("{:.2}", v / div);
        return format!("{}{suffix}", s.trim_end_matches('0').trim_end_matches('.'));
    }
    if a < 1e-3 {
        return format!("{v:.1e}");
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `name` without the `_ps` that says its numbers are picoseconds, for a title that gives the
/// unit itself: `makespan_ps` → `makespan`, `state_ps:WAIT@type:Processor` → `state:WAIT@type:Processor`.
pub fn without_ps(name: &str) -> String {
    match name.find("_ps") {
        Some(at) if name[at + 3..].is_empty() || name[at + 3..].starts_with([':', '@']) => {
            format!("{}{}", &name[..at], &name[at + 3..])
        }
        _ => name.to_string(),
    }
}

/// `value` of the metric or variable `name`, in its unit when it has one.
pub fn value_text(name: &str, value: f64) -> String {
    match dimension_of(name) {
        Some(dimension) => format_measured(dimension, value, DIGITS),
        None => plain_number(value),
    }
}

/// A variable's value as the results hold it (text): a number of a measured quantity in its unit,
/// anything else (words, numbers of counts) as it is.
pub fn variable_text(name: &str, value: &str) -> String {
    match (dimension_of(name), value.trim().parse::<f64>()) {
        (Some(dimension), Ok(v)) => format_measured(dimension, v, DIGITS),
        _ => value.to_string(),
    }
}

/// A mean and its 95 % half-width: `10.56 ms ± 0.12 ms`, or the mean alone when repeats agree.
pub fn spread_text(name: &str, mean: f64, ci95: f64) -> String {
    if ci95 == 0.0 || !ci95.is_finite() {
        value_text(name, mean)
    } else {
        format!("{} ± {}", value_text(name, mean), value_text(name, ci95))
    }
}

/// The ticks of one plot axis: every tick of a measured quantity in the unit of the axis's largest
/// value (`0.5 ms`, `1 ms`, `1.5 ms`), else compact numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    unit: Option<Unit>,
}

impl Axis {
    /// The axis of `name` over values up to `largest` (in magnitude).
    pub fn new(name: &str, largest: f64) -> Axis {
        Axis { unit: dimension_of(name).map(|d| unit_for_range(d, largest)) }
    }

    /// What one of the axis's units is in the base quantity (1e9 for ms of picoseconds, 1024
    /// for KiB); 1 for plain numbers.
    pub fn unit_factor(&self) -> f64 {
        self.unit.as_ref().map_or(1.0, Unit::factor)
    }

    /// The axis title: `makespan (ms)` for `makespan_ps` (the unit in brackets replaces the
    /// name's picoseconds).
    pub fn title(&self, name: &str) -> String {
        match &self.unit {
            Some(unit) if !unit.symbol.is_empty() => format!("{} ({})", without_ps(name), unit.symbol),
            _ => name.to_string(),
        }
    }

    /// True for an axis of sizes in bytes, whose log scale is marked at powers of two (1 KiB,
    /// 2 KiB, 4 KiB …) rather than of ten.
    pub fn is_bytes(&self) -> bool {
        self.unit.as_ref().is_some_and(|u| u.dimension == Dimension::Size)
    }

    /// The title of the axis on a log scale, whose ticks carry their own units: `makespan, log`.
    pub fn log_title(&self, name: &str) -> String {
        if self.unit.is_some() { format!("{}, log", without_ps(name)) } else { format!("{name}, log") }
    }

    /// A tick's text on a log scale (a power of ten): the value in its own unit (`1000 B`,
    /// `97.66 KiB`, `1 ms`), since the decades of one axis span several units.
    pub fn log_tick(&self, value: f64) -> String {
        match &self.unit {
            Some(unit) => format_measured(unit.dimension, value, DIGITS),
            None => plain_number(value),
        }
    }

    /// A tick's text: the number in the axis's unit (the title names it), with the decimals
    /// `step` (the distance between ticks) needs. A tick that would need more than two decimals
    /// there (1 KiB on an axis in MiB, as a log axis has them) is written in its own unit, with
    /// its symbol.
    pub fn tick(&self, value: f64, step: f64) -> String {
        match &self.unit {
            Some(unit) => {
                let step = (step.abs() / unit.factor()).max(f64::MIN_POSITIVE);
                let decimals = if step >= 1.0 { 0 } else { (-step.log10()).ceil().clamp(0.0, 6.0) as usize };
                if decimals > 2 && value != 0.0 {
                    return format_measured(unit.dimension, value, DIGITS);
                }
                let text = format_in_unit(value, unit, decimals);
                text.strip_suffix(unit.symbol.as_str()).map_or(text.clone(), |t| t.trim_end().to_string())
            }
            None => plain_number(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_what_is_measured() {
        assert_eq!(dimension_of("makespan_ps"), Some(Dimension::Time));
        assert_eq!(dimension_of("workload.message_bytes"), Some(Dimension::Size));
        assert_eq!(dimension_of("bytes"), Some(Dimension::Size));
        assert_eq!(dimension_of("link_bandwidth"), Some(Dimension::Rate));
        assert_eq!(dimension_of("events"), None);
        assert_eq!(dimension_of("algorithm"), None);
        assert_eq!(dimension_of("state_ps:ALLREDUCE@type:Processor"), Some(Dimension::Time));
        assert_eq!(dimension_of("link:a.p0.bandwidth"), Some(Dimension::Rate));
        assert_eq!(without_ps("state_ps:WAIT@type:Processor"), "state:WAIT@type:Processor");
        assert_eq!(without_ps("steps"), "steps");
    }

    #[test]
    fn values_are_written_in_their_units_and_a_zero_spread_is_left_out() {
        assert_eq!(value_text("makespan_ps", 10.56e9), "10.56 ms");
        assert_eq!(value_text("events", 10.56e9), "10.56G");
        assert_eq!(variable_text("bytes", "65536"), "64 KiB");
        assert_eq!(variable_text("algorithm", "ring"), "ring");
        assert_eq!(variable_text("p", "16"), "16");
        assert_eq!(spread_text("makespan_ps", 4.2616e10, 5.6e8), "42.62 ms ± 560 us");
        assert_eq!(spread_text("makespan_ps", 4.2616e10, 0.0), "42.62 ms");
    }

    #[test]
    fn an_axis_writes_its_unit_once_and_numbers_at_its_ticks() {
        let axis = Axis::new("makespan_ps", 1.3e12);
        assert_eq!(axis.title("makespan_ps"), "makespan (s)");
        assert_eq!(axis.tick(5e11, 2.5e11), "0.5");
        assert_eq!(axis.tick(1e12, 5e11), "1.0");
        let bytes = Axis::new("bytes", 4.0 * 1024.0 * 1024.0);
        assert_eq!(bytes.title("bytes"), "bytes (MiB)");
        assert_eq!(bytes.tick(2.0 * 1024.0 * 1024.0, 1024.0 * 1024.0), "2");
        // Ticks far below the axis's unit (a log axis of sizes) carry their own unit.
        assert_eq!(bytes.tick(1024.0, 1024.0), "1 KiB");
        // On a log scale every tick carries its own unit, and the title none.
        assert_eq!(
            (bytes.log_tick(1000.0), bytes.log_tick(1e5)),
            ("1000 B".to_string(), "97.66 KiB".to_string())
        );
        assert_eq!(Axis::new("makespan_ps", 1e9).log_title("makespan_ps"), "makespan, log");
        let count = Axis::new("events", 1e6);
        assert_eq!((count.title("events"), count.tick(5e5, 1e5)), ("events".to_string(), "500k".to_string()));
    }
}
