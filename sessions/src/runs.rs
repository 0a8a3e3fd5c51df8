//! Runs: one agent turn each. Starting one emits `run_started`; cancelling or completing it
//! fails its pending calls with `run_gone`. Ended runs are pruned past `--max-runs`.

use crate::calls::CallView;
use crate::{Call, HttpError, Run, RunState, SessionCore};
use client_tools_core::protocol::time::format_rfc3339;
use client_tools_core::protocol::FailReason;
use serde::Serialize;
use serde_json::json;

/// A run and its calls still held.
#[derive(Serialize, Clone, Debug)]
pub struct RunView {
    /// The run's id (`run_…`).
    pub id: String,
    /// `active`, `completed` or `cancelled`.
    pub state: &'static str,
    /// When the run started: RFC 3339, UTC.
    pub started_at: String,
    /// The run's calls the session still holds (settled ones are pruned past
    /// [`Limits::settled_calls`](crate::Limits::settled_calls)).
    pub calls: Vec<CallView>,
}

impl SessionCore {
    /// Starts a run and emits `run_started`. Fails with 429 when `--max-runs` runs are active.
    pub fn start_run(&mut self, now: u64) -> Result<String, HttpError> {
        let st = self;
        prune_runs(st, st.limits.max_runs.saturating_sub(1));
        if st.runs.len() >= st.limits.max_runs {
            return Err(HttpError::rate_limited(
                1,
                format!("{} runs are active, the limit", st.runs.len()),
            ));
        }
        let id = st.new_id("run");
        let seq = st.next_seq();
        st.runs.insert(
            id.clone(),
            Run {
                id: id.clone(),
                state: RunState::Active,
                seq,
                started: now,
            },
        );
        st.run_order.push_back(id.clone());
        st.log.emit("run_started", json!({"run_id": id}));
        Ok(id)
    }

    /// Ends a run: its pending calls fail with `run_gone`, then `run_cancelled` (or
    /// `run_completed`) is emitted. Fails with 404 for an unknown run, 409 for an ended one.
    pub fn end_run(&mut self, run_id: &str, cancelled: bool) -> Result<(), HttpError> {
        let st = self;
        let run = st.active_run(run_id)?;
        run.state = if cancelled {
            RunState::Cancelled
        } else {
            RunState::Completed
        };
        let mut pending: Vec<(u64, String)> = st
            .calls
            .values()
            .filter(|c| c.run_id == run_id && c.outcome.is_none())
            .map(|c| (c.seq, c.id.clone()))
            .collect();
        pending.sort();
        for (_, call_id) in pending {
            st.fail(&call_id, FailReason::RunGone);
        }
        let event = if cancelled {
            "run_cancelled"
        } else {
            "run_completed"
        };
        st.log.emit(event, json!({"run_id": run_id}));
        Ok(())
    }

    /// Every run still held, newest last, with its calls.
    pub fn runs(&self) -> Vec<RunView> {
        let st = self;
        let mut runs: Vec<&Run> = st.runs.values().collect();
        runs.sort_by_key(|r| r.seq);
        let mut calls: Vec<&Call> = st.calls.values().collect();
        calls.sort_by_key(|c| c.seq);
        runs.into_iter()
            .map(|r| RunView {
                id: r.id.clone(),
                state: r.state.as_str(),
                started_at: format_rfc3339(r.started),
                calls: calls
                    .iter()
                    .filter(|c| c.run_id == r.id)
                    .map(|c| st.view(c))
                    .collect(),
            })
            .collect()
    }
}

/// Drops the oldest ended runs until at most `keep` runs are held.
fn prune_runs(st: &mut SessionCore, keep: usize) {
    let mut i = 0;
    while st.runs.len() > keep && i < st.run_order.len() {
        let id = &st.run_order[i];
        if st.runs.get(id).is_some_and(|r| r.state != RunState::Active) {
            let id = st.run_order.remove(i).unwrap_or_default();
            st.runs.remove(&id);
        } else {
            i += 1;
        }
    }
}
