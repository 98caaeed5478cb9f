//! Scaling formulas (seed 004, MK; CALL): fit a measured completion time to a small family of
//! complexity terms in the processor count `p` and the problem size `n` — `1`, `p`, `p − 1`, `1/p`,
//! `(p − 1)/p`, `log p`, `p·log p`, `n`, `n/p`, `n·log p/p`, `n·log p`, `n·log n/p`, `n·p`,
//! `n·(p − 1)/p`, `n·(p − 1)`: the forms collectives have, so that a ring allreduce's
//! `2(p − 1)(α + β·n/p)` is two terms with positive coefficients — by least squares of the
//! relative residuals, choose the terms
//! by the Bayesian information criterion among formulas whose coefficients are all positive (each
//! term is time spent), with a small-sample correction so that few points do not buy a formula
//! that passes through them and misses the next, and report the coefficients with their standard
//! errors, the fit's quality (also predicting each point left out), warnings when it stands on
//! too few points per term, and predictions (with their errors) at points outside the measured
//! range.
//!
//! A pipeline's optimal grain size (seed 004 §5.4) comes from the same least squares: the time as a
//! function of the grain `g` is `a + b·g + c/g` (fewer, larger messages against a longer pipeline
//! fill), minimal at `g* = √(c/b)`.
//!
//! Free of any GUI: `hase experiments fit` and the results view call the same functions.
//!
//! - [`terms`]: the terms and the points they are evaluated at;
//! - [`least_squares`]: one formula with given terms;
//! - [`select`]: the choice of terms;
//! - [`grain`]: the optimal grain size of a pipeline.

pub mod grain;
pub mod least_squares;
pub mod select;
pub mod terms;

#[cfg(test)]
mod tests;

pub use grain::{GrainFit, optimal_grain};
pub use least_squares::{Fit, FitError, FittedTerm, Prediction, fit_terms};
pub use select::{FitWarning, FormulaChoice, select_formula, small_sample_correction};
pub use terms::{Point, PointParseError, Sample, Term};
