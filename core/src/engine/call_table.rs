//! The Sessions side of calls in progress: where each is in ack-then-result. What every
//! transport shares (each id once, run counts, argument checks, deadlines, result
//! conventions) is the [`CallRuntime`]'s.

use crate::calls::{CallRuntime, ResultLimit};
use crate::protocol::CallResult;
use std::collections::HashMap;

/// Cuts a result over 65,536 characters at a character boundary and says how much was cut,
/// keeping the whole within the limit.
pub fn cut_result(text: String) -> String {
    ResultLimit::SESSIONS.cut(text)
}

/// One call in progress, as the Sessions API sees it.
#[derive(Debug)]
pub(crate) struct Call {
    /// The registration it was dispatched to (its answers go there even after a new one).
    pub client_id: String,
    pub tool: String,
    pub dispatched_at: u64,
    pub acked: bool,
    /// The answer, once known; posted when acked and no tool list is pending.
    pub result: Option<CallResult>,
    pub posting: bool,
    /// The ack was sent again after a `409 call_not_acked` (once only).
    pub reacked: bool,
}

/// The calls in progress and the runtime that runs their handlers.
#[derive(Debug, Default)]
pub(crate) struct Calls {
    pub(crate) live: HashMap<String, Call>,
    pub(crate) runtime: CallRuntime,
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
        self.runtime.next_deadline().map(|t| t.as_ms())
    }

    pub(crate) fn forget_run(&mut self, run_id: &str) {
        self.runtime.forget_run(run_id);
    }
}
