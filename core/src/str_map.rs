//! String-keyed tables without a hash table type per value type: [`StrKeys`] keeps the keys and
//! their index (open addressing, FNV-1a, linear probing, deletion by backward shift), all of it
//! code that is not generic; [`StrMap`] puts the values in a `Vec` beside them. Each `HashMap`
//! key/value type costs the wasm ~1.5 KB of hashbrown; this is written once. Lookups stay
//! O(1), so a worker with a thousand calls in flight is as fast as with `HashMap`.

/// Keys at positions `0..len`, found by an index.
#[derive(Debug, Default)]
pub(crate) struct StrKeys {
    keys: Vec<Box<str>>,
    /// 0 is empty, else a position plus one, with the key's hash. Its length is a power of
    /// two above twice the keys.
    slots: Vec<(u32, u32)>,
}

fn hash(key: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in key.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h
}

impl StrKeys {
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(crate) fn key(&self, pos: usize) -> &str {
        &self.keys[pos]
    }

    /// The slot holding `key`, or the empty slot where it would go; and its position.
    fn find(&self, key: &str, h: u32) -> (usize, Option<usize>) {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            match self.slots[i] {
                (0, _) => return (i, None),
                (at, sh) if sh == h && *self.keys[at as usize - 1] == *key => {
                    return (i, Some(at as usize - 1))
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The position of `key`.
    pub(crate) fn position(&self, key: &str) -> Option<usize> {
        if self.keys.is_empty() {
            return None;
        }
        self.find(key, hash(key)).1
    }

    /// The slot that points at `pos`.
    fn slot_of(&self, pos: usize) -> usize {
        self.find(&self.keys[pos], hash(&self.keys[pos])).0
    }

    /// Empties slot `i`, moving later entries of the same probe run back (no tombstones).
    fn clear(&mut self, mut i: usize) {
        let mask = self.slots.len() - 1;
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let (at, h) = self.slots[j];
            if at == 0 {
                self.slots[i] = (0, 0);
                return;
            }
            // An entry may move back to `i` unless its home lies cyclically in (i, j].
            let home = h as usize & mask;
            let stays = if i <= j {
                i < home && home <= j
            } else {
                i < home || home <= j
            };
            if !stays {
                self.slots[i] = self.slots[j];
                i = j;
            }
        }
    }

    fn index(&mut self, pos: usize) {
        let h = hash(&self.keys[pos]);
        let (slot, _) = self.find(&self.keys[pos], h);
        self.slots[slot] = (pos as u32 + 1, h);
    }

    /// Adds `key`, which must not be there yet, at the end; returns its position.
    pub(crate) fn push(&mut self, key: &str) -> usize {
        self.keys.push(key.into());
        if self.slots.len() < self.keys.len() * 2 + 2 {
            // A bigger index, refilled.
            let len = (self.keys.len() * 4).next_power_of_two().max(16);
            self.slots = vec![(0, 0); len];
            for pos in 0..self.keys.len() {
                self.index(pos);
            }
        } else {
            self.index(self.keys.len() - 1);
        }
        self.keys.len() - 1
    }

    /// Puts `key`, which must not be there yet, in place of the key at `pos`.
    pub(crate) fn replace(&mut self, pos: usize, key: &str) {
        let slot = self.slot_of(pos);
        self.clear(slot);
        self.keys[pos] = key.into();
        self.index(pos);
    }

    /// Removes the key at `pos`; the last key takes its place (as `Vec::swap_remove`).
    pub(crate) fn swap_remove(&mut self, pos: usize) {
        let slot = self.slot_of(pos);
        self.clear(slot);
        let last = self.keys.len() - 1;
        if pos != last {
            let moved = self.slot_of(last);
            self.slots[moved].0 = pos as u32 + 1;
        }
        self.keys.swap_remove(pos);
    }

    pub(crate) fn clear_all(&mut self) {
        self.keys.clear();
        self.slots.clear();
    }
}

/// A map from strings to `V`, in insertion order until a removal (the last entry takes the
/// removed one's place).
#[derive(Debug)]
pub(crate) struct StrMap<V> {
    keys: StrKeys,
    values: Vec<V>,
}

impl<V> Default for StrMap<V> {
    fn default() -> Self {
        StrMap {
            keys: StrKeys::default(),
            values: Vec::new(),
        }
    }
}

impl<V> StrMap<V> {
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.keys.position(key).is_some()
    }

    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        Some(&self.values[self.keys.position(key)?])
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        Some(&mut self.values[self.keys.position(key)?])
    }

    /// Inserts, or replaces the value of a key already there.
    pub(crate) fn insert(&mut self, key: &str, value: V) {
        match self.keys.position(key) {
            Some(pos) => self.values[pos] = value,
            None => {
                self.keys.push(key);
                self.values.push(value);
            }
        }
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<V> {
        let pos = self.keys.position(key)?;
        self.keys.swap_remove(pos);
        Some(self.values.swap_remove(pos))
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        (0..self.values.len()).map(|i| (self.keys.key(i), &self.values[i]))
    }

    pub(crate) fn values(&self) -> std::slice::Iter<'_, V> {
        self.values.iter()
    }

    /// Every entry, in order; the map is left empty.
    pub(crate) fn drain(&mut self) -> Vec<(String, V)> {
        let mut out = Vec::with_capacity(self.values.len());
        for (i, v) in self.values.drain(..).enumerate() {
            out.push((self.keys.key(i).to_owned(), v));
        }
        self.keys.clear_all();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_a_hash_map_through_inserts_and_removals() {
        use std::collections::HashMap;
        let mut map = StrMap::default();
        let mut model = HashMap::new();
        let mut x: u32 = 7;
        for step in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let key = format!("call_{}", x % 600);
            if x % 3 == 0 {
                assert_eq!(map.remove(&key), model.remove(&key), "{step}");
            } else {
                map.insert(&key, step);
                model.insert(key.clone(), step);
            }
            assert_eq!(map.len(), model.len());
            assert_eq!(map.get(&key), model.get(&key));
        }
        for (k, v) in map.iter() {
            assert_eq!(model.get(k), Some(v));
        }
        let drained = map.drain();
        assert_eq!(drained.len(), model.len());
        assert!(map.is_empty() && !map.contains_key("call_1"));
        map.insert("call_1", 1);
        assert_eq!(map.get_mut("call_1"), Some(&mut 1));
    }
}
