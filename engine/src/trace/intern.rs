//! Sharing of repeated trace strings (message labels) between records while a trace is read: a
//! two-way set-associative cache from the string's bytes to one shared `Arc<str>`, so that a label met again
//! costs a hash, a compare and a reference count instead of a UTF-8 check and an allocation.
//!
//! The cache only decides *which* equal `Arc<str>` a record receives, never its text, so reading is
//! deterministic whatever is cached. It starts small (a short trace or a fuzz input pays for 256
//! slots) and doubles, up to [`MAX_SLOTS`], while strings keep missing it. Where labels hardly ever
//! repeat (fewer than one lookup in [`MIN_HITS_PER_WINDOW`] of a window hits), looking them up costs
//! more than it saves, so the cache stands aside for [`BYPASS_LOOKUPS`] strings before trying again.

use std::sync::Arc;

/// Slots of a new cache (a power of two).
const FIRST_SLOTS: usize = 256;
/// Largest cache (a power of two): 96 KiB of slots, small enough to stay in a core's cache.
pub(crate) const MAX_SLOTS: usize = 1 << 12;
/// Lookups per window over which the hit rate is judged.
const WINDOW: u32 = 4096;
/// A window with fewer hits than `WINDOW / MIN_HITS_PER_WINDOW` turns the cache off for a while.
const MIN_HITS_PER_WINDOW: u32 = 4;
/// Strings made without the cache after a window of too few hits.
const BYPASS_LOOKUPS: u32 = 1 << 16;
/// Strings longer than this are not cached (long comments are rarely repeated).
const MAX_CACHED_BYTES: usize = 256;

/// A two-way set-associative cache of shared strings keyed by their bytes.
pub(crate) struct StringCache {
    /// Per slot: the hash of the string held, and the string.
    slots: Vec<(u64, Option<Arc<str>>)>,
    /// Misses since the cache last grew.
    misses: usize,
    /// Lookups and hits in the current window; strings still to make without the cache.
    lookups: u32,
    hits: u32,
    bypass_left: u32,
}

impl Default for StringCache {
    fn default() -> Self {
        StringCache { slots: vec![(0, None); FIRST_SLOTS], misses: 0, lookups: 0, hits: 0, bypass_left: 0 }
    }
}

/// A fast, fixed (so deterministic) hash of a short byte string, eight bytes at a time.
#[inline]
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0_u8; 8];
        word.copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K).rotate_left(29);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut word = [0_u8; 8];
        word[..tail.len()].copy_from_slice(tail);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 32)
}

impl StringCache {
    /// Number of slots now (for tests).
    #[cfg(test)]
    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// The first of the two slots (ways) where a string of hash `hash` may be.
    fn set(&self, hash: u64) -> usize {
        hash as usize & (self.slots.len() - 2)
    }

    /// The cached string equal to `bytes` (of hash `hash`), counting a hit.
    #[inline]
    fn find(&mut self, hash: u64, bytes: &[u8]) -> Option<Arc<str>> {
        let at = self.set(hash);
        for (held, s) in &self.slots[at..at + 2] {
            if let Some(s) = s
                && *held == hash
                && s.as_bytes() == bytes
            {
                self.hits += 1;
                return Some(Arc::clone(s));
            }
        }
        None
    }

    /// The shared string equal to `bytes`, checking the bytes are UTF-8 only when they are not
    /// cached already (a cached string was checked when it was first met).
    #[inline]
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> Result<Arc<str>, std::str::Utf8Error> {
        if bytes.len() > MAX_CACHED_BYTES || self.standing_aside() {
            return std::str::from_utf8(bytes).map(Arc::from);
        }
        let h = hash(bytes);
        if let Some(s) = self.find(h, bytes) {
            return Ok(s);
        }
        let s: Arc<str> = Arc::from(std::str::from_utf8(bytes)?);
        self.insert(h, &s);
        Ok(s)
    }

    /// The shared string equal to `text`.
    #[inline]
    pub(crate) fn str(&mut self, text: &str) -> Arc<str> {
        if text.len() > MAX_CACHED_BYTES || self.standing_aside() {
            return Arc::from(text);
        }
        let h = hash(text.as_bytes());
        if let Some(s) = self.find(h, text.as_bytes()) {
            return s;
        }
        let s: Arc<str> = Arc::from(text);
        self.insert(h, &s);
        s
    }

    /// Count a lookup; true if the cache is standing aside for this one (too few hits lately).
    #[inline]
    fn standing_aside(&mut self) -> bool {
        if self.bypass_left > 0 {
            self.bypass_left -= 1;
            return true;
        }
        self.lookups += 1;
        if self.lookups == WINDOW {
            if self.hits < WINDOW / MIN_HITS_PER_WINDOW {
                self.bypass_left = BYPASS_LOOKUPS;
            }
            self.lookups = 0;
            self.hits = 0;
        }
        false
    }

    /// Put `s` first in its set after a miss (the string there moves to the second way); grow once
    /// misses outnumber twice the slots.
    fn insert(&mut self, hash: u64, s: &Arc<str>) {
        let at = self.set(hash);
        self.slots[at + 1] = std::mem::replace(&mut self.slots[at], (hash, Some(Arc::clone(s))));
        self.misses += 1;
        if self.misses > 2 * self.slots.len() && self.slots.len() < MAX_SLOTS {
            self.grow();
        }
    }

    /// Double the slots, keeping what fits.
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![(0, None); old.len() * 2];
        for (h, s) in old {
            if let Some(s) = s {
                let at = self.set(h);
                let way = if self.slots[at].1.is_none() { at } else { at + 1 };
                self.slots[way] = (h, Some(s));
            }
        }
        self.misses = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_strings_share_one_allocation() {
        let mut cache = StringCache::default();
        let a = cache.bytes(b"data r0\xe2\x86\x92r5 2/8").unwrap();
        let b = cache.str("data r0→r5 2/8");
        assert_eq!(&*a, "data r0→r5 2/8");
        assert!(Arc::ptr_eq(&a, &b));
        let c = cache.bytes(b"data r0\xe2\x86\x92r5 3/8").unwrap();
        assert_eq!(&*c, "data r0→r5 3/8");
    }

    #[test]
    fn a_few_labels_met_many_times_stay_shared() {
        let mut cache = StringCache::default();
        // Two rounds to settle (a third string in a set evicts one, and misses grow the cache), then
        // every label is the string met the round before.
        let mut last: Vec<Arc<str>> = (0..50).map(|i| cache.str(&format!("m{i}"))).collect();
        for round in 0..40 {
            for (i, seen) in last.iter_mut().enumerate() {
                let now = cache.bytes(format!("m{i}").as_bytes()).unwrap();
                assert_eq!(&*now, format!("m{i}"));
                assert!(round < 2 || Arc::ptr_eq(&now, seen), "round {round}, label {i}");
                *seen = now;
            }
        }
    }

    #[test]
    fn invalid_utf8_is_refused_cached_or_not() {
        let mut cache = StringCache::default();
        assert!(cache.bytes(b"ab\xff").is_err());
        assert!(cache.bytes(&[0xff; 300]).is_err());
        // A valid string sharing the slot does not make the invalid one pass.
        cache.str("ab");
        assert!(cache.bytes(b"ab\xff").is_err());
    }

    #[test]
    fn grows_while_missing_and_stays_correct() {
        let mut cache = StringCache::default();
        let names: Vec<String> = (0..20_000).map(|i| format!("label {i}")).collect();
        for _ in 0..3 {
            for n in &names {
                assert_eq!(&*cache.str(n), n.as_str());
            }
        }
        assert!(cache.slots() > FIRST_SLOTS);
        assert!(cache.slots() <= MAX_SLOTS);
        let long = "x".repeat(MAX_CACHED_BYTES + 1);
        assert_eq!(&*cache.str(&long), long.as_str());
    }

    proptest::proptest! {
        /// Whatever was cached before, the bytes come back as the same text (or the same refusal).
        #[test]
        fn cache_returns_the_bytes_given(
            seen in proptest::collection::vec(proptest::collection::vec(proptest::num::u8::ANY, 0..12), 0..64),
            probe in proptest::collection::vec(proptest::num::u8::ANY, 0..12),
        ) {
            let mut cache = StringCache::default();
            for s in &seen {
                let _ = cache.bytes(s);
            }
            match (cache.bytes(&probe), std::str::from_utf8(&probe)) {
                (Ok(s), Ok(t)) => proptest::prop_assert_eq!(&*s, t),
                (Err(_), Err(_)) => {}
                (got, want) => proptest::prop_assert!(false, "{got:?} vs {want:?}"),
            }
        }
    }
}
