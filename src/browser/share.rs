//! One event stream per session per browser profile: the shell of the core's sharing machine
//! (`client_tools_core::share`, where the protocol, the election and the catch-up live). It
//! carries the machine's inputs and outputs and nothing else: a `BroadcastChannel` for the
//! messages (each a JS array `[kind, from, term, seq, at, to, since, text]`), the session's Web
//! Lock (`navigator.locks`, where the page has it: else the machine elects by heartbeats), the
//! page's `freeze`, this tab's own stream connections (through its host), and one timer.

use super::guards::{now, Abort, Listener, Pump, Pumped};
use super::host::Host;
use crate::js::JsRefCell;
use client_tools_core::engine::StreamId;
use client_tools_core::share::{self, Config, Input, Kind, Message, Output};
use js_sys::{Array, Function, Object, Promise};
use std::rc::{Rc, Weak};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::BroadcastChannel;

/// The session's Web Lock, as this tab holds it.
enum Lock {
    None,
    /// In the lock's queue; dropping the guard leaves it.
    Asked(Abort),
    /// Held until this function (the lock callback's promise's resolve) is called.
    Held(Function),
}

/// Stream sharing for one client. Exists only in a window with `BroadcastChannel`, and with
/// `shareStream` on.
pub(super) struct Share<H: Host> {
    /// Itself, for the callbacks it hands out (they hold it weakly).
    this: Weak<Share<H>>,
    host: Weak<H>,
    machine: JsRefCell<share::Share>,
    pump: Pump,
    name: String,
    channel: BroadcastChannel,
    /// `navigator.locks`, if the page has Web Locks.
    locks: Option<JsValue>,
    lock: JsRefCell<Lock>,
    _on_message: Option<Listener>,
    _on_freeze: Option<Listener>,
}

/// The name of the lock and the channel: tabs share only with the same server, session and
/// token (a hash of it: lock names are visible to the origin's pages, as the token is).
pub(crate) fn channel_name(base_url: &str, session_id: &str, token: &str) -> String {
    // FNV-1a: a short, stable tag, not a secret.
    let hash = token.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!(
        "client-tools stream {} {session_id} {hash:016x}",
        base_url.trim_end_matches('/')
    )
}

/// `navigator.locks`, if this is a window that has it.
fn lock_manager() -> Option<JsValue> {
    crate::js::page_document()?;
    let locks = crate::js::get(&crate::js::get(&js_sys::global(), "navigator"), "locks");
    (!locks.is_undefined() && !locks.is_null()).then_some(locks)
}

/// A message as the channel carries it.
fn to_js(msg: &Message) -> Array {
    let text = |s: &str| JsValue::from(s);
    crate::js::array(&[
        &text(msg.kind.as_str()),
        &text(&msg.from),
        &JsValue::from(msg.term as f64),
        &JsValue::from(msg.seq as f64),
        &text(&msg.at),
        &text(&msg.to),
        &text(&msg.since),
        &text(&msg.text),
    ])
}

/// A message from the channel, if it is one (anything else is ignored).
fn from_js(data: &JsValue) -> Option<Message> {
    let a = data.dyn_ref::<Array>()?;
    let text = |i: u32| a.get(i).as_string();
    let number = |i: u32| a.get(i).as_f64().filter(|n| *n >= 0.0).map(|n| n as u64);
    Some(Message {
        kind: Kind::parse(&text(0)?)?,
        from: text(1)?,
        term: number(2)?,
        seq: number(3)?,
        at: text(4)?,
        to: text(5)?,
        since: text(6)?,
        text: text(7)?,
    })
}

impl<H: Host> Share<H> {
    /// Sharing for `host` under `name`, or `None` where the browser cannot share (a worker,
    /// Node, no `BroadcastChannel`).
    pub(super) fn new(host: &Rc<H>, name: String) -> Option<Rc<Share<H>>> {
        let document = crate::js::page_document()?;
        let channel = BroadcastChannel::new(&name).ok()?;
        let me = format!(
            "{:x}{:x}",
            now().as_ms(),
            (js_sys::Math::random() * 9.0e15) as u64
        );
        let locks = lock_manager();
        let config = Config {
            me,
            locks: locks.is_some(),
        };
        Some(Rc::new_cyclic(|this: &Weak<Share<H>>| {
            // Listeners like the page's others: one closure shape for every event the SDK hears.
            let share = this.clone();
            let on_message = Listener::new(channel.as_ref(), "message", move |e| {
                if let (Some(share), Some(msg)) =
                    (share.upgrade(), from_js(&crate::js::get(&e, "data")))
                {
                    share.handle(Input::Message(msg));
                }
            });
            let share = this.clone();
            let on_freeze = Listener::new(document.unchecked_ref(), "freeze", move |_| {
                if let Some(share) = share.upgrade() {
                    share.handle(Input::Freeze);
                }
            });
            Share {
                this: this.clone(),
                host: Rc::downgrade(host),
                machine: JsRefCell::new(share::Share::new(config, now())),
                pump: Pump::default(),
                name,
                channel,
                locks,
                lock: JsRefCell::new(Lock::None),
                _on_message: on_message,
                _on_freeze: on_freeze,
            }
        }))
    }

    /// Feeds the machine one input and carries out what follows.
    pub(super) fn handle(self: &Rc<Self>, input: Input<'_>) {
        self.machine.borrow_mut().handle(input, now());
        super::guards::drain(self);
    }

    /// The engine asks for its stream.
    pub(super) fn open(
        self: &Rc<Self>,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
    ) {
        self.handle(Input::Open {
            stream,
            url,
            headers,
        });
    }

    /// The engine closes its stream (it left, hid, or the stream answered other than 200).
    pub(super) fn close(self: &Rc<Self>, stream: StreamId) {
        self.handle(Input::Close { stream });
    }

    fn post(&self, msg: &Message) {
        // Fails only if the channel is closed: the client is going away.
        let _ = crate::js::call_method(&self.channel, "postMessage", &[&to_js(msg)]);
    }

    /// Joins the queue for the session's lock; its callback feeds the machine `LockGranted`.
    fn request_lock(&self) {
        let Some(locks) = &self.locks else { return };
        let Some(abort) = Abort::new("no stream is wanted") else {
            return;
        };
        let options = Object::new();
        crate::js::set(&options, "signal", &abort.signal().into());
        let share = self.this.clone();
        // The SDK's one closure shape (`js::Callback`); JS owns it, and frees it once collected.
        let granted = Closure::<crate::js::Callback>::new(move |_lock, _| -> JsValue {
            let mut release = None;
            let held = Promise::new(&mut |resolve, _| release = Some(resolve));
            match (share.upgrade(), release) {
                (Some(share), Some(release)) => {
                    // Out of the queue (its guard forgotten: aborting now would do nothing),
                    // held until the machine gives it back.
                    if let Lock::Asked(abort) = share.lock.replace(Lock::Held(release)) {
                        abort.forget();
                    }
                    share.handle(Input::LockGranted);
                }
                (None, Some(release)) => drop(crate::js::call(&release, &[])),
                _ => {}
            }
            held.into()
        })
        .into_js_value();
        let args = [&self.name.as_str().into(), &options.into(), &granted];
        let Ok(promise) = crate::js::call_method(locks, "request", &args) else {
            return;
        };
        // Rejects with an AbortError when the request is withdrawn: expected, not reported.
        crate::js::promise::spawn(Box::pin(async move {
            let _ = crate::js::promise::settle(&promise).await;
        }));
        drop(self.lock.replace(Lock::Asked(abort)));
    }

    /// Leaves the lock's queue, or gives the held lock back.
    fn let_go_of_lock(&self) {
        // Taken out of its cell first: an abort and a release call into JS.
        match self.lock.replace(Lock::None) {
            Lock::Held(release) => drop(crate::js::call(&release, &[])),
            Lock::Asked(abort) => drop(abort),
            Lock::None => {}
        }
    }
}

impl<H: Host> Pumped for Share<H> {
    type Output = Output;

    fn pump(&self) -> &Pump {
        &self.pump
    }

    fn poll_output(&self) -> Option<Output> {
        self.machine.borrow_mut().poll_output()
    }

    fn next_deadline(&self) -> Option<client_tools_core::time::Instant> {
        self.machine.borrow().poll_timeout()
    }

    fn handle_timeout(&self, now: client_tools_core::time::Instant) {
        self.machine.borrow_mut().handle_timeout(now);
    }

    fn carry_out(self: &Rc<Self>, out: Output) {
        match out {
            Output::Post(msg) => self.post(&msg),
            Output::RequestLock => self.request_lock(),
            Output::WithdrawLock | Output::ReleaseLock => self.let_go_of_lock(),
            out => {
                let Some(host) = self.host.upgrade() else {
                    return;
                };
                match out {
                    Output::OpenConnection {
                        stream,
                        url,
                        headers,
                    } => host.open_connection(stream, url, headers),
                    Output::CloseConnection { stream } => host.close_connection(stream),
                    Output::Engine(input) => host.feed(input),
                    Output::EngineBytes { stream, text } => {
                        host.feed_stream(stream, text.as_bytes())
                    }
                    Output::Post(_)
                    | Output::RequestLock
                    | Output::WithdrawLock
                    | Output::ReleaseLock => {}
                }
            }
        }
    }
}

impl<H: Host> Drop for Share<H> {
    /// The client is gone: the other tabs hear that its stream closed, and its lock is free.
    fn drop(&mut self) {
        let mut machine = self.machine.borrow_mut();
        if let Some(stream) = machine.stream() {
            machine.handle(Input::Close { stream }, now());
        }
        while let Some(out) = machine.poll_output() {
            if let Output::Post(msg) = out {
                self.post(&msg);
            }
        }
        drop(machine);
        self.let_go_of_lock();
        let _ = crate::js::call_method(&self.channel, "close", &[]);
    }
}
