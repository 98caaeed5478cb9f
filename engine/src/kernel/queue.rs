//! The pending-event queue: a radix heap over monotone integer times.
//!
//! Order contract: events leave in `(time, seq)` order, where `seq` is the global scheduling
//! counter, so events at equal times run in the order they were scheduled.
//!
//! Why a radix heap: in discrete-event simulation no event is ever scheduled before the last one
//! popped, which is the monotone property a radix heap needs. Pushes go to the bucket named by the
//! highest bit in which the time differs from the last popped time; a refill empties the lowest
//! non-empty bucket by redistributing it below the new minimum. Each event moves down at most 64
//! times, and buckets are contiguous blocks, so large queues (a million pending events) keep their
//! speed where a binary heap thrashes the cache (see the brief §4 and the PHOLD benchmark).
//! Events equal to the current minimum wait in `current`, sorted by `seq`.
//!
//! Memory: a bucket is a chain of fixed-size blocks drawn from one pool shared by all buckets. A
//! full block goes back to the pool as soon as a refill has drained it, and the pool keeps only a
//! fraction of the blocks in use, so the queue holds about its pending entries plus one block per
//! bucket (a bucket of plain vectors would keep the largest size each bucket ever reached). A
//! bucket's block being filled, the one pushes go to, sits in the queue itself (`tails`), so a push
//! reaches it with one load, as it would a plain vector, and it stays the bucket's when a refill
//! drains it: the lowest buckets are split every few events, and handing their block to the pool
//! and taking another for the next push made PHOLD at 1,024 entities about a fifth slower
//! (measured). A bit mask of non-empty buckets finds the lowest one without a scan, and the refill
//! that `peek_time` does is the one `pop` then uses (one search per event).
//!
//! Payloads live inside the queue entries rather than in a side table: a pop then reads only memory
//! the heap already streams through, instead of a random access into a large slab per event.
//!
//! Two queues fed from one `seq` counter (the kernel keeps messages and timers apart, see
//! `agenda.rs`) are merged with [`EventQueue::peek_key`], which finds the earliest event without
//! moving the floor, so the queue not popped stays open to events earlier than its own next one.

use std::collections::VecDeque;

/// One scheduled event: when, its scheduling number, and its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedEvent<P> {
    /// Picoseconds.
    pub time: u64,
    /// Order among equal times: increases with every push (the kernel's scheduling counter,
    /// which it packs with a few payload bits below it).
    pub seq: u64,
    /// What happens (kernel-defined).
    pub payload: P,
}

/// Entries per block.
const BLOCK: usize = 512;

type Block<P> = Vec<QueuedEvent<P>>;

/// Monotone radix heap keyed by `time`, ties by `seq`.
#[derive(Debug)]
pub struct EventQueue<P> {
    last: u64,
    /// Events whose time equals `last`, in `seq` order.
    current: VecDeque<QueuedEvent<P>>,
    /// `full[i]` and then `tails[i]` hold times whose highest bit differing from `last` is bit
    /// `i`, in `seq` order: full blocks, then the block being filled (without room until the
    /// bucket's first push).
    full: [Vec<Block<P>>; 64],
    tails: [Block<P>; 64],
    /// Bit `i` set: bucket `i` is not empty.
    occupied: u64,
    /// Empty blocks, each with room for `BLOCK` entries.
    pool: Vec<Block<P>>,
    /// Blocks held by buckets.
    blocks_in_use: usize,
    len: usize,
    /// While `current` is empty: the earliest event in the buckets once looked for (by
    /// [`EventQueue::peek_key`], which must not move `last`), kept up to date by pushes.
    earliest: Option<Earliest>,
}

/// The earliest time in the buckets, the `seq` of its first event and how many events share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Earliest {
    time: u64,
    seq: u64,
    count: usize,
}

impl Earliest {
    /// Take in the events of `block` (later in `seq` than those already seen).
    #[inline]
    fn scan<P>(&mut self, block: &[QueuedEvent<P>]) {
        for e in block {
            if e.time < self.time {
                *self = Earliest { time: e.time, seq: e.seq, count: 1 };
            } else if e.time == self.time {
                self.count += 1;
            }
        }
    }
}

impl<P> Default for EventQueue<P> {
    fn default() -> Self {
        Self::new()
    }
}

/// Room for a bucket's next events: its tail block is full (or has no room yet), so it joins the
/// bucket's full blocks and a block from `pool` takes its place.
#[cold]
fn new_tail<P>(
    full: &mut Vec<Block<P>>,
    tail: &mut Block<P>,
    pool: &mut Vec<Block<P>>,
    blocks_in_use: &mut usize,
) {
    let fresh = pool.pop().unwrap_or_else(|| Vec::with_capacity(BLOCK));
    let old = std::mem::replace(tail, fresh);
    if old.capacity() > 0 {
        full.push(old);
    }
    *blocks_in_use += 1;
}

impl<P> EventQueue<P> {
    /// An empty queue at time zero.
    pub fn new() -> Self {
        EventQueue {
            last: 0,
            current: VecDeque::new(),
            full: std::array::from_fn(|_| Vec::new()),
            tails: std::array::from_fn(|_| Vec::new()),
            occupied: 0,
            pool: Vec::new(),
            blocks_in_use: 0,
            len: 0,
            earliest: None,
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

    /// The monotone floor for pushes: the time of the last popped event, or of the earliest pending
    /// one once `peek_time` (or `pop_at_or_before`) has looked at it.
    pub fn floor(&self) -> u64 {
        self.last
    }

    /// Schedule an event. `event.time` must not be earlier than [`EventQueue::floor`] and `seq` must
    /// exceed every `seq` pushed before; the kernel guarantees both (it only schedules while
    /// handling an event, at or after that event's time).
    pub fn push(&mut self, event: QueuedEvent<P>) {
        debug_assert!(event.time >= self.last, "event scheduled in the past");
        self.len += 1;
        if event.time == self.last {
            self.current.push_back(event);
        } else {
            let index = 63 - (event.time ^ self.last).leading_zeros() as usize;
            self.occupied |= 1 << index;
            if let Some(earliest) = self.earliest.as_mut() {
                // Later `seq` than any pending event: it changes the earliest one only by time.
                if event.time < earliest.time {
                    *earliest = Earliest { time: event.time, seq: event.seq, count: 1 };
                } else if event.time == earliest.time {
                    earliest.count += 1;
                }
            }
            self.file(index, event);
        }
    }

    /// Put `event` into bucket `index`.
    #[inline]
    fn file(&mut self, index: usize, event: QueuedEvent<P>) {
        let tail = &mut self.tails[index];
        // A block has room for `BLOCK` entries; a bucket's first push finds a tail without room.
        if tail.len() == tail.capacity() {
            new_tail(&mut self.full[index], tail, &mut self.pool, &mut self.blocks_in_use);
        }
        tail.push(event);
    }

    /// The earliest event of the buckets (they hold every pending event while `current` is empty),
    /// found by one scan of the lowest non-empty bucket and kept until a refill takes it.
    fn earliest(&mut self) -> Option<Earliest> {
        if self.earliest.is_none() && self.occupied != 0 {
            let index = self.occupied.trailing_zeros() as usize;
            // A bucket holds its events in `seq` order, so the first one at the earliest time
            // has the lowest `seq` there.
            let mut found = Earliest { time: u64::MAX, seq: 0, count: 0 };
            for block in &self.full[index] {
                found.scan(block);
            }
            found.scan(&self.tails[index]);
            self.earliest = Some(found);
        }
        self.earliest
    }

    /// Make `current` hold the earliest events (if any are pending); false if nothing is.
    #[inline]
    fn refill(&mut self) -> bool {
        !self.current.is_empty() || self.split_lowest()
    }

    /// Move the earliest events of the lowest non-empty bucket to `current` and file the rest of
    /// that bucket into the buckets below it; false if every bucket is empty.
    fn split_lowest(&mut self) -> bool {
        let Some(Earliest { time: min, count: simultaneous, .. }) = self.earliest() else {
            return false;
        };
        self.earliest = None;
        let index = self.occupied.trailing_zeros() as usize;
        self.occupied &= !(1 << index);
        self.last = min;
        if self.current.capacity() > 4 * BLOCK && self.current.capacity() > 4 * simultaneous {
            // A burst of simultaneous events (every rank of a large run leaving one barrier) grew
            // `current`; give that room back once the burst is over instead of keeping it all run.
            self.current.shrink_to(BLOCK.max(simultaneous));
        }
        self.current.reserve_exact(simultaneous);
        // Every bucket holds its events in `seq` order (pushes come in `seq` order and a refill
        // splits a bucket into the empty ones below it, keeping that order), so the earliest ones
        // go to the front as they come, already sorted: no second buffer, no sort. The full blocks
        // come first; every event goes to a lower bucket, so the bucket's list of blocks stays
        // empty while it is split and goes back with its room kept for the bucket's next events.
        if !self.full[index].is_empty() {
            self.split_full_blocks(min, index);
        }
        // Then the block being filled, which stays the bucket's: a bucket split again and again
        // (the lowest ones, every few events) reuses its block instead of taking one from the pool.
        let mut tail = std::mem::take(&mut self.tails[index]);
        for e in tail.drain(..) {
            self.place(min, index, e);
        }
        self.tails[index] = tail;
        debug_assert!(self.current.iter().zip(self.current.iter().skip(1)).all(|(a, b)| a.seq < b.seq));
        true
    }

    /// The first part of splitting bucket `index` at the new minimum `min`: its full blocks, each
    /// given back as it drains.
    fn split_full_blocks(&mut self, min: u64, index: usize) {
        let mut blocks = std::mem::take(&mut self.full[index]);
        for mut block in blocks.drain(..) {
            for e in block.drain(..) {
                self.place(min, index, e);
            }
            // The drained block is free at once: the next one's events may reuse it. Only a
            // fraction of the blocks in use are kept as spare; the rest go back as they drain,
            // so a large bucket is not held twice while it is split.
            self.blocks_in_use -= 1;
            if self.pool.len() < self.blocks_in_use / 8 + 64 {
                self.pool.push(block);
            }
        }
        self.full[index] = blocks;
        let spare = self.blocks_in_use / 8 + 64;
        if self.pool.len() > spare {
            self.pool.truncate(spare);
        }
    }

    /// One event of bucket `index` being split at the new minimum `min`: to the front if it is
    /// due at `min`, else to the lower bucket its time now belongs to.
    #[inline]
    fn place(&mut self, min: u64, index: usize, e: QueuedEvent<P>) {
        if e.time == min {
            self.current.push_back(e);
        } else {
            let b = 63 - (e.time ^ min).leading_zeros() as usize;
            debug_assert!(b < index);
            self.occupied |= 1 << b;
            self.file(b, e);
        }
    }

    /// The earliest event, by `(time, seq)`.
    pub fn pop(&mut self) -> Option<QueuedEvent<P>> {
        if !self.refill() {
            if self.current.capacity() > 4 * BLOCK {
                self.current.shrink_to(BLOCK);
            }
            return None;
        }
        self.len -= 1;
        self.current.pop_front()
    }

    /// The earliest event if its time is at or before `limit` (one search for both questions).
    pub fn pop_at_or_before(&mut self, limit: u64) -> Option<QueuedEvent<P>> {
        if self.refill() && self.last <= limit {
            self.len -= 1;
            self.current.pop_front()
        } else {
            None
        }
    }

    /// The time of the earliest pending event without removing it (it moves to the front, so the
    /// next `pop` does no further search).
    pub fn peek_time(&mut self) -> Option<u64> {
        self.refill().then_some(self.last)
    }

    /// The `(time, seq)` of the earliest pending event without removing it. Unlike
    /// [`EventQueue::peek_time`] it leaves [`EventQueue::floor`] where it is, so events may still
    /// be pushed at any time from the last one popped: two queues fed from one `seq` counter are
    /// merged in `(time, seq)` order by peeking both and popping from the one whose key is
    /// smaller, and the other stays open to events earlier than its own next one.
    #[inline]
    pub fn peek_key(&mut self) -> Option<(u64, u64)> {
        match self.current.front() {
            Some(e) => Some((e.time, e.seq)),
            None => self.earliest().map(|e| (e.time, e.seq)),
        }
    }

    /// Bytes the queue holds for its entries (capacity of every buffer, spare room included).
    pub fn allocated_bytes(&self) -> usize {
        let entries = self.current.capacity() + (self.blocks_in_use + self.pool.len()) * BLOCK;
        entries * std::mem::size_of::<QueuedEvent<P>>()
            + (self.full.iter().map(Vec::capacity).sum::<usize>() + self.tails.len())
                * std::mem::size_of::<Block<P>>()
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

    /// Peeking at the earliest event leaves the floor alone, so events earlier than it may still
    /// come (the other queue of a merged pair may schedule them).
    #[test]
    fn peeking_a_key_leaves_room_for_earlier_events() {
        let mut q = EventQueue::new();
        q.push(QueuedEvent { time: 100, seq: 0, payload: 0u32 });
        q.push(QueuedEvent { time: 100, seq: 1, payload: 1 });
        assert_eq!(q.peek_key(), Some((100, 0)));
        assert_eq!(q.floor(), 0, "peeking a key does not move the floor");
        // Earlier than the peeked event, later than the floor: allowed, and it comes out first.
        q.push(QueuedEvent { time: 40, seq: 2, payload: 2 });
        q.push(QueuedEvent { time: 40, seq: 3, payload: 3 });
        q.push(QueuedEvent { time: 100, seq: 4, payload: 4 });
        assert_eq!(q.peek_key(), Some((40, 2)));
        let order: Vec<(u64, u64)> = std::iter::from_fn(|| q.pop()).map(|e| (e.time, e.seq)).collect();
        assert_eq!(order, [(40, 2), (40, 3), (100, 0), (100, 1), (100, 4)]);
    }

    /// A million pending events cost about their own size; once popped, the memory goes back
    /// (only a bounded pool of spare blocks stays).
    #[test]
    fn memory_follows_the_pending_events() {
        let entry = std::mem::size_of::<QueuedEvent<u32>>();
        let constant = (2 * 64 + 8) * BLOCK * entry + 64 * 64 * std::mem::size_of::<Block<u32>>();
        let mut q = EventQueue::new();
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut seq = 0;
        let mut now = 0;
        let mut peak = 0;
        // Churn as a simulation does: pop one, push one later, with a million pending.
        for _ in 0..1_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            q.push(QueuedEvent { time: x % 1_000_000_000, seq, payload: 0u32 });
            seq += 1;
        }
        for _ in 0..2_000_000 {
            let e = q.pop().unwrap();
            now = e.time;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            q.push(QueuedEvent { time: now + x % 1_000_000_000, seq, payload: 0u32 });
            seq += 1;
            peak = peak.max(q.allocated_bytes());
        }
        assert!(peak <= 1_000_000 * entry * 9 / 8 + constant, "peak {peak} B for a million events");
        while let Some(e) = q.pop() {
            assert!(e.time >= now);
            now = e.time;
        }
        assert!(q.allocated_bytes() <= constant, "{} B kept after emptying", q.allocated_bytes());
    }

    /// A burst of simultaneous events grows the front buffer; the room is given back once the
    /// queue moves on to a later time, not kept for the rest of the run.
    #[test]
    fn the_room_of_a_burst_is_given_back_after_it() {
        let entry = std::mem::size_of::<QueuedEvent<u32>>();
        let mut q = EventQueue::new();
        for seq in 0..400_000 {
            q.push(QueuedEvent { time: 5, seq, payload: 0u32 });
        }
        q.push(QueuedEvent { time: 10, seq: 400_000, payload: 0u32 });
        let first = q.pop().unwrap();
        assert_eq!((first.time, first.seq), (5, 0));
        let constant = (64 + 2) * BLOCK * entry + 64 * 64 * std::mem::size_of::<Block<u32>>();
        let held = q.allocated_bytes();
        assert!(held >= 400_000 * entry, "the burst is held while it runs");
        assert!(held <= 400_000 * entry + constant, "the burst is held once, not twice: {held} B");
        for seq in 1..400_000 {
            assert_eq!(q.pop().map(|e| (e.time, e.seq)), Some((5, seq)));
        }
        assert_eq!(q.pop().map(|e| (e.time, e.seq)), Some((10, 400_000)));
        // What stays: the pool's spare blocks (64 when little is in use), a block's room in the front
        // buffer, and the bucket lists; under a quarter of the burst's 400,000 entries.
        assert!(constant < 100_000 * entry);
        assert!(q.allocated_bytes() <= constant, "{} B kept after the burst", q.allocated_bytes());
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
                    let time = now.max(q.floor()) + delay * spread;
                    q.push(QueuedEvent { time, seq, payload: 0u32 });
                    h.push(Reverse((time, seq)));
                    seq += 1;
                }
                prop_assert_eq!(q.len(), h.len());
                prop_assert_eq!(q.peek_key(), h.peek().map(|Reverse((t, s))| (*t, *s)));
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
