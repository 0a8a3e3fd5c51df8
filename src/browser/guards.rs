//! JS resources as drop guards, in the gloo manner: each owns what it registered and undoes it
//! on `Drop`, so a client that is dropped or stops leaves no listener, timer, request or stream
//! behind. `forget` is the explicit opt-out. Here too is the one loop both browser shells run
//! over their state machine, [`drain`], with the page's clock and the machine's one timer.

use crate::js;
use crate::js::JsRefCell;
use client_tools_core::time::Instant;
use gloo_timers::callback::Timeout;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, AbortSignal, Event, EventTarget};

/// A listener on `target` for `kind`, removed when this guard is dropped.
#[must_use = "the listener is removed as soon as the guard is dropped"]
pub(crate) struct Listener {
    target: EventTarget,
    kind: &'static str,
    /// What was added: the closure's function, or a JS function in front of it.
    listener: js_sys::Function,
    _callback: Closure<dyn FnMut(Event)>,
}

impl Listener {
    /// Adds `f` as a listener of `kind` events on `target`; `None` if the browser refused.
    pub(crate) fn new(
        target: &EventTarget,
        kind: &'static str,
        f: impl FnMut(Event) + 'static,
    ) -> Option<Listener> {
        Listener::boxed(target, kind, None, Box::new(f))
    }

    /// Adds, as the listener, what the JS function `front` makes of `f`'s function: a JS
    /// function that decides which events reach `f`, without entering the module for the
    /// others (the JS `WsTools`' frame test, src/snippets.js); `f` itself without one.
    pub(crate) fn behind(
        target: &EventTarget,
        kind: &'static str,
        front: Option<&js_sys::Function>,
        f: impl FnMut(Event) + 'static,
    ) -> Option<Listener> {
        Listener::boxed(target, kind, front, Box::new(f))
    }

    /// The one body of `new` and `behind`, for every listener's closure (boxed).
    fn boxed(
        target: &EventTarget,
        kind: &'static str,
        front: Option<&js_sys::Function>,
        f: Box<dyn FnMut(Event)>,
    ) -> Option<Listener> {
        let callback = Closure::wrap(f);
        let listener = match front {
            Some(front) => js::call(front, &[callback.as_ref()]).ok()?,
            None => callback.as_ref().clone(),
        }
        .unchecked_into();
        target
            .add_event_listener_with_callback(kind, &listener)
            .ok()?;
        Some(Listener {
            target: target.clone(),
            kind,
            listener,
            _callback: callback,
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, &self.listener);
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
        (self.controller.as_ref()).map(|c| crate::js::get(c, "signal").unchecked_into())
    }

    /// Aborts now with `reason` as the signal's reason (an `Error`).
    pub(crate) fn abort(mut self, reason: &str) {
        if let Some(c) = self.controller.take() {
            abort(&c, reason);
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
            abort(&c, self.reason);
        }
    }
}

/// `controller.abort(new Error(reason))`.
fn abort(controller: &AbortController, reason: &str) {
    let reason = JsValue::from(js_sys::Error::new(reason));
    let _ = crate::js::call_method(controller, "abort", &[&reason]);
}

/// A `setTimeout`, cleared when the guard is dropped: gloo-timers' `Timeout`.
pub(crate) type Timer = Timeout;

/// `setTimeout`: `f` runs once after `ms` unless the guard is dropped first. Boxed, so every
/// timer of the SDK shares one copy of the timer code.
pub(crate) fn timeout(ms: u32, f: Box<dyn FnOnce()>) -> Timer {
    Timeout::new(ms, f)
}

/// `setTimeout` with no guard to keep: the timer holds itself until it fires, then lets go of
/// its closure (gloo's `forget` would keep the closure for the page's life).
pub(crate) fn detached(ms: u32, f: Box<dyn FnOnce()>) {
    let slot = Rc::new(Cell::new(None::<Timer>));
    let held = Rc::clone(&slot);
    slot.set(Some(timeout(
        ms,
        Box::new(move || {
            f();
            // Dropped while it runs: wasm-bindgen frees the closure once its call returns.
            drop(held.take());
        }),
    )));
}

/// The shells' "now": ms since the epoch, by the page's clock.
pub(crate) fn now() -> Instant {
    Instant::from_ms(js_sys::Date::now() as u64)
}

/// A sans-I/O state machine a shell drives with a [`Pump`]: the Client's engine, a voice
/// agent's WebSocket bridge.
pub(crate) trait Pumped: Sized + 'static {
    type Output;
    /// The shell's pump (its re-entrancy flag and its one timer).
    fn pump(&self) -> &Pump;
    fn poll_output(&self) -> Option<Self::Output>;
    fn next_deadline(&self) -> Option<Instant>;
    fn handle_timeout(&self, now: Instant);
    /// Carries out one output (may call back into the machine, and [`drain`] again).
    fn carry_out(self: &Rc<Self>, out: Self::Output);
}

/// What [`drain`] keeps for a shell.
#[derive(Default)]
pub(crate) struct Pump {
    draining: Cell<bool>,
    timer: Alarm,
}

/// Carries out every output `machine` has, then re-arms its one timer to the next deadline.
/// Re-entrant calls (a JS callback that calls back into the SDK) return at once: the outer loop
/// goes on.
///
/// The one rule of the shells' timers (the Client's engine, `WsTools`' bridge, the runner of
/// `execute`, WebMCP and `TurnTools`): after handling a timeout, arm again for the next
/// deadline, if any. A timer can fire before `Date.now()` reaches its deadline (Node's timers
/// run on the monotonic clock: about one in six of them fires up to a millisecond early by the
/// wall clock); the machine then finds nothing due, and the timer armed again answers it.
pub(crate) fn drain<M: Pumped>(machine: &Rc<M>) {
    let pump = machine.pump();
    if pump.draining.replace(true) {
        return;
    }
    while let Some(out) = machine.poll_output() {
        machine.carry_out(out);
    }
    pump.draining.set(false);
    let weak = Rc::downgrade(machine);
    pump.timer.set(
        machine.next_deadline(),
        now(),
        Box::new(move || {
            if let Some(machine) = weak.upgrade() {
                machine.handle_timeout(now());
                drain(&machine);
            }
        }),
    );
}

/// One timer, re-armed to a state machine's next deadline after every drain: the engine's and
/// a voice-agent bridge's. Dropped, it never fires.
#[derive(Default)]
pub(crate) struct Alarm {
    armed: JsRefCell<Option<Armed>>,
}

/// When the alarm fires, whether it has, and the timer (cleared when dropped).
type Armed = (Instant, Rc<Cell<bool>>, Timer);

impl Alarm {
    /// Calls `fire` at `at` (by the page's clock, `now`); `None` disarms. Set again to the time
    /// it waits for, it keeps the timer it has. `fire` is boxed, as [`timeout`]'s is: one copy
    /// of this code for every machine.
    pub(crate) fn set(&self, at: Option<Instant>, now: Instant, fire: Box<dyn FnOnce()>) {
        // The old timer is dropped (cleared) and the new one started outside the borrow: both
        // call into JS.
        let Some(at) = at else {
            drop(self.armed.take());
            return;
        };
        let same =
            (self.armed.borrow().as_ref()).is_some_and(|(t, fired, _)| *t == at && !fired.get());
        if same {
            return;
        }
        // setTimeout takes at most 2^31-1 ms; the alarm is set again before then. At least
        // 1 ms: a deadline the machine still gives after handling it never spins the page.
        let delay = at.since(now).as_ms().clamp(1, i32::MAX as u64) as u32;
        let fired = Rc::new(Cell::new(false));
        let flag = Rc::clone(&fired);
        let timeout = timeout(
            delay,
            Box::new(move || {
                flag.set(true);
                fire();
            }),
        );
        drop(self.armed.replace(Some((at, fired, timeout))));
    }
}
