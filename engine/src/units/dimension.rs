//! What a quantity measures: time, size, rate or flop rate, each with its base unit.

/// What a quantity measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dimension {
    /// Simulated time, in picoseconds.
    Time,
    /// An amount of data, in bytes (binary prefixes).
    Size,
    /// A data rate, in bytes per second (decimal prefixes unless written `Ki`, `Mi`, …).
    Rate,
    /// A processor speed, in floating-point operations per second.
    FlopRate,
}

impl Dimension {
    /// The dimension a parameter's unit label names: `B/s` a rate, `bytes` a size, `flop/s` a flop
    /// rate; `None` for other labels (counts, ports, packets).
    pub fn of_unit_label(label: &str) -> Option<Dimension> {
        match label {
            "B/s" | "bytes/s" | "Bps" => Some(Dimension::Rate),
            "bytes" | "byte" | "B" => Some(Dimension::Size),
            "flop/s" | "flops" | "f" => Some(Dimension::FlopRate),
            "ps" => Some(Dimension::Time),
            _ => None,
        }
    }
}
