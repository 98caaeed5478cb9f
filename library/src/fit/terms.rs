//! The complexity terms a formula is built from and the points (`p`, `n`, grain `g`) they are
//! evaluated at. Logarithms are base 2, as in the cost of trees and recursive doubling.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Where a formula is evaluated: processor count, problem size and grain size (a variable a
/// formula does not use may be anything).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Processors.
    pub p: f64,
    /// Problem size.
    pub n: f64,
    /// Grain (block) size of a pipeline.
    pub g: f64,
}

/// Why a point written as `p=…,n=…,g=…` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PointParseError {
    /// A part without `=`.
    #[error("`{text}`: expected p=…,n=…,g=… (for example p=256,n=1M)")]
    NoEquals {
        /// The whole text.
        text: String,
    },
    /// A name other than p, n or g.
    #[error("`{text}`: `{name}` is not p, n or g")]
    UnknownName {
        /// The whole text.
        text: String,
        /// The name written.
        name: String,
    },
    /// A value that is neither a number nor a size (`1M`, `64K`).
    #[error("`{text}`: `{value}` is not a number or a size such as 64K or 1M")]
    BadValue {
        /// The whole text.
        text: String,
        /// The value written.
        value: String,
    },
}

impl Point {
    /// Read `p=256,n=1M` (blanks allowed; a value is a number or a binary size, as `--set` reads
    /// sizes); names left out are 0.
    pub fn parse(text: &str) -> Result<Point, PointParseError> {
        let mut at = Point::default();
        for part in text.split(',').filter(|part| !part.trim().is_empty()) {
            let (name, value) =
                part.split_once('=').ok_or_else(|| PointParseError::NoEquals { text: text.to_string() })?;
            let value = value.trim();
            let number = value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .or_else(|| hase_engine::units::parse_size(value).ok().map(|bytes| bytes as f64))
                .ok_or_else(|| PointParseError::BadValue {
                    text: text.to_string(),
                    value: value.to_string(),
                })?;
            match name.trim() {
                "p" => at.p = number,
                "n" => at.n = number,
                "g" => at.g = number,
                other => {
                    return Err(PointParseError::UnknownName {
                        text: text.to_string(),
                        name: other.to_string(),
                    });
                }
            }
        }
        Ok(at)
    }
}

/// A measured time at a point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Where.
    pub at: Point,
    /// The time (in the metric's unit).
    pub time: f64,
}

/// One complexity term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// A constant.
    One,
    /// `p`.
    P,
    /// `p − 1` (the steps of a ring or a linear algorithm).
    PMinus1,
    /// `1/p`.
    InvP,
    /// `(p − 1)/p` (the share of the data that leaves each process in a ring or a scatter).
    PMinus1OverP,
    /// `log₂ p`.
    LogP,
    /// `p·log₂ p`.
    PLogP,
    /// `n`.
    N,
    /// `n/p`.
    NOverP,
    /// `n·log₂ p / p`.
    NLogPOverP,
    /// `n·log₂ p`.
    NLogP,
    /// `n·log₂ n / p`.
    NLogNOverP,
    /// `n·p` (every process's data crossing a shared resource, e.g. a ring's links).
    NP,
    /// `n·(p − 1)/p` (a ring allreduce's or reduce-scatter's data: 2(p − 1) steps of n/p).
    NPMinus1OverP,
    /// `n·(p − 1)` (a linear gather or broadcast of `n` to every other process).
    NPMinus1,
    /// The grain `g`.
    G,
    /// `1/g`.
    InvG,
}

impl Term {
    /// The family in `p` only.
    pub const IN_P: [Term; 7] =
        [Term::One, Term::P, Term::PMinus1, Term::InvP, Term::PMinus1OverP, Term::LogP, Term::PLogP];
    /// The family in `n` only.
    pub const IN_N: [Term; 2] = [Term::One, Term::N];
    /// The family in `p` and `n`.
    pub const IN_P_AND_N: [Term; 15] = [
        Term::One,
        Term::P,
        Term::PMinus1,
        Term::InvP,
        Term::PMinus1OverP,
        Term::LogP,
        Term::PLogP,
        Term::N,
        Term::NOverP,
        Term::NLogPOverP,
        Term::NLogP,
        Term::NLogNOverP,
        Term::NP,
        Term::NPMinus1OverP,
        Term::NPMinus1,
    ];
    /// The pipeline grain model `a + b·g + c/g`.
    pub const GRAIN: [Term; 3] = [Term::One, Term::G, Term::InvG];

    /// The family for the variables present.
    pub fn family(has_p: bool, has_n: bool) -> &'static [Term] {
        match (has_p, has_n) {
            (true, true) => &Self::IN_P_AND_N,
            (true, false) => &Self::IN_P,
            (false, true) => &Self::IN_N,
            (false, false) => &Self::IN_N[..1],
        }
    }

    /// The term's value at `at`.
    pub fn eval(self, at: Point) -> f64 {
        let Point { p, n, g } = at;
        match self {
            Term::One => 1.0,
            Term::P => p,
            Term::PMinus1 => p - 1.0,
            Term::InvP => 1.0 / p,
            Term::PMinus1OverP => (p - 1.0) / p,
            Term::LogP => p.log2(),
            Term::PLogP => p * p.log2(),
            Term::N => n,
            Term::NOverP => n / p,
            Term::NLogPOverP => n * p.log2() / p,
            Term::NLogP => n * p.log2(),
            Term::NLogNOverP => n * n.log2() / p,
            Term::NP => n * p,
            Term::NPMinus1OverP => n * (p - 1.0) / p,
            Term::NPMinus1 => n * (p - 1.0),
            Term::G => g,
            Term::InvG => 1.0 / g,
        }
    }

    /// How the term is written in a formula (`n/p`, `log p`, …).
    pub fn symbol(self) -> &'static str {
        match self {
            Term::One => "1",
            Term::P => "p",
            Term::PMinus1 => "(p − 1)",
            Term::InvP => "1/p",
            Term::PMinus1OverP => "(p − 1)/p",
            Term::LogP => "log p",
            Term::PLogP => "p·log p",
            Term::N => "n",
            Term::NOverP => "n/p",
            Term::NLogPOverP => "n·log p/p",
            Term::NLogP => "n·log p",
            Term::NLogNOverP => "n·log n/p",
            Term::NP => "n·p",
            Term::NPMinus1OverP => "n·(p − 1)/p",
            Term::NPMinus1 => "n·(p − 1)",
            Term::G => "g",
            Term::InvG => "1/g",
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}
