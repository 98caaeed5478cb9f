//! Scan: inclusive prefix reduction of an n-byte vector (rank r ends with ranks 0..=r combined).
//!
//! * **linear** — SimGrid's `MPI_Scan`: every rank posts a receive from each lower rank and a send
//!   to each higher rank, waits for all and combines what it received. Rank r receives r messages
//!   and sends p − 1 − r, all of n bytes; rank 0's link carries (p − 1)n, so the cost is about
//!   α + (p − 1)nβ (+ (p − 1)nγ at rank p − 1).
//! * **chain** — Open MPI's `linear`: rank r receives the prefix from r − 1, combines its own, and
//!   passes it to r + 1. p − 1 messages of n bytes; cost (p − 1)(α + nβ + nγ).
//! * **recursive_doubling** — Open MPI's `recursive_doubling`: in round k rank r exchanges its
//!   partial result with r ⊕ 2^k (when that rank exists) and combines what it received (the lower
//!   rank's part into its prefix). ⌈log2 p⌉ rounds; cost ⌈log2 p⌉(α + nβ + nγ).

use super::builder::Builder;

/// SimGrid's linear scan.
pub(super) fn linear(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    let mut handles: Vec<u32> = (0..rank).map(|lower| b.irecv(lower, bytes)).collect();
    handles.extend((rank + 1..size).map(|higher| b.isend(higher, bytes)));
    b.wait(handles);
    b.combine(u64::from(rank) * bytes);
}

/// Chain scan.
pub(super) fn chain(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    if rank > 0 {
        b.recv(rank - 1, bytes);
        b.combine(bytes);
    }
    if rank + 1 < size {
        b.send(rank + 1, bytes);
    }
}

/// Recursive-doubling scan.
pub(super) fn recursive_doubling(b: &mut Builder, rank: u32, size: u32, bytes: u64) {
    let mut mask = 1;
    while mask < size {
        let partner = rank ^ mask;
        if partner < size {
            b.sendrecv(partner, bytes, partner, bytes);
            b.combine(bytes);
        }
        mask <<= 1;
    }
}
