//! What a fitted sheet says about its own weaknesses: fits whose goodness of fit Q is so small
//! that the form cannot be right within the measured errors, coefficients below zero (a term
//! that gives time back), too few process counts or sizes to tell the forms apart, benchmark
//! runs with more ranks than the machine had cores, and composed checks — a round trip against
//! two one-way transfers, an allreduce against a reduce and a broadcast — with their relative
//! difference. Computed from the sheet alone (its fits, measured points and `machine` note), so
//! `datasheet fit`, `show`, `report` and `--json` say the same.

use std::fmt;

use hase_entities::netmodel::datasheet::{Band, DataForm, DataSheet, Estimate, StartupForm};
use serde::Serialize;

use super::forms::FunctionClass;
use super::function::MIN_SIZES_PER_SIDE;

/// Below this goodness of fit the form is not believed (Numerical Recipes §15.2: Q above 0.001
/// is acceptable when the errors are not quite normal or are somewhat underestimated; below it
/// the form, or the errors, are wrong).
pub const SMALL_Q: f64 = 1e-3;

/// Process counts a collective's fit should have: three tell a startup form from the constant
/// with one degree of freedom left; fewer is an error, exactly three is a warning.
pub const GOOD_PROCESS_COUNTS: usize = 4;

/// A composed check differing by more than this fraction is a warning.
pub const COMPOSED_TOLERANCE: f64 = 0.25;

/// One weakness of a sheet.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SheetWarning {
    /// The fit's goodness of fit is below [`SMALL_Q`].
    SmallQ {
        /// The function.
        function: String,
        /// The sizes of the fit (`0–4096 B`).
        range: String,
        /// Its Q.
        q: f64,
    },
    /// A coefficient is below zero.
    NegativeCoefficient {
        /// The function.
        function: String,
        /// The sizes of the fit.
        range: String,
        /// `c`, `s·startup` or `k·data`.
        term: String,
        /// Its value.
        value: f64,
    },
    /// Measured at few process counts.
    FewProcessCounts {
        /// The function.
        function: String,
        /// The counts measured.
        counts: Vec<u32>,
    },
    /// Measured at too few sizes for a small/large split.
    FewSizes {
        /// The function.
        function: String,
        /// Sizes measured.
        sizes: usize,
    },
    /// The benchmark ran more ranks than the machine had cores.
    Oversubscribed {
        /// Most ranks of a run.
        ranks: u32,
        /// Cores of the machine.
        cores: u32,
    },
    /// A composed check differs by more than [`COMPOSED_TOLERANCE`].
    Composed(ComposedCheck),
}

/// A function measured against the functions it is made of.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComposedCheck {
    /// `pingpong vs recv + recv`.
    pub name: String,
    /// Where compared (the largest relative difference over the measured points).
    pub procs: u32,
    /// Size compared at.
    pub bytes: u64,
    /// The sheet's time of the whole, µs.
    pub whole_us: f64,
    /// The sum of the parts, µs.
    pub parts_us: f64,
    /// (parts − whole) / whole.
    pub relative_difference: f64,
}

/// Everything [`review`] finds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SheetReview {
    /// The weaknesses.
    pub warnings: Vec<SheetWarning>,
    /// The composed checks the sheet's functions allow (each also a warning when off by more than
    /// [`COMPOSED_TOLERANCE`]).
    pub checks: Vec<ComposedCheck>,
}

fn range(band: &Band) -> String {
    band.fit.map_or_else(|| "all sizes".into(), |f| format!("{}–{} B", f.bytes_from, f.bytes_to))
}

fn band_warnings(function: &str, band: &Band, out: &mut Vec<SheetWarning>) {
    if let Some(q) = band.goodness_of_fit.filter(|q| *q < SMALL_Q) {
        out.push(SheetWarning::SmallQ { function: function.into(), range: range(band), q });
    }
    let e = &band.avg;
    let terms = [
        ("c", e.constant_us, true),
        ("s·startup", e.startup_coeff, e.startup != StartupForm::None),
        ("k·data", e.data_coeff, e.data != DataForm::None),
    ];
    for (term, value, used) in terms {
        if used && value < 0.0 {
            out.push(SheetWarning::NegativeCoefficient {
                function: function.into(),
                range: range(band),
                term: term.into(),
                value,
            });
        }
    }
}

/// `(… 4 cores)` in the sheet's machine note.
fn cores_of(machine: &str) -> Option<u32> {
    let before = machine.rsplit_once(" cores)")?.0;
    before.rsplit(['(', ' ']).next()?.parse().ok()
}

fn compose(sheet: &DataSheet, name: &str, whole: &str, parts: &[&str]) -> Option<ComposedCheck> {
    let fit = sheet.functions.get(whole)?;
    if parts.iter().any(|p| !sheet.functions.contains_key(*p)) {
        return None;
    }
    let mut worst: Option<ComposedCheck> = None;
    for point in &fit.measured {
        let time = |f: &str| sheet.time_us(f, point.procs, point.bytes, Estimate::Avg).ok();
        let Some(whole_us) = time(whole) else { continue };
        let Some(parts_us) = parts.iter().map(|p| time(p)).sum::<Option<f64>>() else { continue };
        if whole_us <= 0.0 {
            continue;
        }
        let relative_difference = (parts_us - whole_us) / whole_us;
        if worst.as_ref().is_none_or(|w| relative_difference.abs() > w.relative_difference.abs()) {
            worst = Some(ComposedCheck {
                name: name.into(),
                procs: point.procs,
                bytes: point.bytes,
                whole_us,
                parts_us,
                relative_difference,
            });
        }
    }
    worst
}

/// Review `sheet`.
pub fn review(sheet: &DataSheet) -> SheetReview {
    let mut warnings = Vec::new();
    let mut most_ranks = 0;
    for (name, fit) in &sheet.functions {
        band_warnings(name, &fit.small, &mut warnings);
        if fit.large != fit.small {
            band_warnings(name, &fit.large, &mut warnings);
        }
        if fit.measured.is_empty() {
            continue;
        }
        let mut counts: Vec<u32> = fit.measured.iter().map(|p| p.procs).collect();
        counts.sort_unstable();
        counts.dedup();
        most_ranks = most_ranks.max(counts.last().copied().unwrap_or(0));
        let mut sizes: Vec<u64> = fit.measured.iter().map(|p| p.bytes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let class = FunctionClass::of(name);
        if class.has_startup() && counts.len() < GOOD_PROCESS_COUNTS {
            warnings.push(SheetWarning::FewProcessCounts { function: name.clone(), counts });
        }
        if class.has_data() && sizes.len() < 2 * MIN_SIZES_PER_SIDE {
            warnings.push(SheetWarning::FewSizes { function: name.clone(), sizes: sizes.len() });
        }
    }
    if let Some(cores) = cores_of(&sheet.machine).filter(|c| *c > 0 && most_ranks > *c) {
        warnings.push(SheetWarning::Oversubscribed { ranks: most_ranks, cores });
    }
    let checks: Vec<ComposedCheck> = [
        compose(sheet, "pingpong vs recv + recv", "pingpong", &["recv", "recv"]),
        compose(sheet, "allreduce vs reduce + bcast", "allreduce", &["reduce", "bcast"]),
    ]
    .into_iter()
    .flatten()
    .collect();
    for check in &checks {
        if check.relative_difference.abs() > COMPOSED_TOLERANCE {
            warnings.push(SheetWarning::Composed(check.clone()));
        }
    }
    SheetReview { warnings, checks }
}

impl fmt::Display for ComposedCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {:.3} µs against {:.3} µs at p = {}, {} B ({:+.1} %)",
            self.name,
            self.parts_us,
            self.whole_us,
            self.procs,
            self.bytes,
            self.relative_difference * 100.0
        )
    }
}

impl fmt::Display for SheetWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SheetWarning::SmallQ { function, range, q } => write!(
                f,
                "{function} ({range}): goodness of fit Q = {q:.1e} < {SMALL_Q}: the form does not describe \
                 the measurements within their errors (or the errors are underestimated)"
            ),
            SheetWarning::NegativeCoefficient { function, range, term, value } => write!(
                f,
                "{function} ({range}): the {term} coefficient is negative ({value:.4e}): the form \
                 compensates for a wrong shape and may predict less than nothing outside the measurements"
            ),
            SheetWarning::FewProcessCounts { function, counts } => {
                let list: Vec<String> = counts.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "{function}: measured at {} process counts ({}); {GOOD_PROCESS_COUNTS} or more tell the \
                     startup forms apart",
                    counts.len(),
                    list.join(", ")
                )
            }
            SheetWarning::FewSizes { function, sizes } => write!(
                f,
                "{function}: measured at {sizes} sizes; {} or more let small and large messages be fitted apart",
                2 * MIN_SIZES_PER_SIDE
            ),
            SheetWarning::Oversubscribed { ranks, cores } => write!(
                f,
                "the benchmark ran {ranks} ranks on {cores} cores: ranks shared cores, so the times \
                 include waiting for a core"
            ),
            SheetWarning::Composed(check) => {
                write!(f, "{check}: more than {:.0} % apart", COMPOSED_TOLERANCE * 100.0)
            }
        }
    }
}

/// A use of a sheet outside what was measured for the function.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutsideMeasured {
    /// The function.
    pub function: String,
    /// Processes asked for.
    pub procs: u32,
    /// Bytes asked for.
    pub bytes: u64,
    /// Process counts measured, smallest and largest.
    pub measured_procs: (u32, u32),
    /// Sizes measured, smallest and largest.
    pub measured_bytes: (u64, u64),
}

impl fmt::Display for OutsideMeasured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at p = {}, {} B is outside the measured p = {}–{}, {}–{} B: the sheet extrapolates",
            self.function,
            self.procs,
            self.bytes,
            self.measured_procs.0,
            self.measured_procs.1,
            self.measured_bytes.0,
            self.measured_bytes.1
        )
    }
}

/// Whether the sheet's `function` at `procs` processes and `bytes` bytes is outside its measured
/// points (point-to-point functions are measured at p = 2 and used at any p, so only their size
/// is checked). `None` inside the range, or for a function without measurements (a transcribed
/// sheet).
pub fn outside_measured(
    sheet: &DataSheet,
    function: &str,
    procs: u32,
    bytes: u64,
) -> Option<OutsideMeasured> {
    let measured = &sheet.functions.get(function)?.measured;
    let procs_range = (measured.iter().map(|p| p.procs).min()?, measured.iter().map(|p| p.procs).max()?);
    let bytes_range = (measured.iter().map(|p| p.bytes).min()?, measured.iter().map(|p| p.bytes).max()?);
    let class = FunctionClass::of(function);
    let procs_out = class.has_startup() && !(procs_range.0..=procs_range.1).contains(&procs);
    let bytes_out = class.has_data() && !(bytes_range.0..=bytes_range.1).contains(&bytes);
    (procs_out || bytes_out).then(|| OutsideMeasured {
        function: function.into(),
        procs,
        bytes,
        measured_procs: procs_range,
        measured_bytes: bytes_range,
    })
}
