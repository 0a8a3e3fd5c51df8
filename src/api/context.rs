//! What a handler gets besides its arguments: which call it is, its deadline, and whether the
//! answer is still wanted.

use std::cell::{Cell, RefCell};
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
    cancelled: RefCell<Option<String>>,
    wakers: RefCell<Vec<Waker>>,
    /// The controller of [`CallContext::signal`], made on first use.
    controller: RefCell<Option<AbortController>>,
    /// A JS handler's `ctx.deadline`, made on first use and moved with the deadline.
    date: RefCell<Option<js_sys::Date>>,
    /// What runs once the call's result has been handed over.
    after_result: RefCell<Vec<Box<dyn FnOnce()>>>,
}

impl CallContext {
    pub(crate) fn new(call_id: &str, run_id: &str, tool: &str, deadline_ms: u64) -> CallContext {
        CallContext(Rc::new(CallState {
            call_id: call_id.to_owned(),
            run_id: run_id.to_owned(),
            tool: tool.to_owned(),
            deadline_ms: Cell::new(deadline_ms),
            cancelled: RefCell::new(None),
            wakers: RefCell::default(),
            controller: RefCell::new(None),
            date: RefCell::new(None),
            after_result: RefCell::default(),
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
        let mut controller = self.0.controller.borrow_mut();
        if controller.is_none() {
            let made = AbortController::new().ok()?;
            if let Some(reason) = self.0.cancelled.borrow().as_deref() {
                abort(&made, reason);
            }
            *controller = Some(made);
        }
        (controller.as_ref()).map(|c| crate::js::get(c, "signal").unchecked_into())
    }

    /// Runs `f` once this call's result has been handed over (posted, sent on the socket,
    /// returned to the caller): a full-page navigation, say. Not run if the call fails or is
    /// cancelled.
    pub fn after_result(&self, f: impl FnOnce() + 'static) {
        self.0.after_result.borrow_mut().push(Box::new(f));
    }

    /// `ctx.deadline` of a JS handler: one `Date` per call, moved with the deadline.
    pub(crate) fn deadline_date(&self) -> js_sys::Date {
        let mut date = self.0.date.borrow_mut();
        let d = date
            .get_or_insert_with(|| js_sys::Date::new(&(self.0.deadline_ms.get() as f64).into()));
        d.clone()
    }

    /// The shell brought the deadline forward.
    pub(crate) fn move_deadline(&self, deadline_ms: u64) {
        self.0.deadline_ms.set(deadline_ms);
        if let Some(d) = self.0.date.borrow().as_ref() {
            let _ = crate::js::call_method(d, "setTime", &[&(deadline_ms as f64).into()]);
        }
    }

    /// The answer is no longer wanted, for `reason`: [`CallContext::cancelled`] completes and
    /// the signal aborts. Only the first reason counts.
    pub(crate) fn cancel(&self, reason: &str) {
        if self.is_cancelled() {
            return;
        }
        *self.0.cancelled.borrow_mut() = Some(reason.to_owned());
        self.0.after_result.borrow_mut().clear();
        let controller = self.0.controller.borrow().clone();
        if let Some(c) = controller {
            abort(&c, reason);
        }
        let wakers = std::mem::take(&mut *self.0.wakers.borrow_mut());
        for w in wakers {
            w.wake();
        }
    }

    /// What runs now that the result has been handed over (taken: it runs once).
    pub(crate) fn take_after_result(&self) -> Vec<Box<dyn FnOnce()>> {
        std::mem::take(&mut *self.0.after_result.borrow_mut())
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
