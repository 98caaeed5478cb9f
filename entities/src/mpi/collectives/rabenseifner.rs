//! Rabenseifner's allreduce as MPICH, Open MPI and SimGrid (`rab_rdb`) order it: a reduce-scatter by
//! recursive vector halving with distance doubling, then an allgather retracing those steps in
//! reverse, on the power-of-two core of the communicator (non-power-of-two sizes use the fold
//! described in `doubling`: n bytes folded in and combined, n bytes folded out).
//!
//! The vector is split into p' blocks (balanced: sizes differ by at most one byte and sum to n).
//! Reduce-scatter: with distance d = 1, 2, …, p'/2, core rank q pairs with q ⊕ d; both hold the same
//! range of blocks; q keeps the lower half if its bit d is clear (the upper half otherwise), sends
//! the other half, receives the partner's copy of the half it keeps and combines it. The largest
//! halves thus go to the nearest partners, which on a tree stay below the first switch. After
//! log2 p' steps core rank q holds one reduced block (block bitreverse(q)). Allgather: the steps in
//! reverse (d = p'/2, …, 1): q sends the range it kept at that step and receives the one it gave.
//!
//! Power-of-two p dividing n: every rank sends 2·log2 p messages totalling 2n(p − 1)/p bytes and
//! combines n(p − 1)/p; cost 2·log2(p)·α + 2((p − 1)/p)·nβ + ((p − 1)/p)·nγ. In general the core
//! ranks together send exactly 2(p' − 1)n bytes and combine (p' − 1)n, whatever the block sizes.

use super::builder::{Builder, block_range_bytes};
use super::doubling::Fold;

/// Rabenseifner allreduce of `bytes`.
pub(super) fn allreduce(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    let fold = Fold::new(size);
    fold.fold_in(b, rank, bytes, true);
    if let Some(core_rank) = fold.core_rank(rank) {
        let parts = u64::from(fold.core);
        let range = |(first, end): (u64, u64)| block_range_bytes(bytes, parts, first, end);
        let mut held = (0, parts);
        // (partner, kept, given) per reduce-scatter step, retraced backwards by the allgather.
        let mut steps = Vec::new();
        let mut distance = 1;
        while distance < fold.core {
            let partner = fold.real_rank(core_rank ^ distance);
            let middle = held.0 + (held.1 - held.0) / 2;
            let lower = (held.0, middle);
            let upper = (middle, held.1);
            let (keep, give) = if core_rank & distance == 0 { (lower, upper) } else { (upper, lower) };
            b.sendrecv(partner, range(give), partner, range(keep));
            b.combine(range(keep));
            steps.push((partner, keep, give));
            held = keep;
            distance <<= 1;
        }
        debug_assert_eq!(held.1 - held.0, 1);
        for &(partner, kept, given) in steps.iter().rev() {
            b.sendrecv(partner, range(kept), partner, range(given));
        }
    }
    fold.fold_out(b, rank, bytes);
}

#[cfg(test)]
mod tests {
    use super::super::micro_op::MicroOp;
    use super::*;

    #[test]
    fn rank_2_of_4_with_uneven_blocks() {
        // n = 10 over 4 blocks: 3, 3, 2, 2. Core rank 2 (binary 10).
        // Reduce-scatter, nearest first: d = 1 → partner 3, bit clear: keep [0,2) = 6 bytes,
        //   give [2,4) = 4 bytes; d = 2 → partner 0, bit set: keep [1,2) = 3, give [0,1) = 3.
        // Allgather, backwards: d = 2 → partner 0, send [1,2) (3), receive [0,1) (3);
        //   d = 1 → partner 3, send [0,2) (6), receive [2,4) (4).
        let mut b = Builder::new();
        allreduce(&mut b, 2, 4, 10);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 3, bytes: 6 },
                MicroOp::Isend { peer: 3, bytes: 4 },
                MicroOp::Wait(vec![0, 1]),
                MicroOp::Combine { bytes: 6 },
                MicroOp::Irecv { peer: 0, bytes: 3 },
                MicroOp::Isend { peer: 0, bytes: 3 },
                MicroOp::Wait(vec![2, 3]),
                MicroOp::Combine { bytes: 3 },
                MicroOp::Irecv { peer: 0, bytes: 3 },
                MicroOp::Isend { peer: 0, bytes: 3 },
                MicroOp::Wait(vec![4, 5]),
                MicroOp::Irecv { peer: 3, bytes: 4 },
                MicroOp::Isend { peer: 3, bytes: 6 },
                MicroOp::Wait(vec![6, 7]),
            ]
        );
    }

    #[test]
    fn the_biggest_halves_go_to_the_nearest_partner() {
        // 8 ranks, 8 KiB: rank 5's first exchange is with rank 4 (distance 1) and carries half the
        // vector; its farthest partner (rank 1) only ever sees one block each way.
        let mut b = Builder::new();
        allreduce(&mut b, 5, 8, 8192);
        let sends: Vec<(u32, u64)> = b
            .finish()
            .into_iter()
            .filter_map(|op| match op {
                MicroOp::Isend { peer, bytes } => Some((peer, bytes)),
                _ => None,
            })
            .collect();
        assert_eq!(sends, vec![(4, 4096), (7, 2048), (1, 1024), (1, 1024), (7, 2048), (4, 4096)]);
    }
}
