//! A small sorted map in one vector, for per-entity tables that hold a handful of entries (a
//! rank's open requests, messages being assembled). A `BTreeMap`'s first node takes several
//! hundred bytes however few entries it holds, which a million processors multiply; this takes
//! the entries' own size. Lookups are binary searches; inserting or removing shifts the entries
//! after the position (cheap for the few it holds). Iteration is in key order, as a `BTreeMap`'s.

/// A map from `K` to `V` kept as a vector sorted by key (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { entries: Vec::new() }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// An empty map (no allocation until the first insert).
    pub fn new() -> Self {
        Self::default()
    }
    fn find(&self, key: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }
    /// The value of `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }
    /// The value of `key`, to change.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }
    /// True when `key` has a value.
    pub fn contains_key(&self, key: &K) -> bool {
        self.find(key).is_ok()
    }
    /// Set `key`'s value; returns the one it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }
    /// Take `key`'s value out. The vector gives back its room once it is mostly empty.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let i = self.find(key).ok()?;
        let (_, value) = self.entries.remove(i);
        if self.entries.capacity() > 8 && self.entries.len() < self.entries.capacity() / 4 {
            self.entries.shrink_to(self.entries.len() * 2);
        }
        Some(value)
    }
    /// The values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Any sequence of inserts and removes leaves the same contents as a `BTreeMap`.
        #[test]
        fn behaves_as_a_btree_map(ops in proptest::collection::vec((any::<bool>(), 0u8..32, any::<u16>()), 0..200)) {
            let mut ours = VecMap::new();
            let mut theirs = BTreeMap::new();
            for (insert, key, value) in ops {
                if insert {
                    prop_assert_eq!(ours.insert(key, value), theirs.insert(key, value));
                } else {
                    prop_assert_eq!(ours.remove(&key), theirs.remove(&key));
                }
                prop_assert_eq!(ours.get(&key), theirs.get(&key));
                prop_assert_eq!(ours.contains_key(&key), theirs.contains_key(&key));
            }
            prop_assert_eq!(ours.values().collect::<Vec<_>>(), theirs.values().collect::<Vec<_>>());
            prop_assert_eq!(ours.len(), theirs.len());
        }
    }
}
