//! A fit of an experiment written for the Results tab in the metric's units: the formula's
//! coefficients (`(42.62 ms ± 560 us) + (1.2 us ± 3 ns)·n/p`), the rms residual, predictions and
//! held-out runs at the roles the fit uses (`p = 64, n = 64 KiB`; an unused role is not written),
//! through [`super::quantity`]. The command line keeps its plain numbers.

use hase_library::experiment::scaling::{ExperimentFit, HeldOutPoint};
use hase_library::fit::{Fit, Point, Prediction, Term};

use super::quantity::{value_text, variable_text};

/// `(42.62 ms ± 560 us) + (1.2 us ± 3 ns)·n/p` for a fit of `metric`; a coefficient known exactly
/// (an error below a millionth of it) has no `±`: `42.62 ms + 1.2 us·n/p`.
pub fn formula_text(metric: &str, fit: &Fit) -> String {
    let terms: Vec<String> = fit
        .terms
        .iter()
        .map(|t| {
            let exact = t.std_error <= t.coefficient.abs() * 1e-6;
            let value = if exact {
                value_text(metric, t.coefficient)
            } else {
                format!("({} ± {})", value_text(metric, t.coefficient), value_text(metric, t.std_error))
            };
            if t.term == Term::One { value } else { format!("{value}·{}", t.term) }
        })
        .collect();
    terms.join(" + ")
}

/// Where a fit is evaluated, at the roles it uses: `p = 64, n = 64 KiB`.
pub fn point_text(fit: &ExperimentFit, at: Point) -> String {
    let roles = [("p", &fit.p, at.p), ("n", &fit.n, at.n), ("g", &fit.g, at.g)];
    let parts: Vec<String> = roles
        .iter()
        .filter_map(|(role, variable, value)| {
            let variable = variable.as_deref()?;
            Some(format!("{role} = {}", variable_text(variable, &value.to_string())))
        })
        .collect();
    parts.join(", ")
}

/// `makespan_ps at p = 64: 1.2 ms ± 30 us`.
pub fn prediction_text(fit: &ExperimentFit, p: &Prediction) -> String {
    format!(
        "{} predicted at {}: {} ± {}",
        fit.metric,
        point_text(fit, p.at),
        value_text(&fit.metric, p.time),
        value_text(&fit.metric, p.std_error)
    )
}

/// `p = 64: measured 1.234 ms, predicted 1.23 ms, error −0.32 %`.
pub fn held_out_text(fit: &ExperimentFit, h: &HeldOutPoint) -> String {
    format!(
        "{}: measured {}, predicted {}, error {:+.2} %",
        point_text(fit, h.at),
        value_text(&fit.metric, h.measured),
        value_text(&fit.metric, h.predicted),
        h.error_percent
    )
}

#[cfg(test)]
mod tests {
    use hase_library::fit::{FittedTerm, Sample, fit_terms};

    use super::*;

    /// A fit of `makespan_ps` = 42.616 ms + 1.2 us · n/p over `p` = ranks, `n` = message bytes.
    fn fit() -> ExperimentFit {
        let samples: Vec<Sample> = [(2.0, 1024.0), (4.0, 4096.0), (8.0, 65_536.0), (16.0, 1_048_576.0)]
            .iter()
            .map(|&(p, n)| Sample { at: Point { p, n, g: 0.0 }, time: 4.2616e10 + 1.2e6 * n / p })
            .collect();
        let formula = fit_terms(&samples, &[Term::One, Term::NOverP]).expect("fits");
        ExperimentFit {
            metric: "makespan_ps".into(),
            p: Some("ranks".into()),
            n: Some("workload.message_bytes".into()),
            g: None,
            samples,
            held_out: Vec::new(),
            skipped: 0,
            formula: None,
            grain: Some(hase_library::fit::GrainFit {
                fit: formula,
                optimal_grain: None,
                optimal_time: None,
            }),
            predictions: Vec::new(),
        }
    }

    #[test]
    fn coefficients_and_points_are_in_their_units_and_unused_roles_are_left_out() {
        let fit = fit();
        let mut formula = fit.grain.as_ref().unwrap().fit.clone();
        assert_eq!(formula_text(&fit.metric, &formula), "42.62 ms + 1.2 us·n/p", "an exact fit has no ±");
        formula.terms[0] = FittedTerm { term: Term::One, coefficient: 4.2616e10, std_error: 5.6e8 };
        formula.terms[1].std_error = 3e3;
        assert_eq!(formula_text(&fit.metric, &formula), "(42.62 ms ± 560 us) + (1.2 us ± 3 ns)·n/p");
        let at = Point { p: 64.0, n: 65_536.0, g: 0.0 };
        assert_eq!(point_text(&fit, at), "p = 64, n = 64 KiB");
        let prediction = Prediction { at, time: 1.2e9, std_error: 3e7 };
        assert_eq!(
            prediction_text(&fit, &prediction),
            "makespan_ps predicted at p = 64, n = 64 KiB: 1.2 ms ± 30 us"
        );
        let held = HeldOutPoint { at, measured: 1.234e9, predicted: 1.23e9, error_percent: -0.32 };
        assert_eq!(
            held_out_text(&fit, &held),
            "p = 64, n = 64 KiB: measured 1.234 ms, predicted 1.23 ms, error -0.32 %"
        );
    }
}
