//! A thread's pool of emptied packet-queue buffers. A router keeps one spare buffer for its
//! outputs (`crate::packet_queue::SpareBuffer`); when two of its first-come-first-served outputs
//! empty while the spare is taken, the second buffer comes here instead of going back to the
//! allocator, and such an output that needs a buffer while its router has none takes one from here
//! before allocating (`crate::packet_queue::Overflow`). Where a router's outputs take turns at
//! holding one packet, as on a fat tree's allreduce, most packets would otherwise cost an
//! allocation and a free.
//!
//! The pool is bounded in buffers and in each buffer's capacity, so it holds at most about 140 KB
//! per thread whatever the network's size. Which buffer a queue gets changes nothing a run
//! computes.

use std::cell::RefCell;
use std::collections::VecDeque;

use crate::outgoing::Outgoing;

/// Buffers a thread keeps at most.
const POOL_BUFFERS_MAX: usize = 256;

/// Packets a pooled buffer may have room for; larger buffers (a burst's) go back to the allocator.
const POOLED_CAPACITY_MAX: usize = 8;

thread_local! {
    static POOL: RefCell<Vec<VecDeque<Outgoing>>> = const { RefCell::new(Vec::new()) };
}

/// Keep an emptied buffer for the next queue that needs one, or free it when the pool is full, the
/// buffer is large, or the thread is ending.
pub(crate) fn give(buffer: VecDeque<Outgoing>) {
    debug_assert!(buffer.is_empty(), "only emptied buffers are pooled");
    if !(1..=POOLED_CAPACITY_MAX).contains(&buffer.capacity()) {
        return;
    }
    // During the thread's end the pool may be gone; the buffer is then simply freed.
    let _ = POOL.try_with(|pool| {
        if let Ok(mut pool) = pool.try_borrow_mut()
            && pool.len() < POOL_BUFFERS_MAX
        {
            pool.push(buffer);
        }
    });
}

/// An emptied buffer with room for at least one packet, if the pool has one.
pub(crate) fn take() -> Option<VecDeque<Outgoing>> {
    POOL.try_with(|pool| pool.try_borrow_mut().ok().and_then(|mut pool| pool.pop())).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Empty this thread's pool (a test thread may have run routers before).
    fn drain() {
        while take().is_some() {}
    }

    #[test]
    fn an_emptied_buffer_is_given_back_and_large_or_unallocated_ones_are_not_kept() {
        drain();
        give(VecDeque::new());
        assert!(take().is_none(), "a buffer without room is not pooled");
        give(VecDeque::with_capacity(POOLED_CAPACITY_MAX * 4));
        assert!(take().is_none(), "a large buffer goes back to the allocator");
        give(VecDeque::with_capacity(1));
        let buffer = take().expect("a one-packet buffer is pooled");
        assert!(buffer.is_empty() && buffer.capacity() >= 1);
        assert!(take().is_none());
    }

    #[test]
    fn the_pool_keeps_a_bounded_number_of_buffers() {
        drain();
        for _ in 0..POOL_BUFFERS_MAX + 10 {
            give(VecDeque::with_capacity(1));
        }
        let kept = std::iter::from_fn(take).count();
        assert_eq!(kept, POOL_BUFFERS_MAX);
    }
}
