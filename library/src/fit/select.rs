//! The choice of terms: every formula of up to `max_terms` terms from a family is fitted, formulas
//! with a coefficient that is not positive by [`SIGNIFICANT_ERRORS`] standard errors are set aside
//! (each term is time spent, so a negative one is compensating for a wrong shape, and one within
//! its errors of 0 explains noise), and each of the rest is given its extended Bayesian information
//! criterion (Chen and Chen, 2008): the BIC trades the residual against the number of terms, and
//! `2·ln C(K, k)` more for a formula of `k` of the family's `K` terms pays for having had that many
//! formulas of its size to choose from — with fifteen terms, plain BIC takes spurious terms that
//! happen to follow the noise.
//!
//! The formula chosen is the one with the fewest terms among those whose criterion is within
//! [`EXTRA_TERM_EVIDENCE`] of the smallest, and of several such the one with the smallest
//! criterion: a term is added only on very strong evidence (Kass and Raftery, 1995). A term that
//! follows the noise costs little inside the measured range and much outside it: with fifteen terms
//! and sixteen points, some third term beside a two-term law is positive by three standard errors
//! and lowers the criterion in about one draw of the noise in fifty, and where it grows with `p`
//! while the law levels off (`n·p`, `n·(p − 1)` or `p·log p` beside `n·(p − 1)/p`) the prediction
//! at four times the largest measured `p` is 4 to 8 % off. The price is paid by a real term that is
//! small within the measured range: it needs more points or less noise before it is taken. Ties go
//! to the earlier formula in the family's order: criteria equal to within [`BIC_TIE`] are ties, so
//! that formulas spanning the same functions (`1 + p` and `1 + (p − 1)`) give the same choice
//! whatever the rounding of their residuals.
//!
//! Few points give every formula with nearly as many terms the chance to pass through them, noise
//! and all, and then miss every point it was not fitted to. Each formula's criterion therefore also
//! pays Hurvich and Tsai's small-sample correction `2k(k + 1)/(m − k − 1)` for `k` terms on `m`
//! points (as AICc does): negligible with many points per term, it grows without bound as the spare
//! points run out, so a formula needs two more points than terms, and more terms win only when the
//! residual falls by more than the correction and [`EXTRA_TERM_EVIDENCE`] together. The choice says
//! when it stands on few points per term, or when it predicts a left-out point much worse than it
//! fits the others ([`FitWarning`]).

use serde::Serialize;

use super::least_squares::{Fit, FitError, fit_terms};
use super::terms::{Sample, Term};

/// A term is taken only when its coefficient is positive by at least this many standard errors.
pub const SIGNIFICANT_ERRORS: f64 = 3.0;

/// A formula with more terms is chosen only when its criterion is below that of every formula with
/// fewer terms by more than this: a difference of 10 in BIC is very strong evidence on Kass and
/// Raftery's scale (1995), and anything less does not buy a term that may follow the noise.
pub const EXTRA_TERM_EVIDENCE: f64 = 10.0;

/// Criteria closer than this are equal (BIC differences that matter are of order 1 and more).
pub const BIC_TIE: f64 = 1e-6;

/// Fewer samples than this per term of the chosen formula are warned about.
pub const MIN_SAMPLES_PER_TERM: usize = 3;

/// A leave-one-out error this many times the fitted points' error (and at least
/// [`OVERFIT_MIN_ERROR`]) is warned about.
pub const OVERFIT_RATIO: f64 = 3.0;

/// Leave-one-out errors below this (relative) are not warned about, whatever the ratio.
pub const OVERFIT_MIN_ERROR: f64 = 0.01;

/// What the user should know about a chosen formula.
#[derive(Clone, Debug, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub enum FitWarning {
    /// The formula has fewer than [`MIN_SAMPLES_PER_TERM`] samples per term.
    #[error(
        "{samples} measured points for {terms} terms (fewer than {MIN_SAMPLES_PER_TERM} per term): the \
         formula may follow the noise; measure more points (more values of p or n) before trusting an \
         extrapolation"
    )]
    FewSamplesPerTerm {
        /// Samples fitted.
        samples: usize,
        /// Terms of the chosen formula.
        terms: usize,
    },
    /// Leaving one point out and predicting it is much worse than the fit at the points.
    #[error(
        "a point left out of the fit is predicted within {left_out_percent:.2} % (RMS), the fitted points \
         within {fitted_percent:.2} %: the formula follows its points more closely than it predicts \
         new ones"
    )]
    PredictsWorseThanItFits {
        /// RMS relative error at the fitted points, in per cent.
        fitted_percent: f64,
        /// RMS relative leave-one-out error, in per cent.
        left_out_percent: f64,
    },
    /// Some sample alone determines a coefficient: leaving it out leaves the formula undetermined.
    #[error("a coefficient rests on a single measured point: measure more points around it")]
    RestsOnOnePoint,
    /// The best formula the points allow explains little of how the time varies.
    #[error(
        "the formula explains little of how the time varies (R² {r_squared:.2}): with {samples} measured \
         points only formulas of up to {most_terms} term(s) can be judged (a formula needs two more \
         points than terms); measure more points"
    )]
    ExplainsLittle {
        /// R² of the chosen formula.
        r_squared: f64,
        /// Samples fitted.
        samples: usize,
        /// The most terms a formula could have on them.
        most_terms: usize,
    },
}

/// A chosen formula with an R² below this is said to explain little ([`FitWarning::ExplainsLittle`]).
pub const LITTLE_EXPLAINED_R_SQUARED: f64 = 0.5;

/// The chosen formula and the runners-up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormulaChoice {
    /// The chosen formula: the fewest terms within [`EXTRA_TERM_EVIDENCE`] of the smallest criterion.
    pub best: Fit,
    /// The other formulas with the smallest criteria (at most four), smallest first. One with more
    /// terms than `best` may have a smaller criterion, by at most [`EXTRA_TERM_EVIDENCE`].
    pub runners_up: Vec<Fit>,
    /// How many formulas were fitted.
    pub considered: usize,
    /// What to know before trusting `best` away from the measured points.
    pub warnings: Vec<FitWarning>,
}

/// Subsets of `family` with 1 to `max_terms` members, in order of size, then of the family.
pub(crate) fn subsets(family: &[Term], max_terms: usize) -> Vec<Vec<Term>> {
    let mut out = Vec::new();
    for size in 1..=max_terms.min(family.len()) {
        let mut chosen = Vec::with_capacity(size);
        push_subsets(family, size, 0, &mut chosen, &mut out);
    }
    out
}

fn push_subsets(family: &[Term], size: usize, from: usize, chosen: &mut Vec<Term>, out: &mut Vec<Vec<Term>>) {
    if chosen.len() == size {
        out.push(chosen.clone());
        return;
    }
    for i in from..family.len() {
        chosen.push(family[i]);
        push_subsets(family, size, i + 1, chosen, out);
        chosen.pop();
    }
}

/// ln C(n, k).
pub(crate) fn ln_binomial(n: usize, k: usize) -> f64 {
    (0..k.min(n)).map(|i| ((n - i) as f64 / (i + 1) as f64).ln()).sum()
}

/// Hurvich and Tsai's small-sample correction for `terms` terms fitted to `samples` samples
/// (infinite without two spare samples).
pub fn small_sample_correction(samples: usize, terms: usize) -> f64 {
    if samples < terms + 2 {
        return f64::INFINITY;
    }
    let k = terms as f64;
    2.0 * k * (k + 1.0) / (samples - terms - 1) as f64
}

/// The warnings about `fit`.
fn warnings_of(fit: &Fit) -> Vec<FitWarning> {
    let mut out = Vec::new();
    if fit.r_squared < LITTLE_EXPLAINED_R_SQUARED {
        out.push(FitWarning::ExplainsLittle {
            r_squared: fit.r_squared,
            samples: fit.samples,
            most_terms: fit.samples.saturating_sub(2),
        });
    }
    if fit.samples < MIN_SAMPLES_PER_TERM * fit.terms.len() {
        out.push(FitWarning::FewSamplesPerTerm { samples: fit.samples, terms: fit.terms.len() });
    }
    let fitted = (fit.rss / fit.samples.max(1) as f64).sqrt();
    match fit.leave_one_out_error {
        None => out.push(FitWarning::RestsOnOnePoint),
        Some(left_out) if left_out >= OVERFIT_MIN_ERROR && left_out >= OVERFIT_RATIO * fitted => {
            out.push(FitWarning::PredictsWorseThanItFits {
                fitted_percent: fitted * 100.0,
                left_out_percent: left_out * 100.0,
            });
        }
        Some(_) => {}
    }
    out
}

/// The index in `fits` (sorted by criterion, best first) of the formula with the fewest terms among
/// those whose criterion is within [`EXTRA_TERM_EVIDENCE`] of the smallest; of several such, the
/// first. `None` when there are no fits.
fn simplest_within_evidence(fits: &[Fit]) -> Option<usize> {
    let smallest = fits.first()?.criterion;
    let mut chosen: Option<usize> = None;
    for (i, fit) in fits.iter().enumerate() {
        if fit.criterion > smallest + EXTRA_TERM_EVIDENCE + BIC_TIE {
            break;
        }
        if chosen.is_none_or(|c| fit.terms.len() < fits[c].terms.len()) {
            chosen = Some(i);
        }
    }
    chosen
}

/// Choose the formula for `samples` among those of up to `max_terms` terms of `family`. A formula
/// needs at least two more samples than terms (see [`small_sample_correction`]).
pub fn select_formula(
    samples: &[Sample],
    family: &[Term],
    max_terms: usize,
) -> Result<FormulaChoice, FitError> {
    let mut fits: Vec<Fit> = Vec::new();
    let mut considered = 0;
    let mut first_error = None;
    for terms in subsets(family, max_terms) {
        if samples.len() < terms.len() + 2 {
            continue;
        }
        considered += 1;
        match fit_terms(samples, &terms) {
            Ok(fit) if fit.terms.iter().all(|t| t.coefficient > SIGNIFICANT_ERRORS * t.std_error) => {
                fits.push(fit);
            }
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    for fit in &mut fits {
        fit.criterion = fit.bic
            + 2.0 * ln_binomial(family.len(), fit.terms.len())
            + small_sample_correction(fit.samples, fit.terms.len());
    }
    // Stable: equal criteria keep the family's order.
    fits.sort_by_key(|fit| (fit.criterion / BIC_TIE).round() as i64);
    let Some(chosen) = simplest_within_evidence(&fits) else {
        return Err(first_error
            .unwrap_or(FitError::TooFewSamples { samples: samples.len(), terms: 2.min(family.len()) }));
    };
    let best = fits.remove(chosen);
    let warnings = warnings_of(&best);
    fits.truncate(4);
    Ok(FormulaChoice { best, runners_up: fits, considered, warnings })
}
