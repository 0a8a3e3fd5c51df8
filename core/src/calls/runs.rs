//! Per-run call counts, for `max_calls_per_run`, kept for a bounded number of runs.

use crate::vec_map::VecMap;

/// How many runs' per-tool call counts are kept.
pub const RUNS_MAX: usize = 256;

/// run id → tool → calls that were let run, oldest run first.
#[derive(Debug, Default)]
pub(crate) struct RunCounts {
    runs: VecMap<String, VecMap<String, u32>>,
}

impl RunCounts {
    pub(crate) fn forget(&mut self, run_id: &str) {
        // Not `remove`: the runs stay oldest first.
        self.runs.retain(|run, _| run != run_id);
    }

    /// Counts one more call of `tool` in `run_id` and returns the count.
    pub(crate) fn count(&mut self, run_id: &str, tool: &str) -> u32 {
        if !self.runs.contains_key(run_id) && self.runs.len() == RUNS_MAX {
            self.runs.remove_first();
        }
        let count = self.runs.get_or_default(run_id).get_or_default(tool);
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
