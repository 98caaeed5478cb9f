//! A whole MPI data sheet: per function, a small-message and a large-message fit, each a band of
//! minimum / average / maximum equations; plus how bytes become elements and where "small" ends.
//! [`DataSheet::time`] answers "how long does `bcast` take for p processes and this many bytes".

use std::collections::BTreeMap;

use hase_engine::time::SimTime;
use serde::{Deserialize, Serialize};

use super::equation::{DataForm, Equation, LogBase, StartupForm};
use super::error::DataSheetError;
use super::quality::{FitQuality, MeasuredPoint};

/// Which equation of a band to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Estimate {
    /// The minimum-time fit.
    Min,
    /// The central (fitted) equation.
    Avg,
    /// The maximum-time fit.
    Max,
    /// The measurements themselves where they exist: at a measured process count and between the
    /// smallest and largest measured size, the central values of the two nearest measured sizes
    /// interpolated linearly in bytes; elsewhere (and for sheets without measurements) the
    /// central fitted equation, as [`Estimate::Avg`].
    Measured,
}

impl Estimate {
    /// The band names [`Estimate::from_name`] takes.
    pub const NAMES: [&'static str; 4] = ["min", "avg", "max", "measured"];

    /// Parse `min`, `avg`, `max` or `measured` (the processor and network-model `band` parameter).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "min" => Some(Estimate::Min),
            "avg" => Some(Estimate::Avg),
            "max" => Some(Estimate::Max),
            "measured" => Some(Estimate::Measured),
            _ => None,
        }
    }
}

/// The minimum, average and maximum equations of one fit. In RON `min` and `max` may be left out,
/// meaning "same as `avg`" (sheets that print only the fitted equation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "BandRepr", into = "BandRepr")]
pub struct Band {
    /// Minimum expected time.
    pub min: Equation,
    /// The fitted equation.
    pub avg: Equation,
    /// Maximum expected time.
    pub max: Equation,
    /// The fit's goodness-of-fit Q (0…1) as printed on the sheet, if known.
    pub goodness_of_fit: Option<f64>,
    /// Standard errors, χ² and range of a fitted `avg` equation (sheets made by `hase datasheet
    /// fit`); `None` for transcribed sheets.
    pub fit: Option<FitQuality>,
}

impl Band {
    /// A band whose three equations are all `equation`.
    pub fn exact(equation: Equation) -> Self {
        Band { min: equation, avg: equation, max: equation, goodness_of_fit: None, fit: None }
    }

    /// The equation for `estimate`.
    pub fn pick(&self, estimate: Estimate) -> &Equation {
        match estimate {
            Estimate::Min => &self.min,
            Estimate::Avg | Estimate::Measured => &self.avg,
            Estimate::Max => &self.max,
        }
    }
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BandRepr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min: Option<Equation>,
    avg: Equation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max: Option<Equation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    goodness_of_fit: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fit: Option<FitQuality>,
}

impl From<BandRepr> for Band {
    fn from(r: BandRepr) -> Self {
        Band {
            min: r.min.unwrap_or(r.avg),
            avg: r.avg,
            max: r.max.unwrap_or(r.avg),
            goodness_of_fit: r.goodness_of_fit,
            fit: r.fit,
        }
    }
}

impl From<Band> for BandRepr {
    fn from(b: Band) -> Self {
        BandRepr {
            min: (b.min != b.avg).then_some(b.min),
            avg: b.avg,
            max: (b.max != b.avg).then_some(b.max),
            goodness_of_fit: b.goodness_of_fit,
            fit: b.fit,
        }
    }
}

/// The fits of one MPI function. In RON `large` may be left out, meaning the small-message fit
/// holds for every size (barrier, or sheets with one fit per function).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "FitRepr", into = "FitRepr")]
pub struct FunctionFit {
    /// Messages of at most the small limit (this function's, else the sheet's).
    pub small: Band,
    /// Larger messages.
    pub large: Band,
    /// This function's own small/large limit in elements (a fitted sheet finds one per
    /// function); `None` uses the sheet's `small_limit_elements`.
    pub small_limit_elements: Option<u64>,
    /// The measured points the fits were made from (fitted sheets only), for plots and reports.
    pub measured: Vec<MeasuredPoint>,
}

impl FunctionFit {
    /// One band for every size, with no limit of its own and no measurements.
    pub fn single(band: Band) -> Self {
        FunctionFit { small: band.clone(), large: band, small_limit_elements: None, measured: Vec::new() }
    }

    /// The measured central values at `processes` as (bytes, µs), sorted by size (empty where
    /// that count was not measured).
    pub fn measured_at(&self, processes: u32) -> Vec<(u64, f64)> {
        let mut points: Vec<(u64, f64)> =
            self.measured.iter().filter(|m| m.procs == processes).map(|m| (m.bytes, m.avg_us)).collect();
        points.sort_by_key(|&(bytes, _)| bytes);
        points.dedup_by_key(|&mut (bytes, _)| bytes);
        points
    }

    /// The measured time at `processes` and `bytes`, µs, interpolated linearly between the two
    /// nearest measured sizes; `None` outside the measured sizes or at an unmeasured count.
    pub fn interpolate_measured(&self, processes: u32, bytes: u64) -> Option<f64> {
        interpolate(&self.measured_at(processes), bytes)
    }
}

/// Linear interpolation in `points` (sorted by bytes) at `bytes`; `None` outside their range.
pub fn interpolate(points: &[(u64, f64)], bytes: u64) -> Option<f64> {
    let above = points.partition_point(|&(b, _)| b < bytes);
    let &(b1, t1) = points.get(above)?;
    if b1 == bytes {
        return Some(t1);
    }
    let &(b0, t0) = points.get(above.checked_sub(1)?)?;
    let share = (bytes - b0) as f64 / (b1 - b0) as f64;
    Some(t0 + (t1 - t0) * share)
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FitRepr {
    small: Band,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    large: Option<Band>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    small_limit_elements: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    measured: Vec<MeasuredPoint>,
}

impl From<FitRepr> for FunctionFit {
    fn from(r: FitRepr) -> Self {
        let large = r.large.unwrap_or_else(|| r.small.clone());
        FunctionFit {
            small: r.small,
            large,
            small_limit_elements: r.small_limit_elements,
            measured: r.measured,
        }
    }
}

impl From<FunctionFit> for FitRepr {
    fn from(f: FunctionFit) -> Self {
        let large = (f.large != f.small).then_some(f.large);
        FitRepr { small: f.small, large, small_limit_elements: f.small_limit_elements, measured: f.measured }
    }
}

/// An MPI data sheet: one fitted equation per MPI function, times in microseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataSheet {
    /// Short name (`cray_t3d`), as chosen by the network model's `sheet` parameter.
    pub name: String,
    /// What was measured: machine, MPI library, group sizes.
    pub machine: String,
    /// Bytes per element: the `d` of the equations counts elements of this size.
    pub element_bytes: u64,
    /// Messages of at most this many elements use the small-message fits.
    pub small_limit_elements: u64,
    /// Base of the `log(p)` terms.
    pub log_base: LogBase,
    /// Fits by MPI function name (`send`, `bcast`, …).
    pub functions: BTreeMap<String, FunctionFit>,
    /// Provenance and the judgement calls made in transcribing the sheet.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Where the sheet was read from (for error messages); not stored in the file.
    #[serde(skip)]
    pub origin: String,
}

impl DataSheet {
    /// Time `function` takes for `processes` processes and a message of `bytes` bytes.
    ///
    /// `bytes` is converted to elements by dividing by `element_bytes` (fractional elements are
    /// kept, so the time is continuous in `bytes`); messages of at most `small_limit_elements`
    /// elements use the small-message fit. A fit that evaluates below zero gives zero.
    pub fn time(
        &self,
        function: &str,
        processes: u32,
        bytes: u64,
        estimate: Estimate,
    ) -> Result<SimTime, DataSheetError> {
        let us = self.time_us(function, processes, bytes, estimate)?;
        Ok(SimTime::from_f64_ps(us * 1e6))
    }

    /// As [`DataSheet::time`], in microseconds and unclamped.
    pub fn time_us(
        &self,
        function: &str,
        processes: u32,
        bytes: u64,
        estimate: Estimate,
    ) -> Result<f64, DataSheetError> {
        let fit = self.function(function)?;
        if processes == 0 {
            return Err(DataSheetError::NoProcesses {
                origin: self.origin.clone(),
                function: function.to_string(),
            });
        }
        if estimate == Estimate::Measured
            && let Some(us) = fit.interpolate_measured(processes, bytes)
        {
            return Ok(us);
        }
        let elements = self.elements(bytes);
        let band = if self.is_small_for(fit, bytes) { &fit.small } else { &fit.large };
        Ok(band.pick(estimate).eval(f64::from(processes), elements, self.log_base))
    }

    /// The fits of `function`.
    pub fn function(&self, function: &str) -> Result<&FunctionFit, DataSheetError> {
        self.functions.get(function).ok_or_else(|| DataSheetError::UnknownFunction {
            origin: self.origin.clone(),
            sheet: self.name.clone(),
            function: function.to_string(),
            known: self.functions.keys().cloned().collect::<Vec<_>>().join(", "),
        })
    }

    /// `bytes` in elements.
    pub fn elements(&self, bytes: u64) -> f64 {
        bytes as f64 / self.element_bytes as f64
    }

    /// True if a message of `bytes` bytes uses the small-message fits of a function without a
    /// limit of its own.
    pub fn is_small(&self, bytes: u64) -> bool {
        // elements ≤ limit ⇔ bytes ≤ limit × element_bytes, in integers.
        u128::from(bytes) <= u128::from(self.small_limit_elements) * u128::from(self.element_bytes)
    }

    /// The small/large limit of `fit` in bytes: its own, else the sheet's.
    pub fn small_limit_bytes(&self, fit: &FunctionFit) -> u128 {
        u128::from(fit.small_limit_elements.unwrap_or(self.small_limit_elements))
            * u128::from(self.element_bytes)
    }

    /// True if a message of `bytes` bytes uses `fit`'s small-message band.
    pub fn is_small_for(&self, fit: &FunctionFit, bytes: u64) -> bool {
        u128::from(bytes) <= self.small_limit_bytes(fit)
    }

    /// Check what the file format cannot: at least one byte per element, finite coefficients, no
    /// coefficient without its term. Errors name the field (`functions."bcast".small.avg`).
    pub fn validate(&self) -> Result<(), DataSheetError> {
        let invalid = |field: String, message: String| DataSheetError::Invalid {
            origin: self.origin.clone(),
            field,
            message,
        };
        if self.element_bytes == 0 {
            return Err(invalid("element_bytes".into(), "must be at least 1".into()));
        }
        for (name, fit) in &self.functions {
            for (size, band) in [("small", &fit.small), ("large", &fit.large)] {
                let field = |which: &str| format!("functions.{name:?}.{size}.{which}");
                if let Some(q) = band.goodness_of_fit
                    && !(0.0..=1.0).contains(&q)
                {
                    return Err(invalid(field("goodness_of_fit"), format!("{q} is not in 0…1")));
                }
                // avg first: a band written with avg only copies it into min and max.
                for (which, equation) in [("avg", &band.avg), ("min", &band.min), ("max", &band.max)] {
                    for (coefficient, value) in equation.coefficients() {
                        if !value.is_finite() {
                            let message = format!("{coefficient} is {value}");
                            return Err(invalid(field(which), message));
                        }
                    }
                    let unused_startup =
                        equation.startup == StartupForm::None && equation.startup_coeff != 0.0;
                    let unused_data = equation.data == DataForm::None && equation.data_coeff != 0.0;
                    if unused_startup || unused_data {
                        let term = if unused_startup { "startup" } else { "data" };
                        let message = format!("{term}_coeff is given but {term} is None");
                        return Err(invalid(field(which), message));
                    }
                }
            }
        }
        Ok(())
    }
}
