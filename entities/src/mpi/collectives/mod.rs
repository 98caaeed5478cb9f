//! Collective operations built from point-to-point messages: each algorithm produces, for one rank,
//! a schedule of micro-operations (post a send, post a receive, wait, combine data). The processor
//! runs the schedule with the same point-to-point machinery user messages use, so collectives see
//! the modelled network's contention.
//!
//! The algorithms are the rows of one table, `registry` (operation, name, builder, one line of
//! description). Each builder lives in its family's file: `barrier` (dissemination, tree,
//! recursive doubling), `tree` (binomial bcast, reduce, gather, scatter, reduce-then-bcast),
//! `pipeline` (pipelined bcast), `doubling` (recursive-doubling allreduce and allgather, and the
//! fold for non-power-of-two sizes), `ring` (ring allreduce and allgather), `rabenseifner`
//! (allreduce), `alltoall` (pairwise, XOR pairwise, Bruck), `reduce_scatter` (ring, recursive
//! halving), `scan` (linear, chain, recursive doubling) and `vector` (the collectives with
//! per-rank counts: gatherv, scatterv, allgatherv, alltoallv). Each file's header gives the message
//! pattern and the cost formula; `docs/collectives.md` collects them with the names SimGrid and
//! Open MPI give the same algorithms.
//!
//! Conventions every schedule follows: exchanges post the receive before the send and wait for both
//! together (so they cannot deadlock under a rendezvous protocol); a `Combine` follows every wait on
//! data that a reduction folds into its buffer; a communicator of one rank gets an empty schedule.

mod algorithm;
mod alltoall;
mod barrier;
mod builder;
mod doubling;
mod error;
mod micro_op;
mod pipeline;
mod rabenseifner;
mod reduce_scatter;
mod registry;
mod ring;
mod scan;
mod tree;
mod vector;

#[cfg(test)]
mod executor;
#[cfg(test)]
mod registry_tests;
#[cfg(test)]
mod tests;

pub use algorithm::Algorithm;
pub use error::ScheduleError;
pub use micro_op::MicroOp;
pub use vector::vector_schedule;

use self::builder::Builder;
use self::registry::{CallShape, Needs};
use super::op::Collective;

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
    let algorithm = call.algorithm.unwrap_or_else(|| Algorithm::default_for(call.kind));
    let Some(row) = registry::find(call.kind, algorithm.name()) else {
        return Err(ScheduleError::NotApplicable {
            algorithm: algorithm.name(),
            kind: call.kind.state_name(),
            choices: Algorithm::for_kind(call.kind).iter().map(|a| a.name()).collect::<Vec<_>>().join(", "),
        });
    };
    if rank >= size {
        return Err(ScheduleError::BadRank { rank, size });
    }
    if call.kind.has_root() && call.root >= size {
        return Err(ScheduleError::BadRoot { root: call.root, size });
    }
    if row.needs == Needs::PowerOfTwo && !size.is_power_of_two() {
        return Err(ScheduleError::NeedsPowerOfTwo { algorithm: algorithm.name(), size });
    }
    if row.needs == Needs::FewSegments && params.segment_bytes > 0 {
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
    if size > 1 {
        let shape =
            CallShape { rank, size, root: call.root, bytes: call.bytes, segment_bytes: params.segment_bytes };
        (row.build)(&mut b, &shape);
    }
    Ok(b.finish())
}
