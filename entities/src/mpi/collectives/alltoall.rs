//! All-to-all algorithms (n = the per-destination block size given to the call).
//!
//! * **pairwise** — in step k = 1 … p−1 rank r sends its block for (r + k) mod p to that rank and
//!   receives the block from (r − k) mod p. p − 1 messages of n bytes per rank; cost
//!   (p − 1)(α + nβ). Every pair of ranks exchanges directly, so it suits large blocks.
//! * **pairwise_xor** — power-of-two p only: in step k = 1 … p−1 rank r exchanges blocks with
//!   r ⊕ k (SimGrid's `pair`, which also "exchanges" with itself at k = 0, a local copy). p − 1
//!   messages of n bytes per rank, (p − 1)(α + nβ); every step pairs the ranks off, so each
//!   exchange is symmetric.
//! * **bruck** — after a local rotation (no messages), in round k = 0 … ⌈log2 p⌉−1 rank r sends to
//!   (r + 2^k) mod p, in one message, every block whose (rotated) index i ∈ 0 … p−1 has bit k set,
//!   and receives as many from (r − 2^k) mod p; a final local rotation puts the blocks in place.
//!   Round k carries c_k·n bytes with c_k = #{i < p : bit k of i set} =
//!   ⌊p / 2^(k+1)⌋·2^k + max(0, (p mod 2^(k+1)) − 2^k) (p/2 when p is a power of two). Cost
//!   ⌈log2 p⌉α + Σ_k c_k·nβ ≈ ⌈log2 p⌉(α + (p/2)nβ): fewer, bigger messages, which suits small
//!   blocks.

use super::builder::{Builder, ceil_log2, ring_add, ring_sub};

/// Pairwise-exchange alltoall of `block_bytes` per destination.
pub(super) fn pairwise(b: &mut Builder, rank: u32, size: u32, block_bytes: u64) {
    for step in 1..u64::from(size) {
        b.sendrecv(ring_add(rank, step, size), block_bytes, ring_sub(rank, step, size), block_bytes);
    }
}

/// XOR pairwise alltoall of `block_bytes` per destination (`size` a power of two).
pub(super) fn pairwise_xor(b: &mut Builder, rank: u32, size: u32, block_bytes: u64) {
    for step in 1..size {
        let partner = rank ^ step;
        b.sendrecv(partner, block_bytes, partner, block_bytes);
    }
}

/// Number of indices in `0..size` with bit `round` set: the blocks Bruck's round `round` moves.
pub(super) fn bruck_blocks(size: u32, round: u32) -> u64 {
    let size = u64::from(size);
    let bit = 1_u64 << round;
    let period = bit << 1;
    (size / period) * bit + (size % period).saturating_sub(bit)
}

/// Bruck alltoall of `block_bytes` per destination.
pub(super) fn bruck(b: &mut Builder, rank: u32, size: u32, block_bytes: u64) {
    for round in 0..ceil_log2(size) {
        let distance = 1_u64 << round;
        let bytes = bruck_blocks(size, round).saturating_mul(block_bytes);
        b.sendrecv(ring_add(rank, distance, size), bytes, ring_sub(rank, distance, size), bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bruck_block_counts_match_a_direct_count() {
        for size in 1..=70_u32 {
            for round in 0..8 {
                let direct = (0..size).filter(|i| i & (1 << round) != 0).count() as u64;
                assert_eq!(bruck_blocks(size, round), direct, "size {size} round {round}");
            }
        }
        // p = 5: indices with bit 0 set are 1, 3; bit 1: 2, 3; bit 2: 4.
        assert_eq!([0, 1, 2].map(|k| bruck_blocks(5, k)), [2, 2, 1]);
    }
}
