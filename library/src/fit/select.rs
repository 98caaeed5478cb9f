//! The choice of terms: every formula of up to `max_terms` terms from a family is fitted, formulas
//! with a negative or zero coefficient are set aside (each term is time spent, so a negative one
//! is compensating for a wrong shape), and the one with the smallest Bayesian information
//! criterion wins — it trades the residual against the number of terms, so a term is only taken
//! when it explains more than noise. Ties go to the earlier formula in the family's order.

use serde::Serialize;

use super::least_squares::{Fit, FitError, fit_terms};
use super::terms::{Sample, Term};

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
            Ok(fit) if fit.terms.iter().all(|t| t.coefficient > 0.0) => fits.push(fit),
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    // Stable: equal criteria keep the family's order.
    fits.sort_by(|a, b| a.bic.total_cmp(&b.bic));
    let mut fits = fits.into_iter();
    let Some(best) = fits.next() else {
        return Err(first_error
            .unwrap_or(FitError::TooFewSamples { samples: samples.len(), terms: 2.min(family.len()) }));
    };
    Ok(FormulaChoice { best, runners_up: fits.take(4).collect(), considered })
}
