//! A small sorted map in one vector, for tables that hold a handful of entries each but exist once
//! per instance or entity: an instance's parameter overrides, a rank's open requests. A
//! `BTreeMap`'s first node takes several hundred bytes however few entries it holds (about 640 B
//! for one `String` → `ParamValue` entry), which a million instances multiply; this takes the
//! entries' own size. Lookups are binary searches; inserting or removing shifts the entries after
//! the position (cheap for the few it holds). Iteration is in key order, as a `BTreeMap`'s, and
//! serde sees a map, so files read and written through it are the same as through a `BTreeMap`
//! (a key given twice keeps its last value, as a `BTreeMap` does). Large tables built in one go and
//! then only read (a statistics report's million entities) suit it too: collecting sorts once, in
//! place, and the entries take their own size where a tree built in key order leaves its nodes
//! half full.

use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A map from `K` to `V` kept as a vector sorted by key (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
    pub const fn new() -> Self {
        VecMap { entries: Vec::new() }
    }
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }
    /// The value of `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }
    /// The entry of `key`, with the key as stored.
    pub fn get_key_value<Q: Ord + ?Sized>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| (&self.entries[i].0, &self.entries[i].1))
    }
    /// The value of `key`, to change.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }
    /// True when `key` has a value.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
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
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let i = self.find(key).ok()?;
        let (_, value) = self.entries.remove(i);
        if self.entries.capacity() > 8 && self.entries.len() < self.entries.capacity() / 4 {
            self.entries.shrink_to(self.entries.len() * 2);
        }
        Some(value)
    }
    /// The value of `key`, inserted with `make` first if it has none.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }
    /// Keep only the entries `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
    /// Remove every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
    /// Drop spare room.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
    }
}

impl<K, V> VecMap<K, V> {
    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }
    /// The entries in key order, values to change.
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }
    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }
    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }
    /// The values in key order, to change.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
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

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;
    /// The value of `key`, as `BTreeMap`'s indexing gives it.
    ///
    /// # Panics
    /// When `key` has no value (use [`VecMap::get`] where that can happen).
    fn index(&self, key: &Q) -> &V {
        match self.get(key) {
            Some(value) => value,
            None => panic!("VecMap: no entry for the key"),
        }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// Later entries win over earlier ones with the same key, as in `BTreeMap::from_iter`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut entries: Vec<(K, V)> = items.into_iter().collect();
        // Stable: equal keys keep their order, so the last of them is the one kept. Done in place
        // (a statistics report collects a million entries): of each run of equal keys, the first
        // slot stays and takes the value of each later one as that one is dropped.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        // A vector collected in place keeps its spare room (a `Vec` grown by pushes, dropped keys).
        entries.shrink_to_fit();
        VecMap { entries }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for VecMap<K, V> {
    fn from(items: [(K, V); N]) -> Self {
        items.into_iter().collect()
    }
}

impl<K: Ord, V> From<std::collections::BTreeMap<K, V>> for VecMap<K, V> {
    fn from(map: std::collections::BTreeMap<K, V>) -> Self {
        VecMap { entries: map.into_iter().collect() }
    }
}

impl<K: Ord, V> Extend<(K, V)> for VecMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'m, K, V> IntoIterator for &'m VecMap<K, V> {
    type Item = (&'m K, &'m V);
    type IntoIter = std::iter::Map<std::slice::Iter<'m, (K, V)>, fn(&'m (K, V)) -> (&'m K, &'m V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
            type Value = VecMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                // The size hint comes from the input: it only caps the first allocation.
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(entries.into_iter().collect())
            }
        }
        deserializer.deserialize_map(MapVisitor(PhantomData))
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
            prop_assert_eq!(ours.iter().collect::<Vec<_>>(), theirs.iter().collect::<Vec<_>>());
            prop_assert_eq!(ours.len(), theirs.len());
        }

        /// Built from any list of pairs, it holds what a `BTreeMap` built from it holds (the last
        /// value of a repeated key), and reads and writes the same RON.
        #[test]
        fn collects_and_round_trips_as_a_btree_map(pairs in proptest::collection::vec((0u8..16, any::<i32>()), 0..40)) {
            let ours: VecMap<String, i32> = pairs.iter().map(|(k, v)| (format!("k{k}"), *v)).collect();
            let theirs: BTreeMap<String, i32> = pairs.iter().map(|(k, v)| (format!("k{k}"), *v)).collect();
            prop_assert_eq!(ours.iter().collect::<Vec<_>>(), theirs.iter().collect::<Vec<_>>());
            let text = ron::to_string(&ours).unwrap();
            prop_assert_eq!(&text, &ron::to_string(&theirs).unwrap());
            let back: VecMap<String, i32> = ron::from_str(&text).unwrap();
            prop_assert_eq!(back, ours);
        }
    }

    #[test]
    fn a_key_given_twice_in_a_file_keeps_its_last_value() {
        let map: VecMap<String, i32> = ron::from_str(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        assert_eq!(map.iter().collect::<Vec<_>>(), [(&"a".to_string(), &3), (&"b".to_string(), &2)]);
        let theirs: BTreeMap<String, i32> = ron::from_str(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        assert_eq!(map, VecMap::from(theirs));
    }

    #[test]
    fn lookups_take_borrowed_keys() {
        let mut map: VecMap<String, u32> = [("radix".to_string(), 4)].into();
        assert_eq!(map.get("radix"), Some(&4));
        *map.get_or_insert_with("ports".to_string(), || 0) += 2;
        assert_eq!(map.remove("ports"), Some(2));
        assert!(!map.contains_key("ports"));
    }
}
