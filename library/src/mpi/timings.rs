//! Programs that time themselves: lines `hase-time <label> <bytes> <count> <seconds>` in a
//! program's output (the network samples print one per message size, timed with MPI_Wtime). Under
//! the predictor MPI_Wtime reads the virtual clock, so the same lines of a predicted run give the
//! predicted times; `compare_timings` sets them beside the lines of a run without any shim.

use std::time::Duration;

use serde::Serialize;

use super::command::run_keeping_output;
use super::error::MpiError;

/// A run of the program without any shim: what the predictions are measured against.
#[derive(Clone, Debug, PartialEq)]
pub struct PlainRun {
    /// Wall time of the launcher command.
    pub elapsed: Duration,
    /// The program's own timings.
    pub timings: Vec<ProgramTiming>,
}

/// Run `command` as it is (no shim) and keep its timings.
pub fn run_plain(command: &[String], env: &[(String, String)]) -> Result<PlainRun, MpiError> {
    let (elapsed, output) = run_keeping_output(command, env)?;
    Ok(PlainRun { elapsed, timings: program_timings(&output) })
}

/// One `hase-time` line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProgramTiming {
    /// What was timed (`pingpong`, `allreduce`, …).
    pub label: String,
    /// Message size, bytes.
    pub bytes: u64,
    /// Operations timed.
    pub count: u64,
    /// Their time, s.
    pub seconds: f64,
}

/// Every well-formed `hase-time` line of `output`, in order (other lines are the program's own).
pub fn program_timings(output: &str) -> Vec<ProgramTiming> {
    output
        .lines()
        .filter_map(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            match w.as_slice() {
                ["hase-time", label, bytes, count, seconds] => Some(ProgramTiming {
                    label: (*label).to_string(),
                    bytes: bytes.parse().ok()?,
                    count: count.parse().ok()?,
                    seconds: seconds.parse().ok().filter(|s: &f64| s.is_finite())?,
                }),
                _ => None,
            }
        })
        .collect()
}

/// A timing predicted and measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimingComparison {
    /// What was timed.
    pub label: String,
    /// Message size, bytes.
    pub bytes: u64,
    /// Operations timed.
    pub count: u64,
    /// Predicted time per operation, µs.
    pub predicted_us: f64,
    /// Measured time per operation, µs.
    pub measured_us: f64,
    /// (predicted − measured) / measured, %.
    pub error_percent: f64,
}

/// Pair predicted and measured timings by label, size and occurrence.
pub fn compare_timings(predicted: &[ProgramTiming], measured: &[ProgramTiming]) -> Vec<TimingComparison> {
    let mut used = vec![false; measured.len()];
    let mut out = Vec::new();
    for p in predicted {
        let found = measured
            .iter()
            .enumerate()
            .find(|(i, m)| !used[*i] && m.label == p.label && m.bytes == p.bytes && m.count == p.count);
        if let Some((i, m)) = found {
            used[i] = true;
            let per = |t: &ProgramTiming| t.seconds * 1e6 / t.count.max(1) as f64;
            let (pu, mu) = (per(p), per(m));
            out.push(TimingComparison {
                label: p.label.clone(),
                bytes: p.bytes,
                count: p.count,
                predicted_us: pu,
                measured_us: mu,
                error_percent: 100.0 * (pu - mu) / mu.max(1e-12),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_and_paired_by_label_size_and_count() {
        let measured = program_timings(
            "hello\nhase-time pingpong 8 100 0.0002\nhase-time pingpong 16 100 x\nhase-time pingpong 64 50 0.0001\n",
        );
        assert_eq!(measured.len(), 2);
        let predicted = program_timings(
            "hase-time pingpong 64 50 0.00011\nhase-time pingpong 8 100 0.00018\nhase-time other 8 100 1\n",
        );
        let c = compare_timings(&predicted, &measured);
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].bytes, c[1].bytes), (64, 8));
        assert!((c[0].measured_us - 2.0).abs() < 1e-9 && (c[0].predicted_us - 2.2).abs() < 1e-9);
        assert!((c[0].error_percent - 10.0).abs() < 1e-6);
        assert!((c[1].error_percent - -10.0).abs() < 1e-6);
    }
}
