//! The ratio of two point sets, point by point: two values of one variable of an experiment, or
//! two experiments with the same variables.

use std::collections::BTreeMap;

use super::model::{PlotError, PointSet, RatioSource};
use crate::experiments::results::{MetricSummary, PointSummary};

/// Numerators, denominators, the variables left and the matching key of a point.
type Sides<'a> = (
    Vec<&'a PointSummary>,
    Vec<&'a PointSummary>,
    Vec<String>,
    Box<dyn Fn(&PointSummary) -> Vec<String> + 'a>,
);

/// Numerator ÷ denominator per metric, point by point: `Split` divides two values of one
/// variable of `set` (the variable leaves the result); `other` is the second experiment's set,
/// matched on the values of every variable (both must have the same variables).
pub fn ratio(set: &PointSet, source: &RatioSource, other: Option<&PointSet>) -> Result<PointSet, PlotError> {
    let (numerators, denominators, variables, key_of): Sides<'_> = match source {
        RatioSource::Split { variable, numerator, denominator } => {
            let v = set.index(variable, "variable")?;
            let num = set.points.iter().filter(|p| p.values.get(v) == Some(numerator)).collect();
            let den = set.points.iter().filter(|p| p.values.get(v) == Some(denominator)).collect();
            let variables =
                set.variables.iter().enumerate().filter(|(i, _)| *i != v).map(|(_, n)| n.clone()).collect();
            let key = move |p: &PointSummary| {
                p.values.iter().enumerate().filter(|(i, _)| *i != v).map(|(_, s)| s.clone()).collect()
            };
            (num, den, variables, Box::new(key))
        }
        RatioSource::Experiment(id) => {
            let other = other.ok_or(PlotError::NotLoaded(*id))?;
            if other.variables != set.variables {
                return Err(PlotError::OtherVariables {
                    id: *id,
                    theirs: other.variables.join(", "),
                    ours: set.variables.join(", "),
                });
            }
            let num = set.points.iter().collect();
            let den = other.points.iter().collect();
            (num, den, set.variables.clone(), Box::new(|p: &PointSummary| p.values.clone()))
        }
    };
    let denominators: BTreeMap<Vec<String>, &PointSummary> =
        denominators.into_iter().map(|p| (key_of(p), p)).collect();
    let metric_count = set.metrics.len();
    let mut points = Vec::new();
    for n in numerators {
        let key = key_of(n);
        let Some(d) = denominators.get(&key) else { continue };
        let metrics = (0..metric_count)
            .map(|m| {
                let (a, b) = (n.metrics.get(m).copied().flatten()?, d.metrics.get(m).copied().flatten()?);
                (b.mean != 0.0).then(|| {
                    let r = a.mean / b.mean;
                    let (lo, hi) =
                        if b.max > 0.0 && b.min > 0.0 { (a.min / b.max, a.max / b.min) } else { (r, r) };
                    MetricSummary { mean: r, min: lo, max: hi, ci95: 0.0, n: a.n.min(b.n) }
                })
            })
            .collect();
        points.push(PointSummary { values: key, metrics, ..n.clone() });
    }
    if points.is_empty() {
        return Err(PlotError::NoMatch);
    }
    Ok(PointSet { variables, metrics: set.metrics.clone(), points })
}
