//! `hase check-ties P`: run a project with the events of each instant in the order they were
//! scheduled and in several shuffled orders, and say how far the makespan moves. Exit 0, or 5 when
//! `--max-change` is given and some order moves the makespan by more (or ends the run otherwise).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use hase_engine::time::SimTime;
use hase_library::overrides::apply_set;
use hase_library::runner::{RunOptions, base_dir_of};
use hase_library::tie_check::{TieCheckOptions, check_ties};
use hase_library::workload_trace::use_workload_trace;

use super::inputs::{read_project, time_arg, workload};
use super::placement::PlacementArgs;

/// Exit code when the makespan depends on the order of ties by more than `--max-change`.
const DEPENDS: u8 = 5;

/// Arguments of `hase check-ties`.
#[derive(Debug, Args)]
pub struct CheckTiesArgs {
    /// Project file (.ron).
    pub project: PathBuf,
    /// Shuffled orders to run besides the scheduled one (seeds 1 to N).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub runs: u32,
    /// Run this built-in program instead of the project's workload.
    #[arg(long)]
    pub workload: Option<String>,
    /// Parameter of `--workload`: `name=value`; repeatable.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Replay this SimGrid time-independent trace instead of the project's workload, as
    /// `hase run --workload-trace`.
    #[arg(long, value_name = "INDEX.ti", conflicts_with = "workload")]
    pub workload_trace: Option<PathBuf>,
    /// Where the workload's ranks run (default: the project's placement).
    #[command(flatten)]
    pub placement: PlacementArgs,
    /// Override before checking, as `hase run --set`; repeatable.
    #[arg(long = "set", value_name = "TARGET=VALUE")]
    pub sets: Vec<String>,
    /// Seed of every run's random streams (default: the project's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop every run at this simulated time.
    #[arg(long, value_parser = time_arg)]
    pub until: Option<SimTime>,
    /// Exit with 5 when an order moves the makespan by more than this many per cent of the
    /// scheduled order's, or ends the run otherwise.
    #[arg(long, value_name = "PERCENT")]
    pub max_change: Option<f64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run(args: &CheckTiesArgs) -> anyhow::Result<ExitCode> {
    if let Some(max) = args.max_change
        && !(max.is_finite() && max >= 0.0)
    {
        anyhow::bail!("--max-change must be a percentage of zero or more, not {max}");
    }
    let mut project = read_project(&args.project)?;
    if let Some(program) = &args.workload {
        project.workload = workload(program, &args.params)?;
    } else if !args.params.is_empty() {
        anyhow::bail!("--param needs --workload");
    }
    if let Some(trace) = &args.workload_trace {
        use_workload_trace(&mut project, trace, &base_dir_of(&args.project))?;
    }
    if let Some(placement) = args.placement.placement()? {
        project.placement = placement;
    }
    for set in &args.sets {
        apply_set(&mut project, set)?;
    }
    let options = TieCheckOptions {
        runs: args.runs,
        run: RunOptions {
            seed: args.seed,
            until: args.until,
            base_dir: base_dir_of(&args.project),
            ..RunOptions::default()
        },
    };
    let check = check_ties(&project, &options)?;
    let out = &mut std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &check)?;
        writeln!(out)?;
    } else {
        write!(out, "{check}")?;
    }
    let too_far =
        args.max_change.is_some_and(|max| check.largest_change_percent() > max || check.outcomes_differ());
    Ok(if too_far { ExitCode::from(DEPENDS) } else { ExitCode::SUCCESS })
}
