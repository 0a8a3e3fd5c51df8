//! The call ids already seen, so that each runs at most once, in bounded memory.
//!
//! A small open-addressing table of its own (linear probing, FNV-1a hashes, deletion by
//! backward shift) over a ring of the ids: a `HashSet` and a `VecDeque` of their own types
//! cost the wasm ~2 KB more, for one set.

/// How many call ids the runtime remembers to run each at most once.
pub const SEEN_MAX: usize = 4096;

/// Call ids seen, at most [`SEEN_MAX`]; the oldest is forgotten first.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// The ids; once full, a ring whose oldest entry is at `next`.
    ids: Vec<Box<str>>,
    next: usize,
    /// Open addressing: 0 is empty, else an index into `ids` plus one, with the id's hash.
    /// Its length is a power of two, at least twice the ids.
    slots: Vec<(u32, u32)>,
}

fn hash(id: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in id.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h
}

impl Seen {
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The slot of `id`, or the empty slot where it would go.
    fn find(&self, id: &str, h: u32) -> (usize, bool) {
        let mut i = h as usize & self.mask();
        loop {
            match self.slots[i] {
                (0, _) => return (i, false),
                (at, sh) if sh == h && *self.ids[at as usize - 1] == *id => return (i, true),
                _ => i = (i + 1) & self.mask(),
            }
        }
    }

    /// Empties slot `i`, moving later entries of the same probe run back (no tombstones).
    fn clear(&mut self, mut i: usize) {
        let mask = self.mask();
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

    /// A table twice the ids' capacity, refilled.
    fn grow(&mut self) {
        let len = (self.ids.len() * 4).next_power_of_two().max(16);
        self.slots = vec![(0, 0); len];
        for at in 0..self.ids.len() {
            let h = hash(&self.ids[at]);
            let (i, _) = self.find(&self.ids[at], h);
            self.slots[i] = (at as u32 + 1, h);
        }
    }

    /// Remembers `id`; false if it was already known.
    pub(crate) fn insert(&mut self, id: &str) -> bool {
        if self.slots.len() < self.ids.len() * 2 + 2 {
            self.grow();
        }
        let h = hash(id);
        if self.find(id, h).1 {
            return false;
        }
        let at = if self.ids.len() < SEEN_MAX {
            self.ids.push(id.into());
            self.ids.len() - 1
        } else {
            // Full: the oldest id makes way.
            let at = self.next;
            let old = hash(&self.ids[at]);
            let (slot, _) = self.find(&self.ids[at], old);
            self.clear(slot);
            self.ids[at] = id.into();
            self.next = (at + 1) % SEEN_MAX;
            at
        };
        let (slot, _) = self.find(id, h);
        self.slots[slot] = (at as u32 + 1, h);
        true
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.slots.iter().filter(|(at, _)| *at != 0).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_call_ids_are_remembered_up_to_the_cap_oldest_forgotten_first() {
        let mut seen = Seen::default();
        assert!(seen.insert("call_0"));
        assert!(!seen.insert("call_0"));
        for i in 1..SEEN_MAX {
            assert!(seen.insert(&format!("call_{i}")));
        }
        assert!(!seen.insert("call_0"), "still within the cap");
        assert!(seen.insert("call_new"));
        assert_eq!((seen.len(), seen.ids.len()), (SEEN_MAX, SEEN_MAX));
        assert!(seen.insert("call_0"), "the oldest went first");
        assert!(!seen.insert(&format!("call_{}", SEEN_MAX - 1)));
    }

    #[test]
    fn a_long_run_of_ids_keeps_exactly_the_newest_cap() {
        // Many evictions through a full table: every id within the window is known, every
        // id before it is not, whatever the probe runs the deletions shifted.
        let mut seen = Seen::default();
        let total = SEEN_MAX * 3 + 17;
        for i in 0..total {
            assert!(seen.insert(&format!("c{i}")), "{i}");
            if i % 97 == 0 {
                assert!(!seen.insert(&format!("c{i}")));
            }
        }
        assert_eq!(seen.len(), SEEN_MAX);
        for i in total - SEEN_MAX..total {
            assert!(seen.find(&format!("c{i}"), hash(&format!("c{i}"))).1, "{i}");
        }
        for i in (0..total - SEEN_MAX).step_by(13) {
            assert!(
                !seen.find(&format!("c{i}"), hash(&format!("c{i}"))).1,
                "{i}"
            );
        }
    }
}
