//! `hase mpi record -o DIR -- mpirun -np 8 ./prog args`: run an unmodified program under the PMPI
//! logger and write DIR/index.ti (a SimGrid list file naming one trace per rank), `DIR/rank<R>.ti`,
//! DIR/measured.csv (wall and CPU time per rank) and the raw logs in DIR/raw/.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hase_engine::model::write_atomic;

use super::build::{RECORDER, build_tool};
use super::command::run_passing_output;
use super::error::MpiError;
use super::ti_convert::{RankTrace, convert_rank_log};

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
    let elapsed = run_passing_output(command, &env)?;
    let ranks = convert_logs(&raw, flops_per_s)?;
    let index = write_traces(dir, &ranks, flops_per_s, &command.join(" "))?;
    Ok(Recording { index, ranks, elapsed, flops_per_s })
}
