//! Why a processor stops its program: a program error reported in the trace and in the deadlock
//! report (`program error at p0.txt:3: destination rank 9 does not exist …`).

use hase_engine::limits::MAX_PACKETS_PER_MESSAGE;

use crate::mpi::collectives::ScheduleError;
use crate::mpi::op::RequestId;
use crate::netmodel::datasheet::DataSheetError;

/// What went wrong in a rank's program.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProgramFault {
    /// A destination, source or root that is not a rank of the run.
    #[error("{what} rank {rank} does not exist (there are {size} ranks)")]
    NoSuchRank {
        /// Which role the rank has: `destination`, `source` or `root`.
        what: &'static str,
        /// The rank named.
        rank: u32,
        /// Ranks in the run.
        size: u32,
    },
    /// A collective on a communicator the calling rank is not a member of.
    #[error("rank {rank} calls a collective on communicator {comm}, which it is not a member of")]
    NotAMember {
        /// The calling rank.
        rank: u32,
        /// The communicator's number.
        comm: u32,
    },
    /// The collective's schedule cannot be built.
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    /// The data sheet cannot time a call.
    #[error(transparent)]
    Sheet(#[from] DataSheetError),
    /// A wait names a program request that was never posted.
    #[error("wait on request {0} that was never posted")]
    UnpostedRequest(RequestId),
    /// A collective schedule waits on a handle it never posted.
    #[error("collective schedule waits on unposted handle {0}")]
    UnpostedHandle(u32),
    /// Sheet mode with no link to the data-sheet network model.
    #[error("cannot reach the data-sheet network: the port is not connected")]
    SheetUnreachable,
    /// A message that needs more packets than a message may have.
    #[error(
        "a message of {wire_bytes} B in packets of at most {max_packet} B needs {count} packets; \
         the limit is {MAX_PACKETS_PER_MESSAGE} per message (raise max_packet)"
    )]
    TooManyPackets {
        /// Message and header bytes.
        wire_bytes: u64,
        /// Largest packet.
        max_packet: u64,
        /// Packets needed.
        count: u64,
    },
}

/// Ok if `rank` is one of the `size` ranks; else the fault naming `what` it is.
pub(super) fn check_rank(rank: u32, size: u32, what: &'static str) -> Result<(), ProgramFault> {
    if rank < size { Ok(()) } else { Err(ProgramFault::NoSuchRank { what, rank, size }) }
}
