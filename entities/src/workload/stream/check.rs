//! The second pass over a read stream, once the number of ranks is known: every destination,
//! source and root must be a rank of the run.

use crate::mpi::op::{Op, Source};
use crate::workload::program::OpList;

/// A rank outside the run, at `file:line`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct StreamRankError {
    /// `file:line` of the operation (or `operation N` when the list carries no locations).
    pub location: String,
    /// What is wrong.
    pub message: String,
}

/// Check every rank named by `ops` against a run of `size` ranks. Each offending line is reported
/// once, however often a `REPEAT` unrolled it.
pub fn check_ranks(ops: &OpList, size: u32) -> Result<(), Vec<StreamRankError>> {
    let mut errors: Vec<StreamRankError> = Vec::new();
    for (index, (op, location)) in ops.located_ops().enumerate() {
        let (what, rank) = match op {
            Op::Send { dst, .. } => ("SEND destination", *dst),
            Op::Isend { dst, .. } => ("ISEND destination", *dst),
            Op::Recv { src: Source::Rank(r), .. } => ("RECV source", *r),
            Op::Irecv { src: Source::Rank(r), .. } => ("IRECV source", *r),
            Op::Collective(c) if c.kind.has_root() => (c.kind.state_name(), c.root),
            _ => continue,
        };
        if rank < size {
            continue;
        }
        let what = if matches!(op, Op::Collective(_)) { format!("{what} root") } else { what.to_string() };
        let error = StreamRankError {
            location: location.map_or_else(|| format!("operation {}", index + 1), str::to_string),
            message: format!(
                "{what} {rank} is not a rank: the run has {size} ranks (0..={})",
                size.saturating_sub(1)
            ),
        };
        if !errors.contains(&error) {
            errors.push(error);
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
