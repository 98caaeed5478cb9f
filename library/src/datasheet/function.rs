//! Fitting one function: every candidate form over a range of sizes, the smallest χ² kept (seed
//! `002` §3.5.1), min and max equations of the same form through the fastest and slowest repeats,
//! and the small/large split — given, or found as the size boundary that minimises the two fits'
//! total χ² (after seed `003`'s interval splitting).

use hase_entities::netmodel::datasheet::{
    Band, DataForm, Equation, FitQuality, FunctionFit, MeasuredPoint, StartupForm,
};

use super::error::{FunctionReason, SheetError};
use super::forms::{Form, FunctionClass};
use super::lsq::{self, LsqError};

/// Process counts a function with a startup term needs: the constant and the startup coefficient,
/// and one more for χ² (the barrier's points are its process counts).
pub const MIN_PROCESS_COUNTS: usize = 3;

/// Distinct sizes each side of a found split must have.
pub const MIN_SIZES_PER_SIDE: usize = 3;

/// The best form over some points, with its band.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeFit {
    /// The chosen form.
    pub form: Form,
    /// Min, avg (fitted, with its statistics) and max equations.
    pub band: Band,
}

impl RangeFit {
    /// χ² of the avg equation.
    pub fn chi2(&self) -> f64 {
        self.band.fit.map_or(0.0, |f| f.chi2)
    }
}

fn equation(form: Form, coefficients: &[f64]) -> Equation {
    let mut it = coefficients.iter().copied();
    let constant_us = it.next().unwrap_or(0.0);
    let startup_coeff = if form.startup == StartupForm::None { 0.0 } else { it.next().unwrap_or(0.0) };
    let data_coeff = if form.data == DataForm::None { 0.0 } else { it.next().unwrap_or(0.0) };
    Equation { constant_us, startup_coeff, startup: form.startup, data_coeff, data: form.data }
}

fn errors_of(form: Form, errors: &[f64]) -> (f64, f64, f64) {
    let e = equation(form, errors);
    (e.constant_us, e.startup_coeff, e.data_coeff)
}

/// Fit `form` to `points`: the avg equation by weighted least squares on the central values, the
/// min and max equations on the fastest and slowest repeats with the same weights.
pub fn fit_form(form: Form, points: &[MeasuredPoint]) -> Result<RangeFit, LsqError> {
    let rows: Vec<Vec<f64>> = points.iter().map(|p| form.basis(f64::from(p.procs), p.bytes as f64)).collect();
    let sigma: Vec<f64> = points.iter().map(|p| p.err_us).collect();
    let column = |f: fn(&MeasuredPoint) -> f64| points.iter().map(f).collect::<Vec<f64>>();
    let avg = lsq::fit(&rows, &column(|p| p.avg_us), &sigma)?;
    let min = lsq::fit(&rows, &column(|p| p.min_us), &sigma)?;
    let max = lsq::fit(&rows, &column(|p| p.max_us), &sigma)?;
    let (constant_err, startup_err, data_err) = errors_of(form, &avg.errors);
    let fit = FitQuality {
        constant_err,
        startup_err,
        data_err,
        chi2: avg.chi2,
        points: points.len() as u32,
        procs_from: points.iter().map(|p| p.procs).min().unwrap_or(0),
        procs_to: points.iter().map(|p| p.procs).max().unwrap_or(0),
        bytes_from: points.iter().map(|p| p.bytes).min().unwrap_or(0),
        bytes_to: points.iter().map(|p| p.bytes).max().unwrap_or(0),
    };
    Ok(RangeFit {
        form,
        band: Band {
            min: equation(form, &min.coefficients),
            avg: equation(form, &avg.coefficients),
            max: equation(form, &max.coefficients),
            goodness_of_fit: Some(avg.q),
            fit: Some(fit),
        },
    })
}

/// The candidate form with the smallest χ² over `points`. Forms the points cannot determine are
/// skipped; if none can be fitted the last reason is returned.
pub fn best_form(class: FunctionClass, points: &[MeasuredPoint]) -> Result<RangeFit, LsqError> {
    let mut best: Option<RangeFit> = None;
    let mut last_error = LsqError::Singular;
    for form in class.forms() {
        match fit_form(form, points) {
            Ok(fit) => {
                if best.as_ref().is_none_or(|b| fit.chi2() < b.chi2()) {
                    best = Some(fit);
                }
            }
            Err(e) => last_error = e,
        }
    }
    best.ok_or(last_error)
}

/// Check that `points` can be fitted at all for `class`, with errors that say why not.
fn check_points(function: &str, class: FunctionClass, points: &[MeasuredPoint]) -> Result<(), SheetError> {
    let invalid = |reason: FunctionReason| SheetError::Function { function: function.to_string(), reason };
    if points.iter().all(|p| p.avg_us == 0.0) {
        return Err(invalid(FunctionReason::AllZero));
    }
    let mut procs: Vec<u32> = points.iter().map(|p| p.procs).collect();
    procs.sort_unstable();
    procs.dedup();
    let mut sizes: Vec<u64> = points.iter().map(|p| p.bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    if class.has_startup() && procs.len() < MIN_PROCESS_COUNTS {
        return Err(invalid(FunctionReason::FewProcessCounts { counts: procs }));
    }
    if class.has_data() && sizes.len() < 2 {
        return Err(invalid(FunctionReason::OneSize { bytes: sizes[0] }));
    }
    Ok(())
}

/// Fit one function: small and large ranges split at `split_bytes` if given, else at the size
/// boundary minimising the total χ² (when there are at least 2 × [`MIN_SIZES_PER_SIDE`] sizes;
/// fewer give one fit for every size).
pub fn fit_function(
    function: &str,
    points: &[MeasuredPoint],
    split_bytes: Option<u64>,
) -> Result<FunctionFit, SheetError> {
    let class = FunctionClass::of(function);
    check_points(function, class, points)?;
    let fail = |range: &str, source: LsqError| SheetError::Function {
        function: function.to_string(),
        reason: FunctionReason::LeastSquares { range: range.to_string(), source },
    };
    let mut sizes: Vec<u64> = points.iter().map(|p| p.bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let side = |limit: u64| -> (Vec<MeasuredPoint>, Vec<MeasuredPoint>) {
        points.iter().partition(|p| p.bytes <= limit)
    };
    let (small_limit, small, large) = if !class.has_data() {
        (None, best_form(class, points).map_err(|e| fail("all sizes", e))?, None)
    } else if let Some(limit) = split_bytes {
        let (s, l) = side(limit);
        if s.is_empty() || l.is_empty() {
            let small = best_form(class, points).map_err(|e| fail("all sizes", e))?;
            (None, small, None)
        } else {
            let small = best_form(class, &s).map_err(|e| fail(&format!("sizes ≤ {limit} bytes"), e))?;
            let large = best_form(class, &l).map_err(|e| fail(&format!("sizes > {limit} bytes"), e))?;
            (Some(limit), small, Some(large))
        }
    } else if sizes.len() >= 2 * MIN_SIZES_PER_SIDE {
        let mut best: Option<(u64, RangeFit, RangeFit)> = None;
        for &limit in &sizes[MIN_SIZES_PER_SIDE - 1..sizes.len() - MIN_SIZES_PER_SIDE] {
            let (s, l) = side(limit);
            let (Ok(small), Ok(large)) = (best_form(class, &s), best_form(class, &l)) else { continue };
            let total = small.chi2() + large.chi2();
            if best.as_ref().is_none_or(|(_, a, b)| total < a.chi2() + b.chi2()) {
                best = Some((limit, small, large));
            }
        }
        match best {
            Some((limit, small, large)) => (Some(limit), small, Some(large)),
            None => (None, best_form(class, points).map_err(|e| fail("all sizes", e))?, None),
        }
    } else {
        (None, best_form(class, points).map_err(|e| fail("all sizes", e))?, None)
    };
    let large = large.map_or_else(|| small.band.clone(), |l| l.band);
    Ok(FunctionFit {
        small: small.band,
        large,
        // A sheet without a split puts every size in the small band.
        small_limit_elements: Some(small_limit.unwrap_or(u64::MAX)),
        measured: points.to_vec(),
    })
}
