//! `hase run`: run a project headless with overrides, a trace file and a statistics file; a progress
//! bar on a terminal and a summary at the end.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use clap::Args;
use hase_engine::kernel::{Progress, RunOutcome, TieOrder};
use hase_engine::model::write_atomic;
use hase_engine::stats::RunStats;
use hase_engine::time::SimTime;
use hase_library::estimate::{RateHistory, estimate_project};
use hase_library::expected::{Expected, NoClosedForm, expected_for_run_in, stats_json_with_expected};
use hase_library::overrides::apply_set;
use hase_library::process_memory::available_memory_bytes;
use hase_library::runner::{RunOptions, RunResult, TraceTarget, base_dir_of, run_project};
use hase_library::stats_csv::write_run_stats_csv;
use hase_library::workload_trace::use_workload_trace;
use indicatif::{ProgressBar, ProgressStyle};

use super::inputs::{read_project, time_arg};
use super::placement::PlacementArgs;

/// Arguments of `hase run`.
#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools, reason = "independent command-line flags")]
pub struct RunArgs {
    /// Project file (.ron).
    pub project: PathBuf,
    /// Override a parameter: `path.param=value`, `type:Type.param=value`, `workload.param=value`,
    /// `link:inst.port.latency=value`, or a compound's level: `path.level=detailed|behavioural`.
    /// Repeatable.
    #[arg(long = "set", value_name = "TARGET=VALUE")]
    pub sets: Vec<String>,
    /// Replay this SimGrid time-independent trace (a trace file, or a list naming one file per rank,
    /// its entries found relative to the list file or else to the working directory) instead of
    /// the project's workload.
    #[arg(long, value_name = "INDEX.ti")]
    pub workload_trace: Option<PathBuf>,
    /// Where the workload's ranks run (default: the project's placement).
    #[command(flatten)]
    pub placement: PlacementArgs,
    /// Seed of every random stream (default: the project's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the trace here (`.htb` compact, `.gz` compressed text, otherwise text).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Trace level 1–5: 1 keeps everything, 2 messages, 3 updates, 4 states, 5 summary only.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub level: Option<u8>,
    /// Stop at this simulated time (e.g. 10us, 2.5ms).
    #[arg(long, value_parser = time_arg)]
    pub until: Option<SimTime>,
    /// Trace the live values (router queues, processor counters, data-sheet lookups) at levels
    /// 1–3 even if the project displays none of them (by default only displayed ones bring them).
    #[arg(long)]
    pub live_values: bool,
    /// Write the statistics as JSON here.
    #[arg(long)]
    pub stats: Option<PathBuf>,
    /// Write the statistics as CSV tables into this folder: states, ports, links, latency per
    /// pair of ranks with percentiles, and the latency histogram per pair.
    #[arg(long, value_name = "DIR")]
    pub stats_csv: Option<PathBuf>,
    /// Print the trace fingerprint (for golden comparisons).
    #[arg(long)]
    pub fingerprint: bool,
    /// No progress bar and a one-line summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Threads to simulate on: the trace, statistics and makespan are the same for any number
    /// (default: one for models under 16,384 entities, every core from there).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Take simultaneous events in an order drawn from this seed instead of the order they were
    /// scheduled in (one thread; `hase check-ties` compares several such orders).
    #[arg(long, value_name = "SEED")]
    pub tie_seed: Option<u64>,
    /// Print an estimate of the run's events, wall time and memory (from the design and the last
    /// runs' rates, as the GUI shows before a big run) and do not run.
    #[arg(long)]
    pub estimate: bool,
}

pub(super) fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let mut project = read_project(&args.project)?;
    if let Some(trace) = &args.workload_trace {
        let found = use_workload_trace(&mut project, trace, &base_dir_of(&args.project))?;
        if !args.quiet {
            eprintln!("{}", found.describe(trace));
        }
    }
    if let Some(placement) = args.placement.placement()? {
        project.placement = placement;
    }
    for set in &args.sets {
        apply_set(&mut project, set)?;
    }
    if args.estimate {
        return print_estimate(&project, args);
    }
    let options = RunOptions {
        seed: args.seed,
        level: args.level,
        until: args.until,
        trace: args.trace.clone().map_or(TraceTarget::None, TraceTarget::File),
        fingerprint: args.fingerprint,
        base_dir: base_dir_of(&args.project),
        cancel: Some(Arc::new(AtomicBool::new(false))),
        progress_every: 200_000,
        live_values: args.live_values.then_some(true),
        threads: args.threads.map(usize::from),
        tie_order: args.tie_seed.map_or(TieOrder::Scheduled, |seed| TieOrder::Shuffled { seed }),
    };
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar
    });
    let result = run_project(&project, &options, |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_message(format!("sim time {}  events {}  pending {}", p.now, p.events, p.pending));
            bar.tick();
        }
    })
    .with_context(|| format!("cannot run {}", args.project.display()))?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let expected = expected_for_run_in(&project, &result.outcome, &base_dir_of(&args.project));
    if let Some(path) = &args.stats {
        let text = stats_json_with_expected(&result.stats, expected.as_ref())
            .context("cannot write the statistics as JSON")?;
        write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write statistics to {}", path.display()))?;
    }
    if let Some(dir) = &args.stats_csv {
        write_run_stats_csv(&result.stats, dir)?;
    }
    if let (Some(e), Some(path)) = (&result.trace_error, &args.trace) {
        eprintln!(
            "warning: the trace could not be written ({e}); {} is as it was before the run",
            path.display()
        );
    }
    if !project.placement.is_all() && !args.quiet {
        eprintln!("placement: {}", project.placement.describe());
    }
    if !args.quiet || args.threads.is_some_and(|t| t > 1) {
        eprintln!("threads: {}", result.partitioning);
    }
    print_summary(&project.name, &result, args.quiet)?;
    if let Some(expected) = expected.as_ref().filter(|_| !args.quiet) {
        print_expected(expected, SimTime(result.stats.makespan_ps))?;
    }
    let code = match result.outcome {
        RunOutcome::Completed | RunOutcome::ReachedUntil => ExitCode::SUCCESS,
        RunOutcome::Deadlock(_) => ExitCode::from(3),
        RunOutcome::Cancelled => ExitCode::from(4),
    };
    // The process ends next, and the system takes its memory back at once: freeing the report
    // and the project item by item first would add 0.1 s to a run of 131,072 entities.
    std::mem::forget(result);
    std::mem::forget(project);
    Ok(code)
}

/// `--estimate`: the estimate at the run's level and seed, with the work it comes from.
fn print_estimate(project: &hase_engine::model::Project, args: &RunArgs) -> anyhow::Result<ExitCode> {
    let history = RateHistory::default_file().map(|f| RateHistory::load(&f)).unwrap_or_default();
    let level = args.level.unwrap_or(project.settings.trace_level).clamp(1, 5);
    let seed = args.seed.unwrap_or(project.settings.seed);
    let estimate = estimate_project(project, &base_dir_of(&args.project), seed, level, &history)
        .with_context(|| format!("cannot estimate {}", args.project.display()))?;
    let w = &estimate.work;
    let out = &mut std::io::stdout().lock();
    writeln!(out, "{}: {}", project.name, estimate.summary())?;
    writeln!(
        out,
        "  design      {} entities, {} links, {} ranks{}",
        w.entities,
        w.links,
        w.ranks,
        w.iterations.map(|n| format!(", {n} iterations")).unwrap_or_default()
    )?;
    writeln!(
        out,
        "  workload    {} operations, {} messages ({} B) in {} packets crossing {} links{}",
        w.ops,
        w.messages,
        w.message_bytes,
        w.packets,
        w.packet_links,
        if w.truncated { " (a program was longer than the walk: more)" } else { "" }
    )?;
    if let Some(big) = estimate.big(available_memory_bytes()) {
        writeln!(out, "  big run     {}", big.reasons.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_summary(name: &str, result: &RunResult, quiet: bool) -> std::io::Result<()> {
    let out = &mut std::io::stdout().lock();
    let s = &result.stats;
    let makespan = SimTime(s.makespan_ps);
    if quiet {
        writeln!(out, "{name}: {} at {makespan} ({} events)", s.outcome, s.events)?;
    } else {
        writeln!(out, "{name}")?;
        writeln!(out, "  outcome     {}", s.outcome)?;
        writeln!(out, "  makespan    {makespan}")?;
        writeln!(
            out,
            "  events      {} in {:.3} s ({:.2} M events/s)",
            s.events,
            s.wall_time_s,
            s.events_per_s / 1e6
        )?;
        writeln!(
            out,
            "  messages    {} latencies recorded, mean {}",
            s.latency.count,
            SimTime::from_f64_ps(s.latency.mean_ps)
        )?;
        print_processors(out, s)?;
        print_links(out, s)?;
    }
    if let Some(f) = &result.fingerprint {
        writeln!(out, "  fingerprint {f}")?;
    }
    if let RunOutcome::Deadlock(report) = &result.outcome {
        eprint!("{report}");
    }
    Ok(())
}

/// The closed form's makespan beside the measured one, or why there is none.
fn print_expected(expected: &Result<Expected, NoClosedForm>, measured: SimTime) -> std::io::Result<()> {
    let out = &mut std::io::stdout().lock();
    match expected {
        Ok(expected) => {
            let deviation = deviation_percent(measured, expected.makespan);
            writeln!(
                out,
                "  expected    {} (measured {deviation:+.1}%; closed form: {})",
                expected.makespan, expected.form
            )
        }
        Err(why) => writeln!(out, "  expected    none: {why}"),
    }
}

/// How far `measured` lies from `expected`, in percent of `expected`.
fn deviation_percent(measured: SimTime, expected: SimTime) -> f64 {
    if expected == SimTime::ZERO {
        return 0.0;
    }
    (measured.as_ps() as f64 - expected.as_ps() as f64) * 100.0 / expected.as_ps() as f64
}

fn print_processors(out: &mut impl Write, s: &RunStats) -> std::io::Result<()> {
    let processors: Vec<_> =
        s.entities.iter().filter(|(_, e)| e.state_time_ps.contains_key("COMPUTE")).collect();
    if processors.is_empty() {
        return Ok(());
    }
    let mean_busy = processors.iter().map(|(_, e)| e.busy_fraction).sum::<f64>() / processors.len() as f64;
    writeln!(out, "  processors  {} (mean busy {:.1}%)", processors.len(), mean_busy * 100.0)?;
    let mut totals: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
    for (_, e) in &processors {
        for (state, t) in &e.state_time_ps {
            *totals.entry(&**state).or_default() += t;
        }
    }
    let line: Vec<String> = totals
        .iter()
        .filter(|(_, t)| **t > 0)
        .map(|(k, t)| format!("{k} {}", SimTime(*t / processors.len() as u64)))
        .collect();
    writeln!(out, "  per rank    {}", line.join(", "))
}

fn print_links(out: &mut impl Write, s: &RunStats) -> std::io::Result<()> {
    let mut links: Vec<_> = s.links.iter().filter(|(_, l)| l.msgs > 0).collect();
    links.sort_by(|a, b| b.1.utilisation.total_cmp(&a.1.utilisation).then(a.0.cmp(b.0)));
    for (name, l) in links.iter().take(3) {
        writeln!(
            out,
            "  busiest     {name}: {:.1}% ({} msgs, {} B)",
            l.utilisation * 100.0,
            l.msgs,
            l.bytes
        )?;
    }
    Ok(())
}
