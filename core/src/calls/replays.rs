//! The caller's own call ids (an agent SDK's, given to a registry's `execute`), each with the
//! shell's handle on its answer, so that a repeat is answered with the first call's answer
//! and its handler not run again.

use std::collections::VecDeque;

/// How many of the caller's call ids a transport remembers.
pub const REPLAYS_MAX: usize = 4096;

/// The caller's call ids and each one's answer as the shell holds it (a promise in a tab):
/// at most [`REPLAYS_MAX`], the oldest forgotten first. While a call runs, a repeat gets the
/// same answer; a call the caller gave up on is [forgotten](Replays::forget), so a retry runs.
#[derive(Debug)]
pub struct Replays<T> {
    /// Oldest first: the id, the call's ticket, its answer.
    calls: VecDeque<(String, u64, T)>,
}

impl<T> Default for Replays<T> {
    fn default() -> Self {
        Replays {
            calls: VecDeque::new(),
        }
    }
}

impl<T> Replays<T> {
    /// The answer of the call `id`, if it is remembered.
    pub fn get(&self, id: &str) -> Option<&T> {
        self.calls.iter().find(|c| c.0 == id).map(|c| &c.2)
    }

    /// Remembers the call `id`, numbered `ticket`, and its answer.
    pub fn insert(&mut self, id: &str, ticket: u64, answer: T) {
        self.calls.retain(|c| c.0 != id);
        if self.calls.len() == REPLAYS_MAX {
            self.calls.pop_front();
        }
        self.calls.push_back((id.to_owned(), ticket, answer));
    }

    /// Forgets the call `id` if it is still the one numbered `ticket` (a retry made since is
    /// kept).
    pub fn forget(&mut self, id: &str, ticket: u64) {
        self.calls.retain(|c| !(c.0 == id && c.1 == ticket));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_id_is_answered_as_first_until_forgotten_and_the_oldest_goes_first() {
        let mut r = Replays::default();
        r.insert("a", 1, 100);
        assert_eq!(r.get("a"), Some(&100));
        // A stale ticket forgets nothing; the call's own does.
        r.forget("a", 2);
        assert_eq!(r.get("a"), Some(&100));
        r.forget("a", 1);
        assert_eq!(r.get("a"), None);
        for i in 0..REPLAYS_MAX as u64 + 1 {
            r.insert(&format!("c{i}"), i, i);
        }
        assert_eq!(r.get("c0"), None);
        assert_eq!(r.get("c1"), Some(&1));
        assert_eq!(
            r.get(&format!("c{REPLAYS_MAX}")),
            Some(&(REPLAYS_MAX as u64))
        );
    }
}
