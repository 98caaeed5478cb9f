//! The textbook PHOLD loop: the plainest fast implementation of the stateful PHOLD work, and the
//! baseline the kernel is measured against.
//!
//! Pending events are packed `u128` keys, `time << 64 | seq << 32 | target`, so one integer
//! comparison orders them by `(time, seq)` and the key carries the target: 16 bytes an event. They
//! sit in a radix heap of plain vectors (bucket `i` holds keys whose highest bit differing from the
//! last key popped is bit `i - 1`; a bit mask finds the lowest non-empty bucket). Each entity keeps
//! its SplitMix64 stream and its counters side by side; a delay is `0.1 − ln(1 − u)` time units.
//!
//! The draws (`target_of`, `delay_ps_of`) are shared with the kernel's PHOLD behaviour, so both
//! runs handle the same events at the same times, which the bench asserts before measuring.

use hase_engine::kernel::path_hash;

/// Picoseconds in one PHOLD time unit (1 µs).
pub const UNIT_PS: f64 = 1e6;

/// SplitMix64 (Steele, Lea and Flood): one add and two multiplies a draw, 8 bytes of state.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream of the entity at `path` in a run seeded with `seed`.
    pub fn for_entity(seed: u64, path: &str) -> Self {
        let mut seeder = SplitMix64(seed ^ path_hash(path));
        SplitMix64(seeder.next_u64())
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// An entity in `0..entities` from 64 random bits (multiply-shift of the high half).
#[inline]
pub fn target_of(bits: u64, entities: u32) -> u32 {
    (((bits >> 32) * u64::from(entities)) >> 32) as u32
}

/// A delay of `0.1 + Exp(1)` time units in picoseconds from 64 random bits (`−ln(1 − u)`).
#[inline]
pub fn delay_ps_of(bits: u64) -> u64 {
    let u = (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    ((0.1 - (1.0 - u).ln()) * UNIT_PS).round() as u64
}

/// A monotone radix heap of `u128` keys: no key pushed may be below the last one popped.
pub struct RadixHeap {
    last: u128,
    /// `buckets[0]` holds keys equal to `last`; `buckets[i]` keys whose highest bit differing from
    /// `last` is bit `i - 1`.
    buckets: Vec<Vec<u128>>,
    /// Bit `i` set: bucket `i` is not empty.
    occupied: [u64; 3],
}

impl RadixHeap {
    pub fn new() -> Self {
        RadixHeap { last: 0, buckets: (0..=128).map(|_| Vec::new()).collect(), occupied: [0; 3] }
    }

    #[inline]
    fn bucket(&self, key: u128) -> usize {
        128 - (key ^ self.last).leading_zeros() as usize
    }

    #[inline]
    pub fn push(&mut self, key: u128) {
        debug_assert!(key >= self.last, "key below the last one popped");
        let b = self.bucket(key);
        self.occupied[b / 64] |= 1 << (b % 64);
        self.buckets[b].push(key);
    }

    /// The lowest non-empty bucket, if any.
    #[inline]
    fn lowest(&self) -> Option<usize> {
        self.occupied
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    #[inline]
    pub fn pop(&mut self) -> Option<u128> {
        if self.buckets[0].is_empty() {
            self.occupied[0] &= !1;
            let b = self.lowest()?;
            self.occupied[b / 64] &= !(1 << (b % 64));
            let mut keys = std::mem::take(&mut self.buckets[b]);
            self.last = keys.iter().copied().min().unwrap_or(self.last);
            for key in keys.drain(..) {
                let to = self.bucket(key);
                self.occupied[to / 64] |= 1 << (to % 64);
                self.buckets[to].push(key);
            }
            self.buckets[b] = keys;
        }
        self.buckets[0].pop()
    }
}

/// One entity of the textbook loop: its stream and its counters.
struct Entity {
    stream: SplitMix64,
    handled: u64,
    checksum: u64,
}

/// Run the stateful PHOLD: `entities` entities, `start` events each, until `events` have been
/// handled; checksums fold times modulo `check_mod`. Returns ((events, final time), per-entity
/// (handled, checksum)).
pub fn run(
    entities: u32,
    start: u32,
    events: u64,
    seed: u64,
    check_mod: u64,
) -> ((u64, u64), Vec<(u64, u64)>) {
    let mut table: Vec<Entity> = (0..entities)
        .map(|i| Entity { stream: SplitMix64::for_entity(seed, &format!("e{i}")), handled: 0, checksum: 0 })
        .collect();
    let mut heap = RadixHeap::new();
    let mut seq = 0u128;
    for e in &mut table {
        for _ in 0..start {
            let target = target_of(e.stream.next_u64(), entities);
            let time = delay_ps_of(e.stream.next_u64());
            heap.push(u128::from(time) << 64 | seq << 32 | u128::from(target));
            seq += 1;
        }
    }
    let (mut handled, mut now) = (0, 0);
    while let Some(key) = heap.pop() {
        now = (key >> 64) as u64;
        handled += 1;
        let e = &mut table[(key as u32) as usize];
        e.handled += 1;
        e.checksum += now % check_mod;
        let target = target_of(e.stream.next_u64(), entities);
        let time = now + delay_ps_of(e.stream.next_u64());
        heap.push(u128::from(time) << 64 | seq << 32 | u128::from(target));
        seq += 1;
        if handled >= events {
            break;
        }
    }
    ((handled, now), table.into_iter().map(|e| (e.handled, e.checksum)).collect())
}
