//! Running a tool's handler for a call, the one way every transport does: its context from
//! the transport's [`Calls`], then the handler's future on the SDK's executor, then `done`
//! with what it returned.

use super::calls::Calls;
use crate::api::tool::Handler;
use client_tools_core::calls::Returned;
use serde_json::{Map, Value};

/// Each tool's handler, by name (a tool list's names are unique).
pub(crate) type Handlers = Vec<(String, Handler)>;

/// The handlers of `tools`, by name, in the list's order.
pub(crate) fn of(tools: &[crate::Tool]) -> Handlers {
    let mut handlers = Vec::with_capacity(tools.len());
    for t in tools {
        handlers.push((t.def.spec.name.clone(), t.handler.clone()));
    }
    handlers
}

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
    crate::js::task::spawn(Box::pin(async move {
        done(handler(arguments, ctx).await);
    }));
}
