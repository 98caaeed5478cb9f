//! The operations a rank's program issues: computation, point-to-point (blocking and non-blocking)
//! and collectives with an optional algorithm choice. Instruction streams, time-independent traces
//! and the built-in programs all produce these.

use hase_engine::time::SimTime;

pub use super::collectives::Algorithm;
pub use super::group::{Communicator, VCollective, VKind};
pub use super::kind::CollectiveKind;

/// How much computation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Work {
    /// A fixed simulated time.
    Time(SimTime),
    /// Steps × the processor's `time_step` parameter (so one workload can be bracketed between a
    /// fast and a slow processor).
    Steps(u64),
    /// Floating-point operations ÷ the processor's `flops_per_s` parameter (SimGrid traces).
    Flops(f64),
}

/// Which sender a receive accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Only this rank.
    Rank(u32),
    /// Any rank (MPI_ANY_SOURCE).
    Any,
}

/// Which tag a receive accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagSel {
    /// Only this tag.
    Tag(i32),
    /// Any tag (MPI_ANY_TAG).
    Any,
}

/// A handle naming a non-blocking request, chosen by the program (stream files use `req` numbers).
pub type RequestId = u32;

/// A collective call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collective {
    /// Which operation.
    pub kind: CollectiveKind,
    /// Root rank (0 when the kind has none).
    pub root: u32,
    /// Bytes as passed to the MPI call: the whole vector for bcast/reduce/allreduce/scan and the
    /// whole vector reduce-scatter splits into p blocks, the per-rank block for
    /// gather/scatter/allgather/alltoall, ignored for barrier.
    pub bytes: u64,
    /// Algorithm, or the processor's default for the kind.
    pub algorithm: Option<Algorithm>,
}

/// A collective on part of the ranks, or with per-rank counts.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupCall {
    /// A collective of [`CollectiveKind`]'s kinds.
    Regular(Collective),
    /// A collective with per-rank counts.
    Vector(VCollective),
}

/// One operation of a rank's program.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Compute for a while.
    Compute(Work),
    /// Blocking send.
    Send {
        /// Destination rank.
        dst: u32,
        /// Message size.
        bytes: u64,
        /// Tag.
        tag: i32,
    },
    /// Blocking receive.
    Recv {
        /// Accepted source.
        src: Source,
        /// Accepted tag.
        tag: TagSel,
    },
    /// Non-blocking send.
    Isend {
        /// Destination rank.
        dst: u32,
        /// Message size.
        bytes: u64,
        /// Tag.
        tag: i32,
        /// Handle for `Wait`.
        req: RequestId,
    },
    /// Non-blocking receive.
    Irecv {
        /// Accepted source.
        src: Source,
        /// Accepted tag.
        tag: TagSel,
        /// Handle for `Wait`.
        req: RequestId,
    },
    /// Wait for one request.
    Wait {
        /// The request.
        req: RequestId,
    },
    /// Wait for every outstanding request.
    WaitAll,
    /// A collective.
    Collective(Collective),
    /// A collective with per-rank counts, or any collective on a communicator other than
    /// MPI_COMM_WORLD.
    Grouped {
        /// The communicator; `None` is MPI_COMM_WORLD.
        comm: Option<Communicator>,
        /// The call, with its root in the communicator's numbering.
        call: GroupCall,
    },
    /// A trace comment (level 1), e.g. a source-line marker.
    Comment(String),
}

/// What the last completed blocking receive (or waited-for receive request) delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecvStatus {
    /// Sender rank.
    pub source: u32,
    /// Tag.
    pub tag: i32,
    /// Size.
    pub bytes: u64,
}
