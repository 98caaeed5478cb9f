//! Reduce-scatter (n = the whole vector, split into p balanced blocks; rank r ends with the reduced
//! block r).
//!
//! * **ring** — in step s = 0 … p−2 rank r sends block (r − s − 1) mod p to r + 1, receives block
//!   (r − s − 2) mod p from r − 1 and combines it; after the last step rank r holds block r, reduced
//!   over every rank (Open MPI's `ring`, SimGrid's `ompi_ring`). p − 1 messages of about n/p bytes
//!   per rank; cost (p − 1)(α + (n/p)β + (n/p)γ).
//! * **recursive_halving** — on the power-of-two core (the fold of `doubling`: an even rank below 2e
//!   hands its whole vector to the odd rank above, which combines it): with distance
//!   d = p'/2, p'/4, …, 1 core ranks q and q ⊕ d exchange halves of the blocks they are responsible
//!   for and combine the half they keep; a core rank that absorbed a folded rank is responsible for
//!   both ranks' blocks and finally sends the folded rank its block (Open MPI's
//!   `recursive_halving`, SimGrid's `ompi_basic_recursivehalving`). A power of two sends log2 p
//!   messages per rank, (p − 1)n/p bytes; cost log2(p)·α + ((p − 1)/p)(nβ + nγ).

use super::builder::{Builder, block_bytes, block_range_bytes, ring_add, ring_sub};
use super::doubling::Fold;

/// Ring reduce-scatter of an n-byte vector.
pub(super) fn ring(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    let parts = u64::from(size);
    let block = |index: u32| block_bytes(bytes, parts, u64::from(index));
    for step in 0..u64::from(size) - 1 {
        let give = ring_sub(rank, step + 1, size);
        let take = ring_sub(rank, step + 2, size);
        b.sendrecv(ring_add(rank, 1, size), block(give), ring_sub(rank, 1, size), block(take));
        b.combine(block(take));
    }
}

/// Recursive-halving reduce-scatter of an n-byte vector.
pub(super) fn recursive_halving(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    let fold = Fold::new(size);
    let parts = u64::from(size);
    // The first block core rank `q` is responsible for (two blocks when it absorbed a rank).
    let start = |q: u32| u64::from(if q < fold.extra { 2 * q } else { q + fold.extra });
    let range = |(first, end): (u32, u32)| block_range_bytes(bytes, parts, start(first), start(end));
    fold.fold_in(b, rank, bytes, true);
    if let Some(core_rank) = fold.core_rank(rank) {
        let mut held = (0, fold.core);
        let mut distance = fold.core / 2;
        while distance > 0 {
            let partner = fold.real_rank(core_rank ^ distance);
            let middle = held.0 + (held.1 - held.0) / 2;
            let (lower, upper) = ((held.0, middle), (middle, held.1));
            let (keep, give) = if core_rank & distance == 0 { (lower, upper) } else { (upper, lower) };
            b.sendrecv(partner, range(give), partner, range(keep));
            b.combine(range(keep));
            held = keep;
            distance /= 2;
        }
    }
    // The folded rank's block, from the core rank that reduced it.
    if rank < 2 * fold.extra {
        if rank % 2 == 1 {
            b.send(rank - 1, block_bytes(bytes, parts, u64::from(rank - 1)));
        } else {
            b.recv(rank + 1, block_bytes(bytes, parts, u64::from(rank)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::micro_op::MicroOp;
    use super::*;

    #[test]
    fn ring_rank_1_of_3() {
        // n = 30 in blocks of 10: step 0 sends block 0, receives block 2; step 1 sends block 2,
        // receives block 1 (its own, now reduced over all three ranks).
        let ops = Builder::build(|b| ring(b, 1, 3, 30));
        assert_eq!(
            ops,
            vec![
                MicroOp::Irecv { peer: 0, bytes: 10 },
                MicroOp::Isend { peer: 2, bytes: 10 },
                MicroOp::Wait(vec![0, 1]),
                MicroOp::Combine { bytes: 10 },
                MicroOp::Irecv { peer: 0, bytes: 10 },
                MicroOp::Isend { peer: 2, bytes: 10 },
                MicroOp::Wait(vec![2, 3]),
                MicroOp::Combine { bytes: 10 },
            ]
        );
    }

    #[test]
    fn halving_with_a_folded_rank() {
        // p = 3, n = 30: ranks 0 and 1 fold (1 is core rank 0, responsible for blocks 0 and 1);
        // rank 2 is core rank 1 (block 2). Core exchange: 1 keeps blocks 0–1 (20 B) and gives block
        // 2 (10 B); then 1 sends rank 0 its block 0.
        let one = Builder::build(|b| recursive_halving(b, 1, 3, 30));
        assert_eq!(
            one,
            vec![
                MicroOp::Irecv { peer: 0, bytes: 30 },
                MicroOp::Wait(vec![0]),
                MicroOp::Combine { bytes: 30 },
                MicroOp::Irecv { peer: 2, bytes: 20 },
                MicroOp::Isend { peer: 2, bytes: 10 },
                MicroOp::Wait(vec![1, 2]),
                MicroOp::Combine { bytes: 20 },
                MicroOp::Isend { peer: 0, bytes: 10 },
                MicroOp::Wait(vec![3]),
            ]
        );
    }
}
