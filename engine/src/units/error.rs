//! Why a quantity could not be read: the one error type of the units parser.

/// Why a quantity could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnitError {
    /// Nothing to read.
    #[error("empty value: expected {expected}")]
    Empty {
        /// What was expected.
        expected: &'static str,
    },
    /// The number part is not a number.
    #[error("`{text}` is not {expected}")]
    BadNumber {
        /// The whole input.
        text: String,
        /// What was expected.
        expected: &'static str,
    },
    /// The unit is not one of the dimension's.
    #[error("unknown unit `{unit}` in `{text}`: {help}")]
    BadUnit {
        /// The whole input.
        text: String,
        /// The unit that was not recognised.
        unit: String,
        /// The units that are.
        help: &'static str,
    },
    /// A quantity that cannot be negative.
    #[error("`{0}` is negative")]
    Negative(String),
    /// Too large for the 64-bit base quantity.
    #[error("`{0}` is too large")]
    Overflow(String),
    /// Sizes and counts are whole numbers.
    #[error("`{0}` is not a whole number of {1}")]
    NotWhole(String, &'static str),
    /// Longer than any quantity (a bound on hostile input); the start is quoted.
    #[error("`{0}…` is too long to be a quantity")]
    TooLong(String),
}
