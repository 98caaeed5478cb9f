//! `hase check-levels P`: run a project with each compound detailed and behavioural on the same
//! workload and say whether the behavioural level stands in for the detailed one. Exit 0 when every
//! checked compound's behavioural level is valid, 5 when one is not, 1 on error.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use hase_engine::analysis::Tolerance;
use hase_library::check_levels::{CheckLevelsOptions, check_levels};
use hase_library::overrides::apply_set;
use hase_library::runner::{RunOptions, base_dir_of};

use super::inputs::{read_project, workload};

/// Exit code when a behavioural level is not a valid stand-in.
const NOT_VALID: u8 = 5;

/// Arguments of `hase check-levels`.
#[derive(Debug, Args)]
pub struct CheckLevelsArgs {
    /// Project file (.ron).
    pub project: PathBuf,
    /// Check only this compound instance (default: every compound with a behavioural level).
    #[arg(long, value_name = "PATH")]
    pub compound: Option<String>,
    /// Run this built-in program instead of the project's workload.
    #[arg(long)]
    pub workload: Option<String>,
    /// Parameter of `--workload`: `name=value`; repeatable.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Override before checking, as `hase run --set`; repeatable.
    #[arg(long = "set", value_name = "TARGET=VALUE")]
    pub sets: Vec<String>,
    /// Times closer than this agree: a time (`10ns`) or a percentage (`1%`).
    #[arg(long, default_value = "0", value_parser = Tolerance::parse)]
    pub tolerance: Tolerance,
    /// Seed of every run (default: the project's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run(args: &CheckLevelsArgs) -> anyhow::Result<ExitCode> {
    let mut project = read_project(&args.project)?;
    if let Some(program) = &args.workload {
        project.workload = workload(program, &args.params)?;
    } else if !args.params.is_empty() {
        anyhow::bail!("--param needs --workload");
    }
    for set in &args.sets {
        apply_set(&mut project, set)?;
    }
    let options = CheckLevelsOptions {
        compound: args.compound.clone(),
        tolerance: args.tolerance,
        run: RunOptions { seed: args.seed, base_dir: base_dir_of(&args.project), ..RunOptions::default() },
    };
    let checks = check_levels(&project, &options)?;
    let out = &mut std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &checks)?;
        writeln!(out)?;
    } else {
        for check in &checks {
            write!(out, "{check}")?;
        }
    }
    Ok(if checks.iter().all(|c| c.valid) { ExitCode::SUCCESS } else { ExitCode::from(NOT_VALID) })
}
