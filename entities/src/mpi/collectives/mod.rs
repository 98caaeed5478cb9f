//! Collective operations built from point-to-point messages: each algorithm produces, for one rank,
//! a schedule of micro-operations (post a send, post a receive, wait, combine data). The processor
//! runs the schedule with the same point-to-point machinery user messages use, so collectives see
//! the modelled network's contention.
//!
//! One file per algorithm family: `barrier` (dissemination, tree), `tree` (binomial bcast, reduce,
//! gather, scatter), `pipeline` (pipelined bcast), `doubling` (recursive-doubling allreduce and
//! allgather, and the fold for non-power-of-two sizes), `ring` (ring allreduce and allgather),
//! `rabenseifner` (allreduce), `alltoall` (pairwise, XOR pairwise, Bruck), `reduce_scatter` (ring,
//! recursive halving) and `scan` (linear, chain, recursive doubling). Each file's header gives the
//! message pattern and the cost formula; `docs/collectives.md` collects them with the names SimGrid
//! and Open MPI give the same algorithms.
//!
//! Conventions every schedule follows: exchanges post the receive before the send and wait for both
//! together (so they cannot deadlock under a rendezvous protocol); a `Combine` follows every wait on
//! data that a reduction folds into its buffer; a communicator of one rank gets an empty schedule.

mod alltoall;
mod barrier;
mod builder;
mod doubling;
mod pipeline;
mod rabenseifner;
mod reduce_scatter;
mod ring;
mod scan;
mod tree;

#[cfg(test)]
mod executor;
#[cfg(test)]
mod tests;

use self::builder::Builder;
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
    /// The algorithm needs a power-of-two communicator.
    #[error("algorithm `{algorithm}` needs a power-of-two number of ranks, not {size}")]
    NeedsPowerOfTwo {
        /// Algorithm name.
        algorithm: &'static str,
        /// Communicator size.
        size: u32,
    },
    /// A pipelined message would be cut into more segments than a schedule may hold.
    #[error(
        "{bytes} bytes in segments of {segment_bytes} bytes make {segments} segments (at most {limit}); \
         raise segment_bytes"
    )]
    TooManySegments {
        /// Message size.
        bytes: u64,
        /// Segment size asked for.
        segment_bytes: u64,
        /// Segments that would result.
        segments: u64,
        /// Most segments allowed ([`MAX_SEGMENTS`]).
        limit: u64,
    },
}

/// Most segments a pipelined schedule may cut a message into (each costs three micro-operations on
/// every rank of the chain).
pub use hase_engine::limits::MAX_SEGMENTS;

/// Parameters the schedule builder needs besides the call itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduleParams {
    /// Segment size for pipelined algorithms; 0 sends the message as one segment.
    pub segment_bytes: u64,
}

impl Default for ScheduleParams {
    fn default() -> Self {
        ScheduleParams { segment_bytes: 8192 }
    }
}

/// The micro-operations `rank` performs for `call` in a communicator of `size` ranks.
///
/// The algorithm is `call.algorithm`, or [`Algorithm::default_for`] the kind. `call.bytes` is read as
/// MPI does: the whole vector for bcast/reduce/allreduce/scan (and the vector reduce-scatter splits
/// into p blocks), the per-rank block for gather, scatter, allgather and alltoall; barrier messages
/// are empty. Every rank of the communicator must build
/// its schedule from the same call; together the schedules match send for receive, in order, per
/// pair of ranks.
pub fn schedule(
    call: &Collective,
    rank: u32,
    size: u32,
    params: ScheduleParams,
) -> Result<Vec<MicroOp>, ScheduleError> {
    use Algorithm as A;
    use CollectiveKind as K;
    let algorithm = call.algorithm.unwrap_or_else(|| Algorithm::default_for(call.kind));
    let not_applicable = || ScheduleError::NotApplicable {
        algorithm: algorithm.name(),
        kind: call.kind.state_name(),
        choices: Algorithm::for_kind(call.kind).iter().map(|a| a.name()).collect::<Vec<_>>().join(", "),
    };
    if !algorithm.applies_to(call.kind) {
        return Err(not_applicable());
    }
    if rank >= size {
        return Err(ScheduleError::BadRank { rank, size });
    }
    if call.kind.has_root() && call.root >= size {
        return Err(ScheduleError::BadRoot { root: call.root, size });
    }
    if algorithm.needs_power_of_two() && !size.is_power_of_two() {
        return Err(ScheduleError::NeedsPowerOfTwo { algorithm: algorithm.name(), size });
    }
    if algorithm == Algorithm::Pipelined && params.segment_bytes > 0 {
        let segments = call.bytes.div_ceil(params.segment_bytes);
        if segments > MAX_SEGMENTS {
            return Err(ScheduleError::TooManySegments {
                bytes: call.bytes,
                segment_bytes: params.segment_bytes,
                segments,
                limit: MAX_SEGMENTS,
            });
        }
    }
    let mut b = Builder::new();
    if size == 1 {
        return Ok(b.finish());
    }
    let (root, bytes) = (call.root, call.bytes);
    match (call.kind, algorithm) {
        (K::Barrier, A::Dissemination) => barrier::dissemination(&mut b, rank, size),
        (K::Barrier, A::Tree) => barrier::tree(&mut b, rank, size),
        (K::Barrier, A::RecursiveDoubling) => barrier::recursive_doubling(&mut b, rank, size),
        (K::Bcast, A::Binomial) => tree::bcast(&mut b, rank, size, root, bytes),
        (K::Bcast, A::Pipelined) => pipeline::bcast(&mut b, rank, size, root, bytes, params.segment_bytes),
        (K::Reduce, A::Binomial) => tree::reduce(&mut b, rank, size, root, bytes),
        (K::Gather, A::Binomial) => tree::gather(&mut b, rank, size, root, bytes),
        (K::Scatter, A::Binomial) => tree::scatter(&mut b, rank, size, root, bytes),
        (K::Allreduce, A::RecursiveDoubling) => doubling::allreduce(&mut b, rank, size, bytes),
        (K::Allreduce, A::Ring) => ring::allreduce(&mut b, rank, size, bytes),
        (K::Allreduce, A::ReduceBcast) => {
            tree::reduce(&mut b, rank, size, 0, bytes);
            tree::bcast(&mut b, rank, size, 0, bytes);
        }
        (K::Allreduce, A::Rabenseifner) => rabenseifner::allreduce(&mut b, rank, size, bytes),
        (K::Allgather, A::Ring) => ring::allgather(&mut b, rank, size, bytes),
        (K::Allgather, A::RecursiveDoubling) => doubling::allgather(&mut b, rank, size, bytes),
        (K::Alltoall, A::Pairwise) => alltoall::pairwise(&mut b, rank, size, bytes),
        (K::Alltoall, A::Bruck) => alltoall::bruck(&mut b, rank, size, bytes),
        (K::Alltoall, A::PairwiseXor) => alltoall::pairwise_xor(&mut b, rank, size, bytes),
        (K::ReduceScatter, A::Ring) => reduce_scatter::ring(&mut b, rank, size, bytes),
        (K::ReduceScatter, A::RecursiveHalving) => {
            reduce_scatter::recursive_halving(&mut b, rank, size, bytes);
        }
        (K::Scan, A::Linear) => scan::linear(&mut b, rank, size, bytes),
        (K::Scan, A::Chain) => scan::chain(&mut b, rank, size, bytes),
        (K::Scan, A::RecursiveDoubling) => scan::recursive_doubling(&mut b, rank, size, bytes),
        _ => return Err(not_applicable()),
    }
    Ok(b.finish())
}
