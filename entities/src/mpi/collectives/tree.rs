//! Binomial-tree algorithms: bcast, reduce, gather and scatter (and the fan-in/fan-out halves of
//! the tree barrier and of reduce+bcast allreduce).
//!
//! Ranks are renumbered relative to the root, v = (r − root) mod p, so any root works. The parent
//! of v ≠ 0 is v with its lowest set bit cleared; the children of v are v + 2^j for every 2^j below
//! v's lowest set bit (below p for the root) with v + 2^j < p. The subtree of v holds the ranks
//! v .. v + min(lowbit(v), p − v) (all p ranks for the root).
//!
//! Message patterns and costs (α latency per message, β time per byte, γ combine time per byte,
//! n the call's byte count, L = ⌈log2 p⌉):
//! * **bcast** — receive n from the parent, then send n to each child, biggest subtree first: all
//!   sends posted together (`binomial`, as Open MPI), or one blocking send after another
//!   (`binomial_blocking`, as MPICH and SimGrid).
//!   p − 1 messages of n bytes; L(α + nβ).
//! * **reduce** — receive n from each child (smallest subtree first, all posted ahead), combining
//!   each on arrival, then send the combined n to the parent. p − 1 messages of n bytes, each
//!   combined once; L(α + nβ + nγ).
//! * **gather** — like reduce without combining, but a message carries its sender's whole subtree:
//!   subtree-size × n bytes. The root receives (p − 1)n bytes; Lα + (p − 1)nβ.
//! * **scatter** — the reverse of gather: the root sends each child its subtree's blocks, and every
//!   rank forwards to its children what belongs to their subtrees. Lα + (p − 1)nβ.

use super::builder::{Builder, ring_add, ring_sub};

/// Lowest set bit of `v` (`v` > 0).
fn lowest_bit(v: u64) -> u64 {
    v & v.wrapping_neg()
}

/// Ranks in the subtree of relative rank `v`.
fn subtree_ranks(v: u64, size: u64) -> u64 {
    let span = if v == 0 { size } else { lowest_bit(v) };
    span.min(size - v)
}

/// Relative ranks of `v`'s children, nearest (smallest subtree) first.
fn children(v: u64, size: u64) -> Vec<u64> {
    let limit = if v == 0 { size } else { lowest_bit(v) };
    let mut result = Vec::new();
    let mut mask: u64 = 1;
    while mask < limit && v + mask < size {
        result.push(v + mask);
        mask <<= 1;
    }
    result
}

/// The absolute rank of relative rank `v`.
fn absolute(v: u64, root: u32, size: u32) -> u32 {
    ring_add(root, v, size)
}

/// Binomial fan-in towards `root`: receive from every child (posted ahead, waited nearest first,
/// combined when `combine`), then send to the parent. A message from a subtree of `s` ranks
/// carries `bytes_for(s)` bytes.
pub(super) fn fan_in(
    b: &mut Builder,
    rank: u32,
    size: u32,
    root: u32,
    bytes_for: impl Fn(u64) -> u64,
    combine: bool,
) {
    let size64 = u64::from(size);
    let v = u64::from(ring_sub(rank, u64::from(root), size));
    let kids = children(v, size64);
    let posted: Vec<(u32, u64)> = kids
        .iter()
        .map(|&child| {
            let bytes = bytes_for(subtree_ranks(child, size64));
            (b.irecv(absolute(child, root, size), bytes), bytes)
        })
        .collect();
    for (handle, bytes) in posted {
        b.wait(vec![handle]);
        if combine {
            b.combine(bytes);
        }
    }
    if v != 0 {
        let parent = v & (v - 1);
        b.send(absolute(parent, root, size), bytes_for(subtree_ranks(v, size64)));
    }
}

/// Binomial fan-out from `root`: receive from the parent, then send to every child, biggest
/// subtree first, and wait for all the sends. A message to a subtree of `s` ranks carries
/// `bytes_for(s)` bytes.
pub(super) fn fan_out(b: &mut Builder, rank: u32, size: u32, root: u32, bytes_for: impl Fn(u64) -> u64) {
    let size64 = u64::from(size);
    let v = u64::from(ring_sub(rank, u64::from(root), size));
    if v != 0 {
        let parent = v & (v - 1);
        b.recv(absolute(parent, root, size), bytes_for(subtree_ranks(v, size64)));
    }
    let sends: Vec<u32> = children(v, size64)
        .iter()
        .rev()
        .map(|&child| b.isend(absolute(child, root, size), bytes_for(subtree_ranks(child, size64))))
        .collect();
    b.wait(sends);
}

/// Binomial bcast of `bytes` from `root`.
pub(super) fn bcast(b: &mut Builder, rank: u32, size: u32, root: u32, bytes: u64) {
    fan_out(b, rank, size, root, |_| bytes);
}

/// Binomial bcast of `bytes` from `root` whose sends block in turn: receive from the parent, then
/// send to one child after another, biggest subtree first, each send finished before the next
/// starts (MPICH's `MPIR_Bcast_intra_binomial`, SimGrid's `binomial_tree`).
pub(super) fn bcast_blocking(b: &mut Builder, rank: u32, size: u32, root: u32, bytes: u64) {
    let size64 = u64::from(size);
    let v = u64::from(ring_sub(rank, u64::from(root), size));
    if v != 0 {
        b.recv(absolute(v & (v - 1), root, size), bytes);
    }
    for &child in children(v, size64).iter().rev() {
        b.send(absolute(child, root, size), bytes);
    }
}

/// Binomial reduce of `bytes` to `root`.
pub(super) fn reduce(b: &mut Builder, rank: u32, size: u32, root: u32, bytes: u64) {
    fan_in(b, rank, size, root, |_| bytes, true);
}

/// Binomial gather of a `block_bytes` block from every rank to `root`.
pub(super) fn gather(b: &mut Builder, rank: u32, size: u32, root: u32, block_bytes: u64) {
    fan_in(b, rank, size, root, |ranks| ranks.saturating_mul(block_bytes), false);
}

/// Allreduce as a binomial reduce of `bytes` to rank 0, then a binomial bcast from it.
pub(super) fn reduce_then_bcast(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    reduce(b, rank, size, 0, bytes);
    bcast(b, rank, size, 0, bytes);
}

/// Binomial scatter of a `block_bytes` block to every rank from `root`.
pub(super) fn scatter(b: &mut Builder, rank: u32, size: u32, root: u32, block_bytes: u64) {
    fan_out(b, rank, size, root, |ranks| ranks.saturating_mul(block_bytes));
}

#[cfg(test)]
mod tests {
    use super::super::micro_op::MicroOp;
    use super::*;

    #[test]
    fn tree_shape_of_13_ranks() {
        assert_eq!(children(0, 13), [1, 2, 4, 8]);
        assert_eq!(children(4, 13), [5, 6]);
        assert_eq!(children(8, 13), [9, 10, 12]);
        assert_eq!(children(12, 13), Vec::<u64>::new());
        assert_eq!(subtree_ranks(0, 13), 13);
        assert_eq!(subtree_ranks(8, 13), 5);
        assert_eq!(subtree_ranks(12, 13), 1);
        assert_eq!(subtree_ranks(10, 13), 2);
    }

    #[test]
    fn bcast_from_root_3_of_8() {
        // Root 3 is relative 0: children relative 4, 2, 1 (biggest first) = ranks 7, 5, 4.
        let mut b = Builder::new();
        bcast(&mut b, 3, 8, 3, 100);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Isend { peer: 7, bytes: 100 },
                MicroOp::Isend { peer: 5, bytes: 100 },
                MicroOp::Isend { peer: 4, bytes: 100 },
                MicroOp::Wait(vec![0, 1, 2]),
            ]
        );
        // Rank 1 is relative 6: parent relative 4 (rank 7), child relative 7 (rank 2).
        let mut b = Builder::new();
        bcast(&mut b, 1, 8, 3, 100);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 7, bytes: 100 },
                MicroOp::Wait(vec![0]),
                MicroOp::Isend { peer: 2, bytes: 100 },
                MicroOp::Wait(vec![1]),
            ]
        );
    }

    #[test]
    fn gather_carries_whole_subtrees() {
        // p = 6, root 0: relative 4 has subtree {4, 5}; it receives 1 block from 5 and sends 2.
        let mut b = Builder::new();
        gather(&mut b, 4, 6, 0, 10);
        assert_eq!(
            b.finish(),
            vec![
                MicroOp::Irecv { peer: 5, bytes: 10 },
                MicroOp::Wait(vec![0]),
                MicroOp::Isend { peer: 0, bytes: 20 },
                MicroOp::Wait(vec![1]),
            ]
        );
    }
}
