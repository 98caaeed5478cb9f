//! Weighted linear least squares of one equation form, as the thesis's fitter did it (seed `002`,
//! §3.5.2, after Numerical Recipes' `lfit`): minimise χ² = Σ ((yᵢ − Σₖ aₖ Xₖ(xᵢ)) / σᵢ)², report the
//! coefficients, their standard errors (square roots of the covariance matrix's diagonal) and the
//! goodness of fit Q = Γ_upper((N − M)/2, χ²/2), the chance that χ² would be at least this large
//! if the form were right and the σᵢ were the true errors. Solved by SVD of the weighted design
//! matrix (nalgebra), which also detects a form the points cannot determine; Q comes from statrs.
//! When χ² per degree of freedom exceeds 1 the coefficient errors are scaled up by √(χ²/ν).

use nalgebra::{DMatrix, DVector};

/// One fitted form.
#[derive(Clone, Debug, PartialEq)]
pub struct LsqFit {
    /// Coefficients, in basis order.
    pub coefficients: Vec<f64>,
    /// Their standard errors.
    pub errors: Vec<f64>,
    /// χ² of the fit.
    pub chi2: f64,
    /// Goodness of fit Q (0…1).
    pub q: f64,
}

/// Why a form cannot be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LsqError {
    /// No more points than coefficients: χ² has no degrees of freedom.
    #[error("{points} points cannot fit {parameters} coefficients with a χ² (need at least {need})")]
    TooFewPoints {
        /// Points given.
        points: usize,
        /// Coefficients wanted.
        parameters: usize,
        /// Points needed.
        need: usize,
    },
    /// The basis functions are linearly dependent over the points (e.g. one process count).
    #[error("the points cannot tell the terms apart (the design matrix is singular)")]
    Singular,
}

/// Fit `y ≈ X a` with per-point errors `sigma`. `rows[i]` holds the basis functions at point i.
pub fn fit(rows: &[Vec<f64>], y: &[f64], sigma: &[f64]) -> Result<LsqFit, LsqError> {
    let points = rows.len();
    let params = rows.first().map_or(0, Vec::len);
    if points <= params {
        return Err(LsqError::TooFewPoints { points, parameters: params, need: params + 1 });
    }
    let weighted = DMatrix::from_fn(points, params, |i, k| rows[i][k] / sigma[i]);
    let target = DVector::from_fn(points, |i, _| y[i] / sigma[i]);
    // Column scaling keeps the singular-value test meaningful when the terms differ by orders of
    // magnitude (d up to 10⁶, p² d up to 10⁹).
    let scale: Vec<f64> = (0..params).map(|k| weighted.column(k).norm()).collect();
    if scale.iter().any(|s| *s == 0.0 || !s.is_finite()) {
        return Err(LsqError::Singular);
    }
    let scaled = DMatrix::from_fn(points, params, |i, k| weighted[(i, k)] / scale[k]);
    let svd = scaled.svd(true, true);
    let largest = svd.singular_values.max();
    if svd.singular_values.iter().any(|s| *s <= largest * 1e-10) {
        return Err(LsqError::Singular);
    }
    let (Some(u), Some(v_t)) = (&svd.u, &svd.v_t) else { return Err(LsqError::Singular) };
    // x = V Σ⁻¹ Uᵀ b; covariance (of the scaled unknowns) = V Σ⁻² Vᵀ.
    let utb = u.transpose() * &target;
    let mut coefficients = vec![0.0; params];
    let mut variances = vec![0.0; params];
    for k in 0..params {
        let s = svd.singular_values[k];
        for j in 0..params {
            coefficients[j] += v_t[(k, j)] * utb[k] / s;
            variances[j] += (v_t[(k, j)] / s).powi(2);
        }
    }
    for k in 0..params {
        coefficients[k] /= scale[k];
        variances[k] /= scale[k] * scale[k];
    }
    let chi2: f64 = (0..points)
        .map(|i| {
            let fitted: f64 = rows[i].iter().zip(&coefficients).map(|(x, c)| x * c).sum();
            ((y[i] - fitted) / sigma[i]).powi(2)
        })
        .sum();
    let dof = (points - params) as f64;
    let q = statrs::function::gamma::checked_gamma_ur(dof / 2.0, chi2 / 2.0).unwrap_or(0.0);
    // A fit worse than the errors claim (χ²/ν > 1: the σᵢ were estimated from a few repeats, or the
    // form is only an approximation) widens its coefficient errors by √(χ²/ν); a better one keeps
    // the formal errors.
    let inflation = (chi2 / dof).max(1.0).sqrt();
    let errors = variances.into_iter().map(|v| v.sqrt() * inflation).collect();
    Ok(LsqFit { coefficients, errors, chi2, q })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_by_hand() {
        // y = 1 + 2x at x = 0, 1, 2, 3 with σ = 1, one point pushed up by 1: the normal equations
        // give a = (1.1, 1.8)... worked: Σx = 6, Σx² = 14, Σy = 1+3+5+8 = 17, Σxy = 0+3+10+24 = 37;
        // det = 4·14 − 36 = 20; a0 = (14·17 − 6·37)/20 = 0.8, a1 = (4·37 − 6·17)/20 = 2.3.
        let rows: Vec<Vec<f64>> = (0..4).map(|x| vec![1.0, f64::from(x)]).collect();
        let fit = fit(&rows, &[1.0, 3.0, 5.0, 8.0], &[1.0; 4]).unwrap();
        assert!((fit.coefficients[0] - 0.8).abs() < 1e-12 && (fit.coefficients[1] - 2.3).abs() < 1e-12);
        // Var(a0) = Σx²/det = 0.7, Var(a1) = N/det = 0.2.
        assert!(
            (fit.errors[0] - 0.7f64.sqrt()).abs() < 1e-12 && (fit.errors[1] - 0.2f64.sqrt()).abs() < 1e-12
        );
        // Residuals 0.2, −0.1, −0.4, 0.3: χ² = 0.3; Q = Γ_upper(1, 0.15) = e^−0.15.
        assert!((fit.chi2 - 0.3).abs() < 1e-12, "{}", fit.chi2);
        assert!((fit.q - (-0.15f64).exp()).abs() < 1e-12, "{}", fit.q);
    }

    #[test]
    fn errors_widen_when_the_fit_is_worse_than_its_errors() {
        // The same line with σ = 0.1: χ² = 30 over ν = 2, so the formal errors (0.1·√0.7, 0.1·√0.2)
        // are scaled by √15.
        let rows: Vec<Vec<f64>> = (0..4).map(|x| vec![1.0, f64::from(x)]).collect();
        let fit = fit(&rows, &[1.0, 3.0, 5.0, 8.0], &[0.1; 4]).unwrap();
        assert!((fit.chi2 - 30.0).abs() < 1e-9);
        assert!((fit.errors[1] - 0.1 * 0.2f64.sqrt() * 15f64.sqrt()).abs() < 1e-12, "{:?}", fit.errors);
    }

    #[test]
    fn degenerate_designs_are_refused() {
        let same_x: Vec<Vec<f64>> = (0..5).map(|_| vec![1.0, 3.0]).collect();
        assert_eq!(fit(&same_x, &[1.0; 5], &[1.0; 5]), Err(LsqError::Singular));
        let two: Vec<Vec<f64>> = (0..2).map(|x| vec![1.0, f64::from(x)]).collect();
        assert_eq!(
            fit(&two, &[1.0; 2], &[1.0; 2]).unwrap_err().to_string(),
            "2 points cannot fit 2 coefficients with a χ² (need at least 3)"
        );
    }
}
