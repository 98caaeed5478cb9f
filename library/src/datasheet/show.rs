//! `hase datasheet show`: every function's fits with their form, coefficients ± standard error, χ²,
//! Q and range of validity — as a text table or as JSON in one fixed shape, whatever the sheet's own
//! units: times in µs, the data coefficient per byte, logs in base 2 (a transcribed sheet's natural
//! logs and element counts are converted).

use std::fmt::Write as _;

use hase_entities::netmodel::datasheet::{Band, DataForm, DataSheet, FunctionFit, LogBase, StartupForm};
use serde::Serialize;

use super::review::{SheetReview, review};

/// The JSON document: `{"functions": [{"name": …, "fits": [ShownFit, …]}, …], "review":
/// {"warnings": […], "checks": […]}}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownSheet {
    /// Functions in name order.
    pub functions: Vec<ShownFunction>,
    /// The sheet's weaknesses and composed checks.
    pub review: SheetReview,
}

/// One function.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownFunction {
    /// Sheet function name.
    pub name: String,
    /// Its fits, small messages first.
    pub fits: Vec<ShownFit>,
}

/// One fit (the band's avg equation), in µs, per byte, base-2 logs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownFit {
    /// Smallest size the fit is valid for (measured, or 0 / the split + 1 for transcribed sheets).
    pub bytes_from: u64,
    /// Largest size it is valid for; `null` when unbounded (a transcribed sheet's large fit).
    pub bytes_to: Option<u64>,
    /// `p`, `log p`, `p^2` (also `none`, `1`, `p log p` for forms outside the thesis's 12).
    pub startup: &'static str,
    /// `d`, `p*d`, `log p*d`, `p^2*d` (also `none`, `p log p*d`).
    pub data: &'static str,
    /// Constant, µs.
    pub c_us: f64,
    /// Startup coefficient, µs per unit of startup(p).
    pub s_us: f64,
    /// Data coefficient, µs per byte (times the p factor of the data form).
    pub k_us_per_byte: f64,
    /// Standard error of `c_us` (`null` if the sheet does not record it).
    pub c_err: Option<f64>,
    /// Standard error of `s_us`.
    pub s_err: Option<f64>,
    /// Standard error of `k_us_per_byte`.
    pub k_err: Option<f64>,
    /// χ² of the fit.
    pub chi2: Option<f64>,
    /// Goodness of fit Q.
    pub q: Option<f64>,
}

fn startup_word(s: StartupForm) -> &'static str {
    match s {
        StartupForm::None => "none",
        StartupForm::One => "1",
        StartupForm::P => "p",
        StartupForm::LogP => "log p",
        StartupForm::P2 => "p^2",
        StartupForm::PLogP => "p log p",
    }
}

fn data_word(d: DataForm) -> &'static str {
    match d {
        DataForm::None => "none",
        DataForm::D => "d",
        DataForm::PD => "p*d",
        DataForm::LogPD => "log p*d",
        DataForm::P2D => "p^2*d",
        DataForm::PLogPD => "p log p*d",
    }
}

/// Factor turning a coefficient of a `log_base` log term into one of a log₂ term.
fn to_base_two(log_base: LogBase) -> f64 {
    match log_base {
        LogBase::Two => 1.0,
        LogBase::Natural => std::f64::consts::LN_2,
        LogBase::Ten => std::f64::consts::LOG10_2,
    }
}

fn shown_fit(sheet: &DataSheet, band: &Band, range: (u64, Option<u64>)) -> ShownFit {
    let e = &band.avg;
    let log = to_base_two(sheet.log_base);
    let startup_scale = if matches!(e.startup, StartupForm::LogP | StartupForm::PLogP) { log } else { 1.0 };
    let data_log = if matches!(e.data, DataForm::LogPD | DataForm::PLogPD) { log } else { 1.0 };
    let data_scale = data_log / sheet.element_bytes as f64;
    let q = band.fit;
    let (bytes_from, bytes_to) = q.map_or(range, |f| (f.bytes_from, Some(f.bytes_to)));
    ShownFit {
        bytes_from,
        bytes_to,
        startup: startup_word(e.startup),
        data: data_word(e.data),
        c_us: e.constant_us,
        s_us: e.startup_coeff * startup_scale,
        k_us_per_byte: e.data_coeff * data_scale,
        c_err: q.map(|f| f.constant_err),
        s_err: q.map(|f| f.startup_err * startup_scale),
        k_err: q.map(|f| f.data_err * data_scale),
        chi2: q.map(|f| f.chi2),
        q: band.goodness_of_fit,
    }
}

fn shown_function(sheet: &DataSheet, name: &str, fit: &FunctionFit) -> ShownFunction {
    let limit = u64::try_from(sheet.small_limit_bytes(fit)).unwrap_or(u64::MAX);
    let fits = if fit.small == fit.large || limit == u64::MAX {
        vec![shown_fit(sheet, &fit.small, (0, None))]
    } else {
        vec![shown_fit(sheet, &fit.small, (0, Some(limit))), shown_fit(sheet, &fit.large, (limit + 1, None))]
    };
    ShownFunction { name: name.to_string(), fits }
}

/// The sheet in the shown shape.
pub fn shown(sheet: &DataSheet) -> ShownSheet {
    ShownSheet {
        functions: sheet.functions.iter().map(|(name, fit)| shown_function(sheet, name, fit)).collect(),
        review: review(sheet),
    }
}

/// The sheet as JSON (pretty-printed).
pub fn to_json(sheet: &DataSheet) -> String {
    serde_json::to_string_pretty(&shown(sheet)).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// A number with about four significant digits: fixed point in 0.01…10⁵, else exponent form.
pub fn number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || (0.01..1e5).contains(&a) { format!("{v:.4}") } else { format!("{v:.3e}") }
}

fn pm(value: f64, err: Option<f64>, present: bool) -> String {
    match (present, err) {
        (false, _) => "-".into(),
        (true, Some(e)) => format!("{} ± {}", number(value), number(e)),
        (true, None) => number(value),
    }
}

/// The sheet as a text table.
pub fn to_text(sheet: &DataSheet) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "data sheet `{}` — {}", sheet.name, sheet.machine);
    let _ = writeln!(out, "t(p, d) = c + s·startup(p) + k·data(p, d): µs, d in bytes, log base 2");
    let shown = shown(sheet);
    let _ = writeln!(
        out,
        "{:<10} {:>21}  {:<8} {:<9} {:>24} {:>24} {:>24} {:>10} {:>8}",
        "function", "bytes", "startup", "data", "c (µs)", "s (µs)", "k (µs/B)", "χ²", "Q"
    );
    for f in &shown.functions {
        for fit in &f.fits {
            let to = fit.bytes_to.map_or_else(|| "…".to_string(), |b| b.to_string());
            let chi2 = fit.chi2.map_or_else(|| "-".into(), number);
            let q = fit.q.map_or_else(|| "-".into(), |q| format!("{q:.3}"));
            let _ = writeln!(
                out,
                "{:<10} {:>21}  {:<8} {:<9} {:>24} {:>24} {:>24} {:>10} {:>8}",
                f.name,
                format!("{}–{to}", fit.bytes_from),
                fit.startup,
                fit.data,
                pm(fit.c_us, fit.c_err, true),
                pm(fit.s_us, fit.s_err, fit.startup != "none"),
                pm(fit.k_us_per_byte, fit.k_err, fit.data != "none"),
                chi2,
                q
            );
        }
    }
    review_text(&shown.review, &mut out);
    out
}

/// The composed checks and the warnings, one a line.
fn review_text(review: &SheetReview, out: &mut String) {
    for check in &review.checks {
        let _ = writeln!(out, "check: {check}");
    }
    if review.warnings.is_empty() {
        let _ = writeln!(out, "no warnings");
    }
    for warning in &review.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
}
