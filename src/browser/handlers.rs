//! Running a tool's handler for a call, the one way every transport does: its context from
//! the transport's [`Calls`], then the handler's future as a task (`js::promise::spawn`), then
//! `done` with what it returned.

use super::calls::Calls;
use crate::api::shell::Handler;
use client_tools_core::calls::Returned;
use serde_json::{Map, Value};

/// Starts `handler` for a call: its context from `calls`, then `done` with what it returned.
#[allow(clippy::too_many_arguments)]
pub(crate) fn start(
    calls: &Calls,
    call_id: &str,
    run_id: &str,
    tool: &str,
    handler: Handler,
    arguments: Map<String, Value>,
    deadline_ms: u64,
    done: Box<dyn FnOnce(Returned)>,
) {
    let ctx = calls.start(call_id, run_id, tool, deadline_ms);
    crate::js::promise::spawn(Box::pin(async move {
        done(handler(arguments, ctx).await);
    }));
}
