//! Event-listener guards: each owns its `Closure` and removes itself on drop, so a client
//! that is dropped or leaves for good leaves no listener behind.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Event, EventTarget};

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
