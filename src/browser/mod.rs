//! The browser shell: it feeds the engine what the browser tells it (answers, stream bytes,
//! visibility, page hide/show, timers, handler results) and carries out what the engine asks
//! (fetch, open/close the stream, run or abort a JS handler, tell the app).
//!
//! One rule keeps it sound: no `RefCell` borrow is held while calling into JS, because a JS
//! handler or callback may call straight back into the SDK (`setTools` inside a handler).

pub(crate) mod handlers;
pub(crate) mod listen;
pub(crate) mod net;
pub(crate) mod options;

use crate::engine::{Engine, Input, OpId, Output, Status, StreamId};
use client_tools_core::calls::Returned;
use gloo_timers::callback::Timeout;
use js_sys::{Function, Promise};
use listen::Listener;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::AbortController;

/// Milliseconds since the epoch: the engine's "now".
pub(crate) fn now() -> u64 {
    js_sys::Date::now() as u64
}

/// The two halves of a JS promise the SDK settles later.
pub(crate) struct Waiter {
    resolve: Function,
    reject: Function,
}

impl Waiter {
    /// A new promise and the means to settle it.
    pub(crate) fn new() -> (Promise, Waiter) {
        let mut slot = None;
        let promise = Promise::new(&mut |resolve, reject| slot = Some(Waiter { resolve, reject }));
        // The executor runs synchronously inside `new Promise`, so the slot is filled.
        let waiter = slot.unwrap_or_else(|| Waiter {
            resolve: Function::new_no_args(""),
            reject: Function::new_no_args(""),
        });
        (promise, waiter)
    }

    pub(crate) fn resolve(self, v: &JsValue) {
        let _ = self.resolve.call1(&JsValue::UNDEFINED, v);
    }

    pub(crate) fn reject(self, message: &str) {
        let _ = self
            .reject
            .call1(&JsValue::UNDEFINED, &js_sys::Error::new(message).into());
    }
}

/// What the shell keeps about a call whose handler runs.
#[derive(Default)]
struct CallSlot {
    abort: Option<AbortController>,
    /// `ctx.deadline`, moved when the engine brings the deadline forward.
    deadline: Option<js_sys::Date>,
    /// `ctx.afterResult` callbacks, run once the handler's result was posted.
    after_result: Vec<Function>,
}

/// The state one `Client` shares with its timers, listeners and tasks.
pub(crate) struct Shared {
    pub(crate) engine: RefCell<Engine>,
    handlers: RefCell<HashMap<String, Function>>,
    on_status: Option<Function>,
    on_call: Option<Function>,
    calls: RefCell<HashMap<String, CallSlot>>,
    streams: RefCell<HashMap<StreamId, AbortController>>,
    ops: RefCell<HashMap<OpId, Waiter>>,
    /// Settled by the first registration (or a fatal error): `Client.register`'s promise.
    registered: RefCell<Option<Waiter>>,
    /// Rejects `Client.register`'s promise if the first registration takes too long.
    register_timeout: RefCell<Option<Timeout>>,
    /// The latest failed request or engine error, for a message that says why.
    last_error: RefCell<Option<String>>,
    timer: RefCell<Option<(u64, Timeout)>>,
    listeners: RefCell<Vec<Listener>>,
    draining: Cell<bool>,
    app_left: Cell<bool>,
    /// `ctx.afterResult`, bound to a call id per call.
    after_result: Closure<dyn Fn(String, JsValue)>,
}

impl Shared {
    pub(crate) fn new(
        engine: Engine,
        opts_handlers: Vec<(String, Function)>,
        on_status: Option<Function>,
        on_call: Option<Function>,
    ) -> Rc<Shared> {
        let shared = Rc::new_cyclic(|weak: &Weak<Shared>| {
            let weak = weak.clone();
            let after_result =
                Closure::<dyn Fn(String, JsValue)>::new(move |call_id: String, f: JsValue| {
                    let (Some(shared), Ok(f)) = (weak.upgrade(), f.dyn_into::<Function>()) else {
                        return;
                    };
                    let mut calls = shared.calls.borrow_mut();
                    if let Some(slot) = calls.get_mut(&call_id) {
                        slot.after_result.push(f);
                    }
                });
            Shared {
                engine: RefCell::new(engine),
                handlers: RefCell::new(opts_handlers.into_iter().collect()),
                on_status,
                on_call,
                calls: RefCell::default(),
                streams: RefCell::default(),
                ops: RefCell::default(),
                registered: RefCell::default(),
                register_timeout: RefCell::default(),
                last_error: RefCell::default(),
                timer: RefCell::default(),
                listeners: RefCell::default(),
                draining: Cell::new(false),
                app_left: Cell::new(false),
                after_result,
            }
        });
        shared.listen();
        shared
    }

    /// Sets the promise `Client.register` waits on.
    /// `timeout_ms` after now, if still unregistered, the promise rejects with the latest
    /// error and the client stops (it leaves, so nothing is left registering in the background).
    pub(crate) fn wait_registered(self: &Rc<Self>, waiter: Waiter, timeout_ms: u32) {
        *self.registered.borrow_mut() = Some(waiter);
        let weak = Rc::downgrade(self);
        let timeout = Timeout::new(timeout_ms, move || {
            let Some(shared) = weak.upgrade() else { return };
            let Some(waiter) = shared.registered.borrow_mut().take() else {
                return;
            };
            let why = shared.last_error.borrow_mut().take();
            let why = why.map_or_else(String::new, |e| format!(": {e}"));
            waiter.reject(&format!("not registered within {timeout_ms} ms{why}"));
            shared.note_app_left();
            shared.engine.borrow_mut().leave(now());
            shared.drain();
        });
        *self.register_timeout.borrow_mut() = Some(timeout);
    }

    /// Feeds one input and carries out what follows.
    pub(crate) fn feed(self: &Rc<Self>, input: Input) {
        self.engine.borrow_mut().handle(input, now());
        self.drain();
    }

    pub(crate) fn engine(&self) -> std::cell::Ref<'_, Engine> {
        self.engine.borrow()
    }

    pub(crate) fn replace_handlers(&self, handlers: Vec<(String, Function)>) {
        *self.handlers.borrow_mut() = handlers.into_iter().collect();
    }

    pub(crate) fn add_op(&self, op: OpId, waiter: Waiter) {
        self.ops.borrow_mut().insert(op, waiter);
    }

    /// Carries out every output the engine has, then re-arms the one timer. Re-entrant calls
    /// (a JS callback that calls back into the SDK) return at once: the outer loop goes on.
    pub(crate) fn drain(self: &Rc<Self>) {
        if self.draining.replace(true) {
            return;
        }
        loop {
            let out = self.engine.borrow_mut().poll_output();
            match out {
                Some(out) => self.carry_out(out),
                None => break,
            }
        }
        self.draining.set(false);
        self.arm_timer();
    }

    fn arm_timer(self: &Rc<Self>) {
        let next = self.engine.borrow().poll_timeout();
        let mut timer = self.timer.borrow_mut();
        match next {
            None => *timer = None,
            Some(at) if timer.as_ref().is_some_and(|(t, _)| *t == at) => {}
            Some(at) => {
                // setTimeout takes at most 2^31-1 ms; the engine is woken again before then.
                let delay = at.saturating_sub(now()).min(i32::MAX as u64) as u32;
                let weak = Rc::downgrade(self);
                let t = Timeout::new(delay, move || {
                    if let Some(shared) = weak.upgrade() {
                        shared.timer.borrow_mut().take();
                        shared.engine.borrow_mut().handle_timeout(now());
                        shared.drain();
                    }
                });
                *timer = Some((at, t));
            }
        }
    }

    fn carry_out(self: &Rc<Self>, out: Output) {
        match out {
            Output::Send(req) => {
                let shared = self.clone();
                spawn_local(async move {
                    let what = || format!("{} {}", req.method.as_str(), req.url);
                    let input = match net::send(&req).await {
                        Ok(a) => {
                            if a.status >= 400 {
                                shared.note_error(format!("{} answered {}", what(), a.status));
                            }
                            Input::Answer {
                                request: req.id,
                                status: a.status,
                                body: a.body,
                                retry_after_ms: a.retry_after_ms,
                            }
                        }
                        Err(message) => {
                            shared.note_error(format!("{} failed: {message}", what()));
                            Input::NetworkError {
                                request: req.id,
                                message,
                            }
                        }
                    };
                    shared.feed(input);
                });
            }
            Output::OpenStream {
                stream,
                url,
                headers,
            } => self.open_stream(stream, url, headers),
            Output::CloseStream { stream } => {
                if let Some(c) = self.streams.borrow_mut().remove(&stream) {
                    c.abort();
                }
            }
            Output::RunHandler {
                call_id,
                run_id,
                tool,
                arguments,
                deadline_ms,
            } => self.run_handler(call_id, run_id, tool, arguments, deadline_ms),
            Output::HandlerDeadline {
                call_id,
                deadline_ms,
            } => {
                if let Some(d) = self
                    .calls
                    .borrow()
                    .get(&call_id)
                    .and_then(|s| s.deadline.as_ref())
                {
                    d.set_time(deadline_ms as f64);
                }
            }
            Output::AbortHandler { call_id, reason } => {
                let slot = self.calls.borrow_mut().remove(&call_id);
                if let Some(abort) = slot.and_then(|s| s.abort) {
                    abort.abort_with_reason(&js_sys::Error::new(&reason).into());
                }
            }
            Output::Status(status) => self.on_status(status),
            Output::Call(event) => {
                use crate::engine::CallEvent;
                match &event {
                    CallEvent::Answered { call_id, .. } => {
                        let slot = self.calls.borrow_mut().remove(call_id);
                        for f in slot.map(|s| s.after_result).unwrap_or_default() {
                            let _ = f.call0(&JsValue::UNDEFINED);
                        }
                    }
                    CallEvent::Failed { call_id, .. } => {
                        self.calls.borrow_mut().remove(call_id);
                    }
                    _ => {}
                }
                tell(&self.on_call, &event);
            }
            Output::OpDone { op, result } => {
                let waiter = self.ops.borrow_mut().remove(&op);
                if let Some(w) = waiter {
                    match result {
                        Ok(()) => w.resolve(&JsValue::UNDEFINED),
                        Err(e) => w.reject(&e.message),
                    }
                }
            }
        }
    }

    fn on_status(self: &Rc<Self>, status: Status) {
        match &status {
            Status::Registered { .. } | Status::Reregistered { .. } => {
                self.register_timeout.borrow_mut().take();
                let waiter = self.registered.borrow_mut().take();
                if let Some(w) = waiter {
                    w.resolve(&JsValue::UNDEFINED);
                }
            }
            Status::Error {
                message,
                fatal: true,
            } => {
                self.register_timeout.borrow_mut().take();
                let waiter = self.registered.borrow_mut().take();
                if let Some(w) = waiter {
                    w.reject(message);
                }
                self.stop();
            }
            Status::Error { message, .. } => self.note_error(message.clone()),
            Status::Left if self.app_left.get() => self.stop(),
            _ => {}
        }
        tell(&self.on_status, &status);
    }

    /// Drops the page listeners: the client will not register again. (The timer goes by
    /// itself once the engine has nothing left to do: see `arm_timer`.)
    fn stop(&self) {
        self.listeners.borrow_mut().clear();
    }

    /// Keeps the latest failure, to say why if `Client.register` times out.
    fn note_error(&self, message: String) {
        *self.last_error.borrow_mut() = Some(message);
    }

    /// Marks that the app itself left: the client is done for good.
    pub(crate) fn note_app_left(&self) {
        self.app_left.set(true);
    }

    fn open_stream(
        self: &Rc<Self>,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
    ) {
        let abort = match AbortController::new() {
            Ok(a) => a,
            Err(e) => {
                return self.feed(Input::StreamClosed {
                    stream,
                    error: Some(net::error_text(&e)),
                })
            }
        };
        let signal = abort.signal();
        self.streams.borrow_mut().insert(stream, abort);
        let shared = self.clone();
        spawn_local(async move {
            let mut conn = match net::open_stream(&url, &headers, &signal).await {
                Ok(c) => c,
                Err(message) => {
                    shared.streams.borrow_mut().remove(&stream);
                    return shared.feed(Input::StreamClosed {
                        stream,
                        error: Some(message),
                    });
                }
            };
            shared.feed(Input::StreamOpened {
                stream,
                status: conn.status,
            });
            let mut buf = Vec::new();
            let error = loop {
                match conn.read(&mut buf).await {
                    Ok(true) => {
                        shared
                            .engine
                            .borrow_mut()
                            .handle_stream_bytes(stream, &buf, now());
                        shared.drain();
                    }
                    Ok(false) => break None,
                    Err(message) => break Some(message),
                }
            };
            shared.streams.borrow_mut().remove(&stream);
            shared.feed(Input::StreamClosed { stream, error });
        });
    }

    fn run_handler(
        self: &Rc<Self>,
        call_id: String,
        run_id: String,
        tool: String,
        arguments: serde_json::Map<String, serde_json::Value>,
        deadline_ms: u64,
    ) {
        let handler = self.handlers.borrow().get(&tool).cloned();
        let Some(handler) = handler else {
            let names: Vec<String> = self.handlers.borrow().keys().cloned().collect();
            return self.feed(Input::HandlerDone {
                call_id,
                returned: Returned::Threw(format!(
                    "no handler for tool {tool:?} on this page (it has: {})",
                    names.join(", ")
                )),
            });
        };
        let abort = AbortController::new().ok();
        let signal = abort.as_ref().map(|a| a.signal());
        let deadline = js_sys::Date::new(&JsValue::from_f64(deadline_ms as f64));
        self.calls.borrow_mut().insert(
            call_id.clone(),
            CallSlot {
                abort,
                deadline: Some(deadline.clone()),
                after_result: Vec::new(),
            },
        );
        let after: &Function = self.after_result.as_ref().unchecked_ref();
        let ctx = handlers::context(&call_id, &run_id, signal.as_ref(), &deadline, Some(after));
        let shared = self.clone();
        spawn_local(async move {
            let returned = handlers::call(&handler, &arguments, &ctx).await;
            shared.feed(Input::HandlerDone { call_id, returned });
        });
    }

    /// Listens to the page's lifecycle: visibility, page hide/show, freeze/resume.
    fn listen(self: &Rc<Self>) {
        let Some(window) = web_sys::window() else {
            return; // a worker: no page lifecycle to follow
        };
        let Some(document) = window.document() else {
            return;
        };
        let mut listeners = Vec::new();
        let on = |target: &web_sys::EventTarget,
                  kind: &'static str,
                  make: fn(&web_sys::Event) -> Input| {
            let weak: Weak<Shared> = Rc::downgrade(self);
            Listener::new(target, kind, move |e| {
                if let Some(shared) = weak.upgrade() {
                    shared.feed(make(&e));
                }
            })
        };
        let doc: &web_sys::EventTarget = document.as_ref();
        let win: &web_sys::EventTarget = window.as_ref();
        listeners.extend(on(doc, "visibilitychange", |_| Input::VisibilityChanged {
            hidden: page_hidden(),
        }));
        listeners.extend(on(win, "pagehide", |e| Input::PageHide {
            persisted: persisted(e),
        }));
        listeners.extend(on(win, "pageshow", |e| Input::PageShow {
            persisted: persisted(e),
        }));
        listeners.extend(on(doc, "freeze", |_| Input::Freeze));
        listeners.extend(on(doc, "resume", |_| Input::Resume));
        *self.listeners.borrow_mut() = listeners;
        if document.hidden() {
            self.engine
                .borrow_mut()
                .handle(Input::VisibilityChanged { hidden: true }, now());
        }
    }
}

fn page_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

fn persisted(e: &web_sys::Event) -> bool {
    e.dyn_ref::<web_sys::PageTransitionEvent>()
        .is_some_and(|e| e.persisted())
}

/// Calls an app callback (`onStatus`, `onCall`) with `event` as a plain object. A throwing
/// callback is the app's bug; it must not stop the client.
fn tell(callback: &Option<Function>, event: &impl serde::Serialize) {
    let Some(f) = callback else { return };
    let Ok(text) = serde_json::to_string(event) else {
        return;
    };
    if let Ok(obj) = js_sys::JSON::parse(&text) {
        let _ = f.call1(&JsValue::UNDEFINED, &obj);
    }
}
