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
