//! The collective operations MPI programs call (barrier, bcast, …), with their names.

/// The collective operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CollectiveKind {
    /// Synchronise all ranks.
    Barrier,
    /// Root sends `bytes` to everyone.
    Bcast,
    /// Everyone's `bytes` combined at the root.
    Reduce,
    /// Everyone's `bytes` combined, result everywhere.
    Allreduce,
    /// Root collects `bytes` from each rank.
    Gather,
    /// Root sends a distinct `bytes` block to each rank.
    Scatter,
    /// Everyone collects `bytes` from each rank.
    Allgather,
    /// Everyone sends a distinct `bytes` block to each rank.
    Alltoall,
    /// Everyone's `bytes` vector combined and scattered: rank r keeps block r of p.
    ReduceScatter,
    /// Inclusive prefix reduction: rank r gets the combination of ranks 0..=r's `bytes`.
    Scan,
}

impl CollectiveKind {
    /// Every kind, in a stable order.
    pub const ALL: [CollectiveKind; 10] = [
        CollectiveKind::Barrier,
        CollectiveKind::Bcast,
        CollectiveKind::Reduce,
        CollectiveKind::Allreduce,
        CollectiveKind::Gather,
        CollectiveKind::Scatter,
        CollectiveKind::Allgather,
        CollectiveKind::Alltoall,
        CollectiveKind::ReduceScatter,
        CollectiveKind::Scan,
    ];

    /// Upper-case name, also the processor state shown while a rank is inside the collective.
    pub fn state_name(self) -> &'static str {
        match self {
            CollectiveKind::Barrier => "BARRIER",
            CollectiveKind::Bcast => "BCAST",
            CollectiveKind::Reduce => "REDUCE",
            CollectiveKind::Allreduce => "ALLREDUCE",
            CollectiveKind::Gather => "GATHER",
            CollectiveKind::Scatter => "SCATTER",
            CollectiveKind::Allgather => "ALLGATHER",
            CollectiveKind::Alltoall => "ALLTOALL",
            CollectiveKind::ReduceScatter => "REDUCE_SCATTER",
            CollectiveKind::Scan => "SCAN",
        }
    }

    /// Parse the upper- or lower-case name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.state_name().eq_ignore_ascii_case(name))
    }

    /// True if the operation has a root.
    pub fn has_root(self) -> bool {
        matches!(
            self,
            CollectiveKind::Bcast | CollectiveKind::Reduce | CollectiveKind::Gather | CollectiveKind::Scatter
        )
    }
}
