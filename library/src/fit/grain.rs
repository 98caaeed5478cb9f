//! The optimal grain size of a pipeline (seed 004 §5.4). With `n` items sent through a chain of
//! `p` processors in blocks of `g`, each block costs a start-up `α` and `β` per item, and the
//! pipeline fills in `p − 1` blocks, so `T(g) ≈ (p − 1 + n/g)(α + β·g) = a + b·g + c/g` with
//! `b = (p − 1)β` and `c = nα`. Fitted to times measured at several grains, `T` is smallest at
//! `g* = √(c/b)`: finer grains pay more start-ups, coarser ones a longer fill.

use serde::Serialize;

use super::least_squares::{Fit, FitError, fit_terms};
use super::terms::{Point, Sample, Term};

/// The fitted pipeline model and its optimum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GrainFit {
    /// `T(g) = a + b·g + c/g`.
    pub fit: Fit,
    /// The grain with the smallest time, when both `b` and `c` are positive (otherwise the time
    /// only falls, or only rises, with the grain: take the largest or the smallest).
    pub optimal_grain: Option<f64>,
    /// The model's time at the optimum.
    pub optimal_time: Option<f64>,
}

/// Fit `T(g) = a + b·g + c/g` to times measured at grains `samples[i].at.g` and find its minimum.
pub fn optimal_grain(samples: &[Sample]) -> Result<GrainFit, FitError> {
    let fit = fit_terms(samples, &Term::GRAIN)?;
    let (b, c) = (fit.coefficient(Term::G), fit.coefficient(Term::InvG));
    let optimal_grain = (b > 0.0 && c > 0.0).then(|| (c / b).sqrt());
    let optimal_time = optimal_grain.map(|g| fit.predict(Point { g, ..Point::default() }).time);
    Ok(GrainFit { fit, optimal_grain, optimal_time })
}
