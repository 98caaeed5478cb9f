//! `hase mpi bench|record|predict|sample`: measure an MPI library, record a real program as
//! SimGrid time-independent traces, predict a real program from a data sheet while it runs
//! (reverse profiling), and build the bundled sample programs. The work is in
//! `hase_library::mpi`; the C is built with `mpicc` on first use into the cache
//! (`$HASE_CACHE_DIR`, else the platform's cache directory).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use hase_engine::model::write_atomic;
use hase_engine::time::SimTime;
use hase_entities::netmodel::datasheet::{self, Estimate};
use hase_library::datasheet::raw::write_raw;
use hase_library::mpi::bench::{ALL_FUNCTIONS, BenchOptions, BenchTiming, parse_sizes, run_bench};
use hase_library::mpi::budget::ErrorBudget;
use hase_library::mpi::predict::{PredictOptions, ProgramPrediction, outside_measured_uses, predict};
use hase_library::mpi::record::{DEFAULT_FLOPS_PER_S, record};
use hase_library::mpi::timings::{PlainRun, TimingComparison, compare_timings, run_plain};
use hase_library::mpi::{MpiRun, SAMPLES, build_tool, cache_dir, sample};
use indicatif::{ProgressBar, ProgressStyle};

/// `hase mpi …`.
#[derive(Debug, Subcommand)]
pub enum MpiCommand {
    /// Time MPI functions over process counts and sizes; write raw rows for `hase datasheet fit`.
    Bench(BenchArgs),
    /// Run a program under the PMPI logger; write SimGrid time-independent traces per rank.
    Record(RecordArgs),
    /// Run a program under the reverse profiler: predicted time per rank from a data sheet.
    Predict(PredictArgs),
    /// Build a bundled sample program (`hase mpi sample` lists them) and print its path.
    Sample {
        /// The sample; none lists them.
        name: Option<String>,
    },
}

/// Arguments of `hase mpi bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The raw CSV to write (`function,procs,bytes,repeat,time_us`).
    #[arg(short, long, value_name = "RAW.csv")]
    pub output: PathBuf,
    /// Process counts, one run each.
    #[arg(long, value_delimiter = ',', default_value = "2,4,8")]
    pub np: Vec<u32>,
    /// Message sizes in bytes: a list (`0,64,1K`) or ranges (`0..1M*2`, `1K..8K+1K`). The default,
    /// every power of two, measures a library's change of protocol where it happens.
    #[arg(long, default_value = "0..1M*2")]
    pub sizes: String,
    /// Functions to time (default: all).
    #[arg(long, value_delimiter = ',')]
    pub functions: Vec<String>,
    /// Timed repeats per point.
    #[arg(long, default_value_t = 20)]
    pub repeat: u32,
    /// Untimed warm-up repeats per point.
    #[arg(long, default_value_t = 2)]
    pub warmup: u32,
    /// How a repeat is timed: `loop` (a batch of calls back to back, reporting the mean: the
    /// steady state of a communication loop) or `single` (one call right after a barrier, on
    /// fresh buffers: an isolated call).
    #[arg(long, value_enum, default_value = "loop")]
    pub timing: TimingArg,
    /// The launcher, before `-np N` (e.g. "mpirun --oversubscribe").
    #[arg(long, default_value = "mpirun")]
    pub mpirun: String,
}

/// `--timing` of `hase mpi bench`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TimingArg {
    /// Calls back to back, the mean per call.
    Loop,
    /// One call after a barrier.
    Single,
}

impl From<TimingArg> for BenchTiming {
    fn from(arg: TimingArg) -> Self {
        match arg {
            TimingArg::Loop => BenchTiming::Loop,
            TimingArg::Single => BenchTiming::Single,
        }
    }
}

/// Arguments of `hase mpi record`.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// Directory for index.ti, one rankN.ti per rank, measured.csv and the raw logs.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Reference speed of the `compute` actions: measured CPU seconds × this = flops.
    #[arg(long, default_value_t = DEFAULT_FLOPS_PER_S)]
    pub flops_per_s: f64,
    /// Also write the error budget's measured parts as JSON.
    #[arg(long, value_name = "BUDGET.json")]
    pub json: Option<PathBuf>,
    /// The launcher command, after `--` (e.g. `-- mpirun -np 8 ./prog args`).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Arguments of `hase mpi predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    /// Data sheet: a .ron file or a built-in name.
    #[arg(long)]
    pub sheet: String,
    /// Which equation of each band: min, avg, max, or measured (the sheet's measurements
    /// between measured sizes at a measured process count, the avg equation elsewhere).
    #[arg(long, default_value = "measured")]
    pub band: String,
    /// Measured CPU time between MPI calls × this = predicted computation.
    #[arg(long, default_value_t = 1.0)]
    pub cpu_scale: f64,
    /// Write the predicted run as a hase trace (opens in the timing diagram).
    #[arg(short, long, value_name = "PRED.trace")]
    pub output: Option<PathBuf>,
    /// Also write the prediction and its error budget as JSON.
    #[arg(long, value_name = "BUDGET.json")]
    pub json: Option<PathBuf>,
    /// First run the program without any shim, and set its own timings (`hase-time` lines) and
    /// wall time beside the predicted ones.
    #[arg(long)]
    pub measure: bool,
    /// The launcher command, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Run a `hase mpi` subcommand.
pub fn mpi(command: &MpiCommand) -> anyhow::Result<ExitCode> {
    match command {
        MpiCommand::Bench(args) => bench(args),
        MpiCommand::Record(args) => record_command(args),
        MpiCommand::Predict(args) => predict_command(args),
        MpiCommand::Sample { name } => sample_command(name.as_deref()),
    }
}

fn bench(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let options = BenchOptions {
        procs: args.np.clone(),
        sizes: parse_sizes(&args.sizes)?,
        functions: if args.functions.is_empty() {
            ALL_FUNCTIONS.iter().map(|f| (*f).to_string()).collect()
        } else {
            args.functions.clone()
        },
        repeat: args.repeat,
        warmup: args.warmup,
        timing: args.timing.into(),
        run: MpiRun::from_command_line(&args.mpirun)?,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} rows, {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let data = run_bench(&options, &cache_dir(), |p| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.rows);
            bar.set_message(format!("np {}", p.procs));
        }
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut text = Vec::new();
    write_raw(&mut text, &data)?;
    write_atomic(&args.output, &text).with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("wrote {} rows to {}", data.rows.len(), args.output.display());
    Ok(ExitCode::SUCCESS)
}

fn record_command(args: &RecordArgs) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("cannot create {}", args.output.display()))?;
    let rec = record(&args.output, &args.command, &[], args.flops_per_s, &cache_dir())?;
    let out = &mut std::io::stdout().lock();
    writeln!(
        out,
        "recorded {} ranks in {:.3} s: {}",
        rec.ranks.len(),
        rec.elapsed.as_secs_f64(),
        rec.index.display()
    )?;
    writeln!(
        out,
        "compute written at {} flop/s; measured times in {}",
        rec.flops_per_s,
        args.output.join("measured.csv").display()
    )?;
    writeln!(out, "{:>5} {:>14} {:>14} {:>14} {:>9}", "rank", "wall", "cpu", "compute", "calls")?;
    for r in &rec.ranks {
        let t = |us: f64| SimTime::from_f64_ps(us * 1e6).to_string();
        writeln!(
            out,
            "{:>5} {:>14} {:>14} {:>14} {:>9}",
            r.rank,
            t(r.wall_us),
            t(r.cpu_us),
            t(r.compute_us),
            r.calls
        )?;
    }
    for t in &rec.timings {
        writeln!(
            out,
            "the program timed {} × {} of {} B: {:.3} µs each (under the logger)",
            t.count,
            t.label,
            t.bytes,
            t.seconds * 1e6 / t.count.max(1) as f64
        )?;
    }
    writeln!(out, "real timeline (all ranks on rank 0's clock): {}", rec.real.display())?;
    let rtt = rec.clocks.iter().flat_map(|c| c.round_trips_ns.iter().copied()).max().unwrap_or(0);
    writeln!(out, "clocks aligned within ±{:.3} µs (half the longest round trip)", rtt as f64 / 2e3)?;
    write!(out, "{}", rec.budget.to_text())?;
    if let Some(path) = &args.json {
        write_json(path, &rec.budget)?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut text = serde_json::to_vec_pretty(value)?;
    text.push(b'\n');
    write_atomic(path, &text).with_context(|| format!("cannot write {}", path.display()))
}

fn predict_command(args: &PredictArgs) -> anyhow::Result<ExitCode> {
    let sheet = datasheet::load(&args.sheet, Path::new("."))?;
    let estimate = Estimate::from_name(&args.band)
        .ok_or_else(|| anyhow::anyhow!("unknown band `{}`; choose min, avg, max or measured", args.band))?;
    let options = PredictOptions { sheet: &sheet, estimate, cpu_scale: args.cpu_scale, env: Vec::new() };
    let plain = if args.measure { Some(run_plain(&args.command, &[])?) } else { None };
    let p = predict(&args.command, &options, args.output.as_deref(), &cache_dir())?;
    let out = &mut std::io::stdout().lock();
    writeln!(
        out,
        "reverse profile on sheet `{}` ({} band, cpu scale {})",
        sheet.name, args.band, args.cpu_scale
    )?;
    writeln!(
        out,
        "{:>5} {:>14} {:>14} {:>14} {:>9}",
        "rank", "predicted", "measured", "measured cpu", "pred/meas"
    )?;
    for r in &p.ranks {
        let measured = SimTime::from_f64_ps(r.wall_us * 1e6);
        let ratio = r.predicted.0 as f64 / (r.wall_us * 1e6).max(1.0);
        let cpu = SimTime::from_f64_ps(r.cpu_us * 1e6);
        writeln!(
            out,
            "{:>5} {:>14} {:>14} {:>14} {:>9.3}",
            r.rank,
            r.predicted.to_string(),
            measured.to_string(),
            cpu.to_string(),
            ratio
        )?;
    }
    let measured = SimTime::from_f64_ps(p.measured_us() * 1e6);
    writeln!(
        out,
        "program: predicted {}, measured {} (launcher wall {:.3} s)",
        p.predicted(),
        measured,
        p.elapsed.as_secs_f64()
    )?;
    let missing = p.missing();
    if !missing.is_empty() {
        writeln!(
            out,
            "warning: the sheet has no {}; those calls were predicted as 0 µs",
            missing.join(", ")
        )?;
    }
    let outside = outside_measured_uses(&sheet, &p.ranks);
    for o in &outside {
        writeln!(out, "warning: {o}")?;
    }
    let budget = p.budget();
    write!(out, "{}", budget.to_text())?;
    let measured = plain.as_ref().map(|plain| measured_beside(&p, &budget, plain));
    if let Some(m) = &measured {
        write_measured(out, m)?;
    }
    if let Some(path) = &args.output {
        writeln!(out, "wrote {}", path.display())?;
    }
    if let Some(path) = &args.json {
        let ranks: Vec<PredictionRankJson> = p
            .ranks
            .iter()
            .map(|r| PredictionRankJson {
                rank: r.rank,
                predicted_us: r.predicted.0 as f64 / 1e6,
                measured_us: r.wall_us,
                measured_cpu_us: r.cpu_us,
                calls: r.calls,
            })
            .collect();
        let json = PredictionJson {
            sheet: &sheet.name,
            ranks: &ranks,
            budget: &budget,
            measured: measured.as_ref(),
            outside_measured: &outside,
        };
        write_json(path, &json)?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `hase mpi predict --json` writes.
#[derive(serde::Serialize)]
struct PredictionJson<'a> {
    sheet: &'a str,
    ranks: &'a [PredictionRankJson],
    budget: &'a hase_library::mpi::budget::ErrorBudget,
    measured: Option<&'a MeasuredBeside>,
    /// Calls timed outside the sheet's measured sizes or process counts.
    outside_measured: &'a [hase_library::datasheet::review::OutsideMeasured],
}

/// `hase mpi predict --measure`: the run without a shim beside the prediction.
#[derive(serde::Serialize)]
struct MeasuredBeside {
    /// The plain run's launcher wall time, µs.
    wall_us: f64,
    /// The predicted program time plus the launch measured in the predicted run, µs.
    predicted_with_launch_us: f64,
    /// (predicted with launch − wall) / wall, %.
    error_percent: f64,
    /// The program's own timings.
    timings: Vec<TimingComparison>,
}

fn measured_beside(p: &ProgramPrediction, budget: &ErrorBudget, plain: &PlainRun) -> MeasuredBeside {
    let launch_us = -budget.parts.iter().find(|part| part.name == "launch").map_or(0.0, |part| part.us);
    let wall_us = plain.elapsed.as_secs_f64() * 1e6;
    let predicted_with_launch_us = p.predicted().0 as f64 / 1e6 + launch_us;
    MeasuredBeside {
        wall_us,
        predicted_with_launch_us,
        error_percent: 100.0 * (predicted_with_launch_us - wall_us) / wall_us.max(1e-9),
        timings: compare_timings(&p.timings, &plain.timings),
    }
}

fn write_measured(out: &mut impl Write, m: &MeasuredBeside) -> anyhow::Result<()> {
    writeln!(
        out,
        "whole program: predicted + launch {:.0} µs, measured without a shim {:.0} µs ({:+.1} %)",
        m.predicted_with_launch_us, m.wall_us, m.error_percent
    )?;
    if !m.timings.is_empty() {
        writeln!(out, "the program's own timings, per operation:")?;
        writeln!(
            out,
            "{:<12} {:>9} {:>7} {:>14} {:>14} {:>8}",
            "what", "bytes", "count", "predicted", "measured", "error"
        )?;
        for t in &m.timings {
            writeln!(
                out,
                "{:<12} {:>9} {:>7} {:>11.3} µs {:>11.3} µs {:>+7.1}%",
                t.label, t.bytes, t.count, t.predicted_us, t.measured_us, t.error_percent
            )?;
        }
    }
    Ok(())
}

/// One rank in `hase mpi predict --json`.
#[derive(serde::Serialize)]
struct PredictionRankJson {
    rank: u32,
    predicted_us: f64,
    measured_us: f64,
    measured_cpu_us: f64,
    calls: Option<hase_library::mpi::budget::CallCosts>,
}

fn sample_command(name: Option<&str>) -> anyhow::Result<ExitCode> {
    let Some(name) = name else {
        for s in SAMPLES {
            println!("{:<12} {}", s.name, s.source_path);
        }
        return Ok(ExitCode::SUCCESS);
    };
    let built = build_tool(&sample(name)?, &cache_dir())?;
    println!("{}", built.path.display());
    Ok(ExitCode::SUCCESS)
}
