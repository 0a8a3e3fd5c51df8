//! The calls whose handlers run: each one's `ctx.signal` (an abort guard), `ctx.deadline` and
//! `ctx.afterResult` callbacks. It sees only its own slots, not the client; the Client's driver
//! and WsTools' shell both keep their running calls here.

use super::guards::Abort;
use crate::js::JsRefCell;
use client_tools_core::vec_map::VecMap;
use js_sys::{Date, Function};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What the shell keeps about a call whose handler runs.
struct Slot {
    /// Aborts `ctx.signal` if the slot is dropped with the client.
    abort: Option<Abort>,
    /// `ctx.deadline`, moved when the engine brings the deadline forward.
    deadline: Date,
    /// `ctx.afterResult` callbacks, run once the handler's result was posted.
    after_result: Vec<Function>,
}

type Slots = Rc<JsRefCell<VecMap<String, Slot>>>;

/// The running calls of one client.
pub(crate) struct Calls {
    slots: Slots,
    /// `ctx.afterResult`, bound to a call id per call.
    after_result: Closure<crate::js::Callback>,
}

/// What a handler's `ctx` is made of.
pub(crate) struct Started {
    pub signal: Option<web_sys::AbortSignal>,
    pub deadline: Date,
}

impl Calls {
    pub(crate) fn new() -> Calls {
        let slots: Slots = Rc::default();
        let weak: Weak<JsRefCell<VecMap<String, Slot>>> = Rc::downgrade(&slots);
        let after_result = Closure::<crate::js::Callback>::new(move |id: JsValue, f: JsValue| {
            let (Some(slots), Some(id), Ok(f)) =
                (weak.upgrade(), id.as_string(), f.dyn_into::<Function>())
            else {
                return JsValue::UNDEFINED;
            };
            let mut slots = slots.borrow_mut();
            if let Some(slot) = slots.get_mut(&id) {
                slot.after_result.push(f);
            }
            JsValue::UNDEFINED
        });
        Calls {
            slots,
            after_result,
        }
    }

    /// A handler starts: its signal and its deadline (ms since the epoch).
    pub(crate) fn start(&self, call_id: &str, deadline_ms: u64) -> Started {
        let abort = Abort::new("the client stopped");
        let signal = abort.as_ref().and_then(Abort::signal);
        let deadline = Date::new(&JsValue::from_f64(deadline_ms as f64));
        let slot = Slot {
            abort,
            deadline: deadline.clone(),
            after_result: Vec::new(),
        };
        self.slots.borrow_mut().insert(call_id.to_owned(), slot);
        Started { signal, deadline }
    }

    /// `ctx.afterResult`, unbound (the driver binds it to the call id).
    pub(crate) fn after_result_fn(&self) -> &Function {
        self.after_result.as_ref().unchecked_ref()
    }

    /// The engine brought the deadline forward: `ctx.deadline` follows.
    pub(crate) fn move_deadline(&self, call_id: &str, deadline_ms: u64) {
        // Out of the borrow first: `ctx.deadline` is the app's to touch, `setTime` included.
        let deadline = self.slots.borrow().get(call_id).map(|s| s.deadline.clone());
        if let Some(deadline) = deadline {
            let ms = JsValue::from_f64(deadline_ms as f64);
            let _ = crate::js::call_method(&deadline, "setTime", &[&ms]);
        }
    }

    /// The answer is no longer wanted: aborts `ctx.signal` with `reason`.
    pub(crate) fn abort(&self, call_id: &str, reason: &str) {
        let slot = self.slots.borrow_mut().remove(call_id);
        if let Some(abort) = slot.and_then(|s| s.abort) {
            abort.abort(reason);
        }
    }

    /// The call ended (answered or failed): its `afterResult` callbacks, to run if it was
    /// answered. The signal is let go without aborting.
    pub(crate) fn end(&self, call_id: &str) -> Vec<Function> {
        let slot = self.slots.borrow_mut().remove(call_id);
        match slot {
            Some(slot) => {
                if let Some(abort) = slot.abort {
                    abort.forget();
                }
                slot.after_result
            }
            None => Vec::new(),
        }
    }
}
