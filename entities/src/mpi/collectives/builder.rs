//! The schedule builder every algorithm writes into: it hands out request handles in posting order
//! (the contract of [`MicroOp`]), offers the common patterns (blocking send, blocking receive,
//! combined send-receive exchange) and the rank arithmetic the algorithms share (ring offsets,
//! root-relative ranks, the balanced split of a vector into blocks).

use super::micro_op::MicroOp;

/// One rank's schedule under construction.
#[derive(Debug, Default)]
pub(super) struct Builder {
    ops: Vec<MicroOp>,
    posted: u32,
}

impl Builder {
    /// An empty schedule.
    pub(super) fn new() -> Self {
        Builder::default()
    }

    /// Post a send; returns its handle.
    pub(super) fn isend(&mut self, peer: u32, bytes: u64) -> u32 {
        self.ops.push(MicroOp::Isend { peer, bytes });
        self.next_handle()
    }

    /// Post a receive; returns its handle.
    pub(super) fn irecv(&mut self, peer: u32, bytes: u64) -> u32 {
        self.ops.push(MicroOp::Irecv { peer, bytes });
        self.next_handle()
    }

    /// Wait for `handles` (nothing is emitted for an empty list).
    pub(super) fn wait(&mut self, handles: Vec<u32>) {
        if !handles.is_empty() {
            self.ops.push(MicroOp::Wait(handles));
        }
    }

    /// Combine `bytes` of received data into the local buffer (nothing for zero bytes).
    pub(super) fn combine(&mut self, bytes: u64) {
        if bytes > 0 {
            self.ops.push(MicroOp::Combine { bytes });
        }
    }

    /// A blocking send: post it and wait for it.
    pub(super) fn send(&mut self, peer: u32, bytes: u64) {
        let handle = self.isend(peer, bytes);
        self.wait(vec![handle]);
    }

    /// A blocking receive: post it and wait for it.
    pub(super) fn recv(&mut self, peer: u32, bytes: u64) {
        let handle = self.irecv(peer, bytes);
        self.wait(vec![handle]);
    }

    /// MPI_Sendrecv: post the receive first, then the send, and wait for both. Posting the receive
    /// first keeps every pairwise exchange deadlock-free under a rendezvous protocol too.
    pub(super) fn sendrecv(&mut self, to: u32, send_bytes: u64, from: u32, recv_bytes: u64) {
        let received = self.irecv(from, recv_bytes);
        let sent = self.isend(to, send_bytes);
        self.wait(vec![received, sent]);
    }

    /// The micro-operations `f` appends to an empty builder (for tests of the family files).
    #[cfg(test)]
    pub(super) fn build(f: impl Fn(&mut Builder)) -> Vec<MicroOp> {
        let mut b = Builder::new();
        f(&mut b);
        b.finish()
    }

    /// The finished schedule.
    pub(super) fn finish(self) -> Vec<MicroOp> {
        self.ops
    }

    fn next_handle(&mut self) -> u32 {
        let handle = self.posted;
        self.posted += 1;
        handle
    }
}

/// `(rank + offset) mod size`, without overflow for any `u32` communicator.
pub(super) fn ring_add(rank: u32, offset: u64, size: u32) -> u32 {
    ((u64::from(rank) + offset) % u64::from(size)) as u32
}

/// `(rank − offset) mod size`, without overflow for any `u32` communicator.
pub(super) fn ring_sub(rank: u32, offset: u64, size: u32) -> u32 {
    let size64 = u64::from(size);
    ((u64::from(rank) + size64 - offset % size64) % size64) as u32
}

/// Bytes of block `index` when `total_bytes` is split into `parts` blocks: the first
/// `total_bytes mod parts` blocks hold ⌈total/parts⌉ bytes and the others ⌊total/parts⌋, so the
/// blocks differ by at most one byte and sum exactly to `total_bytes`.
pub(super) fn block_bytes(total_bytes: u64, parts: u64, index: u64) -> u64 {
    let base = total_bytes / parts;
    let longer = total_bytes % parts;
    base + u64::from(index < longer)
}

/// Total bytes of blocks `first..end` of the same split as [`block_bytes`].
pub(super) fn block_range_bytes(total_bytes: u64, parts: u64, first: u64, end: u64) -> u64 {
    let base = total_bytes / parts;
    let longer = total_bytes % parts;
    (end - first) * base + (end.min(longer) - first.min(longer))
}

/// Largest power of two not above `size` (`size` ≥ 1).
pub(super) fn power_of_two_floor(size: u32) -> u32 {
    1 << size.ilog2()
}

/// ⌈log2 size⌉: the rounds of a dissemination or Bruck pattern.
pub(super) fn ceil_log2(size: u32) -> u32 {
    if size <= 1 { 0 } else { 32 - (size - 1).leading_zeros() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_count_posts_in_order() {
        let mut b = Builder::new();
        assert_eq!(b.irecv(3, 10), 0);
        assert_eq!(b.isend(1, 10), 1);
        b.combine(0);
        b.wait(vec![]);
        b.sendrecv(2, 5, 4, 6);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 3, bytes: 10 },
                MicroOp::Isend { peer: 1, bytes: 10 },
                MicroOp::Irecv { peer: 4, bytes: 6 },
                MicroOp::Isend { peer: 2, bytes: 5 },
                MicroOp::Wait(vec![2, 3]),
            ]
        );
    }

    #[test]
    fn blocks_sum_exactly_and_differ_by_at_most_one() {
        for total in [0_u64, 1, 7, 64, 1000, 1001] {
            for parts in 1..=17_u64 {
                let sizes: Vec<u64> = (0..parts).map(|i| block_bytes(total, parts, i)).collect();
                assert_eq!(sizes.iter().sum::<u64>(), total);
                let max = sizes.iter().max().copied().unwrap_or(0);
                let min = sizes.iter().min().copied().unwrap_or(0);
                assert!(max - min <= 1);
                assert_eq!(max, total.div_ceil(parts));
                for first in 0..=parts {
                    for end in first..=parts {
                        let expected: u64 = sizes[first as usize..end as usize].iter().sum();
                        assert_eq!(block_range_bytes(total, parts, first, end), expected);
                    }
                }
            }
        }
    }

    #[test]
    fn rank_arithmetic() {
        assert_eq!(ring_add(u32::MAX - 1, 5, u32::MAX), 4);
        assert_eq!(ring_sub(1, 3, 5), 3);
        assert_eq!(ring_sub(0, 10, 5), 0);
        assert_eq!((1..=9).map(power_of_two_floor).collect::<Vec<_>>(), [1, 2, 2, 4, 4, 4, 4, 8, 8]);
        assert_eq!((1..=9).map(ceil_log2).collect::<Vec<_>>(), [0, 1, 2, 2, 3, 3, 3, 3, 4]);
    }
}
