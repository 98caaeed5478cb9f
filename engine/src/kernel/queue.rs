//! The pending-event queue: a radix heap over monotone integer times.
//!
//! Order contract: events leave in `(time, seq)` order, where `seq` is the global scheduling
//! counter, so events at equal times run in the order they were scheduled.
//!
//! Why a radix heap: in discrete-event simulation no event is ever scheduled before the last one
//! popped, which is the monotone property a radix heap needs. Pushes go to the bucket named by the
//! highest bit in which the time differs from the last popped time; a pop empties the lowest
//! non-empty bucket by redistributing it below the new minimum. Each event moves down at most 64
//! times, and buckets are contiguous vectors, so large queues (a million pending events) keep their
//! speed where a binary heap thrashes the cache (see the brief §4 and the PHOLD benchmark).
//! Events equal to the current minimum wait in `current`, sorted by `seq`.
//!
//! Payloads live inside the queue entries rather than in a side table: a pop then reads only memory
//! the heap already streams through, instead of a random access into a large slab per event.

use std::collections::VecDeque;

/// One scheduled event: when, its scheduling number, and its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedEvent<P> {
    /// Picoseconds.
    pub time: u64,
    /// Global scheduling counter value.
    pub seq: u64,
    /// What happens (kernel-defined).
    pub payload: P,
}

/// Monotone radix heap keyed by `time`, ties by `seq`.
#[derive(Debug)]
pub struct EventQueue<P> {
    last: u64,
    /// Events whose time equals `last`, in `seq` order.
    current: VecDeque<QueuedEvent<P>>,
    /// `buckets[i]` holds times whose highest bit differing from `last` is bit `i`.
    buckets: Vec<Vec<QueuedEvent<P>>>,
    len: usize,
    scratch: Vec<QueuedEvent<P>>,
}

impl<P> Default for EventQueue<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P> EventQueue<P> {
    /// An empty queue at time zero.
    pub fn new() -> Self {
        EventQueue {
            last: 0,
            current: VecDeque::new(),
            buckets: (0..64).map(|_| Vec::new()).collect(),
            len: 0,
            scratch: Vec::new(),
        }
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The time of the last popped event (the monotone floor for pushes).
    pub fn floor(&self) -> u64 {
        self.last
    }

    /// Schedule an event. `event.time` must not be earlier than the last popped time and `seq` must
    /// exceed every `seq` pushed before; the kernel guarantees both.
    pub fn push(&mut self, event: QueuedEvent<P>) {
        debug_assert!(event.time >= self.last, "event scheduled in the past");
        self.len += 1;
        if event.time == self.last {
            self.current.push_back(event);
        } else {
            let bucket = 63 - (event.time ^ self.last).leading_zeros() as usize;
            self.buckets[bucket].push(event);
        }
    }

    /// The earliest event, by `(time, seq)`.
    pub fn pop(&mut self) -> Option<QueuedEvent<P>> {
        if let Some(e) = self.current.pop_front() {
            self.len -= 1;
            return Some(e);
        }
        let index = self.buckets.iter().position(|b| !b.is_empty())?;
        let mut bucket = std::mem::take(&mut self.buckets[index]);
        let min = bucket.iter().map(|e| e.time).min().unwrap_or(self.last);
        self.last = min;
        self.scratch.clear();
        for e in bucket.drain(..) {
            if e.time == min {
                self.scratch.push(e);
            } else {
                let b = 63 - (e.time ^ min).leading_zeros() as usize;
                debug_assert!(b < index);
                self.buckets[b].push(e);
            }
        }
        // Give the emptied vector back so its capacity is reused.
        self.buckets[index] = bucket;
        self.scratch.sort_unstable_by_key(|e| e.seq);
        self.current.extend(self.scratch.drain(..));
        self.len -= 1;
        self.current.pop_front()
    }

    /// The time of the earliest pending event without removing it.
    pub fn peek_time(&self) -> Option<u64> {
        if !self.current.is_empty() {
            return Some(self.last);
        }
        let index = self.buckets.iter().position(|b| !b.is_empty())?;
        self.buckets[index].iter().map(|e| e.time).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    #[test]
    fn equal_times_leave_in_scheduling_order() {
        let mut q = EventQueue::new();
        for (seq, time) in [(0, 5), (1, 3), (2, 5), (3, 3), (4, 9)] {
            q.push(QueuedEvent { time, seq, payload: seq as u32 });
        }
        let order: Vec<u64> = std::iter::from_fn(|| q.pop()).map(|e| e.seq).collect();
        assert_eq!(order, vec![1, 3, 0, 2, 4]);
    }

    proptest! {
        /// Interleaved pushes and pops (pushes never before the floor, as in a simulation) come out
        /// exactly as a binary heap ordered by (time, seq) would give them.
        #[test]
        fn matches_a_binary_heap(ops in prop::collection::vec((any::<bool>(), 0u64..1000, 0u64..4), 1..400)) {
            let mut q = EventQueue::new();
            let mut h = BinaryHeap::new();
            let mut seq = 0;
            let mut now = 0;
            for (pop, delay, spread) in ops {
                if pop {
                    let a = q.pop();
                    let b = h.pop().map(|Reverse((t, s))| (t, s));
                    prop_assert_eq!(a.map(|e| (e.time, e.seq)), b);
                    if let Some(e) = a { now = e.time; }
                } else {
                    let time = now + delay * spread;
                    q.push(QueuedEvent { time, seq, payload: 0u32 });
                    h.push(Reverse((time, seq)));
                    seq += 1;
                }
                prop_assert_eq!(q.len(), h.len());
                prop_assert_eq!(q.peek_time(), h.peek().map(|Reverse((t, _))| *t));
            }
            while let Some(Reverse((t, s))) = h.pop() {
                let e = q.pop().unwrap();
                prop_assert_eq!((e.time, e.seq), (t, s));
            }
            prop_assert!(q.pop().is_none());
        }
    }
}
