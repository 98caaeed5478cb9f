//! `hase trace diff A B`, `hase trace phases T` and `hase trace critical-path T`: the trace
//! analyses of `hase_engine::analysis` printed as text or JSON. `diff` exits 0 when the traces are equal within the tolerance and 5
//! when they differ.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use hase_engine::analysis::{
    Align, CriticalPathReport, DiffOptions, PhaseOptions, Tolerance, diff_traces, find_phases,
    find_phases_choosing_window,
};
use hase_engine::time::SimTime;
use hase_engine::trace::Trace;

use crate::cli::inputs::time_arg;

/// Exit code of `hase trace diff` when the traces differ.
pub const DIFFER: u8 = 5;

/// Arguments of `hase trace diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// First trace (A).
    pub a: PathBuf,
    /// Second trace (B).
    pub b: PathBuf,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub json: bool,
    /// Pair processes by MPI rank (other entities by path), or every entity by path.
    #[arg(long, value_enum, default_value = "rank")]
    pub align: AlignArg,
    /// Times closer than this count as equal: a time (`10ns`) or a percentage (`1%`).
    #[arg(long, default_value = "0", value_parser = Tolerance::parse)]
    pub tolerance: Tolerance,
    /// How many of the most different rows and messages to list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
}

/// `--align` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AlignArg {
    /// Processes by MPI rank, other entities by path.
    Rank,
    /// Every entity by instance path.
    Path,
}

/// Arguments of `hase trace phases`.
#[derive(Debug, Args)]
pub struct PhasesArgs {
    /// Trace file (text, `.gz` or `.htb`).
    pub file: PathBuf,
    /// Print the phases as JSON.
    #[arg(long)]
    pub json: bool,
    /// Computation a process may do between two events that still belong to one phase; default:
    /// chosen from the trace, in the jump between the computation within a communication step
    /// and that between steps (the report says which and why).
    #[arg(long, value_parser = time_arg)]
    pub window: Option<SimTime>,
}

/// Arguments of `hase trace critical-path`.
#[derive(Debug, Args)]
pub struct CriticalPathArgs {
    /// Trace file (text, `.gz` or `.htb`) written at level 2 or 1.
    pub file: PathBuf,
    /// Print the path and its blame tables as JSON (every segment, in time order).
    #[arg(long)]
    pub json: bool,
    /// The project the trace is a run of: print the `hase run --set` lines that run it again with
    /// the most blamed link, router and rank faster (`--json`: `what_if`).
    #[arg(long, value_name = "PROJECT.ron")]
    pub project: Option<PathBuf>,
    /// How many times faster the what-ifs make them.
    #[arg(long, default_value_t = 2.0, requires = "project")]
    pub faster: f64,
}

/// The critical path's report with its what-ifs (`--json --project`).
#[derive(serde::Serialize)]
struct WithWhatIfs<'a> {
    #[serde(flatten)]
    report: &'a CriticalPathReport,
    what_if: Vec<super::what_if::WhatIfLine>,
}

fn load(path: &Path) -> anyhow::Result<Trace> {
    Trace::load(path).with_context(|| format!("cannot read the trace {}", path.display()))
}

pub(super) fn diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let (a, b) = (load(&args.a)?, load(&args.b)?);
    let options = DiffOptions {
        align: match args.align {
            AlignArg::Rank => Align::Rank,
            AlignArg::Path => Align::Path,
        },
        tolerance: args.tolerance,
        top: args.top,
    };
    let report = diff_traces(&a, &b, options);
    print_report(&report, args.json)?;
    Ok(if report.equal { ExitCode::SUCCESS } else { ExitCode::from(DIFFER) })
}

pub(super) fn phases(args: &PhasesArgs) -> anyhow::Result<ExitCode> {
    let trace = load(&args.file)?;
    let report = match args.window {
        Some(window) => find_phases(&trace, PhaseOptions { window }),
        None => find_phases_choosing_window(&trace),
    };
    print_report(&report, args.json)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn critical_path(args: &CriticalPathArgs) -> anyhow::Result<ExitCode> {
    let trace = load(&args.file)?;
    let path =
        hase_engine::analysis::critical_path(&trace).with_context(|| format!("{}", args.file.display()))?;
    let report = CriticalPathReport::of(&trace, &path, &find_phases_choosing_window(&trace));
    let Some(file) = &args.project else {
        print_report(&report, args.json)?;
        return Ok(ExitCode::SUCCESS);
    };
    anyhow::ensure!(args.faster.is_finite() && args.faster > 0.0, "--faster takes a positive number");
    let project = crate::cli::inputs::read_project(file)?;
    let what_if = super::what_if::what_ifs(&project, &report, args.faster);
    let out = &mut std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &WithWhatIfs { report: &report, what_if })?;
        writeln!(out)?;
    } else {
        write!(out, "{report}\n{}", super::what_if::text(&what_if, file, args.faster))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Write `report` to standard output as pretty JSON (with `--json`) or as its text.
fn print_report(report: &(impl serde::Serialize + std::fmt::Display), json: bool) -> anyhow::Result<()> {
    let out = &mut std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut *out, report)?;
        writeln!(out)?;
    } else {
        write!(out, "{report}")?;
    }
    Ok(())
}
