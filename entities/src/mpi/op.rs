//! The operations a rank's program issues: computation, point-to-point (blocking and non-blocking)
//! and collectives with an optional algorithm choice. Instruction streams, time-independent traces
//! and the built-in programs all produce these.

use hase_engine::time::SimTime;

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

/// Collective algorithms. Which ones apply to which kind is given by `Algorithm::applies_to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Algorithm {
    /// Barrier: round k sends to rank+2^k, receives from rank−2^k.
    Dissemination,
    /// Barrier: binomial gather of zero-byte messages to rank 0, then binomial release.
    Tree,
    /// Bcast, reduce, gather, scatter: binomial tree rooted at the root.
    Binomial,
    /// Bcast: a chain through the ranks with the message cut into segments.
    Pipelined,
    /// Allreduce, allgather: pairwise exchanges with partners at distance 2^k.
    RecursiveDoubling,
    /// Allreduce (reduce-scatter + allgather around a ring), allgather.
    Ring,
    /// Allreduce: binomial reduce to rank 0, then binomial bcast.
    ReduceBcast,
    /// Allreduce: reduce-scatter by recursive halving, allgather by recursive doubling.
    Rabenseifner,
    /// Alltoall: step k exchanges with rank±k.
    Pairwise,
    /// Alltoall: log2(p) rounds of combined blocks.
    Bruck,
    /// Alltoall: step k exchanges with rank ⊕ k (power-of-two p; SimGrid's `pair`).
    PairwiseXor,
    /// Reduce-scatter: recursive halving of the vector between partners at distance p/2, p/4, ….
    RecursiveHalving,
    /// Scan: every rank sends its vector to every higher rank (SimGrid's MPI_Scan).
    Linear,
    /// Scan: a chain r − 1 → r → r + 1 (Open MPI's `linear`).
    Chain,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 14] = [
        Algorithm::Dissemination,
        Algorithm::Tree,
        Algorithm::Binomial,
        Algorithm::Pipelined,
        Algorithm::RecursiveDoubling,
        Algorithm::Ring,
        Algorithm::ReduceBcast,
        Algorithm::Rabenseifner,
        Algorithm::Pairwise,
        Algorithm::Bruck,
        Algorithm::PairwiseXor,
        Algorithm::RecursiveHalving,
        Algorithm::Linear,
        Algorithm::Chain,
    ];

    /// Lower-case name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dissemination => "dissemination",
            Algorithm::Tree => "tree",
            Algorithm::Binomial => "binomial",
            Algorithm::Pipelined => "pipelined",
            Algorithm::RecursiveDoubling => "recursive_doubling",
            Algorithm::Ring => "ring",
            Algorithm::ReduceBcast => "reduce_bcast",
            Algorithm::Rabenseifner => "rabenseifner",
            Algorithm::Pairwise => "pairwise",
            Algorithm::Bruck => "bruck",
            Algorithm::PairwiseXor => "pairwise_xor",
            Algorithm::RecursiveHalving => "recursive_halving",
            Algorithm::Linear => "linear",
            Algorithm::Chain => "chain",
        }
    }

    /// Parse a name (also accepts `-` for `_`).
    pub fn from_name(name: &str) -> Option<Self> {
        let n = name.to_ascii_lowercase().replace('-', "_");
        Self::ALL.into_iter().find(|a| a.name() == n)
    }

    /// True if this algorithm implements `kind`.
    pub fn applies_to(self, kind: CollectiveKind) -> bool {
        use CollectiveKind as K;
        match self {
            Algorithm::Dissemination | Algorithm::Tree => kind == K::Barrier,
            Algorithm::Binomial => matches!(kind, K::Bcast | K::Reduce | K::Gather | K::Scatter),
            Algorithm::Pipelined => kind == K::Bcast,
            Algorithm::RecursiveDoubling => {
                matches!(kind, K::Barrier | K::Allreduce | K::Allgather | K::Scan)
            }
            Algorithm::Ring => matches!(kind, K::Allreduce | K::Allgather | K::ReduceScatter),
            Algorithm::ReduceBcast | Algorithm::Rabenseifner => kind == K::Allreduce,
            Algorithm::Pairwise | Algorithm::Bruck | Algorithm::PairwiseXor => kind == K::Alltoall,
            Algorithm::RecursiveHalving => kind == K::ReduceScatter,
            Algorithm::Linear | Algorithm::Chain => kind == K::Scan,
        }
    }

    /// The algorithm used when none is chosen.
    pub fn default_for(kind: CollectiveKind) -> Self {
        match kind {
            CollectiveKind::Barrier => Algorithm::Dissemination,
            CollectiveKind::Bcast
            | CollectiveKind::Reduce
            | CollectiveKind::Gather
            | CollectiveKind::Scatter => Algorithm::Binomial,
            CollectiveKind::Allreduce | CollectiveKind::Allgather | CollectiveKind::Scan => {
                Algorithm::RecursiveDoubling
            }
            CollectiveKind::Alltoall => Algorithm::Pairwise,
            CollectiveKind::ReduceScatter => Algorithm::RecursiveHalving,
        }
    }

    /// True if the algorithm runs on power-of-two communicators only.
    pub fn needs_power_of_two(self) -> bool {
        self == Algorithm::PairwiseXor
    }

    /// The algorithms that implement `kind`.
    pub fn for_kind(kind: CollectiveKind) -> Vec<Algorithm> {
        Self::ALL.into_iter().filter(|a| a.applies_to(kind)).collect()
    }
}

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
