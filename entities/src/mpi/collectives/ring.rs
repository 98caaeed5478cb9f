//! Ring algorithms: every step, rank r sends to r + 1 and receives from r − 1 (mod p).
//!
//! * **allreduce** — the n-byte vector is split into p blocks (the first n mod p blocks hold
//!   ⌈n/p⌉ bytes, the rest ⌊n/p⌋, so they sum exactly to n; see `block_bytes`). Reduce-scatter:
//!   in step s = 0 … p−2 rank r sends block (r − s) mod p, receives block (r − s − 1) mod p and
//!   combines it; afterwards rank r holds the fully reduced block (r + 1) mod p. Allgather: in step
//!   s rank r sends block (r + 1 − s) mod p and receives block (r − s) mod p. Every rank sends
//!   2(p − 1) messages; rank r sends 2n − b((r+1) mod p) − b((r+2) mod p) bytes, so all ranks
//!   together send exactly 2(p − 1)n and combine exactly (p − 1)n. Cost 2(p − 1)(α + (n/p)β) +
//!   (p − 1)(n/p)γ, with ⌈n/p⌉ in place of n/p when p does not divide n.
//! * **allgather** — in step s rank r forwards block (r − s) mod p (of n bytes) and receives block
//!   (r − s − 1) mod p. p − 1 messages of n bytes per rank; cost (p − 1)(α + nβ).

use super::builder::{Builder, block_bytes, ring_add, ring_sub};

/// Ring allreduce (reduce-scatter then allgather) of `bytes`.
pub(super) fn allreduce(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    let parts = u64::from(size);
    let next = ring_add(rank, 1, size);
    let previous = ring_sub(rank, 1, size);
    let block = |index: u32| block_bytes(bytes, parts, u64::from(index));
    for step in 0..parts - 1 {
        let sent = ring_sub(rank, step, size);
        let received = ring_sub(rank, step + 1, size);
        b.sendrecv(next, block(sent), previous, block(received));
        b.combine(block(received));
    }
    for step in 0..parts - 1 {
        let sent = ring_sub(ring_add(rank, 1, size), step, size);
        let received = ring_sub(rank, step, size);
        b.sendrecv(next, block(sent), previous, block(received));
    }
}

/// Ring allgather of a `block_bytes` block per rank.
pub(super) fn allgather(b: &mut Builder, rank: u32, size: u32, block_bytes: u64) {
    let next = ring_add(rank, 1, size);
    let previous = ring_sub(rank, 1, size);
    for _ in 1..size {
        b.sendrecv(next, block_bytes, previous, block_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::super::micro_op::MicroOp;
    use super::*;

    #[test]
    fn allreduce_rank_0_of_3_with_uneven_blocks() {
        // n = 10 over 3 blocks: 4, 3, 3. Reduce-scatter: send block 0, receive 2; send 2, receive 1.
        // Allgather: send block 1, receive 0; send 0, receive 2.
        let mut b = Builder::new();
        allreduce(&mut b, 0, 3, 10);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 2, bytes: 3 },
                MicroOp::Isend { peer: 1, bytes: 4 },
                MicroOp::Wait(vec![0, 1]),
                MicroOp::Combine { bytes: 3 },
                MicroOp::Irecv { peer: 2, bytes: 3 },
                MicroOp::Isend { peer: 1, bytes: 3 },
                MicroOp::Wait(vec![2, 3]),
                MicroOp::Combine { bytes: 3 },
                MicroOp::Irecv { peer: 2, bytes: 4 },
                MicroOp::Isend { peer: 1, bytes: 3 },
                MicroOp::Wait(vec![4, 5]),
                MicroOp::Irecv { peer: 2, bytes: 3 },
                MicroOp::Isend { peer: 1, bytes: 4 },
                MicroOp::Wait(vec![6, 7]),
            ]
        );
    }
}
