//! What a handler gets besides its arguments: which call it is, its deadline, and whether the
//! answer is still wanted.

use crate::js::JsRefCell;
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use wasm_bindgen::JsCast;
use web_sys::{AbortController, AbortSignal};

/// What a handler gets besides the arguments: which call this is, its deadline, and a way to
/// learn that the answer is no longer wanted (the call failed on the server, its local
/// timeout ran out, or the client left). Cheap to clone: every clone is the same call.
#[derive(Clone)]
pub struct CallContext(pub(crate) Rc<CallState>);

/// One call's state, shared by its context's clones and the shell that runs it.
pub(crate) struct CallState {
    call_id: String,
    run_id: String,
    tool: String,
    /// When the shell answers "timed out" in the handler's place, ms since the epoch.
    deadline_ms: Cell<u64>,
    /// Why the answer is no longer wanted, once it is not.
    cancelled: JsRefCell<Option<String>>,
    wakers: JsRefCell<Vec<Waker>>,
    /// The controller of [`CallContext::signal`], made on first use.
    controller: JsRefCell<Option<AbortController>>,
    /// A JS handler's `ctx.deadline`, made on first use and moved with the deadline.
    date: JsRefCell<Option<js_sys::Date>>,
    /// What runs once the call's result has been handed over.
    after_result: JsRefCell<Vec<Box<dyn FnOnce()>>>,
}

impl CallContext {
    pub(crate) fn new(call_id: &str, run_id: &str, tool: &str, deadline_ms: u64) -> CallContext {
        CallContext(Rc::new(CallState {
            call_id: call_id.to_owned(),
            run_id: run_id.to_owned(),
            tool: tool.to_owned(),
            deadline_ms: Cell::new(deadline_ms),
            cancelled: JsRefCell::new(None),
            wakers: JsRefCell::default(),
            controller: JsRefCell::new(None),
            date: JsRefCell::new(None),
            after_result: JsRefCell::default(),
        }))
    }

    /// The call's id, as the transport named it (`call_…` for a Sessions call).
    pub fn call_id(&self) -> &str {
        &self.0.call_id
    }

    /// The agent run the call belongs to.
    pub fn run_id(&self) -> &str {
        &self.0.run_id
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.0.tool
    }

    /// When the client answers "timed out" in the handler's place: the tool's timeout after
    /// dispatch, or earlier once the server's result deadline is known. It may move earlier
    /// while the handler runs, never later.
    pub fn deadline(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.0.deadline_ms.get())
    }

    /// Time left until [`CallContext::deadline`] by the page's clock (zero once it passed).
    pub fn remaining(&self) -> Duration {
        let now = js_sys::Date::now() as u64;
        Duration::from_millis(self.0.deadline_ms.get().saturating_sub(now))
    }

    /// Whether the answer is no longer wanted: the call failed on the server (`run_gone`,
    /// `result_timeout`, …), its local deadline passed, or the client left. A handler should
    /// stop then; whatever it returns afterwards is dropped.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.borrow().is_some()
    }

    /// Completes once the answer is no longer wanted (see [`CallContext::is_cancelled`]), so
    /// a handler can race its work against it.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled(self.0.clone())
    }

    /// An `AbortSignal` that aborts when the answer is no longer wanted, with the reason as an
    /// `Error`: for a `fetch` the handler makes. `None` where the browser has no
    /// `AbortController`.
    pub fn signal(&self) -> Option<AbortSignal> {
        // Each read out of its cell before the call into JS (a signal's listeners and the
        // `signal` getter are the app's to patch).
        let controller = self.0.controller.borrow().clone();
        let controller = match controller {
            Some(c) => c,
            None => {
                let made = AbortController::new().ok()?;
                *self.0.controller.borrow_mut() = Some(made.clone());
                let reason = self.0.cancelled.borrow().clone();
                if let Some(reason) = reason {
                    abort(&made, &reason);
                }
                made
            }
        };
        Some(crate::js::get(&controller, "signal").unchecked_into())
    }

    /// Runs `f` once this call's result has been handed over (posted, sent on the socket,
    /// returned to the caller): a full-page navigation, say. Not run if the call fails or is
    /// cancelled.
    pub fn after_result(&self, f: impl FnOnce() + 'static) {
        self.0.after_result.borrow_mut().push(Box::new(f));
    }

    /// `ctx.deadline` of a JS handler: one `Date` per call, moved with the deadline.
    #[cfg(any(feature = "js-api", feature = "page-tools"))]
    pub(crate) fn deadline_date(&self) -> js_sys::Date {
        let date = self.0.date.borrow().clone();
        date.unwrap_or_else(|| {
            let made = js_sys::Date::new(&(self.0.deadline_ms.get() as f64).into());
            *self.0.date.borrow_mut() = Some(made.clone());
            made
        })
    }

    /// `ctx` as a JS handler sees it: `{ callId, runId, signal, deadline, afterResult(fn) }`
    /// (the page tools read the same shape).
    #[cfg(any(feature = "js-api", feature = "page-tools"))]
    pub(crate) fn js_object(&self) -> js_sys::Object {
        use wasm_bindgen::prelude::*;
        let o = js_sys::Object::new();
        let set = |k: &str, v: &JsValue| crate::js::set(&o, k, v);
        set("callId", &JsValue::from_str(self.call_id()));
        set("runId", &JsValue::from_str(self.run_id()));
        if let Some(signal) = self.signal() {
            set("signal", &signal);
        }
        set("deadline", &self.deadline_date());
        let owner = self.clone();
        let after_result = Closure::<crate::js::Callback>::new(move |f: JsValue, _| {
            if let Ok(f) = f.dyn_into::<js_sys::Function>() {
                owner.after_result(move || drop(crate::js::call(&f, &[])));
            }
            JsValue::UNDEFINED
        });
        // JS owns it (freed once collected): the app may keep `ctx` after the call.
        set("afterResult", &after_result.into_js_value());
        o
    }

    /// The shell brought the deadline forward.
    pub(crate) fn move_deadline(&self, deadline_ms: u64) {
        self.0.deadline_ms.set(deadline_ms);
        // Out of the cell first: `ctx.deadline` is the app's to touch, `setTime` included.
        let date = self.0.date.borrow().clone();
        if let Some(d) = date {
            let _ = crate::js::call_method(&d, "setTime", &[&(deadline_ms as f64).into()]);
        }
    }

    /// The answer is no longer wanted, for `reason`: [`CallContext::cancelled`] completes and
    /// the signal aborts. Only the first reason counts.
    pub(crate) fn cancel(&self, reason: &str) {
        if self.is_cancelled() {
            return;
        }
        *self.0.cancelled.borrow_mut() = Some(reason.to_owned());
        drop(self.0.after_result.take());
        let controller = self.0.controller.borrow().clone();
        if let Some(c) = controller {
            abort(&c, reason);
        }
        for w in self.0.wakers.take() {
            w.wake();
        }
    }

    /// What runs now that the result has been handed over (taken: it runs once).
    pub(crate) fn take_after_result(&self) -> Vec<Box<dyn FnOnce()>> {
        self.0.after_result.take()
    }
}

/// `controller.abort(new Error(reason))`.
fn abort(controller: &AbortController, reason: &str) {
    let reason = wasm_bindgen::JsValue::from(js_sys::Error::new(reason));
    let _ = crate::js::call_method(controller, "abort", &[&reason]);
}

/// What [`CallContext::cancelled`] returns: completes once the answer is no longer wanted.
#[must_use = "a future does nothing unless awaited"]
pub struct Cancelled(Rc<CallState>);

impl Future for Cancelled {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0.cancelled.borrow().is_some() {
            return Poll::Ready(());
        }
        self.0.wakers.borrow_mut().push(cx.waker().clone());
        Poll::Pending
    }
}
