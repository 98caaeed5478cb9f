//! Recursive doubling (allreduce, allgather) and the fold that lets power-of-two algorithms run on
//! any communicator size (shared with Rabenseifner's allreduce).
//!
//! **Fold.** Let p' be the largest power of two ≤ p and e = p − p'. Among the first 2e ranks each
//! even rank hands its data to the odd rank above it (fold-in) and sits out; the odd ranks and the
//! ranks ≥ 2e form a core of p' ranks numbered q = r/2 (odd r < 2e) or q = r − e (r ≥ 2e). After
//! the core's algorithm, each odd rank < 2e hands the result back to the even rank below it
//! (fold-out). Folding adds two message steps, 2(α + …), for non-power-of-two p.
//!
//! * **allreduce** — in step k core rank q exchanges the whole n-byte vector with core rank q ⊕ 2^k
//!   and combines what it received. Power-of-two p: every rank sends log2 p messages of n bytes and
//!   combines log2(p)·n bytes; cost log2(p)(α + nβ + nγ). Otherwise add the fold: n bytes in (and
//!   combined), n bytes out.
//! * **allgather** — in step k core rank q sends every block it holds (its aligned group of 2^k
//!   core ranks; a core rank that absorbed a folded rank holds two blocks) to q ⊕ 2^k and receives
//!   the partner's group. Power-of-two p: log2 p messages per rank of n, 2n, 4n, … bytes, (p − 1)n
//!   in total; cost log2(p)α + (p − 1)nβ. Otherwise the fold-in moves one block and the fold-out
//!   the p − 1 blocks the even rank lacks, so every rank still receives exactly (p − 1)n bytes.

use super::builder::{Builder, power_of_two_floor};

/// The power-of-two core of a communicator and the ranks folded into it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fold {
    /// Core size p', the largest power of two ≤ p.
    pub(super) core: u32,
    /// Folded ranks e = p − p' (the even ranks below 2e).
    pub(super) extra: u32,
}

impl Fold {
    /// The fold of a communicator of `size` ranks.
    pub(super) fn new(size: u32) -> Self {
        let core = power_of_two_floor(size);
        Fold { core, extra: size - core }
    }

    /// The core rank of `rank`, or `None` for a folded (sitting-out) rank.
    pub(super) fn core_rank(self, rank: u32) -> Option<u32> {
        if rank < 2 * self.extra { (rank % 2 == 1).then_some(rank / 2) } else { Some(rank - self.extra) }
    }

    /// The communicator rank of core rank `core_rank`.
    pub(super) fn real_rank(self, core_rank: u32) -> u32 {
        if core_rank < self.extra { 2 * core_rank + 1 } else { core_rank + self.extra }
    }

    /// Fold-in: an even rank below 2e sends `bytes` to the rank above; that rank receives them
    /// (and combines them when `combine`).
    pub(super) fn fold_in(self, b: &mut Builder, rank: u32, bytes: u64, combine: bool) {
        if rank >= 2 * self.extra {
            return;
        }
        if rank.is_multiple_of(2) {
            b.send(rank + 1, bytes);
        } else {
            b.recv(rank - 1, bytes);
            if combine {
                b.combine(bytes);
            }
        }
    }

    /// Fold-out: an odd rank below 2e sends `bytes` of result to the rank below, which receives them.
    pub(super) fn fold_out(self, b: &mut Builder, rank: u32, bytes: u64) {
        if rank >= 2 * self.extra {
            return;
        }
        if rank % 2 == 1 {
            b.send(rank - 1, bytes);
        } else {
            b.recv(rank + 1, bytes);
        }
    }
}

/// Recursive-doubling allreduce of `bytes`.
pub(super) fn allreduce(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    let fold = Fold::new(size);
    fold.fold_in(b, rank, bytes, true);
    if let Some(core_rank) = fold.core_rank(rank) {
        let mut mask = 1;
        while mask < fold.core {
            let partner = fold.real_rank(core_rank ^ mask);
            b.sendrecv(partner, bytes, partner, bytes);
            b.combine(bytes);
            mask <<= 1;
        }
    }
    fold.fold_out(b, rank, bytes);
}

/// Recursive-doubling allgather of a `block_bytes` block per rank.
pub(super) fn allgather(b: &mut Builder, rank: u32, size: u32, block_bytes: u64) {
    let fold = Fold::new(size);
    fold.fold_in(b, rank, block_bytes, false);
    if let Some(core_rank) = fold.core_rank(rank) {
        // Blocks held by the aligned group of `width` core ranks starting at `first`.
        let group_blocks = |first: u32, width: u32| {
            let absorbed = (first + width).min(fold.extra).saturating_sub(first);
            u64::from(width + absorbed)
        };
        let mut mask = 1;
        while mask < fold.core {
            let partner_core = core_rank ^ mask;
            let mine = group_blocks(core_rank & !(mask - 1), mask);
            let theirs = group_blocks(partner_core & !(mask - 1), mask);
            let partner = fold.real_rank(partner_core);
            b.sendrecv(
                partner,
                mine.saturating_mul(block_bytes),
                partner,
                theirs.saturating_mul(block_bytes),
            );
            mask <<= 1;
        }
    }
    fold.fold_out(b, rank, u64::from(size - 1).saturating_mul(block_bytes));
}

#[cfg(test)]
mod tests {
    use super::super::micro_op::MicroOp;
    use super::*;

    #[test]
    fn fold_of_6() {
        let fold = Fold::new(6);
        assert_eq!((fold.core, fold.extra), (4, 2));
        let cores: Vec<Option<u32>> = (0..6).map(|r| fold.core_rank(r)).collect();
        assert_eq!(cores, [None, Some(0), None, Some(1), Some(2), Some(3)]);
        let reals: Vec<u32> = (0..4).map(|q| fold.real_rank(q)).collect();
        assert_eq!(reals, [1, 3, 4, 5]);
    }

    #[test]
    fn allgather_rank_1_of_6() {
        // Core rank 0 (holding blocks of ranks 0 and 1) pairs with core 1 (rank 3, blocks 2 and 3),
        // then with cores 2-3 (ranks 4, 5: one block each), then returns 5 blocks to rank 0.
        let mut b = Builder::new();
        allgather(&mut b, 1, 6, 10);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 0, bytes: 10 },
                MicroOp::Wait(vec![0]),
                MicroOp::Irecv { peer: 3, bytes: 20 },
                MicroOp::Isend { peer: 3, bytes: 20 },
                MicroOp::Wait(vec![1, 2]),
                MicroOp::Irecv { peer: 4, bytes: 20 },
                MicroOp::Isend { peer: 4, bytes: 40 },
                MicroOp::Wait(vec![3, 4]),
                MicroOp::Isend { peer: 0, bytes: 50 },
                MicroOp::Wait(vec![5]),
            ]
        );
    }
}
