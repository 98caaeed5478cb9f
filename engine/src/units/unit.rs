//! A unit as typed or chosen for display: its spelling and its size in base quantities.

use super::dimension::Dimension;
use super::table;

/// A unit as written: the spelling (shown back to the user) and its size in base quantities.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unit {
    /// What the unit measures.
    pub dimension: Dimension,
    /// The spelling, as typed (`Gbps`) or chosen for display (`GB/s`); empty for the base quantity
    /// written as a bare number.
    pub symbol: String,
    pub(super) num: u128,
    pub(super) den: u128,
}

impl Unit {
    /// The unit `symbol` of `dimension`, if it is one.
    pub fn new(dimension: Dimension, symbol: &str) -> Option<Unit> {
        let (num, den) = table::lookup(dimension, symbol)?;
        Some(Unit { dimension, symbol: symbol.to_string(), num, den })
    }

    /// Base quantities per one of this unit, as a float (for display arithmetic only).
    pub fn factor(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}
