//! Collective operations built from point-to-point messages: each algorithm produces, for one rank,
//! a schedule of micro-operations (post a send, post a receive, wait, combine data). The processor
//! runs the schedule with the same point-to-point machinery user messages use, so collectives see
//! the modelled network's contention.

use super::op::{Algorithm, Collective, CollectiveKind};

/// One step of a rank's part in a collective. Handles are indices of the `Isend`/`Irecv` steps in
/// posting order (the first posted request is handle 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MicroOp {
    /// Post a send of `bytes` to `peer`.
    Isend {
        /// Destination rank.
        peer: u32,
        /// Bytes.
        bytes: u64,
    },
    /// Post a receive of `bytes` from `peer`.
    Irecv {
        /// Source rank.
        peer: u32,
        /// Bytes.
        bytes: u64,
    },
    /// Wait until these handles have completed.
    Wait(Vec<u32>),
    /// Combine `bytes` of received data into the local buffer (costs the processor's reduce time).
    Combine {
        /// Bytes combined.
        bytes: u64,
    },
}

/// Why a schedule cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// The algorithm does not implement the operation.
    #[error("algorithm `{algorithm}` does not implement {kind}; use one of: {choices}")]
    NotApplicable {
        /// Algorithm name.
        algorithm: &'static str,
        /// Operation name.
        kind: &'static str,
        /// Names of the algorithms that do.
        choices: String,
    },
    /// Root outside the communicator.
    #[error("root {root} is not a rank of a communicator of size {size}")]
    BadRoot {
        /// Root given.
        root: u32,
        /// Communicator size.
        size: u32,
    },
    /// Rank outside the communicator.
    #[error("rank {rank} is not in a communicator of size {size}")]
    BadRank {
        /// Rank given.
        rank: u32,
        /// Communicator size.
        size: u32,
    },
}

/// Parameters the schedule builder needs besides the call itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduleParams {
    /// Segment size for pipelined algorithms.
    pub segment_bytes: u64,
}

impl Default for ScheduleParams {
    fn default() -> Self {
        ScheduleParams { segment_bytes: 8192 }
    }
}

/// The micro-operations `rank` performs for `call` in a communicator of `size` ranks.
pub fn schedule(
    call: &Collective,
    rank: u32,
    size: u32,
    params: ScheduleParams,
) -> Result<Vec<MicroOp>, ScheduleError> {
    let algorithm = call.algorithm.unwrap_or_else(|| Algorithm::default_for(call.kind));
    if !algorithm.applies_to(call.kind) {
        return Err(ScheduleError::NotApplicable {
            algorithm: algorithm.name(),
            kind: call.kind.state_name(),
            choices: Algorithm::for_kind(call.kind).iter().map(|a| a.name()).collect::<Vec<_>>().join(", "),
        });
    }
    if rank >= size {
        return Err(ScheduleError::BadRank { rank, size });
    }
    if call.kind.has_root() && call.root >= size {
        return Err(ScheduleError::BadRoot { root: call.root, size });
    }
    let _ = (params, CollectiveKind::Barrier);
    // Placeholder until the algorithms land (see the collectives work item).
    Ok(Vec::new())
}
