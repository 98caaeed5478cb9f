//! Why a collective schedule cannot be built.

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
        /// Most segments allowed ([`MAX_SEGMENTS`](hase_engine::limits::MAX_SEGMENTS)).
        limit: u64,
    },
    /// A per-rank count list of a v-collective does not have one entry per rank.
    #[error("{kind} has {counts} {what} counts for a communicator of {size} ranks")]
    CountsLength {
        /// Operation name.
        kind: &'static str,
        /// `send` or `receive`.
        what: &'static str,
        /// Counts given.
        counts: usize,
        /// Communicator size.
        size: u32,
    },
}
