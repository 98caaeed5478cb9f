//! `hase mpi bench|record|predict|sample`: measure an MPI library, record a real program as
//! SimGrid time-independent traces, predict a real program from a data sheet while it runs
//! (reverse profiling), and build the bundled sample programs. The work is in
//! `hase_library::mpi`; the C is built with `mpicc` on first use into the cache
//! (`$HASE_CACHE_DIR`, else the platform's cache directory).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use hase_engine::model::write_atomic;
use hase_engine::time::SimTime;
use hase_entities::netmodel::datasheet::{self, Estimate};
use hase_library::datasheet::raw::write_raw;
use hase_library::mpi::bench::{ALL_FUNCTIONS, BenchOptions, parse_sizes, run_bench};
use hase_library::mpi::predict::{PredictOptions, predict};
use hase_library::mpi::record::{DEFAULT_FLOPS_PER_S, record};
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
    /// Build a bundled sample program (merge_sort, halo2d, pipeline, task_farm, sample_sort) and print its path.
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
    /// Message sizes in bytes: a list (`0,64,1K`) or ranges (`0..1M*4`, `1K..8K+1K`).
    #[arg(long, default_value = "0..1M*4")]
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
    /// The launcher, before `-np N` (e.g. "mpirun --oversubscribe").
    #[arg(long, default_value = "mpirun")]
    pub mpirun: String,
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
    /// Which equation of each band: min, avg or max.
    #[arg(long, default_value = "avg")]
    pub band: String,
    /// Measured CPU time between MPI calls × this = predicted computation.
    #[arg(long, default_value_t = 1.0)]
    pub cpu_scale: f64,
    /// Write the predicted run as a hase trace (opens in the timing diagram).
    #[arg(short, long, value_name = "PRED.trace")]
    pub output: Option<PathBuf>,
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
    Ok(ExitCode::SUCCESS)
}

fn predict_command(args: &PredictArgs) -> anyhow::Result<ExitCode> {
    let sheet = datasheet::load(&args.sheet, Path::new("."))?;
    let estimate = Estimate::from_name(&args.band)
        .ok_or_else(|| anyhow::anyhow!("unknown band `{}`; choose min, avg or max", args.band))?;
    let options = PredictOptions { sheet: &sheet, estimate, cpu_scale: args.cpu_scale, env: Vec::new() };
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
    if let Some(path) = &args.output {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
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
