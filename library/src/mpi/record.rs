//! `hase mpi record -o DIR -- mpirun -np 8 ./prog args`: run an unmodified program under the PMPI
//! logger and write DIR/index.ti (a SimGrid list file naming one trace per rank), `DIR/rank<R>.ti`,
//! DIR/measured.csv (wall and CPU time per rank), the real timeline DIR/real.htb (every call and
//! the computation between, per rank, on one clock, with the messages: `real_timeline`) and the
//! raw logs in DIR/raw/; and measure what a prediction from the recording will leave out (the
//! error budget's launch, recorder overhead, shim work in calls and foreign load: `budget`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hase_engine::model::write_atomic;

use super::budget::CallCosts;
use super::budget::{ErrorBudget, RankCosts, error_budget};
use super::build::{RECORDER, build_tool};
use super::command::run_keeping_output;
use super::error::MpiError;
use super::predict::write_timeline;
use super::real_timeline::{ClockFile, real_timeline};
use super::ti_convert::{RankTrace, convert_rank_log};
use super::timings::{ProgramTiming, program_timings};

/// The real timeline's file name in a recording directory.
pub const REAL_TIMELINE: &str = "real.htb";

/// A recording directory's timelines, as the comparison opens them: the real run (written by
/// `hase mpi record`), the prediction (`hase mpi predict -o DIR/predicted.htb`) and a replay
/// (`hase run … --workload-trace DIR/index.ti --trace DIR/replayed.htb`).
pub const TIMELINES: [(&str, &str); 3] =
    [("real", REAL_TIMELINE), ("predicted", "predicted.htb"), ("replayed", "replayed.htb")];

/// The file names of [`TIMELINES`], for messages.
pub const TIMELINE_FILES: &str = "real.htb, predicted.htb, replayed.htb";

/// The timelines of [`TIMELINES`] that are in `dir`, as (name, path).
pub fn recording_timelines(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    TIMELINES.iter().map(|(name, file)| (*name, dir.join(file))).filter(|(_, p)| p.is_file()).collect()
}

/// The reference speed computation is written at unless another is given: 1 Gflop/s, so that a
/// processor with `flops_per_s = 1e9` (the default) replays the measured CPU times.
pub const DEFAULT_FLOPS_PER_S: f64 = 1e9;

/// What a recording produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// DIR/index.ti.
    pub index: PathBuf,
    /// Per rank: its trace summary and measured times.
    pub ranks: Vec<RankTrace>,
    /// Wall time of the whole launcher command.
    pub elapsed: Duration,
    /// The reference speed of the `compute` actions.
    pub flops_per_s: f64,
    /// DIR/real.htb.
    pub real: PathBuf,
    /// Per rank: its clock alignment and the logger's calibrated cost.
    pub clocks: Vec<ClockFile>,
    /// What a prediction from this recording leaves out, measured.
    pub budget: ErrorBudget,
    /// The program's own timings (`hase-time` lines) under the logger.
    pub timings: Vec<ProgramTiming>,
}

/// The budget's inputs from a recording's ranks and clock files.
pub fn recorded_costs(ranks: &[RankTrace], clocks: &[ClockFile]) -> Vec<RankCosts> {
    ranks
        .iter()
        .zip(clocks)
        .map(|(r, c)| {
            let burst_wall_us = c.burst_wall_ns as f64 / 1e3;
            RankCosts {
                rank: r.rank,
                span_us: r.wall_us,
                costs: CallCosts {
                    calls: c.calls,
                    mpi_wall_us: (r.wall_us - burst_wall_us).max(0.0),
                    burst_cpu_us: c.burst_cpu_ns as f64 / 1e3,
                    burst_wall_us,
                    per_call_us: c.per_call_ns as f64 / 1e3,
                    subtracted_us: c.subtracted_ns as f64 / 1e3,
                    in_call_us: c.in_call_ns as f64 / 1e3,
                },
                predicted: None,
            }
        })
        .collect()
}

/// Read and convert every `rank<R>.log` in `raw_dir` (ranks 0 … n−1, all present).
pub fn convert_logs(raw_dir: &Path, flops_per_s: f64) -> Result<Vec<RankTrace>, MpiError> {
    let mut ranks = Vec::new();
    loop {
        let path = raw_dir.join(format!("rank{}.log", ranks.len()));
        if !path.is_file() {
            break;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| MpiError::io(&path, e))?;
        let trace = convert_rank_log(&text, &path.display().to_string(), flops_per_s)?;
        ranks.push(trace);
    }
    let expected = ranks.first().map_or(0, |r| r.size as usize);
    if ranks.is_empty() || ranks.len() != expected {
        return Err(MpiError::MissingRanks {
            path: raw_dir.display().to_string(),
            message: format!(
                "found logs of {} ranks, expected {expected}: did the program call MPI_Init, and was the logger preloaded?",
                ranks.len()
            ),
        });
    }
    Ok(ranks)
}

/// Write `DIR/index.ti`, `DIR/rank<R>.ti` and `DIR/measured.csv`.
pub fn write_traces(
    dir: &Path,
    ranks: &[RankTrace],
    flops_per_s: f64,
    command: &str,
) -> Result<PathBuf, MpiError> {
    let mut index = String::new();
    let _ = writeln!(index, "# SimGrid time-independent trace recorded by `hase mpi record`: {command}");
    let _ = writeln!(
        index,
        "# compute actions are flops at a reference speed of {flops_per_s} flop/s (measured thread CPU time × speed)"
    );
    let mut measured = String::from("rank,wall_us,cpu_us,compute_us,mpi_calls\n");
    for r in ranks {
        let file = dir.join(format!("rank{}.ti", r.rank));
        write_atomic(&file, r.text.as_bytes()).map_err(|e| MpiError::io(&file, e))?;
        let _ = writeln!(index, "rank{}.ti", r.rank);
        let _ =
            writeln!(measured, "{},{:.3},{:.3},{:.3},{}", r.rank, r.wall_us, r.cpu_us, r.compute_us, r.calls);
    }
    let path = dir.join("index.ti");
    write_atomic(&path, index.as_bytes()).map_err(|e| MpiError::io(&path, e))?;
    let csv = dir.join("measured.csv");
    write_atomic(&csv, measured.as_bytes()).map_err(|e| MpiError::io(&csv, e))?;
    Ok(path)
}

/// Build the logger (into `cache`), run `command` with it preloaded, and write the traces into
/// `dir`. `env` is added to the command's environment.
pub fn record(
    dir: &Path,
    command: &[String],
    env: &[(String, String)],
    flops_per_s: f64,
    cache: &Path,
) -> Result<Recording, MpiError> {
    if !(flops_per_s.is_finite() && flops_per_s > 0.0) {
        return Err(MpiError::Argument(format!("the reference speed must be positive, not {flops_per_s}")));
    }
    let logger = build_tool(&RECORDER, cache)?;
    let raw = dir.join("raw");
    if raw.exists() {
        std::fs::remove_dir_all(&raw).map_err(|e| MpiError::io(&raw, e))?;
    }
    std::fs::create_dir_all(&raw).map_err(|e| MpiError::io(&raw, e))?;
    let raw_abs = std::path::absolute(&raw).map_err(|e| MpiError::io(&raw, e))?;
    let mut env = env.to_vec();
    env.push(("LD_PRELOAD".into(), logger.path.display().to_string()));
    env.push(("HASE_RECORD_DIR".into(), raw_abs.display().to_string()));
    let (elapsed, output) = run_keeping_output(command, &env)?;
    let ranks = convert_logs(&raw, flops_per_s)?;
    let index = write_traces(dir, &ranks, flops_per_s, &command.join(" "))?;
    let (timeline, clocks) = real_timeline(&raw)?;
    let real = dir.join(REAL_TIMELINE);
    write_timeline(&real, &format!("real: {}", command.join(" ")), &timeline)?;
    let budget = error_budget(elapsed.as_secs_f64() * 1e6, &recorded_costs(&ranks, &clocks));
    let timings = program_timings(&output);
    Ok(Recording { index, ranks, elapsed, flops_per_s, real, clocks, budget, timings })
}
