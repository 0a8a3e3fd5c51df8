//! The call ids already seen, so that each runs at most once, in bounded memory.

use crate::str_map::StrKeys;

/// How many call ids the runtime remembers to run each at most once.
pub const SEEN_MAX: usize = 4096;

/// Call ids seen, at most [`SEEN_MAX`]; the oldest is forgotten first.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Once full, a ring whose oldest id is at `next`.
    ids: StrKeys,
    next: usize,
}

impl Seen {
    /// Remembers `id`; false if it was already known.
    pub(crate) fn insert(&mut self, id: &str) -> bool {
        if self.ids.position(id).is_some() {
            return false;
        }
        if self.ids.len() < SEEN_MAX {
            self.ids.push(id);
        } else {
            // Full: the oldest id makes way.
            self.ids.replace(self.next, id);
            self.next = (self.next + 1) % SEEN_MAX;
        }
        true
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
        assert_eq!(seen.ids.len(), SEEN_MAX);
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
        assert_eq!(seen.ids.len(), SEEN_MAX);
        for i in total - SEEN_MAX..total {
            assert!(seen.ids.position(&format!("c{i}")).is_some(), "{i}");
        }
        for i in (0..total - SEEN_MAX).step_by(13) {
            assert!(seen.ids.position(&format!("c{i}")).is_none(), "{i}");
        }
    }
}
