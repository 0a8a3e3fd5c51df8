//! Per-run call counts, for `max_calls_per_run`, kept for a bounded number of runs.

use std::collections::{HashMap, VecDeque};

/// How many runs' per-tool call counts are kept.
pub const RUNS_MAX: usize = 256;

/// run id → tool → calls that were let run; oldest run first in `order`.
#[derive(Debug, Default)]
pub(crate) struct RunCounts {
    runs: HashMap<String, HashMap<String, u32>>,
    order: VecDeque<String>,
}

impl RunCounts {
    pub(crate) fn forget(&mut self, run_id: &str) {
        if self.runs.remove(run_id).is_some() {
            self.order.retain(|r| r != run_id);
        }
    }

    /// Counts one more call of `tool` in `run_id` and returns the count.
    pub(crate) fn count(&mut self, run_id: &str, tool: &str) -> u32 {
        if !self.runs.contains_key(run_id) {
            if self.order.len() == RUNS_MAX {
                if let Some(old) = self.order.pop_front() {
                    self.runs.remove(&old);
                }
            }
            self.order.push_back(run_id.to_owned());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_counts_are_kept_for_at_most_runs_max_runs() {
        let mut runs = RunCounts::default();
        assert_eq!(runs.count("run_a", "t"), 1);
        assert_eq!(runs.count("run_a", "t"), 2);
        assert_eq!(runs.count("run_a", "u"), 1);
        for i in 0..RUNS_MAX {
            runs.count(&format!("run_{i}"), "t");
        }
        assert_eq!(runs.runs.len(), RUNS_MAX);
        assert_eq!(
            runs.count("run_a", "t"),
            1,
            "run_a was the oldest, forgotten"
        );
        runs.forget("run_a");
        assert!(!runs.runs.contains_key("run_a"));
    }
}
