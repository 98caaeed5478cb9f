//! "Fit a formula" in the experiments' Results tab: which metric and which variables play the
//! processor count `p`, the problem size `n` or a pipeline's grain `g`, the fit
//! (`hase_library::experiment::fit_experiment`, the same as `hase experiments fit`) of every run
//! and of each plotted series on its own runs, and the fitted curves drawn over the measured
//! points of the line plot.

use hase_library::experiment::RunRecord;
use hase_library::experiment::scaling::{ExperimentFit, FitOptions, Holdout, Roles, fit_experiment};
use hase_library::fit::{Fit, Point};

use crate::experiments::plot::{LinePlot, PointSet, Series};
use crate::experiments::results::Results;

/// Most terms of a formula the panel offers.
pub const MAX_TERMS: usize = 4;
/// Points drawn between two measured points of the curve.
const CURVE_STEPS: usize = 16;

/// The panel's choices and its last fit.
#[derive(Clone, Debug, PartialEq)]
pub struct FitPanel {
    /// Shown.
    pub open: bool,
    /// The time metric fitted.
    pub metric: String,
    /// The variable playing `p` ("" none).
    pub p: String,
    /// The variable playing `n` ("" none).
    pub n: String,
    /// The variable playing `g` ("" none; fitted alone, `a + b·g + c/g`).
    pub g: String,
    /// Most terms in a formula.
    pub max_terms: usize,
    /// Draw the fitted curve on the plot.
    pub on_plot: bool,
    /// Fit each series of the line plot on its own runs (else every run of the experiment,
    /// as `hase experiments fit`).
    pub per_series: bool,
    /// The fits of the series (when `per_series`), by series name.
    pub series: Vec<(String, Result<ExperimentFit, FitPanelError>)>,
    /// The last fit (for the experiment of `fitted_for`), or why it failed.
    pub result: Option<Result<ExperimentFit, FitPanelError>>,
    /// The experiment the result is of (its id, name).
    pub fitted_for: Option<(Option<u64>, String)>,
    /// Where to extrapolate: points `p=…,n=…,g=…` separated by `;` (as `--predict`).
    pub predict_at: String,
    /// Why `predict_at` could not be read at the last fit.
    pub predict_error: Option<String>,
    /// Hold out the runs at this many of the largest values of `p` (else `n`, else `g`) and
    /// show the fit's error on them (0: fit every run).
    pub holdout: usize,
}

/// Why a fit of the panel failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitPanelError {
    /// No variable plays p, n or g.
    #[error("choose the variable that plays p, n or g")]
    NoRoles,
    /// The fitter refused the runs (too few, a value that is not a number, …).
    #[error(transparent)]
    Fit(std::sync::Arc<hase_library::experiment::scaling::ExperimentFitError>),
}

impl Default for FitPanel {
    fn default() -> Self {
        FitPanel {
            open: false,
            metric: String::new(),
            p: String::new(),
            n: String::new(),
            g: String::new(),
            max_terms: 3,
            on_plot: true,
            per_series: true,
            series: Vec::new(),
            result: None,
            fitted_for: None,
            predict_at: String::new(),
            predict_error: None,
            holdout: 0,
        }
    }
}

impl FitPanel {
    /// Open the panel on `results`: the metric is the first time metric (`…_ps`) unless one is
    /// chosen; unless roles are chosen, the first variable whose values are all numbers plays `n`
    /// when its name says it is a size (`bytes`, `size`, `n`, `items`), else `p`.
    pub fn open_on(&mut self, results: &Results) {
        self.open = true;
        if !results.metrics.contains(&self.metric) {
            self.metric = results
                .metrics
                .iter()
                .find(|m| m.ends_with("_ps"))
                .or(results.metrics.first())
                .cloned()
                .unwrap_or_default();
        }
        for role in [&mut self.p, &mut self.n, &mut self.g] {
            if !results.variables.contains(role) {
                role.clear();
            }
        }
        if self.p.is_empty() && self.n.is_empty() && self.g.is_empty() {
            let numeric = (0..results.variables.len())
                .find(|&i| results.values_of(i).iter().all(|v| number(v).is_some()));
            if let Some(name) = numeric.map(|i| results.variables[i].clone()) {
                let last = name.rsplit(['.', ':']).next().unwrap_or(&name).to_lowercase();
                let size = ["bytes", "size", "items"].iter().any(|w| last.contains(w)) || last == "n";
                if size { self.n = name } else { self.p = name }
            }
        }
    }

    /// The roles chosen.
    pub fn roles(&self) -> Roles {
        let some = |s: &String| (!s.is_empty()).then(|| s.clone());
        Roles { p: some(&self.p), n: some(&self.n), g: some(&self.g) }
    }

    /// Fit `results` with the choices made: every run, and (when `per_series` and a line plot
    /// is shown) each series of `plot` on the runs of its own points.
    /// Each fit also predicts the time at the points of `predict_at`.
    pub fn fit(&mut self, results: &Results, plot: Option<&LinePlot>) {
        let predict: Result<Vec<Point>, _> =
            self.predict_at.split(';').filter(|t| !t.trim().is_empty()).map(Point::parse).collect();
        self.predict_error = predict.as_ref().err().map(ToString::to_string);
        let predict = predict.unwrap_or_default();
        let all: Vec<&RunRecord> = results.records.iter().collect();
        self.result = Some(self.fit_runs(results, &all, &predict));
        self.series.clear();
        if let (true, Some(plot)) = (self.per_series, plot) {
            for series in &plot.series {
                let points: Vec<u64> = series.points.iter().map(|p| p.point).collect();
                let runs: Vec<&RunRecord> =
                    results.records.iter().filter(|r| points.contains(&r.key.point)).collect();
                let fit = self.fit_runs(results, &runs, &predict);
                self.series.push((series.name.clone(), fit));
            }
        }
        self.fitted_for = Some((results.id, results.name.clone()));
    }

    fn fit_runs(
        &self,
        results: &Results,
        runs: &[&RunRecord],
        predict: &[Point],
    ) -> Result<ExperimentFit, FitPanelError> {
        let roles = self.roles();
        if roles == Roles::default() {
            return Err(FitPanelError::NoRoles);
        }
        let runs: Vec<RunRecord> = runs.iter().map(|r| (*r).clone()).collect();
        fit_experiment(
            &results.variables,
            &results.metrics,
            &runs,
            &self.metric,
            &roles,
            FitOptions {
                max_terms: self.max_terms.clamp(1, MAX_TERMS),
                predict,
                holdout: if self.holdout == 0 { Holdout::Nothing } else { Holdout::Largest(self.holdout) },
            },
        )
        .map_err(|e| FitPanelError::Fit(std::sync::Arc::new(e)))
    }

    /// The fit drawn over series `name`: its own when fitted per series, else the fit of every run.
    pub fn fit_for_series(&self, results: &Results, name: &str) -> Option<&ExperimentFit> {
        let all = self.fit_of(results)?;
        if !self.per_series || self.series.is_empty() {
            return Some(all);
        }
        self.series.iter().find(|(n, _)| n == name).and_then(|(_, r)| r.as_ref().ok())
    }

    /// The last fit when it is of `results` and succeeded.
    pub fn fit_of(&self, results: &Results) -> Option<&ExperimentFit> {
        let current =
            self.fitted_for.as_ref().is_some_and(|(id, name)| *id == results.id && *name == results.name);
        self.result.as_ref().and_then(|r| r.as_ref().ok()).filter(|_| current)
    }
}

/// The fitted formula of `fit` (the chosen one, or the grain model).
pub fn formula(fit: &ExperimentFit) -> Option<&Fit> {
    fit.formula.as_ref().map(|s| &s.best).or(fit.grain.as_ref().map(|g| &g.fit))
}

/// The fitted curves over each series of `plot` (a plot of the fitted metric over `set`), each
/// with the fit `fit_of(series name)` gives: through every measured point's variables and,
/// between two neighbours, with the variables of `p`, `n` and `g` going linearly from one to the
/// other. One line per series, named after it.
pub fn curve<'f>(
    fit_of: impl Fn(&str) -> Option<&'f ExperimentFit>,
    set: &PointSet,
    plot: &LinePlot,
) -> Vec<(String, Vec<[f64; 2]>)> {
    let mut out = Vec::new();
    for series in &plot.series {
        let Some(fit) = fit_of(&series.name) else { continue };
        let line = series_curve(fit, set, series);
        if !line.is_empty() {
            out.push((format!("fit: {}", series.name), line));
        }
    }
    out
}

fn series_curve(fit: &ExperimentFit, set: &PointSet, series: &Series) -> Vec<[f64; 2]> {
    let Some(formula) = formula(fit) else { return Vec::new() };
    let index = |name: &Option<String>| name.as_ref().and_then(|n| set.variables.iter().position(|v| v == n));
    let (p_at, n_at, g_at) = (index(&fit.p), index(&fit.n), index(&fit.g));
    let point_of = |point: u64| -> Option<Point> {
        let summary = set.points.iter().find(|s| s.point == point)?;
        let read = |at: Option<usize>| -> Option<f64> {
            at.map_or(Some(0.0), |i| summary.values.get(i).and_then(|v| number(v)))
        };
        Some(Point { p: read(p_at)?, n: read(n_at)?, g: read(g_at)? })
    };
    let mut line: Vec<[f64; 2]> = Vec::new();
    let located: Vec<(f64, Point)> =
        series.points.iter().filter_map(|sp| Some((sp.x, point_of(sp.point)?))).collect();
    for (i, (x, at)) in located.iter().enumerate() {
        line.push([*x, formula.predict(*at).time]);
        let Some((x1, at1)) = located.get(i + 1) else { continue };
        for k in 1..CURVE_STEPS {
            let f = k as f64 / CURVE_STEPS as f64;
            let mix = |a: f64, b: f64| a + (b - a) * f;
            let between = Point { p: mix(at.p, at1.p), n: mix(at.n, at1.n), g: mix(at.g, at1.g) };
            line.push([mix(*x, *x1), formula.predict(between).time]);
        }
    }
    line
}

/// A variable's value as a number (`8`, `1.5e3`, `4x4` as the product of its dimensions).
fn number(value: &str) -> Option<f64> {
    value.parse::<f64>().ok().or_else(|| {
        value
            .contains('x')
            .then(|| value.split('x').map(|d| d.trim().parse::<f64>().ok()).product())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::plot::{PlotSettings, lines};
    use crate::fixtures::known_scaling_results as known_results;

    #[test]
    fn the_panel_recovers_a_known_formula_and_draws_it_through_the_points() {
        let results = known_results();
        let mut panel = FitPanel::default();
        panel.open_on(&results);
        assert_eq!((panel.metric.as_str(), panel.p.as_str()), ("makespan_ps", "template.procs"));
        panel.n = "workload.n".into();
        panel.fit(&results, None);
        let fit = panel.fit_of(&results).unwrap();
        let best = formula(fit).unwrap();
        let terms: Vec<String> = best.terms.iter().map(|t| t.term.symbol().to_string()).collect();
        assert_eq!(terms, ["1", "n/p"], "{best}");
        assert!((best.terms[0].coefficient / 500.0 - 1.0).abs() < 0.01, "{best}");
        assert!((best.terms[1].coefficient / 3.0 - 1.0).abs() < 0.01, "{best}");
        let set = PointSet::of(&results);
        let plot = lines(&set, &makespan_by_procs_per_n()).unwrap();
        let curves = curve(|_| Some(fit), &set, &plot);
        assert_eq!(curves.len(), 2);
        for ((name, line), n) in curves.iter().zip([1000.0, 4000.0]) {
            assert!(name.starts_with("fit: "), "{name}");
            assert_eq!(line.len(), 3 * CURVE_STEPS + 1);
            for [x, y] in line {
                let expected = 500.0 + 3.0 * n / x;
                assert!((y / expected - 1.0).abs() < 0.01, "n {n}: ({x}, {y}) against {expected}");
            }
        }
        // A first variable of words is passed over; a size plays n.
        let mut words = results.clone();
        words.variables = vec!["network".into(), "workload.message_bytes".into()];
        for r in &mut words.records {
            r.values[0] = "fat_tree".into();
        }
        let mut fresh = FitPanel::default();
        fresh.open_on(&words);
        assert_eq!((fresh.p.as_str(), fresh.n.as_str()), ("", "workload.message_bytes"));
        // Another experiment's results do not show this fit; bad choices are reported.
        let mut other = results.clone();
        other.id = Some(8);
        assert!(panel.fit_of(&other).is_none());
        panel.p.clear();
        panel.n.clear();
        panel.fit(&results, None);
        assert!(panel.result.clone().unwrap().is_err());
        panel.metric = "nope".into();
        panel.p = "template.procs".into();
        panel.fit(&results, None);
        assert!(panel.result.clone().unwrap().unwrap_err().to_string().contains("no metric `nope`"));
    }

    /// Makespan against the processor count, one line per problem size n.
    fn makespan_by_procs_per_n() -> PlotSettings {
        PlotSettings {
            metric: "makespan_ps".into(),
            x: "template.procs".into(),
            series: Some("workload.n".into()),
            ..PlotSettings::default()
        }
    }

    #[test]
    fn each_series_is_fitted_on_its_own_runs() {
        // Series n = 1000 and n = 4000, each fitted on its own runs: each fit predicts its own
        // series (n is the same throughout a series, so the terms in n stand in for each other).
        let results = known_results();
        let set = PointSet::of(&results);
        let plot = lines(&set, &makespan_by_procs_per_n()).unwrap();
        let mut panel = FitPanel::default();
        panel.open_on(&results);
        panel.p = "template.procs".into();
        panel.n = "workload.n".into();
        panel.fit(&results, Some(&plot));
        assert_eq!(panel.series.len(), 2);
        for ((name, fit), n) in panel.series.iter().zip([1000.0, 4000.0]) {
            let fit = fit.as_ref().unwrap();
            // Only that series' runs: 4 points × 2 repetitions.
            assert_eq!(fit.samples.len(), 8, "{name}");
            assert!(fit.samples.iter().all(|s| (s.at.n - n).abs() < 1e-9));
            for p in [1.0, 3.0, 8.0] {
                let predicted = formula(fit).unwrap().predict(Point { p, n, g: 0.0 }).time;
                let expected = 500.0 + 3.0 * n / p;
                assert!(
                    (predicted / expected - 1.0).abs() < 0.01,
                    "{name}: p {p}: {predicted} against {expected}"
                );
            }
            assert!(panel.fit_for_series(&results, name).is_some_and(|f| std::ptr::eq(f, fit)));
        }
        // Not per series: every series is drawn with the fit of every run.
        panel.per_series = false;
        panel.fit(&results, Some(&plot));
        assert!(panel.series.is_empty());
        let all = panel.fit_of(&results).unwrap();
        assert_eq!(all.samples.len(), 16);
        assert!(panel.fit_for_series(&results, &plot.series[0].name).is_some_and(|f| std::ptr::eq(f, all)));
    }

    #[test]
    fn the_panel_extrapolates_to_the_points_asked_and_names_a_bad_one() {
        // T = 500 + 3·n/p (the fixture's formula, in ps): at p = 1024, n = 1M it is 500 + 3·1024.
        let results = known_results();
        let mut panel = FitPanel::default();
        panel.open_on(&results);
        panel.n = "workload.n".into();
        panel.predict_at = "p=1024, n=1M".into();
        panel.fit(&results, None);
        let fit = panel.fit_of(&results).unwrap();
        assert_eq!(fit.predictions.len(), 1);
        let predicted = fit.predictions[0].time;
        assert!((predicted - 3572.0).abs() < 3572.0 * 0.01, "{predicted}");
        assert_eq!(panel.predict_error, None);

        panel.predict_at = "p=1024; q=2".into();
        panel.fit(&results, None);
        assert!(panel.predict_error.as_deref().is_some_and(|e| e.contains("`q` is not p, n or g")));
        assert!(panel.fit_of(&results).is_some_and(|f| f.predictions.is_empty()));
    }
}
