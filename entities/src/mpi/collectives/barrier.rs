//! Barrier algorithms. Both exchange only zero-byte messages; what they cost is latency.
//!
//! * **dissemination** — ⌈log2 p⌉ rounds; in round k rank r sends to (r + 2^k) mod p and receives
//!   from (r − 2^k) mod p. After round k a rank has heard (directly or indirectly) from the 2^(k+1)
//!   ranks before it, so after the last round from everyone. Cost ⌈log2 p⌉·α; every rank sends
//!   ⌈log2 p⌉ messages.
//! * **tree** — a binomial gather of zero-byte messages to rank 0 followed by a binomial release
//!   from rank 0 (the same trees as the binomial reduce and bcast). Cost 2·⌈log2 p⌉·α on the
//!   critical path; 2(p − 1) messages in total.
//! * **recursive_doubling** — Open MPI's (SimGrid's `ompi_recursivedoubling`): with p' the largest
//!   power of two ≤ p, each rank r ≥ p' first exchanges with r − p' (which receives from it before
//!   and sends to it after its own rounds); ranks below p' exchange with r ⊕ 2^k in round
//!   k = 0 … log2 p' − 1. Cost log2(p)·α for a power of two, (log2 p' + 2)α otherwise; a power of
//!   two sends log2 p messages per rank.

use super::builder::{Builder, power_of_two_floor, ring_add, ring_sub};
use super::tree;

/// Dissemination barrier for `rank` of `size`.
pub(super) fn dissemination(b: &mut Builder, rank: u32, size: u32) {
    let mut distance: u64 = 1;
    while distance < u64::from(size) {
        let to = ring_add(rank, distance, size);
        let from = ring_sub(rank, distance, size);
        b.sendrecv(to, 0, from, 0);
        distance <<= 1;
    }
}

/// Recursive-doubling barrier (Open MPI's pairing of the ranks beyond the power of two).
pub(super) fn recursive_doubling(b: &mut Builder, rank: u32, size: u32) {
    let core = power_of_two_floor(size);
    if rank >= core {
        b.sendrecv(rank - core, 0, rank - core, 0);
        return;
    }
    let extra = rank + core < size;
    if extra {
        b.recv(rank + core, 0);
    }
    let mut mask = 1;
    while mask < core {
        let partner = rank ^ mask;
        b.sendrecv(partner, 0, partner, 0);
        mask <<= 1;
    }
    if extra {
        b.send(rank + core, 0);
    }
}

/// Tree barrier: binomial fan-in of zero-byte messages to rank 0, then binomial release.
pub(super) fn tree(b: &mut Builder, rank: u32, size: u32) {
    tree::fan_in(b, rank, size, 0, |_| 0, false);
    tree::fan_out(b, rank, size, 0, |_| 0);
}

#[cfg(test)]
mod tests {
    use super::super::micro_op::MicroOp;
    use super::*;

    #[test]
    fn dissemination_rounds_for_rank_0_of_5() {
        // Distances 1, 2, 4: send to 1, 2, 4; receive from 4, 3, 1.
        let ops = Builder::build(|b| dissemination(b, 0, 5));
        let expected = vec![
            MicroOp::Irecv { peer: 4, bytes: 0 },
            MicroOp::Isend { peer: 1, bytes: 0 },
            MicroOp::Wait(vec![0, 1]),
            MicroOp::Irecv { peer: 3, bytes: 0 },
            MicroOp::Isend { peer: 2, bytes: 0 },
            MicroOp::Wait(vec![2, 3]),
            MicroOp::Irecv { peer: 1, bytes: 0 },
            MicroOp::Isend { peer: 4, bytes: 0 },
            MicroOp::Wait(vec![4, 5]),
        ];
        assert_eq!(ops, expected);
    }

    #[test]
    fn recursive_doubling_pairs_the_ranks_beyond_the_power_of_two_as_open_mpi_does() {
        // p = 6, p' = 4: rank 5 only exchanges with 1; rank 1 hears from 5, exchanges with 0
        // and 3, then releases 5.
        let five = Builder::build(|b| recursive_doubling(b, 5, 6));
        assert_eq!(
            five,
            vec![
                MicroOp::Irecv { peer: 1, bytes: 0 },
                MicroOp::Isend { peer: 1, bytes: 0 },
                MicroOp::Wait(vec![0, 1])
            ]
        );
        let one = Builder::build(|b| recursive_doubling(b, 1, 6));
        let peers: Vec<(bool, u32)> = one
            .iter()
            .filter_map(|op| match op {
                MicroOp::Isend { peer, .. } => Some((true, *peer)),
                MicroOp::Irecv { peer, .. } => Some((false, *peer)),
                _ => None,
            })
            .collect();
        assert_eq!(peers, [(false, 5), (false, 0), (true, 0), (false, 3), (true, 3), (true, 5)]);
    }

    #[test]
    fn tree_barrier_leaf_and_root_of_4() {
        // Rank 3 (a leaf under 2): report to 2, then wait for 2's release.
        let leaf = Builder::build(|b| tree(b, 3, 4));
        let expected_leaf = vec![
            MicroOp::Isend { peer: 2, bytes: 0 },
            MicroOp::Wait(vec![0]),
            MicroOp::Irecv { peer: 2, bytes: 0 },
            MicroOp::Wait(vec![1]),
        ];
        assert_eq!(leaf, expected_leaf);
        // Rank 0: hear from children 1 and 2, then release 2 (bigger subtree) first, then 1.
        let root = Builder::build(|b| tree(b, 0, 4));
        let expected_root = vec![
            MicroOp::Irecv { peer: 1, bytes: 0 },
            MicroOp::Irecv { peer: 2, bytes: 0 },
            MicroOp::Wait(vec![0]),
            MicroOp::Wait(vec![1]),
            MicroOp::Isend { peer: 2, bytes: 0 },
            MicroOp::Isend { peer: 1, bytes: 0 },
            MicroOp::Wait(vec![2, 3]),
        ];
        assert_eq!(root, expected_root);
    }
}
