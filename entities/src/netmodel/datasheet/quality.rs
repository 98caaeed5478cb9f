//! What a fitted data sheet records besides its equations: how good each fit is (coefficient
//! standard errors, χ², the measured range it is valid over) and the measured points it was fitted
//! to, so that a sheet file alone can be shown, plotted and judged (`hase datasheet show|report`).
//! Transcribed sheets (the thesis's) have neither; both are optional in the file.

use serde::{Deserialize, Serialize};

/// The statistics of one least-squares fit (the `avg` equation of a band).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FitQuality {
    /// Standard error of `constant_us`, µs.
    pub constant_err: f64,
    /// Standard error of `startup_coeff`.
    pub startup_err: f64,
    /// Standard error of `data_coeff`.
    pub data_err: f64,
    /// χ² of the fit: Σ ((measured − fitted) / σ)² over the points.
    pub chi2: f64,
    /// Points (distinct process count and size) fitted.
    pub points: u32,
    /// Smallest process count measured.
    pub procs_from: u32,
    /// Largest process count measured.
    pub procs_to: u32,
    /// Smallest message measured, bytes.
    pub bytes_from: u64,
    /// Largest message measured, bytes.
    pub bytes_to: u64,
}

impl FitQuality {
    /// Degrees of freedom: points minus the fitted coefficients (`parameters`).
    pub fn degrees_of_freedom(&self, parameters: u32) -> u32 {
        self.points.saturating_sub(parameters)
    }
}

/// One measured point of a function: the repeats of one process count and size, summarised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeasuredPoint {
    /// Processes in the group.
    pub procs: u32,
    /// Message size, bytes.
    pub bytes: u64,
    /// Fastest repeat, µs.
    pub min_us: f64,
    /// Central value fitted (median of batch means for point-to-point, mean otherwise), µs.
    pub avg_us: f64,
    /// Slowest repeat, µs.
    pub max_us: f64,
    /// Standard error of `avg_us`, µs (the fit's weight is 1/err²).
    pub err_us: f64,
    /// Repeats measured (after the warm-up was discarded).
    pub repeats: u32,
}
