//! Communicators other than MPI_COMM_WORLD and the collectives with per-rank counts (gatherv,
//! scatterv, allgatherv, alltoallv). A [`Communicator`] is a list of world ranks in the order of
//! its own rank numbers, with a number every member agrees on (a recording numbers them, see
//! `docs/ti-traces.md`); a collective on it runs its schedule in its own rank numbering and its
//! messages go to the members' world ranks. A [`VCollective`] carries the byte counts as the
//! calling rank passed them to MPI; its schedules are in `collectives::vector`.

use std::sync::Arc;

/// A group of ranks with its own rank numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Communicator {
    /// The number the members know it by (never 0: that is MPI_COMM_WORLD).
    pub id: u32,
    /// World rank of each member, indexed by its rank in the communicator.
    pub members: Arc<[u32]>,
}

impl Communicator {
    /// Ranks in the communicator.
    pub fn size(&self) -> u32 {
        u32::try_from(self.members.len()).unwrap_or(u32::MAX)
    }

    /// The communicator rank of world rank `world`, if it is a member.
    pub fn local_rank(&self, world: u32) -> Option<u32> {
        self.members.iter().position(|m| *m == world).and_then(|i| u32::try_from(i).ok())
    }

    /// The world rank of communicator rank `local` (`local` < [`size`](Self::size)).
    pub fn world_rank(&self, local: u32) -> u32 {
        self.members.get(local as usize).copied().unwrap_or(local)
    }
}

/// The collectives whose counts differ per rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum VKind {
    /// Root collects `send_bytes[0]` from each rank, `recv_bytes[i]` from rank i.
    Gatherv,
    /// Root sends `send_bytes[i]` to rank i; each rank receives `recv_bytes[0]`.
    Scatterv,
    /// Each rank sends `send_bytes[0]` to all; receives `recv_bytes[i]` from rank i.
    Allgatherv,
    /// Each rank sends `send_bytes[i]` to rank i and receives `recv_bytes[i]` from it.
    Alltoallv,
}

impl VKind {
    /// Every kind, in a stable order.
    pub const ALL: [VKind; 4] = [VKind::Gatherv, VKind::Scatterv, VKind::Allgatherv, VKind::Alltoallv];

    /// Lower-case name, as in SimGrid's time-independent traces.
    pub fn name(self) -> &'static str {
        match self {
            VKind::Gatherv => "gatherv",
            VKind::Scatterv => "scatterv",
            VKind::Allgatherv => "allgatherv",
            VKind::Alltoallv => "alltoallv",
        }
    }

    /// True if the operation has a root.
    pub fn has_root(self) -> bool {
        matches!(self, VKind::Gatherv | VKind::Scatterv)
    }
}

/// A collective with per-rank counts, as one rank called it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VCollective {
    /// Which operation.
    pub kind: VKind,
    /// Root (communicator rank; 0 when the kind has none).
    pub root: u32,
    /// Bytes sent: one entry per communicator rank (scatterv at the root, alltoallv), or one entry,
    /// this rank's block (gatherv, allgatherv).
    pub send_bytes: Vec<u64>,
    /// Bytes received: one entry per communicator rank (gatherv at the root, allgatherv,
    /// alltoallv), or one entry, this rank's block (scatterv).
    pub recv_bytes: Vec<u64>,
}
