//! `hase experiments fit ID --time METRIC --vars p,n [--predict p=…,n=…] [--holdout largest|N]
//! [--json]`: a scaling formula fitted to a stored experiment's results (see `hase_library::fit`),
//! with its error on held-out runs; times in the metric's unit, as the experiments window writes them.

use std::io::Write;

use anyhow::Context;
use clap::Args;
use hase_editor::experiments::fit_text::{formula_text, prediction_text};
use hase_editor::experiments::quantity::value_text;
use hase_library::experiment::scaling::{ExperimentFit, FitOptions, Holdout, Roles, fit_experiment};
use hase_library::fit::Point;
use hase_library::store::ExperimentStore;

/// Arguments of `hase experiments fit`.
#[derive(Debug, Args)]
pub struct ExperimentFitArgs {
    /// Experiment id.
    pub id: u64,
    /// The time metric to fit (`makespan` stands for `makespan_ps`).
    #[arg(long, default_value = "makespan")]
    pub time: String,
    /// The variables: `P,N` (processor count, problem size; either may be left out as `p=NAME` or
    /// `n=NAME`), or `g=NAME` for a pipeline's grain size. A name is an experiment variable or the
    /// last part of one (`message_bytes`).
    #[arg(long, value_name = "P,N")]
    pub vars: String,
    /// Most terms in a formula.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub max_terms: u8,
    /// Predict the time here: `p=256,n=1048576`; repeatable.
    #[arg(long, value_name = "p=…,n=…")]
    pub predict: Vec<String>,
    /// Leave the runs at the largest value of p (else n, else g) out of the fit, or at its N
    /// largest values, and print the fitted formula's error on each of them.
    #[arg(long, value_name = "largest|N")]
    pub holdout: Option<String>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn fit(
    store: &ExperimentStore,
    args: &ExperimentFitArgs,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let info = store.info(args.id)?;
    let runs = store.runs(args.id)?;
    let roles = Roles::parse(&args.vars)?;
    let predict = args.predict.iter().map(|p| Point::parse(p)).collect::<Result<Vec<_>, _>>()?;
    let holdout = args.holdout.as_deref().map(Holdout::parse).transpose()?.unwrap_or_default();
    let options = FitOptions { max_terms: usize::from(args.max_terms), predict: &predict, holdout };
    let fit = fit_experiment(&info.variables, &info.metrics, &runs, &args.time, &roles, options)
        .with_context(|| format!("experiment {}", args.id))?;
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &fit)?;
        writeln!(out)?;
    } else {
        print_fit(args.id, &fit, out)?;
    }
    Ok(())
}

fn print_fit(id: u64, fit: &ExperimentFit, out: &mut impl Write) -> anyhow::Result<()> {
    let roles: Vec<String> = [("p", &fit.p), ("n", &fit.n), ("g", &fit.g)]
        .iter()
        .filter_map(|(role, name)| name.as_ref().map(|n| format!("{role} = {n}")))
        .collect();
    writeln!(
        out,
        "experiment {id}: {} against {} ({} runs fitted, {} left out as failed)",
        fit.metric,
        roles.join(", "),
        fit.samples.len(),
        fit.skipped
    )?;
    let best = match (&fit.formula, &fit.grain) {
        (Some(selection), _) => {
            writeln!(out, "  {} ≈ {}", fit.metric, formula_text(&fit.metric, &selection.best))?;
            for other in &selection.runners_up {
                writeln!(
                    out,
                    "    runner-up (criterion {:+.1}): {}",
                    other.criterion - selection.best.criterion,
                    formula_text(&fit.metric, other)
                )?;
            }
            writeln!(out, "  {} formulas considered", selection.considered)?;
            &selection.best
        }
        (None, Some(grain)) => {
            writeln!(out, "  {} ≈ {}", fit.metric, formula_text(&fit.metric, &grain.fit))?;
            if let (Some(g), Some(t)) = (grain.optimal_grain, grain.optimal_time) {
                writeln!(out, "  optimal grain g* = √(c/b) = {g:.2} (time {})", value_text(&fit.metric, t))?;
            } else {
                writeln!(out, "  no interior optimum: the time only falls or only rises with the grain")?;
            }
            &grain.fit
        }
        (None, None) => return Ok(()),
    };
    writeln!(
        out,
        "  R² {:.6}   rms residual {}   largest relative error {:.2} %",
        best.r_squared,
        value_text(&fit.metric, best.rmse),
        best.max_relative_error * 100.0
    )?;
    if let Some(left_out) = best.leave_one_out_error {
        writeln!(
            out,
            "  each point predicted from the others (leave-one-out): {:.2} % RMS",
            left_out * 100.0
        )?;
    }
    for warning in fit.formula.iter().flat_map(|f| &f.warnings) {
        writeln!(out, "  warning: {warning}")?;
    }
    for p in &fit.predictions {
        writeln!(out, "  {}", prediction_text(fit, p))?;
    }
    if !fit.held_out.is_empty() {
        let worst = fit.held_out.iter().map(|h| h.error_percent.abs()).fold(0.0, f64::max);
        writeln!(out, "  held out of the fit, {} runs (largest |error| {worst:.2} %):", fit.held_out.len())?;
        writeln!(
            out,
            "    {:>10} {:>12} {:>8} {:>12} {:>12} {:>9}",
            "p", "n", "g", "measured", "predicted", "error %"
        )?;
        for h in &fit.held_out {
            writeln!(
                out,
                "    {:>10} {:>12} {:>8} {:>12} {:>12} {:>+9.2}",
                h.at.p,
                h.at.n,
                h.at.g,
                value_text(&fit.metric, h.measured),
                value_text(&fit.metric, h.predicted),
                h.error_percent
            )?;
        }
    }
    Ok(())
}
