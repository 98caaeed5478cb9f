//! Turning a project's `Workload` into one program per rank: a built-in program for every rank, one
//! instruction stream per rank (ranks without one idle), or a SimGrid time-independent trace. Errors
//! name the file and line, or the program and parameter.

use std::path::Path;

use hase_engine::limits::{MAX_WORKLOAD_FILE_BYTES, read_capped};
use hase_engine::model::{StreamSource, Workload};

use super::program::{OpList, RankProgram};
use super::programs::{ProgramError, instantiate_all};
use super::stream::{StreamError, StreamRankError, check_ranks, parse_stream};
use super::ti::{TiDialect, TiError, load_ti_trace};

/// Why a workload cannot drive this network.
#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    /// A built-in program rejected its parameters or the number of ranks.
    #[error(transparent)]
    Program(#[from] ProgramError),
    /// A stream file could not be read.
    #[error("{path}: cannot read stream: {message}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// A stream has a syntax error.
    #[error(transparent)]
    Stream(#[from] StreamError),
    /// A stream names ranks that do not exist.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Ranks(Vec<StreamRankError>),
    /// A stream is given for a rank the network does not have.
    #[error(
        "a stream is given for rank {rank} but the workload runs on {size} ranks (its processors or placement)"
    )]
    NoSuchRank {
        /// The rank.
        rank: u32,
        /// Number of processors.
        size: u32,
    },
    /// A time-independent trace could not be read.
    #[error(transparent)]
    Trace(#[from] TiError),
    /// The trace has another number of ranks than the network has processors.
    #[error(
        "{path}: the trace has {trace} ranks but the workload runs on {size} (the processors, or the placement: \
         --np, --ranks, --hostfile)"
    )]
    TraceSize {
        /// Trace file.
        path: String,
        /// Ranks in the trace.
        trace: usize,
        /// Processors in the network.
        size: u32,
    },
}

/// One program per rank `0..size` for `workload`; relative paths are resolved against `base_dir`.
pub fn programs_for(
    workload: &Workload,
    size: u32,
    base_dir: &Path,
) -> Result<Vec<Box<dyn RankProgram>>, WorkloadError> {
    let idle = || Box::new(OpList::default()) as Box<dyn RankProgram>;
    match workload {
        Workload::Idle => Ok((0..size).map(|_| idle()).collect()),
        Workload::Program { name, params } => Ok(instantiate_all(name, params, size)?),
        Workload::Streams { streams } => {
            if let Some((&rank, _)) = streams.iter().find(|(r, _)| **r >= size) {
                return Err(WorkloadError::NoSuchRank { rank, size });
            }
            let mut programs: Vec<Box<dyn RankProgram>> = (0..size).map(|_| idle()).collect();
            for (&rank, source) in streams {
                let ops = match source {
                    StreamSource::File(file) => {
                        let path = base_dir.join(file);
                        let text = read_capped(&path, MAX_WORKLOAD_FILE_BYTES).map_err(|e| {
                            WorkloadError::Read { path: path.display().to_string(), message: e.reason() }
                        })?;
                        parse_stream(&text, file)?
                    }
                    StreamSource::Inline(text) => parse_stream(text, &format!("rank{rank}.stream"))?,
                };
                check_ranks(&ops, size).map_err(WorkloadError::Ranks)?;
                programs[rank as usize] = Box::new(ops);
            }
            Ok(programs)
        }
        Workload::TimeIndependentTrace { path } => {
            let full = base_dir.join(path);
            let trace = load_ti_trace(&full, TiDialect::Auto)?;
            if trace.ranks.len() != size as usize {
                return Err(WorkloadError::TraceSize { path: path.clone(), trace: trace.ranks.len(), size });
            }
            for ops in &trace.ranks {
                check_ranks(ops, size).map_err(WorkloadError::Ranks)?;
            }
            Ok(trace.ranks.into_iter().map(|ops| Box::new(ops) as Box<dyn RankProgram>).collect())
        }
    }
}
