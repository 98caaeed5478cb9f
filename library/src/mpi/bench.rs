//! `hase mpi bench`: characterise an MPI library. The bundled benchmark (`assets/mpi/bench/`) runs
//! once per process count; its rows are collected, with progress, into the raw file
//! `hase datasheet fit` reads. Sizes are given as lists and ranges: `0,64,1K`, `0..1M*4` (0, then
//! 1, 4, 16, … 1M: a geometric range from 0 continues from 1), `1K..8K+1K`; each size is read by
//! the engine's one units parser (`1K` = 1,024 bytes).

use std::path::Path;

use super::build::{BENCH, build_tool};
use super::command::{MpiRun, run_reading_lines};
use super::error::MpiError;
use crate::datasheet::forms::FunctionClass;
use crate::datasheet::raw::{RawData, RawRow};

/// Every function the benchmark can time, point-to-point first.
pub use crate::datasheet::forms::BENCHMARKED_FUNCTIONS as ALL_FUNCTIONS;

/// Most sizes one run takes (the benchmark's list limit).
pub const MAX_SIZES: usize = 64;

/// How the benchmark times a point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BenchTiming {
    /// Each repeat times a batch of calls made back to back on the same buffers and reports the
    /// mean per call: the steady-state cost a communication loop sees.
    #[default]
    Loop,
    /// Each timed call starts right after a barrier on fresh buffers: the cost of an isolated call.
    Single,
}

impl BenchTiming {
    /// The benchmark's `--timing` word.
    pub fn word(self) -> &'static str {
        match self {
            BenchTiming::Loop => "loop",
            BenchTiming::Single => "single",
        }
    }
}

/// What to measure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// Process counts, one `mpirun` each.
    pub procs: Vec<u32>,
    /// Message sizes, bytes.
    pub sizes: Vec<u64>,
    /// Functions (names of [`ALL_FUNCTIONS`]).
    pub functions: Vec<String>,
    /// Timed repeats per point.
    pub repeat: u32,
    /// Untimed warm-up repeats per point.
    pub warmup: u32,
    /// Calls in a loop or one at a time.
    pub timing: BenchTiming,
    /// The launcher.
    pub run: MpiRun,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            procs: vec![2, 4, 8],
            sizes: parse_sizes("0..1M*2").unwrap_or_default(),
            functions: ALL_FUNCTIONS.iter().map(|f| (*f).to_string()).collect(),
            repeat: 20,
            warmup: 2,
            timing: BenchTiming::default(),
            run: MpiRun::default(),
        }
    }
}

fn size_of(text: &str) -> Result<u64, MpiError> {
    hase_engine::units::parse_size(text).map_err(|e| MpiError::Argument(format!("size `{text}`: {e}")))
}

/// Parse a size list (`0,64,1K`, `0..1M*4`, `1K..8K+1K`, or several joined by commas).
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, MpiError> {
    let mut sizes = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((lo, rest)) = item.split_once("..") else {
            sizes.push(size_of(item)?);
            continue;
        };
        let (hi, step, geometric) = match (rest.split_once('*'), rest.split_once('+')) {
            (Some((hi, f)), _) => (hi, f, true),
            (None, Some((hi, s))) => (hi, s, false),
            (None, None) => {
                return Err(MpiError::Argument(format!(
                    "range `{item}` needs a step: `lo..hi*factor` or `lo..hi+step`"
                )));
            }
        };
        let (mut v, hi, step) = (size_of(lo.trim())?, size_of(hi.trim())?, size_of(step.trim())?);
        if geometric && step < 2 || !geometric && step == 0 {
            return Err(MpiError::Argument(format!("range `{item}` never advances")));
        }
        while v <= hi {
            sizes.push(v);
            if sizes.len() > MAX_SIZES {
                return Err(MpiError::Argument(format!("`{text}` gives more than {MAX_SIZES} sizes")));
            }
            v = match (geometric, v) {
                (true, 0) => 1,
                (true, v) => v.saturating_mul(step),
                (false, v) => v.saturating_add(step),
            };
            if v == u64::MAX {
                break;
            }
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    if sizes.is_empty() || sizes.len() > MAX_SIZES {
        return Err(MpiError::Argument(format!("`{text}` must give 1 to {MAX_SIZES} sizes")));
    }
    Ok(sizes)
}

/// Rows one process count produces.
fn rows_per_run(options: &BenchOptions, first: bool) -> u64 {
    let sizes = options.sizes.len() as u64;
    options
        .functions
        .iter()
        .map(|f| match f.as_str() {
            "barrier" => 1,
            f if FunctionClass::of(f) == FunctionClass::PointToPoint => {
                if first {
                    sizes
                } else {
                    0
                }
            }
            _ => sizes,
        })
        .sum::<u64>()
        * u64::from(options.repeat)
}

/// Progress of a benchmark run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchProgress {
    /// Rows received so far.
    pub rows: u64,
    /// Rows expected in all.
    pub total: u64,
    /// The process count running.
    pub procs: u32,
}

fn parse_row(line: &str, number: usize) -> Result<RawRow, MpiError> {
    let bad = |message: String| MpiError::output("hase_bench output", number, message);
    let fields: Vec<&str> = line.split(',').collect();
    let [function, procs, bytes, repeat, time] = fields[..] else {
        return Err(bad(format!("expected 5 fields, got `{line}`")));
    };
    let number_of = |t: &str| t.parse::<u64>().map_err(|e| bad(format!("`{t}`: {e}")));
    Ok(RawRow {
        function: function.to_string(),
        procs: number_of(procs)? as u32,
        bytes: number_of(bytes)?,
        repeat: number_of(repeat)? as u32,
        time_us: time.parse().map_err(|e| bad(format!("`{time}`: {e}")))?,
    })
}

fn machine_note(run: &MpiRun, timing: BenchTiming) -> Vec<(String, String)> {
    let first_line = |argv: &[&str]| {
        std::process::Command::new(argv[0])
            .args(&argv[1..])
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).lines().next().map(str::to_string))
            .unwrap_or_else(|| "unknown".into())
    };
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let launcher: Vec<&str> = run.launcher.iter().map(String::as_str).chain(["--version"]).collect();
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    vec![
        ("machine".into(), format!("{} ({cores} cores)", first_line(&["uname", "-snm"]))),
        ("mpi".into(), first_line(&launcher)),
        ("launcher".into(), run.launcher.join(" ")),
        ("measured".into(), format!("unix time {secs}")),
        ("timing".into(), timing.word().into()),
    ]
}

/// Build the benchmark (into `cache`) and run it for every process count.
pub fn run_bench(
    options: &BenchOptions,
    cache: &Path,
    mut progress: impl FnMut(BenchProgress),
) -> Result<RawData, MpiError> {
    for f in &options.functions {
        if !ALL_FUNCTIONS.contains(&f.as_str()) {
            return Err(MpiError::Argument(format!(
                "unknown function `{f}`; the benchmark times {}",
                ALL_FUNCTIONS.join(", ")
            )));
        }
    }
    if options.procs.is_empty() || options.procs.contains(&0) || options.repeat == 0 {
        return Err(MpiError::Argument("give at least one process count ≥ 1 and --repeat ≥ 1".into()));
    }
    let bench = build_tool(&BENCH, cache)?;
    let mut procs = options.procs.clone();
    procs.sort_unstable();
    procs.dedup();
    let total: u64 = procs.iter().enumerate().map(|(i, _)| rows_per_run(options, i == 0)).sum();
    let sizes: Vec<String> = options.sizes.iter().map(u64::to_string).collect();
    let mut data = RawData { notes: machine_note(&options.run, options.timing), rows: Vec::new() };
    for (i, &np) in procs.iter().enumerate() {
        let mut argv = options.run.launcher.clone();
        argv.extend(["-np".into(), np.to_string(), bench.path.display().to_string()]);
        argv.extend(["--sizes".into(), sizes.join(","), "--functions".into(), options.functions.join(",")]);
        argv.extend([
            "--repeat".into(),
            options.repeat.to_string(),
            "--warmup".into(),
            options.warmup.to_string(),
        ]);
        argv.extend(["--p2p".into(), if i == 0 { "1" } else { "0" }.into()]);
        argv.extend(["--timing".into(), options.timing.word().into()]);
        let mut line_number = 0;
        run_reading_lines(&argv, &options.run.env, |line| {
            line_number += 1;
            data.rows.push(parse_row(line, line_number)?);
            progress(BenchProgress { rows: data.rows.len() as u64, total, procs: np });
            Ok(())
        })?;
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_lists_and_ranges() {
        assert_eq!(parse_sizes("0,64,1K").unwrap(), [0, 64, 1024]);
        assert_eq!(
            parse_sizes("0..1M*4").unwrap(),
            [0, 1, 4, 16, 64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576]
        );
        assert_eq!(parse_sizes("1K..4K+1K, 0").unwrap(), [0, 1024, 2048, 3072, 4096]);
        assert!(parse_sizes("1..8").unwrap_err().to_string().contains("needs a step"));
        assert!(parse_sizes("1..8*1").unwrap_err().to_string().contains("never advances"));
        assert!(parse_sizes("0..1G+1").unwrap_err().to_string().contains("more than 64 sizes"));
        assert!(parse_sizes("ten").unwrap_err().to_string().starts_with("size `ten`"));
    }

    #[test]
    fn expected_rows_count_point_to_point_once() {
        let options = BenchOptions {
            procs: vec![2, 4],
            sizes: vec![0, 8, 64],
            functions: vec!["send".into(), "barrier".into(), "bcast".into()],
            repeat: 5,
            ..BenchOptions::default()
        };
        assert_eq!(rows_per_run(&options, true), (3 + 1 + 3) * 5);
        assert_eq!(rows_per_run(&options, false), (1 + 3) * 5);
        assert!((parse_row("bcast,4,64,2,12.5", 1).unwrap().time_us - 12.5).abs() < 1e-12);
        assert!(
            parse_row("bcast,4", 7)
                .unwrap_err()
                .to_string()
                .starts_with("hase_bench output:7: expected 5 fields")
        );
    }
}
