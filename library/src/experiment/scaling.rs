//! Scaling formulas from an experiment's results (`hase experiments fit`, the results view's "Fit
//! a formula"): the runs' values of the variables chosen as the processor count `p`, the problem
//! size `n` or a pipeline's grain `g`, and one time metric, handed to [`crate::fit`]. Runs that did
//! not end well or lack the metric are left out (and counted); repetitions are separate samples.
//!
//! A holdout checks extrapolation honestly: the runs at the largest values of the leading
//! variable (`p`, else `n`, else `g`) are left out of the fit, and the fitted formula's prediction
//! at each of them is set beside what was measured there.

use serde::Serialize;

use super::record::RunRecord;
use crate::fit::{
    Fit, FitError, FormulaChoice, GrainFit, Point, Prediction, Sample, Term, optimal_grain, select_formula,
};

/// Why an experiment could not be fitted.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ExperimentFitError {
    /// `--vars` is not `p,n` / `p=NAME,n=NAME,g=NAME`.
    #[error("`{0}`: expected the variables as `P,N` (processors, problem size) or `p=NAME,n=NAME,g=NAME`")]
    BadRoles(String),
    /// No variable of the experiment has this name.
    #[error("the experiment has no variable `{name}`; its variables are: {known}")]
    UnknownVariable {
        /// The name asked for.
        name: String,
        /// The experiment's variables.
        known: String,
    },
    /// No metric of the experiment has this name.
    #[error("the experiment has no metric `{name}`; its metrics are: {known}")]
    UnknownMetric {
        /// The name asked for.
        name: String,
        /// The experiment's metrics.
        known: String,
    },
    /// A variable's value is not a number.
    #[error("{run}: the value `{value}` of `{variable}` is not a number")]
    NotANumber {
        /// The run (`point 3 rep 0`).
        run: String,
        /// The variable.
        variable: String,
        /// Its value.
        value: String,
    },
    /// The grain model takes the grain alone.
    #[error("a grain variable (g=…) is fitted alone: T(g) = a + b·g + c/g")]
    GrainWithOthers,
    /// `--holdout` is neither `largest` nor a count of values.
    #[error(
        "`{0}`: expected the holdout as `largest` or a count of the largest values to hold out (1, 2, …)"
    )]
    BadHoldout(String),
    /// The holdout leaves no measured value of the leading variable to fit.
    #[error(
        "holding out the {held} largest values of `{variable}` leaves nothing to fit: it has {distinct} distinct values"
    )]
    HoldoutTooLarge {
        /// The variable whose values are held out.
        variable: String,
        /// Values asked to hold out.
        held: usize,
        /// Distinct values measured.
        distinct: usize,
    },
    /// The fit failed.
    #[error(transparent)]
    Fit(#[from] FitError),
}

/// Which runs are left out of a fit to check its extrapolation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Holdout {
    /// Every run is fitted.
    #[default]
    Nothing,
    /// The runs at the `k` largest distinct values of the leading variable (`p`, else `n`, else
    /// `g`) are held out.
    Largest(usize),
}

impl Holdout {
    /// `largest` (the one largest value) or a count `N` of the largest values.
    pub fn parse(text: &str) -> Result<Self, ExperimentFitError> {
        match text.trim() {
            "largest" => Ok(Holdout::Largest(1)),
            count => match count.parse::<usize>() {
                Ok(k) if k > 0 => Ok(Holdout::Largest(k)),
                _ => Err(ExperimentFitError::BadHoldout(text.to_string())),
            },
        }
    }
}

/// One held-out run: what was measured and what the formula fitted without it predicts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HeldOutPoint {
    /// Where.
    pub at: Point,
    /// The measured time.
    pub measured: f64,
    /// The formula's value there.
    pub predicted: f64,
    /// (predicted − measured) / measured, in per cent.
    pub error_percent: f64,
}

/// `p = 64, n = 4096, g = 0: measured 1.2340e6, predicted 1.2300e6, error −0.32 %`.
impl std::fmt::Display for HeldOutPoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p = {}, n = {}, g = {}: measured {:.4e}, predicted {:.4e}, error {:+.2} %",
            self.at.p, self.at.n, self.at.g, self.measured, self.predicted, self.error_percent
        )
    }
}

impl HeldOutPoint {
    fn of(fit: &Fit, sample: &Sample) -> Self {
        let predicted = fit.predict(sample.at).time;
        let error_percent =
            if sample.time == 0.0 { 0.0 } else { (predicted - sample.time) / sample.time * 100.0 };
        HeldOutPoint { at: sample.at, measured: sample.time, predicted, error_percent }
    }
}

/// Which experiment variable plays which role.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roles {
    /// The processor count.
    pub p: Option<String>,
    /// The problem size.
    pub n: Option<String>,
    /// A pipeline's grain size.
    pub g: Option<String>,
}

impl Roles {
    /// `P,N` by position, or `p=NAME,n=NAME,g=NAME` in any order.
    pub fn parse(text: &str) -> Result<Self, ExperimentFitError> {
        let bad = || ExperimentFitError::BadRoles(text.to_string());
        let mut roles = Roles::default();
        for (i, part) in text.split(',').map(str::trim).enumerate() {
            let (role, name) = match part.split_once('=') {
                Some((role, name)) => (role.trim(), name.trim()),
                None => (["p", "n"].get(i).copied().ok_or_else(bad)?, part),
            };
            let slot = match role {
                "p" => &mut roles.p,
                "n" => &mut roles.n,
                "g" => &mut roles.g,
                _ => return Err(bad()),
            };
            if name.is_empty() || slot.is_some() {
                return Err(bad());
            }
            *slot = Some(name.to_string());
        }
        Ok(roles)
    }
}

/// The fit of an experiment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExperimentFit {
    /// The time metric fitted.
    pub metric: String,
    /// The experiment variable used as `p`, `n`, `g`.
    pub p: Option<String>,
    /// See `p`.
    pub n: Option<String>,
    /// See `p`.
    pub g: Option<String>,
    /// The samples fitted (one per run that ended well and was not held out).
    pub samples: Vec<Sample>,
    /// The held-out runs with the fitted formula's prediction (empty without a holdout).
    pub held_out: Vec<HeldOutPoint>,
    /// Runs left out: not ended well, or without the metric.
    pub skipped: usize,
    /// The chosen formula (for `p`/`n`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formula: Option<FormulaChoice>,
    /// The pipeline model and its optimal grain (for `g`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grain: Option<GrainFit>,
    /// The formula's values at the points asked for.
    pub predictions: Vec<Prediction>,
}

/// The index of variable `name`: its exact name, or the last part of one (`message_bytes` for
/// `workload.message_bytes`) when only one variable ends so.
fn variable_index(variables: &[String], name: &str) -> Result<usize, ExperimentFitError> {
    if let Some(i) = variables.iter().position(|v| v == name) {
        return Ok(i);
    }
    let tail = |v: &str| v.rsplit(['.', ':']).next().map(str::to_string);
    let matches: Vec<usize> =
        (0..variables.len()).filter(|&i| tail(&variables[i]).as_deref() == Some(name)).collect();
    match matches.as_slice() {
        [i] => Ok(*i),
        _ => Err(ExperimentFitError::UnknownVariable { name: name.to_string(), known: variables.join(", ") }),
    }
}

/// The metric `name`, or `name_ps` (`makespan` for `makespan_ps`).
fn metric_index(metrics: &[String], name: &str) -> Result<usize, ExperimentFitError> {
    metrics
        .iter()
        .position(|m| m == name)
        .or_else(|| metrics.iter().position(|m| *m == format!("{name}_ps")))
        .ok_or_else(|| ExperimentFitError::UnknownMetric {
            name: name.to_string(),
            known: metrics.join(", "),
        })
}

/// A variable's value as a number: `8`, `1.5e3`, or a product of dimensions `4x4`.
fn number(value: &str) -> Option<f64> {
    value.parse::<f64>().ok().or_else(|| {
        value
            .split('x')
            .map(|d| d.trim().parse::<f64>().ok())
            .product::<Option<f64>>()
            .filter(|_| value.contains('x'))
    })
}

/// Split `samples` into those fitted and those held out: the `k` largest distinct values of the
/// leading variable go to the second.
fn split_holdout(
    samples: Vec<Sample>,
    holdout: Holdout,
    leading: (&str, fn(&Point) -> f64),
) -> Result<(Vec<Sample>, Vec<Sample>), ExperimentFitError> {
    let Holdout::Largest(k) = holdout else { return Ok((samples, Vec::new())) };
    let (name, value) = leading;
    let mut values: Vec<f64> = samples.iter().map(|s| value(&s.at)).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    if k >= values.len() {
        return Err(ExperimentFitError::HoldoutTooLarge {
            variable: name.to_string(),
            held: k,
            distinct: values.len(),
        });
    }
    let threshold = values[values.len() - k];
    Ok(samples.into_iter().partition(|s| value(&s.at) < threshold))
}

/// How an experiment is fitted besides its metric and roles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions<'a> {
    /// Most terms in a formula.
    pub max_terms: usize,
    /// Where to predict the time.
    pub predict: &'a [Point],
    /// Which runs are left out of the fit and predicted.
    pub holdout: Holdout,
}

impl FitOptions<'_> {
    /// Formulas of up to `max_terms` terms, no predictions, every run fitted.
    pub fn terms(max_terms: usize) -> Self {
        FitOptions { max_terms, predict: &[], holdout: Holdout::Nothing }
    }
}

/// Fit the runs of an experiment with `variables` and `metrics`: the time `metric` against the
/// variables in `roles`, formulas of up to `options.max_terms` terms, predicted at
/// `options.predict`, with the runs chosen by `options.holdout` left out of the fit and predicted.
pub fn fit_experiment(
    variables: &[String],
    metrics: &[String],
    runs: &[RunRecord],
    metric: &str,
    roles: &Roles,
    options: FitOptions<'_>,
) -> Result<ExperimentFit, ExperimentFitError> {
    let FitOptions { max_terms, predict, holdout } = options;
    let metric_at = metric_index(metrics, metric)?;
    let index = |name: &Option<String>| name.as_deref().map(|n| variable_index(variables, n)).transpose();
    let (p_at, n_at, g_at) = (index(&roles.p)?, index(&roles.n)?, index(&roles.g)?);
    if g_at.is_some() && (p_at.is_some() || n_at.is_some()) {
        return Err(ExperimentFitError::GrainWithOthers);
    }
    let mut samples = Vec::new();
    let mut skipped = 0;
    for run in runs {
        let time = run.metrics.get(metric_at).copied().flatten();
        let Some(time) = time.filter(|_| run.status.is_success()) else {
            skipped += 1;
            continue;
        };
        let read = |at: Option<usize>| -> Result<f64, ExperimentFitError> {
            let Some(i) = at else { return Ok(0.0) };
            let value = run.values.get(i).map_or("", String::as_str);
            number(value).ok_or_else(|| ExperimentFitError::NotANumber {
                run: run.key.to_string(),
                variable: variables[i].clone(),
                value: value.to_string(),
            })
        };
        let at = Point { p: read(p_at)?, n: read(n_at)?, g: read(g_at)? };
        samples.push(Sample { at, time: time.as_f64() });
    }
    let leading: (usize, fn(&Point) -> f64) = match (p_at, n_at, g_at) {
        (Some(i), _, _) => (i, |at| at.p),
        (None, Some(i), _) => (i, |at| at.n),
        (None, None, Some(i)) => (i, |at| at.g),
        (None, None, None) => (0, |_| 0.0),
    };
    let name = variables.get(leading.0).map_or("", String::as_str);
    let (samples, held) = split_holdout(samples, holdout, (name, leading.1))?;
    let (formula, grain, predictions) = if g_at.is_some() {
        let grain = optimal_grain(&samples)?;
        let predictions = predict.iter().map(|&at| grain.fit.predict(at)).collect();
        (None, Some(grain), predictions)
    } else {
        let family = Term::family(p_at.is_some(), n_at.is_some());
        let selection = select_formula(&samples, family, max_terms)?;
        let predictions = predict.iter().map(|&at| selection.best.predict(at)).collect();
        (Some(selection), None, predictions)
    };
    let fitted = formula.as_ref().map(|f| &f.best).or(grain.as_ref().map(|g| &g.fit));
    let held_out =
        fitted.map_or_else(Vec::new, |fit| held.iter().map(|s| HeldOutPoint::of(fit, s)).collect());
    Ok(ExperimentFit {
        metric: metrics[metric_at].clone(),
        p: p_at.map(|i| variables[i].clone()),
        n: n_at.map(|i| variables[i].clone()),
        g: g_at.map(|i| variables[i].clone()),
        samples,
        held_out,
        skipped,
        formula,
        grain,
        predictions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{MetricValue, RunKey, RunStatus};

    fn run(point: u64, values: [&str; 2], time: u64, status: RunStatus) -> RunRecord {
        RunRecord {
            key: RunKey { point, repetition: 0 },
            seed: 1,
            values: values.iter().map(|v| (*v).to_string()).collect(),
            status,
            detail: String::new(),
            metrics: vec![Some(MetricValue::Int(time))],
            trace: None,
        }
    }

    #[test]
    fn an_experiment_is_fitted_by_role_and_bad_requests_name_the_fault() {
        let variables = vec!["template.dims".to_string(), "workload.message_bytes".to_string()];
        let metrics = vec!["makespan_ps".to_string()];
        let mut runs = Vec::new();
        for (i, p) in [2_u64, 4, 8, 16].into_iter().enumerate() {
            for (j, n) in [1024_u64, 4096, 16_384].into_iter().enumerate() {
                let time = 1000 + 30 * n / p;
                runs.push(run(
                    (i * 3 + j) as u64,
                    [&p.to_string(), &n.to_string()],
                    time,
                    RunStatus::Completed,
                ));
            }
        }
        runs.push(run(99, ["2", "1024"], 1, RunStatus::Deadlock));
        let roles = Roles::parse("template.dims,message_bytes").unwrap();
        let at = Point { p: 64.0, n: 65_536.0, g: 0.0 };
        let fit = fit_experiment(
            &variables,
            &metrics,
            &runs,
            "makespan",
            &roles,
            FitOptions { predict: &[at], ..FitOptions::terms(3) },
        )
        .unwrap();
        assert_eq!((fit.samples.len(), fit.skipped, fit.metric.as_str()), (12, 1, "makespan_ps"));
        let best = &fit.formula.as_ref().unwrap().best;
        assert_eq!(best.terms.iter().map(|t| t.term).collect::<Vec<_>>(), [Term::One, Term::NOverP]);
        assert!((fit.predictions[0].time - (1000.0 + 30.0 * 1024.0)).abs() < 1e-6);

        assert_eq!(Roles::parse("g=block").unwrap().g.as_deref(), Some("block"));
        for bad in ["p,n,x", "q=a", "p=a,p=b", ""] {
            assert!(matches!(Roles::parse(bad), Err(ExperimentFitError::BadRoles(_))), "{bad}");
        }
        let err =
            fit_experiment(&variables, &metrics, &runs, "events", &roles, FitOptions::terms(3)).unwrap_err();
        assert_eq!(err.to_string(), "the experiment has no metric `events`; its metrics are: makespan_ps");
        let err = fit_experiment(
            &variables,
            &metrics,
            &runs,
            "makespan",
            &Roles::parse("p,dims").unwrap(),
            FitOptions::terms(3),
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("the experiment has no variable `p`"), "{err}");
        runs[0].values[0] = "ring".into();
        let err = fit_experiment(&variables, &metrics, &runs, "makespan", &roles, FitOptions::terms(3))
            .unwrap_err();
        assert_eq!(err.to_string(), "point 0 rep 0: the value `ring` of `template.dims` is not a number");
        assert_eq!(number("4x4"), Some(16.0));
    }
}
