//! JS resources as drop guards, in the gloo manner: each owns what it registered and undoes it
//! on `Drop`, so a client that is dropped or stops leaves no listener, request or stream
//! behind. `forget` is the explicit opt-out.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, AbortSignal, Event, EventTarget};

/// A listener on `target` for `kind`, removed when this guard is dropped.
#[must_use = "the listener is removed as soon as the guard is dropped"]
pub(crate) struct Listener {
    target: EventTarget,
    kind: &'static str,
    callback: Closure<dyn FnMut(Event)>,
}

impl Listener {
    /// Adds `f` as a listener of `kind` events on `target`; `None` if the browser refused.
    pub(crate) fn new(
        target: &EventTarget,
        kind: &'static str,
        f: impl FnMut(Event) + 'static,
    ) -> Option<Listener> {
        let callback = Closure::<dyn FnMut(Event)>::new(f);
        target
            .add_event_listener_with_callback(kind, callback.as_ref().unchecked_ref())
            .ok()?;
        Some(Listener {
            target: target.clone(),
            kind,
            callback,
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, self.callback.as_ref().unchecked_ref());
    }
}

/// An `AbortController` that aborts when dropped: a stream's fetch, a handler's `ctx.signal`.
#[must_use = "the signal aborts as soon as the guard is dropped"]
pub(crate) struct Abort {
    controller: Option<AbortController>,
    reason: &'static str,
}

impl Abort {
    /// A new controller; dropped, it aborts with `reason`. `None` if the browser has none.
    pub(crate) fn new(reason: &'static str) -> Option<Abort> {
        Some(Abort {
            controller: Some(AbortController::new().ok()?),
            reason,
        })
    }

    pub(crate) fn signal(&self) -> Option<AbortSignal> {
        self.controller.as_ref().map(|c| c.signal())
    }

    /// Aborts now with `reason` as the signal's reason (an `Error`).
    pub(crate) fn abort(mut self, reason: &str) {
        if let Some(c) = self.controller.take() {
            c.abort_with_reason(&js_sys::Error::new(reason).into());
        }
    }

    /// Lets the controller go without aborting: what it guarded finished by itself.
    pub(crate) fn forget(mut self) {
        self.controller = None;
    }
}

impl Drop for Abort {
    fn drop(&mut self) {
        if let Some(c) = self.controller.take() {
            c.abort_with_reason(&JsValue::from(js_sys::Error::new(self.reason)));
        }
    }
}
