//! Schedules of the collectives with per-rank counts ([`VCollective`]), built from point-to-point
//! messages like the others and in the communicator's own rank numbering. Each rank needs only the
//! counts MPI gives it (a non-root rank of gatherv knows only its own block), and a block of zero
//! bytes is no message (both sides know its count is zero). n_i is the count of rank i.
//!
//! * **gatherv, linear** — every rank but the root sends its block to the root; the root posts
//!   one receive per other rank and waits for all. Root cost ≈ (p − 1)α + Σ_{i≠root} n_i β.
//! * **scatterv, linear** — the root posts one send per other rank and waits for all; every other
//!   rank receives its block. Same cost as gatherv.
//! * **allgatherv, ring** — in step k = 0 … p−2 rank r sends block (r − k) mod p to r + 1 and
//!   receives block (r − k − 1) mod p from r − 1. (p − 1)α + Σ_{i≠r} n_i β per rank.
//! * **alltoallv, pairwise** — in step k = 1 … p−1 rank r sends its block for (r + k) mod p to that
//!   rank and receives the block from (r − k) mod p. (p − 1)α + max(Σ sent, Σ received) β.
//!
//! These are the algorithms Open MPI's `basic_linear` (gatherv, scatterv), `ring` (allgatherv) and
//! `pairwise` (alltoallv) components use; `docs/collectives.md` lists them.

use super::builder::{Builder, ring_add, ring_sub};
use super::error::ScheduleError;
use super::micro_op::MicroOp;
use crate::mpi::group::{VCollective, VKind};

/// The micro-operations communicator rank `rank` performs for `call` among `size` ranks.
pub fn vector_schedule(call: &VCollective, rank: u32, size: u32) -> Result<Vec<MicroOp>, ScheduleError> {
    if rank >= size {
        return Err(ScheduleError::BadRank { rank, size });
    }
    if call.kind.has_root() && call.root >= size {
        return Err(ScheduleError::BadRoot { root: call.root, size });
    }
    let per_rank = |counts: &[u64], what: &'static str| -> Result<(), ScheduleError> {
        if counts.len() == size as usize {
            Ok(())
        } else {
            Err(ScheduleError::CountsLength { kind: call.kind.name(), what, counts: counts.len(), size })
        }
    };
    let own = |counts: &[u64]| counts.first().copied().unwrap_or(0);
    let is_root = rank == call.root;
    match call.kind {
        VKind::Gatherv if is_root => per_rank(&call.recv_bytes, "receive")?,
        VKind::Scatterv if is_root => per_rank(&call.send_bytes, "send")?,
        VKind::Allgatherv => per_rank(&call.recv_bytes, "receive")?,
        VKind::Alltoallv => {
            per_rank(&call.send_bytes, "send")?;
            per_rank(&call.recv_bytes, "receive")?;
        }
        VKind::Gatherv | VKind::Scatterv => {}
    }
    let mut b = Builder::new();
    if size > 1 {
        match call.kind {
            VKind::Gatherv if is_root => {
                let handles = (0..size)
                    .filter(|i| *i != rank && call.recv_bytes[*i as usize] > 0)
                    .map(|i| b.irecv(i, call.recv_bytes[i as usize]))
                    .collect();
                b.wait(handles);
            }
            VKind::Gatherv => {
                if own(&call.send_bytes) > 0 {
                    b.send(call.root, own(&call.send_bytes));
                }
            }
            VKind::Scatterv if is_root => {
                let handles = (0..size)
                    .filter(|i| *i != rank && call.send_bytes[*i as usize] > 0)
                    .map(|i| b.isend(i, call.send_bytes[i as usize]))
                    .collect();
                b.wait(handles);
            }
            VKind::Scatterv => {
                if own(&call.recv_bytes) > 0 {
                    b.recv(call.root, own(&call.recv_bytes));
                }
            }
            VKind::Allgatherv => allgatherv_ring(&mut b, rank, size, &call.recv_bytes),
            VKind::Alltoallv => alltoallv_pairwise(&mut b, rank, size, &call.send_bytes, &call.recv_bytes),
        }
    }
    Ok(b.finish())
}

/// Ring allgatherv: `counts[i]` is rank i's block.
fn allgatherv_ring(b: &mut Builder, rank: u32, size: u32, counts: &[u64]) {
    let (next, previous) = (ring_add(rank, 1, size), ring_sub(rank, 1, size));
    for step in 0..u64::from(size) - 1 {
        let sent = counts[ring_sub(rank, step, size) as usize];
        let received = counts[ring_sub(rank, step + 1, size) as usize];
        exchange(b, (next, sent), (previous, received));
    }
}

/// Pairwise alltoallv.
fn alltoallv_pairwise(b: &mut Builder, rank: u32, size: u32, send: &[u64], recv: &[u64]) {
    for step in 1..u64::from(size) {
        let (to, from) = (ring_add(rank, step, size), ring_sub(rank, step, size));
        exchange(b, (to, send[to as usize]), (from, recv[from as usize]));
    }
}

/// A send-receive whose empty halves are left out.
fn exchange(b: &mut Builder, (to, sent): (u32, u64), (from, received): (u32, u64)) {
    let mut handles = Vec::with_capacity(2);
    if received > 0 {
        handles.push(b.irecv(from, received));
    }
    if sent > 0 {
        handles.push(b.isend(to, sent));
    }
    b.wait(handles);
}

#[cfg(test)]
mod tests {
    use super::super::executor::{Protocol, execute};
    use super::*;

    /// A count matrix with zeros and sizes up to a few KiB: `m[i][j]` bytes go from rank i to j.
    fn matrix(size: u32, seed: u64) -> Vec<Vec<u64>> {
        let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (0..size)
            .map(|_| {
                (0..size)
                    .map(|_| {
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                        let v = (x >> 33) % 5000;
                        if v < 1000 { 0 } else { v }
                    })
                    .collect()
            })
            .collect()
    }

    /// Each rank's schedule for the call `call_of(rank)` among `size` ranks, run under both
    /// protocols; the rendezvous run's sends and received bytes per rank.
    fn run(size: u32, call_of: impl Fn(u32) -> VCollective) -> (Vec<Vec<(u32, u64)>>, Vec<u64>) {
        let schedules: Vec<Vec<MicroOp>> =
            (0..size).map(|r| vector_schedule(&call_of(r), r, size).unwrap()).collect();
        execute(&schedules, Protocol::Eager).unwrap();
        let run = execute(&schedules, Protocol::Rendezvous).unwrap();
        (run.sends, run.received_bytes)
    }

    /// Sends of one rank as a sorted list of (destination, bytes).
    fn sorted(mut sends: Vec<(u32, u64)>) -> Vec<(u32, u64)> {
        sends.sort_unstable();
        sends
    }

    #[test]
    fn bytes_moved_per_rank_equal_the_counts() {
        for size in 1..=9_u32 {
            for seed in 0..4 {
                let m = matrix(size, seed + u64::from(size) * 10);
                let root = (seed as u32) % size;
                let others = |r: u32| (0..size).filter(move |i| *i != r);
                // gatherv: rank i's block is m[i][0]; the root receives every other block.
                let block = |i: u32| m[i as usize][0];
                let (sends, received) = run(size, |r| VCollective {
                    kind: VKind::Gatherv,
                    root,
                    send_bytes: vec![block(r)],
                    recv_bytes: if r == root {
                        (0..size).map(block).collect()
                    } else {
                        vec![0; size as usize]
                    },
                });
                for r in 0..size {
                    let want: Vec<(u32, u64)> =
                        if r == root || block(r) == 0 { vec![] } else { vec![(root, block(r))] };
                    assert_eq!(sends[r as usize], want, "gatherv p={size} rank {r}");
                    let got = if r == root { others(r).map(block).sum() } else { 0 };
                    assert_eq!(received[r as usize], got, "gatherv p={size} rank {r}");
                }
                // scatterv: the root sends block(i) to rank i.
                let (sends, received) = run(size, |r| VCollective {
                    kind: VKind::Scatterv,
                    root,
                    send_bytes: if r == root { (0..size).map(block).collect() } else { vec![] },
                    recv_bytes: vec![block(r)],
                });
                let want: Vec<(u32, u64)> =
                    others(root).filter(|i| block(*i) > 0).map(|i| (i, block(i))).collect();
                assert_eq!(sorted(sends[root as usize].clone()), want, "scatterv p={size}");
                for r in others(root) {
                    assert_eq!(received[r as usize], block(r), "scatterv p={size} rank {r}");
                }
                // allgatherv: everyone receives every block but its own.
                let all: Vec<u64> = (0..size).map(block).collect();
                let (sends, received) = run(size, |r| VCollective {
                    kind: VKind::Allgatherv,
                    root: 0,
                    send_bytes: vec![block(r)],
                    recv_bytes: all.clone(),
                });
                for r in 0..size {
                    assert_eq!(
                        received[r as usize],
                        others(r).map(block).sum::<u64>(),
                        "allgatherv p={size}"
                    );
                    // The ring passes on every block but the next rank's own.
                    let next = (r + 1) % size;
                    let sent: u64 = sends[r as usize].iter().map(|(_, b)| b).sum();
                    assert_eq!(sent, others(next).map(block).sum::<u64>(), "allgatherv p={size} rank {r}");
                }
                // alltoallv: rank i sends m[i][j] to j.
                let (sends, received) = run(size, |r| VCollective {
                    kind: VKind::Alltoallv,
                    root: 0,
                    send_bytes: m[r as usize].clone(),
                    recv_bytes: (0..size).map(|i| m[i as usize][r as usize]).collect(),
                });
                for r in 0..size {
                    let want: Vec<(u32, u64)> = others(r)
                        .filter(|j| m[r as usize][*j as usize] > 0)
                        .map(|j| (j, m[r as usize][j as usize]))
                        .collect();
                    assert_eq!(sorted(sends[r as usize].clone()), want, "alltoallv p={size} rank {r}");
                    let got: u64 = others(r).map(|i| m[i as usize][r as usize]).sum();
                    assert_eq!(received[r as usize], got, "alltoallv p={size} rank {r}");
                }
            }
        }
    }

    #[test]
    fn counts_that_do_not_fit_the_communicator_are_errors() {
        let call = VCollective {
            kind: VKind::Alltoallv,
            root: 0,
            send_bytes: vec![1, 2],
            recv_bytes: vec![1, 2, 3],
        };
        assert_eq!(
            vector_schedule(&call, 0, 3).unwrap_err().to_string(),
            "alltoallv has 2 send counts for a communicator of 3 ranks"
        );
        let gather = VCollective { kind: VKind::Gatherv, root: 3, send_bytes: vec![1], recv_bytes: vec![] };
        assert!(matches!(vector_schedule(&gather, 0, 3), Err(ScheduleError::BadRoot { root: 3, size: 3 })));
        // A non-root rank of gatherv needs only its own block.
        let leaf = VCollective { kind: VKind::Gatherv, root: 0, send_bytes: vec![8], recv_bytes: vec![] };
        assert_eq!(
            vector_schedule(&leaf, 2, 3).unwrap(),
            vec![MicroOp::Isend { peer: 0, bytes: 8 }, MicroOp::Wait(vec![0])]
        );
    }
}
