//! Barrier algorithms. Both exchange only zero-byte messages; what they cost is latency.
//!
//! * **dissemination** — ⌈log2 p⌉ rounds; in round k rank r sends to (r + 2^k) mod p and receives
//!   from (r − 2^k) mod p. After round k a rank has heard (directly or indirectly) from the 2^(k+1)
//!   ranks before it, so after the last round from everyone. Cost ⌈log2 p⌉·α; every rank sends
//!   ⌈log2 p⌉ messages.
//! * **tree** — a binomial gather of zero-byte messages to rank 0 followed by a binomial release
//!   from rank 0 (the same trees as the binomial reduce and bcast). Cost 2·⌈log2 p⌉·α on the
//!   critical path; 2(p − 1) messages in total.

use super::builder::{Builder, ring_add, ring_sub};
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

/// Tree barrier: binomial fan-in of zero-byte messages to rank 0, then binomial release.
pub(super) fn tree(b: &mut Builder, rank: u32, size: u32) {
    tree::fan_in(b, rank, size, 0, |_| 0, false);
    tree::fan_out(b, rank, size, 0, |_| 0);
}

#[cfg(test)]
mod tests {
    use super::super::MicroOp;
    use super::*;

    fn build(f: impl Fn(&mut Builder)) -> Vec<MicroOp> {
        let mut b = Builder::new();
        f(&mut b);
        b.finish()
    }

    #[test]
    fn dissemination_rounds_for_rank_0_of_5() {
        // Distances 1, 2, 4: send to 1, 2, 4; receive from 4, 3, 1.
        let ops = build(|b| dissemination(b, 0, 5));
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
    fn tree_barrier_leaf_and_root_of_4() {
        // Rank 3 (a leaf under 2): report to 2, then wait for 2's release.
        let leaf = build(|b| tree(b, 3, 4));
        let expected_leaf = vec![
            MicroOp::Isend { peer: 2, bytes: 0 },
            MicroOp::Wait(vec![0]),
            MicroOp::Irecv { peer: 2, bytes: 0 },
            MicroOp::Wait(vec![1]),
        ];
        assert_eq!(leaf, expected_leaf);
        // Rank 0: hear from children 1 and 2, then release 2 (bigger subtree) first, then 1.
        let root = build(|b| tree(b, 0, 4));
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
