//! The call ids already seen, so that each runs at most once, in bounded memory.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

/// How many call ids the runtime remembers to run each at most once.
pub const SEEN_MAX: usize = 4096;

/// Call ids seen, oldest first, at most [`SEEN_MAX`].
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// One allocation per id, shared by the set and the order. `Arc`, not `Rc`: the engine
    /// must be `Send` so a native shell can drive it from a multi-threaded runtime.
    set: HashSet<Arc<str>>,
    order: VecDeque<Arc<str>>,
}

impl Seen {
    /// Remembers `id`; false if it was already known.
    pub(crate) fn insert(&mut self, id: &str) -> bool {
        if self.set.contains(id) {
            return false;
        }
        if self.order.len() == SEEN_MAX {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
        let id: Arc<str> = Arc::from(id);
        self.set.insert(Arc::clone(&id));
        self.order.push_back(id);
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
        assert_eq!((seen.set.len(), seen.order.len()), (SEEN_MAX, SEEN_MAX));
        assert!(seen.insert("call_0"), "the oldest went first");
        assert!(!seen.insert(&format!("call_{}", SEEN_MAX - 1)));
    }
}
