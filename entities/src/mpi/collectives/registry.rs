//! The collective algorithms: one row per (operation, algorithm) pair with its name, the function
//! in the family file that builds one rank's schedule, one line of description, and what the
//! algorithm needs of the call. Adding an algorithm is one row here plus its builder function in
//! its family file (and its section in `docs/collectives.md`).
//!
//! Rows are grouped by algorithm name; the first appearance of each name gives the order in which
//! names are listed ([`Algorithm::all`](super::Algorithm::all)), and the rows of one operation, in
//! table order, are the choices listed for it.

use super::builder::Builder;
use super::{alltoall, barrier, doubling, pipeline, rabenseifner, reduce_scatter, ring, scan, tree};
use crate::mpi::kind::CollectiveKind as K;

/// The call as a builder sees it: this rank, the communicator size, the root (0 when the operation
/// has none), the bytes as MPI reads them, and the segment size of pipelined algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CallShape {
    /// The rank whose schedule is built.
    pub(super) rank: u32,
    /// Ranks in the communicator.
    pub(super) size: u32,
    /// The root rank.
    pub(super) root: u32,
    /// Bytes as passed to the MPI call.
    pub(super) bytes: u64,
    /// Segment size of pipelined algorithms (0: one segment).
    pub(super) segment_bytes: u64,
}

/// What an algorithm needs of a call beyond a valid rank and root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Needs {
    /// Any communicator size.
    Nothing,
    /// A power-of-two number of ranks.
    PowerOfTwo,
    /// The message cut into at most `MAX_SEGMENTS` segments.
    FewSegments,
}

/// One collective algorithm for one operation.
pub(crate) struct AlgorithmRow {
    /// The operation it implements.
    pub(crate) kind: K,
    /// Lower-case name used in files and on the command line.
    pub(crate) name: &'static str,
    /// Appends one rank's micro-operations for a call of more than one rank.
    pub(super) build: fn(&mut Builder, &CallShape),
    /// One line: the message pattern.
    pub(crate) doc: &'static str,
    /// True for the algorithm used when a call names none (one per operation).
    pub(crate) default: bool,
    /// What it needs of the call.
    pub(crate) needs: Needs,
}

const fn row(
    kind: K,
    name: &'static str,
    build: fn(&mut Builder, &CallShape),
    doc: &'static str,
) -> AlgorithmRow {
    AlgorithmRow { kind, name, build, doc, default: false, needs: Needs::Nothing }
}

impl AlgorithmRow {
    /// The same row, as its operation's default.
    const fn by_default(self) -> Self {
        AlgorithmRow { default: true, ..self }
    }

    /// The same row, needing `needs` of the call.
    const fn needing(self, needs: Needs) -> Self {
        AlgorithmRow { needs, ..self }
    }
}

/// Every (operation, algorithm) pair hase implements.
pub(crate) const ALGORITHMS: &[AlgorithmRow] = &[
    row(
        K::Barrier,
        "dissemination",
        |b, c| barrier::dissemination(b, c.rank, c.size),
        "round k sends to rank + 2^k and receives from rank − 2^k",
    )
    .by_default(),
    row(
        K::Barrier,
        "tree",
        |b, c| barrier::tree(b, c.rank, c.size),
        "binomial gather of zero-byte messages to rank 0, then a binomial release",
    ),
    row(
        K::Bcast,
        "binomial",
        |b, c| tree::bcast(b, c.rank, c.size, c.root, c.bytes),
        "binomial tree rooted at the root",
    )
    .by_default(),
    row(
        K::Bcast,
        "binomial_blocking",
        |b, c| tree::bcast_blocking(b, c.rank, c.size, c.root, c.bytes),
        "binomial tree rooted at the root, the children sent to one after another with blocking sends",
    ),
    row(
        K::Reduce,
        "binomial",
        |b, c| tree::reduce(b, c.rank, c.size, c.root, c.bytes),
        "binomial tree rooted at the root, combining on the way up",
    )
    .by_default(),
    row(
        K::Gather,
        "binomial",
        |b, c| tree::gather(b, c.rank, c.size, c.root, c.bytes),
        "binomial tree rooted at the root, each message carrying its sender's subtree",
    )
    .by_default(),
    row(
        K::Scatter,
        "binomial",
        |b, c| tree::scatter(b, c.rank, c.size, c.root, c.bytes),
        "binomial tree rooted at the root, each message carrying its receiver's subtree",
    )
    .by_default(),
    row(
        K::Bcast,
        "pipelined",
        |b, c| pipeline::bcast(b, c.rank, c.size, c.root, c.bytes, c.segment_bytes),
        "a chain through the ranks with the message cut into segments",
    )
    .needing(Needs::FewSegments),
    row(
        K::Barrier,
        "recursive_doubling",
        |b, c| barrier::recursive_doubling(b, c.rank, c.size),
        "pairwise exchanges with rank ⊕ 2^k, the ranks beyond the power of two paired first",
    ),
    row(
        K::Allreduce,
        "recursive_doubling",
        |b, c| doubling::allreduce(b, c.rank, c.size, c.bytes),
        "pairwise exchanges with partners at distance 2^k",
    )
    .by_default(),
    row(
        K::Allgather,
        "recursive_doubling",
        |b, c| doubling::allgather(b, c.rank, c.size, c.bytes),
        "pairwise exchanges with partners at distance 2^k, doubling the blocks held",
    )
    .by_default(),
    row(
        K::Scan,
        "recursive_doubling",
        |b, c| scan::recursive_doubling(b, c.rank, c.size, c.bytes),
        "exchanges with rank ⊕ 2^k, combining only what comes from lower ranks",
    )
    .by_default(),
    row(
        K::Allreduce,
        "ring",
        |b, c| ring::allreduce(b, c.rank, c.size, c.bytes),
        "reduce-scatter then allgather around a ring",
    ),
    row(
        K::Allgather,
        "ring",
        |b, c| ring::allgather(b, c.rank, c.size, c.bytes),
        "each block passed on around a ring",
    ),
    row(
        K::ReduceScatter,
        "ring",
        |b, c| reduce_scatter::ring(b, c.rank, c.size, c.bytes),
        "blocks passed around a ring and combined on the way",
    ),
    row(
        K::Allreduce,
        "reduce_bcast",
        |b, c| tree::reduce_then_bcast(b, c.rank, c.size, c.bytes),
        "binomial reduce to rank 0, then binomial bcast",
    ),
    row(
        K::Allreduce,
        "rabenseifner",
        |b, c| rabenseifner::allreduce(b, c.rank, c.size, c.bytes),
        "reduce-scatter by recursive halving, allgather by recursive doubling",
    ),
    row(
        K::Alltoall,
        "pairwise",
        |b, c| alltoall::pairwise(b, c.rank, c.size, c.bytes),
        "step k exchanges with rank ± k",
    )
    .by_default(),
    row(
        K::Alltoall,
        "bruck",
        |b, c| alltoall::bruck(b, c.rank, c.size, c.bytes),
        "log2(p) rounds of combined blocks",
    ),
    row(
        K::Alltoall,
        "pairwise_xor",
        |b, c| alltoall::pairwise_xor(b, c.rank, c.size, c.bytes),
        "step k exchanges with rank ⊕ k (power-of-two p; SimGrid's `pair`)",
    )
    .needing(Needs::PowerOfTwo),
    row(
        K::ReduceScatter,
        "recursive_halving",
        |b, c| reduce_scatter::recursive_halving(b, c.rank, c.size, c.bytes),
        "recursive halving of the vector between partners at distance p/2, p/4, …",
    )
    .by_default(),
    row(
        K::Scan,
        "linear",
        |b, c| scan::linear(b, c.rank, c.size, c.bytes),
        "every rank sends its vector to every higher rank (SimGrid's MPI_Scan)",
    ),
    row(
        K::Scan,
        "chain",
        |b, c| scan::chain(b, c.rank, c.size, c.bytes),
        "a chain r − 1 → r → r + 1 (Open MPI's `linear`)",
    ),
];

/// The row of `name` for `kind`, if that algorithm implements the operation.
pub(crate) fn find(kind: K, name: &str) -> Option<&'static AlgorithmRow> {
    ALGORITHMS.iter().find(|r| r.kind == kind && r.name == name)
}
