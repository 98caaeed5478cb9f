//! Expected beside measured in the experiment plots: each point's expected makespan from its
//! design's closed form (`hase_library::expected`), and the dashed "expected" line of every series
//! whose points all have one. A series with a point outside the closed forms has no line; the plot
//! says why once ([`ExpectedLines::note`]).

use std::collections::BTreeMap;

use hase_engine::time::SimTime;
use hase_library::expected::{NoClosedForm, expected_run_in};
use hase_library::experiment::ExperimentPlan;

use super::plot::{LinePlot, PlotKind, PlotSettings};

/// The metric the closed forms give: the run's makespan.
pub const EXPECTED_METRIC: &str = "makespan_ps";

/// Per point, its expected makespan or why it has none (points whose design cannot be rebuilt
/// are left out).
pub type PointExpectations = BTreeMap<u64, Result<SimTime, NoClosedForm>>;

/// The expected makespan of each of `points` of `plan` (a data sheet read relative to the plan's
/// project).
pub fn expected_points(plan: &ExperimentPlan, points: impl IntoIterator<Item = u64>) -> PointExpectations {
    points
        .into_iter()
        .filter_map(|point| {
            let project = plan.project_for(point).ok()?;
            Some((point, expected_run_in(&project, plan.base_dir()).map(|e| e.makespan)))
        })
        .collect()
}

/// The dashed lines to draw over a line plot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExpectedLines {
    /// Per series with a line: its index in the plot, and (x, expected) per point.
    pub lines: Vec<(usize, Vec<[f64; 2]>)>,
    /// Why a series has no line (the first reason found), when one has none.
    pub note: Option<String>,
}

/// The expected lines of `plot` (a line plot of the makespan; other plots and metrics have
/// none).
pub fn expected_lines(
    plot: &LinePlot,
    settings: &PlotSettings,
    expected: &PointExpectations,
) -> ExpectedLines {
    let mut out = ExpectedLines::default();
    if settings.kind != PlotKind::Lines || settings.metric != EXPECTED_METRIC {
        return out;
    }
    for (i, series) in plot.series.iter().enumerate() {
        let mut points = Vec::new();
        let mut missing = None;
        for p in &series.points {
            match expected.get(&p.point) {
                Some(Ok(t)) => points.push([p.x, t.as_ps() as f64]),
                Some(Err(why)) => missing = Some(format!("{}: {why}", p.x_text)),
                None => missing = Some(format!("{}: its design cannot be rebuilt", p.x_text)),
            }
            if missing.is_some() {
                break;
            }
        }
        match missing {
            None => out.lines.push((i, points)),
            Some(why) if out.note.is_none() => {
                out.note = Some(format!("No expected line for {} (at {why})", series.name));
            }
            Some(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::plot::{Series, SeriesPoint};

    fn series(name: &str, points: &[(u64, f64)]) -> Series {
        let point = |&(point, x): &(u64, f64)| SeriesPoint {
            x,
            x_text: x.to_string(),
            y: 1.0,
            lo: 1.0,
            hi: 1.0,
            point,
        };
        Series { name: name.into(), points: points.iter().map(point).collect() }
    }

    /// A series whose points all have a closed form gets its line at the expected values; one
    /// with a point outside gets none, and the note names it and the reason once.
    #[test]
    fn a_line_per_series_whose_every_point_has_a_closed_form() {
        let plot = LinePlot {
            series: vec![series("a = 1", &[(0, 1.0), (1, 2.0)]), series("a = 2", &[(2, 1.0), (3, 2.0)])],
            ..LinePlot::default()
        };
        let mut expected = PointExpectations::new();
        expected.insert(0, Ok(SimTime::from_ns(5)));
        expected.insert(1, Ok(SimTime::from_ns(9)));
        expected.insert(2, Ok(SimTime::from_ns(5)));
        expected.insert(3, Err(NoClosedForm::NotATemplate));
        let settings =
            PlotSettings { kind: PlotKind::Lines, metric: EXPECTED_METRIC.into(), ..PlotSettings::default() };
        let drawn = expected_lines(&plot, &settings, &expected);
        assert_eq!(drawn.lines, vec![(0, vec![[1.0, 5000.0], [2.0, 9000.0]])]);
        let note = drawn.note.unwrap();
        assert!(
            note.starts_with("No expected line for a = 2 (at 2: the network is not made by a template"),
            "{note}"
        );
        // Other metrics and other plots have no expected line.
        for settings in [
            PlotSettings { metric: "events".into(), ..settings.clone() },
            PlotSettings { kind: PlotKind::Speedup, ..settings.clone() },
        ] {
            assert_eq!(expected_lines(&plot, &settings, &expected), ExpectedLines::default());
        }
    }
}
