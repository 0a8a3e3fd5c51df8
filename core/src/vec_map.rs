//! A map kept in a `Vec`, for tables that stay small or are keyed by a number (requests in
//! flight, per-run counts, a socket's running calls; in the wasm shell, its open streams and
//! settling operations): a scan is as fast as hashing there, and the wasm holds a few small
//! `Vec` functions per entry type instead of a hash table's (a `HashMap` costs ~2 KB of wasm
//! per key/value type). Tables that may hold a thousand calls use the string-keyed table of
//! `str_map`, whose lookups stay O(1).

use std::borrow::Borrow;

/// Keys are unique; iteration is in insertion order until an entry is removed (the last one
/// takes its place: removal costs no shift of the rest).
#[derive(Clone, Debug)]
pub struct VecMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap(Vec::new())
    }
}

impl<K, V> VecMap<K, V> {
    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries, in the order described on the type.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The values, in the order of [`VecMap::iter`].
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }

    /// Keeps the entries for which `keep` says so.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    fn index<Q: PartialEq + ?Sized>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
    {
        self.0.iter().position(|(k, _)| k.borrow() == key)
    }

    /// Whether `key` has an entry.
    pub fn contains_key<Q: PartialEq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.index(key).is_some()
    }

    /// The value of `key`, inserted as the default (the newest entry) when absent.
    pub fn get_or_default<Q: PartialEq + ?Sized>(&mut self, key: &Q) -> &mut V
    where
        K: Borrow<Q> + for<'q> From<&'q Q>,
        V: Default,
    {
        let i = match self.index(key) {
            Some(i) => i,
            None => {
                self.0.push((K::from(key), V::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }

    /// Inserts, or replaces the value of an existing key (which keeps its place); the value
    /// it replaced, if any.
    pub fn insert(&mut self, key: K, value: V) -> Option<V>
    where
        K: PartialEq,
    {
        match self.index(&key) {
            Some(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// The value of `key`, if it has an entry.
    pub fn get<Q: PartialEq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.index(key).map(|i| &self.0[i].1)
    }

    /// The value of `key`, to change, if it has an entry.
    pub fn get_mut<Q: PartialEq + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.index(key).map(|i| &mut self.0[i].1)
    }

    /// Removes the oldest entry.
    pub fn remove_first(&mut self) {
        if !self.0.is_empty() {
            self.0.remove(0);
        }
    }

    /// Removes `key`'s entry; its value, if there was one.
    pub fn remove<Q: PartialEq + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let i = self.index(key)?;
        Some(self.0.swap_remove(i).1)
    }
}
