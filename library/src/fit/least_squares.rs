//! One formula with given terms fitted by least squares: coefficients with standard errors, the
//! fit's quality, and predictions with their standard errors. The residuals minimised are relative
//! (each sample weighted by 1/|time|): measured times span orders of magnitude between small and
//! large runs, and their noise is proportional to them, so an absolute fit would fit the largest
//! runs alone. The columns are scaled to unit norm
//! and solved by singular value decomposition, so terms of very different sizes (`1` against
//! `n·log n/p`) do not lose precision; terms that cannot be told apart on the measured points are
//! an error rather than a meaningless answer.

use std::fmt;

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use super::terms::{Point, Sample, Term};

/// Smallest singular value, relative to the largest, of terms that can be told apart.
const RANK_TOLERANCE: f64 = 1e-10;

/// A sample whose leverage is within this of 1 alone determines a coefficient: leaving it out
/// leaves the formula undetermined.
const LEVERAGE_TOLERANCE: f64 = 1e-9;

/// Why a formula could not be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    /// Fewer samples than terms (or none).
    #[error("{samples} measured points cannot fit {terms} terms: measure more points")]
    TooFewSamples {
        /// Samples given.
        samples: usize,
        /// Terms asked for.
        terms: usize,
    },
    /// A term's value is not a finite number at a sample (a logarithm of 0, a division by 0).
    #[error("the term `{term}` has no value at p = {}, n = {}, g = {}", .at.p, .at.n, .at.g)]
    Undefined {
        /// The term.
        term: Term,
        /// The point.
        at: Point,
    },
    /// A measured time is not a finite number.
    #[error("the time measured at p = {}, n = {}, g = {} is not a number", .at.p, .at.n, .at.g)]
    BadTime {
        /// The point.
        at: Point,
    },
    /// The terms cannot be told apart on the measured points (e.g. `n` and `n/p` at one `p`).
    #[error("the terms {terms} cannot be told apart on the measured points: vary the variables more")]
    Collinear {
        /// The terms, written as in a formula.
        terms: String,
    },
}

/// One fitted term.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FittedTerm {
    /// The term.
    pub term: Term,
    /// Its coefficient.
    pub coefficient: f64,
    /// The coefficient's standard error (0 when the fit is exact or has no spare samples).
    pub std_error: f64,
}

/// A fitted formula `time ≈ Σ coefficient·term`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    /// Terms with their coefficients, in the family's order.
    pub terms: Vec<FittedTerm>,
    /// Samples fitted.
    pub samples: usize,
    /// Sum of squared relative residuals (the quantity minimised).
    pub rss: f64,
    /// Coefficient of determination (1 for a perfect fit).
    pub r_squared: f64,
    /// Root-mean-square residual (in the time's unit).
    pub rmse: f64,
    /// Largest |residual| / |measured|.
    pub max_relative_error: f64,
    /// Root-mean-square relative error of predicting each sample from the formula fitted to the
    /// others (leave-one-out); `None` when a sample alone determines a coefficient. Much larger
    /// than the fitted points' error: the formula follows its points, not the law.
    pub leave_one_out_error: Option<f64>,
    /// Bayesian information criterion (smaller is better; comparable between formulas fitted to
    /// the same samples).
    pub bic: f64,
    /// The criterion formulas are compared by: `bic`, plus `2·ln C(K, k)` and the small-sample
    /// correction when it was chosen among the formulas of its size from a family of `K` terms
    /// (see [`super::select`]).
    pub criterion: f64,
    /// Covariance of the coefficients (row-major, `terms.len()` squared).
    #[serde(skip)]
    covariance: Vec<f64>,
}

/// A predicted time with its standard error (of the mean; the coefficients' uncertainty).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// Where.
    pub at: Point,
    /// The formula's value.
    pub time: f64,
    /// Its standard error.
    pub std_error: f64,
}

fn column(term: Term, samples: &[Sample]) -> Result<Vec<f64>, FitError> {
    samples
        .iter()
        .map(|s| {
            let v = term.eval(s.at);
            if v.is_finite() { Ok(v) } else { Err(FitError::Undefined { term, at: s.at }) }
        })
        .collect()
}

/// Fit `samples` with exactly `terms`.
pub fn fit_terms(samples: &[Sample], terms: &[Term]) -> Result<Fit, FitError> {
    let (m, k) = (samples.len(), terms.len());
    if m < k || m == 0 || k == 0 {
        return Err(FitError::TooFewSamples { samples: m, terms: k });
    }
    if let Some(s) = samples.iter().find(|s| !s.time.is_finite()) {
        return Err(FitError::BadTime { at: s.at });
    }
    let weights: Vec<f64> =
        samples.iter().map(|s| if s.time == 0.0 { 1.0 } else { 1.0 / s.time.abs() }).collect();
    let mut scales = Vec::with_capacity(k);
    let mut x = DMatrix::<f64>::zeros(m, k);
    for (j, &term) in terms.iter().enumerate() {
        let values: Vec<f64> = column(term, samples)?.iter().zip(&weights).map(|(v, w)| v * w).collect();
        let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
        let scale = if norm > 0.0 { norm } else { 1.0 };
        for (i, v) in values.iter().enumerate() {
            x[(i, j)] = v / scale;
        }
        scales.push(scale);
    }
    let times = DVector::from_iterator(m, samples.iter().map(|s| s.time));
    let y = DVector::from_iterator(m, samples.iter().zip(&weights).map(|(s, w)| s.time * w));
    let svd = x.clone().svd(true, true);
    let largest = svd.singular_values.max();
    let smallest = svd.singular_values.min();
    let collinear = || FitError::Collinear {
        terms: terms.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", "),
    };
    if largest <= 0.0 || smallest / largest < RANK_TOLERANCE {
        return Err(collinear());
    }
    let scaled = svd.solve(&y, 0.0).map_err(|_| collinear())?;
    let weighted_residuals = &y - &x * &scaled;
    let rss = weighted_residuals.norm_squared();
    let absolute: Vec<f64> = weighted_residuals.iter().zip(&weights).map(|(r, w)| r / w).collect();
    let absolute_rss = absolute.iter().map(|r| r * r).sum::<f64>();
    let mean = times.mean();
    let total = times.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
    let r_squared = if total > 0.0 {
        1.0 - absolute_rss / total
    } else if absolute_rss == 0.0 {
        1.0
    } else {
        0.0
    };
    let max_relative_error = absolute
        .iter()
        .zip(times.iter())
        .map(|(r, v)| if *v == 0.0 { r.abs() } else { (r / v).abs() })
        .fold(0.0, f64::max);
    // σ² from the spare samples; (XᵀX)⁻¹ = V Σ⁻² Vᵀ in scaled units.
    let sigma2 = if m > k { rss / (m - k) as f64 } else { 0.0 };
    // Leave-one-out residuals of a linear least-squares fit: r_i / (1 − h_ii), with the leverage
    // h_ii = Σ_s U_is² of the weighted design.
    let leave_one_out_error = svd.u.as_ref().and_then(|u| {
        let mut sum = 0.0;
        for (i, r) in weighted_residuals.iter().enumerate() {
            let leverage: f64 = (0..k).map(|s| u[(i, s)].powi(2)).sum();
            let spare = 1.0 - leverage;
            if spare < LEVERAGE_TOLERANCE {
                return None;
            }
            sum += (r / spare).powi(2);
        }
        Some((sum / m as f64).sqrt())
    });
    let v_t = svd.v_t.as_ref().ok_or_else(collinear)?;
    let mut covariance = vec![0.0; k * k];
    for a in 0..k {
        for b in 0..k {
            let inner: f64 = (0..k).map(|s| v_t[(s, a)] * v_t[(s, b)] / svd.singular_values[s].powi(2)).sum();
            covariance[a * k + b] = sigma2 * inner / (scales[a] * scales[b]);
        }
    }
    // An exact fit would have a BIC of −∞; a floor of 1e-12 relative keeps formulas comparable.
    let floor = 1e-24 * m as f64;
    let bic = m as f64 * ((rss.max(floor)) / m as f64).ln() + k as f64 * (m as f64).ln();
    let fitted = terms
        .iter()
        .enumerate()
        .map(|(j, &term)| FittedTerm {
            term,
            coefficient: scaled[j] / scales[j],
            std_error: covariance[j * k + j].max(0.0).sqrt(),
        })
        .collect();
    Ok(Fit {
        terms: fitted,
        samples: m,
        rss,
        r_squared,
        rmse: (absolute_rss / m as f64).sqrt(),
        max_relative_error,
        leave_one_out_error,
        bic,
        criterion: bic,
        covariance,
    })
}

impl Fit {
    /// The formula's value at `at` with its standard error.
    pub fn predict(&self, at: Point) -> Prediction {
        let values: Vec<f64> = self.terms.iter().map(|t| t.term.eval(at)).collect();
        let time = self.terms.iter().zip(&values).map(|(t, v)| t.coefficient * v).sum();
        let k = self.terms.len();
        let mut variance = 0.0;
        for a in 0..k {
            for b in 0..k {
                variance += values[a] * values[b] * self.covariance[a * k + b];
            }
        }
        Prediction { at, time, std_error: variance.max(0.0).sqrt() }
    }

    /// The coefficient of `term` (0 when the formula does not have it).
    pub fn coefficient(&self, term: Term) -> f64 {
        self.terms.iter().find(|t| t.term == term).map_or(0.0, |t| t.coefficient)
    }
}

/// `T ≈ 5.1 ± 0.2 + 3.0 ± 0.01·n/p` with four significant digits.
impl fmt::Display for Fit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            let value = format!("{:.4e} ± {:.1e}", t.coefficient, t.std_error);
            if t.term == Term::One { write!(f, "({value})")? } else { write!(f, "({value})·{}", t.term)? }
        }
        Ok(())
    }
}
