//! The calls whose handlers run: each one's [`CallContext`] (cancellation, deadline,
//! after-result callbacks), by call id. It sees only its own slots, not the client; the
//! Client's driver, WsTools' shell and the runner of the other transports keep their running
//! calls here.

use crate::api::context::CallContext;
use crate::js::JsRefCell;
use client_tools_core::vec_map::VecMap;

/// The running calls of one client (or bridge, or runner). Dropped with it, every call still
/// running is cancelled: "the client stopped".
#[derive(Default)]
pub(crate) struct Calls {
    slots: JsRefCell<VecMap<String, CallContext>>,
}

impl Calls {
    pub(crate) fn new() -> Calls {
        Calls::default()
    }

    /// A handler starts: its context, with its deadline (ms since the epoch).
    pub(crate) fn start(
        &self,
        call_id: &str,
        run_id: &str,
        tool: &str,
        deadline_ms: u64,
    ) -> CallContext {
        let ctx = CallContext::new(call_id, run_id, tool, deadline_ms);
        self.slots
            .borrow_mut()
            .insert(call_id.to_owned(), ctx.clone());
        ctx
    }

    /// The engine brought the deadline forward: the context follows.
    pub(crate) fn move_deadline(&self, call_id: &str, deadline_ms: u64) {
        let ctx = self.slots.borrow().get(call_id).cloned();
        if let Some(ctx) = ctx {
            ctx.move_deadline(deadline_ms);
        }
    }

    /// The answer is no longer wanted: the context is cancelled with `reason`.
    pub(crate) fn abort(&self, call_id: &str, reason: &str) {
        let ctx = self.slots.borrow_mut().remove(call_id);
        if let Some(ctx) = ctx {
            ctx.cancel(reason);
        }
    }

    /// The call ended (answered or failed): its after-result callbacks, to run if it was
    /// answered. The context is let go without cancelling.
    pub(crate) fn end(&self, call_id: &str) -> Vec<Box<dyn FnOnce()>> {
        let ctx = self.slots.borrow_mut().remove(call_id);
        ctx.map(|c| c.take_after_result()).unwrap_or_default()
    }
}

impl Drop for Calls {
    fn drop(&mut self) {
        // Out of the cell first: cancelling aborts a signal, whose listeners are the app's.
        let running = self.slots.take();
        for ctx in running.values() {
            ctx.cancel("the client stopped");
        }
    }
}
