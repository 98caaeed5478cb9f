//! The second pass over a read stream, once the number of ranks is known: every destination,
//! source and root must be a rank of the run.

use crate::mpi::op::{Op, Source};
use crate::workload::program::OpList;

/// A rank outside the run, at `file:line`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct RankError {
    /// `file:line` of the operation (or `operation N` when the list carries no locations).
    pub location: String,
    /// What is wrong.
    pub message: String,
}

/// Check every rank named by `ops` against a run of `size` ranks. Each offending line is reported
/// once, however often a `REPEAT` unrolled it.
pub fn check_ranks(ops: &OpList, size: u32) -> Result<(), Vec<RankError>> {
    let mut errors: Vec<RankError> = Vec::new();
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
        let error = RankError {
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
mod tests {
    use super::*;
    use crate::workload::stream::parse_stream;

    #[test]
    fn reports_each_bad_line_once() {
        let text = "REPEAT 3\n  SEND 4 1K\n  RECV ANY\nEND\nBCAST 9 8\nALLREDUCE 8\nIRECV 2 AS r\nWAIT r\n";
        let ops = parse_stream(text, "p0.txt").unwrap();
        let errors = check_ranks(&ops, 4).unwrap_err();
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            vec![
                "p0.txt:2: SEND destination 4 is not a rank: the run has 4 ranks (0..=3)",
                "p0.txt:5: BCAST root 9 is not a rank: the run has 4 ranks (0..=3)",
            ]
        );
        assert!(check_ranks(&ops, 10).is_ok());
        assert_eq!(check_ranks(&ops, 2).unwrap_err().len(), 3);
    }
}
