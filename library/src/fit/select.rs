//! The choice of terms: every formula of up to `max_terms` terms from a family is fitted, formulas
//! with a coefficient that is not positive by [`SIGNIFICANT_ERRORS`] standard errors are set aside
//! (each term is time spent, so a negative one is compensating for a wrong shape, and one within
//! its errors of 0 explains noise), and the one with the smallest extended Bayesian information
//! criterion wins (Chen and Chen, 2008): the BIC trades the residual against the number of terms,
//! and `2·ln C(K, k)` more for a formula of `k` of the family's `K` terms pays for having had
//! that many formulas of its size to choose from — with fifteen terms, plain BIC takes spurious
//! terms that happen to follow the noise. Ties go to the earlier formula in the family's order: criteria
//! equal to within [`BIC_TIE`] are ties, so that formulas spanning the same functions (`1 + p`
//! and `1 + (p − 1)`) give the same choice whatever the rounding of their residuals.

use serde::Serialize;

use super::least_squares::{Fit, FitError, fit_terms};
use super::terms::{Sample, Term};

/// A term is taken only when its coefficient is positive by at least this many standard errors.
pub const SIGNIFICANT_ERRORS: f64 = 3.0;

/// Criteria closer than this are equal (BIC differences that matter are of order 1 and more).
pub const BIC_TIE: f64 = 1e-6;

/// The chosen formula and the runners-up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormulaChoice {
    /// The formula with the smallest BIC.
    pub best: Fit,
    /// The next best (at most four), best first.
    pub runners_up: Vec<Fit>,
    /// How many formulas were fitted.
    pub considered: usize,
}

/// Subsets of `family` with 1 to `max_terms` members, in order of size, then of the family.
fn subsets(family: &[Term], max_terms: usize) -> Vec<Vec<Term>> {
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
fn ln_binomial(n: usize, k: usize) -> f64 {
    (0..k.min(n)).map(|i| ((n - i) as f64 / (i + 1) as f64).ln()).sum()
}

/// Choose the formula for `samples` among those of up to `max_terms` terms of `family`. A formula
/// needs at least one more sample than terms (so its error can be estimated).
pub fn select_formula(
    samples: &[Sample],
    family: &[Term],
    max_terms: usize,
) -> Result<FormulaChoice, FitError> {
    let mut fits: Vec<Fit> = Vec::new();
    let mut considered = 0;
    let mut first_error = None;
    for terms in subsets(family, max_terms) {
        if samples.len() <= terms.len() {
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
        fit.criterion = fit.bic + 2.0 * ln_binomial(family.len(), fit.terms.len());
    }
    // Stable: equal criteria keep the family's order.
    fits.sort_by_key(|fit| (fit.criterion / BIC_TIE).round() as i64);
    let mut fits = fits.into_iter();
    let Some(best) = fits.next() else {
        return Err(first_error
            .unwrap_or(FitError::TooFewSamples { samples: samples.len(), terms: 2.min(family.len()) }));
    };
    Ok(FormulaChoice { best, runners_up: fits.take(4).collect(), considered })
}
