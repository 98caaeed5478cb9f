//! Pipelined bcast: a chain from the root through the ranks in root-relative order
//! (root → root+1 → … → root+p−1, mod p), with the message cut into segments of `segment_bytes`
//! (the last segment holds the remainder, so the segments sum exactly to n).
//!
//! Every non-root rank posts the receives for all m segments before waiting for the first, so
//! segment s+1 can arrive while segment s is being forwarded; as soon as a segment has arrived it
//! is sent on to the next rank. The sends are waited for together at the end.
//!
//! With m = ⌈n / segment_bytes⌉ (at least 1) segments of s bytes the last rank has the message
//! after (p − 2 + m)(α + sβ): p − 1 hops to fill the pipe and m − 1 more segments to drain it. For
//! large n this approaches nβ, independent of p. Messages: (p − 1)·m in total; every rank but the
//! last in the chain sends m segments totalling n bytes.

use super::builder::{Builder, ring_add, ring_sub};

/// Sizes of the segments `bytes` is cut into (one segment when `segment_bytes` is 0 or the message
/// is empty).
pub(super) fn segments(bytes: u64, segment_bytes: u64) -> Vec<u64> {
    if segment_bytes == 0 || bytes <= segment_bytes {
        return vec![bytes];
    }
    let count = bytes.div_ceil(segment_bytes);
    let mut sizes = vec![segment_bytes; (count - 1) as usize];
    sizes.push(bytes - (count - 1) * segment_bytes);
    sizes
}

/// Pipelined chain bcast of `bytes` from `root`.
pub(super) fn bcast(b: &mut Builder, rank: u32, size: u32, root: u32, bytes: u64, segment_bytes: u64) {
    let v = ring_sub(rank, u64::from(root), size);
    let pieces = segments(bytes, segment_bytes);
    let previous = (v != 0).then(|| ring_sub(rank, 1, size));
    let next = (v + 1 < size).then(|| ring_add(rank, 1, size));
    let receives: Vec<u32> = match previous {
        Some(from) => pieces.iter().map(|&piece| b.irecv(from, piece)).collect(),
        None => Vec::new(),
    };
    let mut sends = Vec::new();
    for (index, &piece) in pieces.iter().enumerate() {
        if let Some(&handle) = receives.get(index) {
            b.wait(vec![handle]);
        }
        if let Some(to) = next {
            sends.push(b.isend(to, piece));
        }
    }
    b.wait(sends);
}

#[cfg(test)]
mod tests {
    use super::super::micro_op::MicroOp;
    use super::*;

    #[test]
    fn segment_sizes() {
        assert_eq!(segments(0, 8), [0]);
        assert_eq!(segments(8, 8), [8]);
        assert_eq!(segments(20, 8), [8, 8, 4]);
        assert_eq!(segments(24, 8), [8, 8, 8]);
        assert_eq!(segments(20, 0), [20]);
    }

    #[test]
    fn middle_of_chain_posts_receives_ahead() {
        // p = 4, root 2: chain 2 → 3 → 0 → 1; rank 3 receives from 2 and forwards to 0.
        let mut b = Builder::new();
        bcast(&mut b, 3, 4, 2, 20, 8);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 2, bytes: 8 },
                MicroOp::Irecv { peer: 2, bytes: 8 },
                MicroOp::Irecv { peer: 2, bytes: 4 },
                MicroOp::Wait(vec![0]),
                MicroOp::Isend { peer: 0, bytes: 8 },
                MicroOp::Wait(vec![1]),
                MicroOp::Isend { peer: 0, bytes: 8 },
                MicroOp::Wait(vec![2]),
                MicroOp::Isend { peer: 0, bytes: 4 },
                MicroOp::Wait(vec![3, 4, 5]),
            ]
        );
        // Rank 1 is last in the chain: it only receives.
        let mut b = Builder::new();
        bcast(&mut b, 1, 4, 2, 20, 8);
        let ops = b.finish();
        assert!(ops.iter().all(|op| !matches!(op, MicroOp::Isend { .. })));
        assert_eq!(ops.len(), 6);
    }
}
