//! The call table: calls in progress, the call ids already seen (each runs at most once,
//! in bounded memory), the per-run call counts, and the result size limit.

use crate::protocol::limits::RESULT_TEXT_MAX;
use crate::protocol::CallResult;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// How many call ids the engine remembers to run each at most once.
pub(crate) const SEEN_MAX: usize = 4096;
/// How many runs' per-tool call counts it keeps (`max_calls_per_run`).
pub(crate) const RUNS_MAX: usize = 256;

/// One call in progress.
#[derive(Debug)]
pub(crate) struct Call {
    /// The registration it was dispatched to (its answers go there even after a new one).
    pub client_id: String,
    pub tool: String,
    pub dispatched_at: u64,
    pub acked: bool,
    /// The handler runs and its answer is wanted.
    pub running: bool,
    /// While running: when the engine answers "timed out".
    pub deadline: u64,
    /// The answer, once known; posted when acked and no tool list is pending.
    pub result: Option<CallResult>,
    pub posting: bool,
    /// The ack was sent again after a `409 call_not_acked` (once only).
    pub reacked: bool,
}

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

/// The call table, the seen ids and the per-run call counts.
#[derive(Debug, Default)]
pub(crate) struct Calls {
    pub(crate) live: HashMap<String, Call>,
    pub(crate) seen: Seen,
    /// run id → tool → calls that ran a handler; oldest run first in `run_order`.
    runs: HashMap<String, HashMap<String, u32>>,
    run_order: VecDeque<String>,
}

impl Calls {
    pub(crate) fn len(&self) -> usize {
        self.live.len()
    }

    pub(crate) fn contains(&self, call_id: &str) -> bool {
        self.live.contains_key(call_id)
    }

    /// The ids of the calls that pass `filter`, in dispatch order, so outputs come in an
    /// order that does not depend on hashing.
    pub(crate) fn ids_in_order(&self, filter: impl Fn(&Call) -> bool) -> Vec<String> {
        // Sorted by insertion: live calls are few, and `slice::sort` would add ~4 KB of wasm.
        let mut ids: Vec<(u64, &String)> = Vec::new();
        for (id, c) in self.live.iter().filter(|(_, c)| filter(c)) {
            let key = (c.dispatched_at, id);
            ids.insert(ids.partition_point(|k| *k < key), key);
        }
        ids.into_iter().map(|(_, id)| id.clone()).collect()
    }

    /// The earliest local deadline of a running handler.
    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.live
            .values()
            .filter(|c| c.running)
            .map(|c| c.deadline)
            .min()
    }

    pub(crate) fn forget_run(&mut self, run_id: &str) {
        if self.runs.remove(run_id).is_some() {
            self.run_order.retain(|r| r != run_id);
        }
    }

    /// Counts one more call of `tool` in `run_id` and returns the count.
    pub(crate) fn count_call(&mut self, run_id: &str, tool: &str) -> u32 {
        if !self.runs.contains_key(run_id) {
            if self.run_order.len() == RUNS_MAX {
                if let Some(old) = self.run_order.pop_front() {
                    self.runs.remove(&old);
                }
            }
            self.run_order.push_back(run_id.to_owned());
        }
        let count = self
            .runs
            .entry(run_id.to_owned())
            .or_default()
            .entry(tool.to_owned())
            .or_insert(0);
        *count += 1;
        *count
    }
}

/// Cuts a result over 65,536 characters at a character boundary and says how much was cut,
/// keeping the whole within the limit.
pub fn cut_result(mut text: String) -> String {
    // Every char is at least one byte, so a short text needs no count.
    if text.len() <= RESULT_TEXT_MAX {
        return text;
    }
    let total = text.chars().count();
    if total <= RESULT_TEXT_MAX {
        return text;
    }
    let note = |cut: usize| {
        format!("\n[cut: {cut} more characters; a result holds at most {RESULT_TEXT_MAX}]")
    };
    // The note's length depends on the count it states: settle on a length that fits.
    // The longest kept part whose note still fits: start from the shortest note, step down.
    let mut keep = RESULT_TEXT_MAX - note(1).chars().count();
    while keep + note(total - keep).chars().count() > RESULT_TEXT_MAX {
        keep -= 1;
    }
    let at = text.char_indices().nth(keep).map_or(text.len(), |(i, _)| i);
    text.truncate(at);
    text.push_str(&note(total - keep));
    text
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

    #[test]
    fn run_counts_are_kept_for_at_most_runs_max_runs() {
        let mut calls = Calls::default();
        assert_eq!(calls.count_call("run_a", "t"), 1);
        assert_eq!(calls.count_call("run_a", "t"), 2);
        assert_eq!(calls.count_call("run_a", "u"), 1);
        for i in 0..RUNS_MAX {
            calls.count_call(&format!("run_{i}"), "t");
        }
        assert_eq!(calls.runs.len(), RUNS_MAX);
        assert_eq!(
            calls.count_call("run_a", "t"),
            1,
            "run_a was the oldest, forgotten"
        );
        calls.forget_run("run_a");
        assert!(!calls.runs.contains_key("run_a"));
    }
}
