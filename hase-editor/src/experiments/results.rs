//! An experiment's results as the view reads them: the run records of one experiment, gathered
//! per point with every metric summarised over the repetitions (mean, minimum, maximum, the
//! half-width of the 95 % confidence interval of the mean, and the number of runs measured).
//! Failed runs and metrics not measured are left out of the summaries, never counted as zero.

use std::collections::BTreeMap;

use hase_library::experiment::{RunRecord, csv_text};

/// The results of one experiment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// The experiment's store id (`None`: not stored, a sweep kept in memory).
    pub id: Option<u64>,
    /// Its name.
    pub name: String,
    /// Variable (column) names.
    pub variables: Vec<String>,
    /// Metric names.
    pub metrics: Vec<String>,
    /// Runs planned.
    pub runs_planned: u64,
    /// The run records, sorted by (point, repetition).
    pub records: Vec<RunRecord>,
}

/// A metric over the repetitions of a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricSummary {
    /// Mean.
    pub mean: f64,
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
    /// Half-width of the 95 % confidence interval of the mean (Student's t; 0 for one run).
    pub ci95: f64,
    /// Runs measured.
    pub n: usize,
}

/// One point with its values and summaries.
#[derive(Clone, Debug, PartialEq)]
pub struct PointSummary {
    /// Point index.
    pub point: u64,
    /// Value text per variable.
    pub values: Vec<String>,
    /// Per metric (`None`: no run of the point measured it).
    pub metrics: Vec<Option<MetricSummary>>,
    /// Runs stored for the point.
    pub runs: usize,
    /// Runs that did not go to their end.
    pub failed: usize,
    /// The first run's trace file, if it kept one.
    pub trace: Option<String>,
}

/// Two-sided 97.5 % quantiles of Student's t for 1–30 degrees of freedom; beyond, 1.96.
const T_975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/// Summarise `values` (at least one).
pub fn summarise(values: &[f64]) -> Option<MetricSummary> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ci95 = if n < 2 {
        0.0
    } else {
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let t = T_975.get(n - 2).copied().unwrap_or(1.96);
        t * (variance / n as f64).sqrt()
    };
    Some(MetricSummary { mean, min, max, ci95, n })
}

impl Results {
    /// The points that have runs, in point order, summarised.
    pub fn points(&self) -> Vec<PointSummary> {
        let mut by_point: BTreeMap<u64, Vec<&RunRecord>> = BTreeMap::new();
        for r in &self.records {
            by_point.entry(r.key.point).or_default().push(r);
        }
        by_point
            .into_iter()
            .map(|(point, runs)| {
                let metrics = (0..self.metrics.len())
                    .map(|m| {
                        let values: Vec<f64> = runs
                            .iter()
                            .filter(|r| r.status.is_success())
                            .filter_map(|r| r.metrics.get(m).copied().flatten())
                            .map(hase_library::experiment::MetricValue::as_f64)
                            .collect();
                        summarise(&values)
                    })
                    .collect();
                PointSummary {
                    point,
                    values: runs[0].values.clone(),
                    metrics,
                    runs: runs.len(),
                    failed: runs.iter().filter(|r| !r.status.is_success()).count(),
                    trace: runs.iter().find_map(|r| r.trace.clone()),
                }
            })
            .collect()
    }

    /// Index of a variable by name.
    pub fn variable_index(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v == name)
    }

    /// Index of a metric by name.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m == name)
    }

    /// The distinct values of a variable, in the order they first appear.
    pub fn values_of(&self, variable: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.records {
            if let Some(v) = r.values.get(variable)
                && !out.contains(v)
            {
                out.push(v.clone());
            }
        }
        out
    }

    /// The results as CSV (one row per run, the command line's format).
    pub fn csv(&self) -> String {
        csv_text(&self.variables, &self.metrics, &self.records)
    }

    /// Take in a finished run (replacing an earlier record of the same run).
    pub fn add(&mut self, record: RunRecord) {
        match self.records.binary_search_by_key(&record.key, |r| r.key) {
            Ok(i) => self.records[i] = record,
            Err(i) => self.records.insert(i, record),
        }
    }
}

/// A value text as a number for an axis: a plain number, or the first number of `4x4` / a
/// `name:dims` topology (`None` for words such as `ring`).
pub fn numeric(text: &str) -> Option<f64> {
    text.parse::<f64>().ok()
}
