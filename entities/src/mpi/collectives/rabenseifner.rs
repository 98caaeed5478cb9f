//! Rabenseifner's allreduce: a reduce-scatter by recursive halving followed by an allgather by
//! recursive doubling, on the power-of-two core of the communicator (non-power-of-two sizes use the
//! fold described in `doubling`: n bytes folded in and combined, n bytes folded out).
//!
//! The vector is split into p' blocks (balanced: sizes differ by at most one byte and sum to n).
//! Reduce-scatter: with distance d = p'/2, p'/4, …, 1, core rank q pairs with q ⊕ d; both hold the
//! same range of blocks; q keeps the lower half if its bit d is clear (the upper half otherwise),
//! sends the other half, receives the partner's copy of the half it keeps and combines it. After
//! log2 p' steps core rank q holds the reduced block q. Allgather: with d = 1, 2, …, p'/2, q sends
//! its aligned group of d blocks to q ⊕ d and receives the partner's group.
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
        let mut distance = fold.core / 2;
        while distance > 0 {
            let partner = fold.real_rank(core_rank ^ distance);
            let middle = held.0 + (held.1 - held.0) / 2;
            let lower = (held.0, middle);
            let upper = (middle, held.1);
            let (keep, give) = if core_rank & distance == 0 { (lower, upper) } else { (upper, lower) };
            b.sendrecv(partner, range(give), partner, range(keep));
            b.combine(range(keep));
            held = keep;
            distance /= 2;
        }
        debug_assert_eq!(held, (u64::from(core_rank), u64::from(core_rank) + 1));
        let mut distance = 1;
        while distance < fold.core {
            let partner_core = core_rank ^ distance;
            let mine = u64::from(core_rank & !(distance - 1));
            let theirs = u64::from(partner_core & !(distance - 1));
            let width = u64::from(distance);
            b.sendrecv(
                fold.real_rank(partner_core),
                range((mine, mine + width)),
                fold.real_rank(partner_core),
                range((theirs, theirs + width)),
            );
            distance <<= 1;
        }
    }
    fold.fold_out(b, rank, bytes);
}

#[cfg(test)]
mod tests {
    use super::super::MicroOp;
    use super::*;

    #[test]
    fn rank_2_of_4_with_uneven_blocks() {
        // n = 10 over 4 blocks: 3, 3, 2, 2. Core rank 2 (binary 10).
        // Halving: d = 2 → partner 0, keep upper [2,4) = 4 bytes, give [0,2) = 6 bytes;
        //          d = 1 → partner 3, keep [2,3) = 2 bytes, give [3,4) = 2 bytes.
        // Doubling: d = 1 → partner 3, send block 2 (2), receive block 3 (2);
        //           d = 2 → partner 0, send blocks 2-3 (4), receive blocks 0-1 (6).
        let mut b = Builder::new();
        allreduce(&mut b, 2, 4, 10);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 0, bytes: 4 },
                MicroOp::Isend { peer: 0, bytes: 6 },
                MicroOp::Wait(vec![0, 1]),
                MicroOp::Combine { bytes: 4 },
                MicroOp::Irecv { peer: 3, bytes: 2 },
                MicroOp::Isend { peer: 3, bytes: 2 },
                MicroOp::Wait(vec![2, 3]),
                MicroOp::Combine { bytes: 2 },
                MicroOp::Irecv { peer: 3, bytes: 2 },
                MicroOp::Isend { peer: 3, bytes: 2 },
                MicroOp::Wait(vec![4, 5]),
                MicroOp::Irecv { peer: 0, bytes: 6 },
                MicroOp::Isend { peer: 0, bytes: 4 },
                MicroOp::Wait(vec![6, 7]),
            ]
        );
    }
}
