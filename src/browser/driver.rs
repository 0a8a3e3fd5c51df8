//! The driver: it feeds the engine what happened and routes each output to the part that
//! carries it out (a request, the stream connections, the running calls, the app's promises
//! and callbacks), then re-arms the one timer.
//!
//! One rule keeps it sound: no `RefCell` borrow is held while calling into JS, because a JS
//! handler or callback may call straight back into the SDK (`setTools` inside a handler).

use super::calls::Calls;
use super::guards::{self, Listener, Pump, Pumped};
use super::host::{Conn, Host};
use super::oneshot::Sender;
use super::share::Share;
use super::stream::Streams;
use super::{handlers, lifecycle, sending};
use crate::api::shell::Browser;
use crate::api::tool::Tool;
use crate::engine::{
    CallEvent, Engine, EngineError, EngineErrorKind, Input, LeftBy, OpId, Output, Status, StreamId,
};
use crate::js::{self, JsRefCell};
use client_tools_core::api::Scopes;
use client_tools_core::api::{Callback, TokenSource};
use client_tools_core::api::{Error, ErrorKind};
use client_tools_core::share::Input as ShareInput;
use client_tools_core::time::Instant;
use client_tools_core::vec_map::VecMap;
use std::cell::{Cell, OnceCell};
use std::rc::{Rc, Weak};

/// What the driver tells the sharing machine, run in a microtask (`Shared::to_share`).
type Tell = Box<dyn FnOnce(&Rc<Share<Shared>>)>;

pub(crate) use super::guards::now;

/// Where an op's outcome (`set_tools`, `leave`) or the first registration goes.
pub(crate) type Waiter = Sender<Result<(), Error>>;

/// The state one `Client` shares with its timers, listeners and tasks. Tasks and listeners
/// hold it weakly (requests on their way excepted), so a client that JS frees goes away.
pub(crate) struct Shared {
    pub(crate) engine: JsRefCell<Engine>,
    /// The tools on offer (the scopes' union last taken; the names are unique).
    offered: JsRefCell<Rc<Vec<Tool>>>,
    /// Told each time the offer changes (an `exposeToWebMCP` following the client).
    #[cfg(feature = "webmcp")]
    on_offer: JsRefCell<Option<Rc<dyn Fn()>>>,
    on_status: Option<Callback<Browser, Status>>,
    on_call: Option<Callback<Browser, CallEvent>>,
    calls: Calls,
    streams: Streams,
    /// Set when this client shares the session's stream with the other tabs.
    share: OnceCell<Rc<Share<Shared>>>,
    /// Each op's waiters (one, or the scope updates a flush declared together).
    ops: JsRefCell<VecMap<OpId, Vec<Waiter>>>,
    /// The client's tool scopes; their union is what the engine offers.
    pub(crate) scopes: JsRefCell<Scopes<Tool>>,
    /// The scope updates waiting for the next flush to have an op.
    scope_waiters: JsRefCell<Vec<Waiter>>,
    /// A microtask will flush the scopes.
    flush_queued: Cell<bool>,
    /// Settled by the first registration, or rejected by a fatal error (the engine's register
    /// timeout among them): `Client.register`'s promise.
    registered: JsRefCell<Option<Waiter>>,
    pump: Pump,
    listeners: JsRefCell<Vec<Listener>>,
    /// `requestTimeoutMs`: how long one of the engine's requests may take.
    request_timeout_ms: u32,
    /// The id and name of the last registration: still true of the client once it left, when
    /// the engine forgets them.
    last: JsRefCell<(Option<String>, Option<String>)>,
    /// Where fresh tokens come from after a 401, when the app gave a source.
    token_source: OnceCell<TokenSource<Browser>>,
    /// The app's `fetch` option: every request and the stream go through it.
    fetch: OnceCell<js_sys::Function>,
}

impl Shared {
    pub(crate) fn new(
        engine: Engine,
        tools: Vec<Tool>,
        on_status: Option<Callback<Browser, Status>>,
        on_call: Option<Callback<Browser, CallEvent>>,
        request_timeout_ms: u32,
    ) -> Rc<Shared> {
        let shared = Rc::new(Shared {
            request_timeout_ms,
            engine: JsRefCell::new(engine),
            offered: JsRefCell::new(Rc::new(tools.clone())),
            #[cfg(feature = "webmcp")]
            on_offer: JsRefCell::default(),
            scopes: JsRefCell::new(Scopes::new(tools)),
            scope_waiters: JsRefCell::default(),
            flush_queued: Cell::new(false),
            on_status,
            on_call,
            calls: Calls::new(),
            streams: Streams::default(),
            share: OnceCell::new(),
            ops: JsRefCell::default(),
            registered: JsRefCell::default(),
            pump: Pump::default(),
            listeners: JsRefCell::default(),
            last: JsRefCell::default(),
            token_source: OnceCell::new(),
            fetch: OnceCell::new(),
        });
        let (listeners, first) = lifecycle::listen(&shared);
        *shared.listeners.borrow_mut() = listeners;
        if let Some(input) = first {
            shared.engine.borrow_mut().handle(input, now());
        }
        shared
    }

    /// After a 401, the fresh token comes from `source` (the app's `token_source`).
    pub(crate) fn refresh_tokens_with(&self, source: TokenSource<Browser>) {
        let _ = self.token_source.set(source);
    }

    /// Every request and the stream go through `fetch` (the app's `fetch` option) instead of
    /// the global `fetch`.
    pub(crate) fn fetch_with(&self, fetch: js_sys::Function) {
        let _ = self.fetch.set(fetch);
    }

    /// Sets what `Client::register` waits on: the engine settles it `Ok` by registering,
    /// or with a fatal error (a refusal, or its register timeout, which names the
    /// request that failed last).
    pub(crate) fn wait_registered(&self, waiter: Waiter) {
        *self.registered.borrow_mut() = Some(waiter);
    }

    /// Stops the client when `signal` aborts: a pending `Client.register` rejects with the
    /// signal's reason, and the client leaves (a registration on its way is undone when its
    /// answer comes). What a React effect's cleanup needs, so StrictMode leaves no client behind.
    pub(crate) fn stop_on(self: &Rc<Self>, signal: &web_sys::AbortSignal) {
        let weak = Rc::downgrade(self);
        let signal_ = signal.clone();
        let listener = Listener::new(signal.as_ref(), "abort", move |_| {
            let Some(shared) = weak.upgrade() else { return };
            let waiter = shared.registered.borrow_mut().take();
            if let Some(w) = waiter {
                let reason = js::error_text(&js::get(&signal_, "reason"));
                w.send(Err(Error::new(ErrorKind::Aborted, reason)));
            }
            if shared.engine().state() != crate::engine::ClientState::Failed {
                shared.engine.borrow_mut().leave(now());
                shared.drain();
            }
        });
        self.listeners.borrow_mut().extend(listener);
    }

    /// Shares the session's one event stream with the other tabs on lock and channel `name`
    /// (see `share`), where the browser can; call before the first `drain`.
    pub(crate) fn share_stream(self: &Rc<Self>, name: String) {
        if let Some(share) = Share::new(self, name) {
            let _ = self.share.set(share);
        }
    }

    fn share(&self) -> Option<&Rc<Share<Shared>>> {
        self.share.get()
    }

    /// Tells the sharing machine what the engine asked (open, close, stop) in a microtask, all
    /// in the order asked: so the registration's `POST`, whose fetch `sending::send` queued in
    /// the same drain, goes out before the election's work (its hello, the lock's request), at
    /// start-up's cost (scripts/bench-start). No event can come between: the machine's other
    /// inputs are the channel's messages, the lock and the connections, which all come later.
    /// Boxed, as `js::promise::spawn`'s futures are: one future type for the three.
    fn to_share(&self, tell: Tell) {
        let Some(share) = self.share() else { return };
        let share = Rc::downgrade(share);
        crate::js::promise::spawn(Box::pin(async move {
            // A client dropped meanwhile: its share's drop said goodbye to the other tabs.
            if let Some(share) = share.upgrade() {
                tell(&share);
            }
        }));
    }

    /// Feeds one input and carries out what follows.
    pub(crate) fn feed(self: &Rc<Self>, input: Input) {
        self.engine.borrow_mut().handle(input, now());
        self.drain();
    }

    pub(crate) fn engine(&self) -> crate::js::cell::JsRef<'_, Engine> {
        self.engine.borrow()
    }

    /// The id and name of the current registration, else of the last one.
    pub(crate) fn id_and_name(&self) -> (Option<String>, Option<String>) {
        let engine = self.engine();
        let last = self.last.borrow();
        (
            engine.id().map(str::to_owned).or_else(|| last.0.clone()),
            engine.name().map(str::to_owned).or_else(|| last.1.clone()),
        )
    }

    pub(crate) fn add_op(&self, op: OpId, waiter: Waiter) {
        let mut ops = self.ops.borrow_mut();
        match ops.get_mut(&op) {
            Some(waiters) => waiters.push(waiter),
            None => drop(ops.insert(op, vec![waiter])),
        }
    }

    /// A scope changed: the union goes out in a microtask (so that every change of this task
    /// is one `PUT`), or sooner, before a call's result or with a `set_tools`; `waiter`, if
    /// any, is settled once the server has it.
    pub(crate) fn scopes_changed(self: &Rc<Self>, waiter: Option<Waiter>) {
        self.scope_waiters.borrow_mut().extend(waiter);
        if self.flush_queued.replace(true) {
            return;
        }
        let weak = Rc::downgrade(self);
        crate::js::promise::spawn(Box::pin(async move {
            if let Some(shared) = weak.upgrade() {
                shared.flush_scopes();
            }
        }));
    }

    /// Declares the scopes' union if it changed; the waiters get the op.
    pub(crate) fn flush_scopes(self: &Rc<Self>) {
        self.flush_queued.set(false);
        let offer = self.scopes.borrow_mut().take();
        let waiters = std::mem::take(&mut *self.scope_waiters.borrow_mut());
        let Some(offer) = offer else {
            for w in waiters {
                w.send(Ok(()));
            }
            return;
        };
        for name in offer.shadowed {
            self.on_status(Status::Error {
                message: format!("tool {name}: declared by two scopes; the newest scope's is offered until it is released"),
                fatal: false,
                kind: None,
            });
        }
        let mut defs = Vec::with_capacity(offer.tools.len());
        for t in &offer.tools {
            defs.push(t.parts().def.clone());
        }
        *self.offered.borrow_mut() = Rc::new(offer.tools);
        // Checked by `Scopes`: the union is within the limits.
        let op = self.engine.borrow_mut().set_tools(defs, now());
        if let Ok(op) = op {
            for w in waiters {
                self.add_op(op, w);
            }
        }
        self.drain();
        // Cloned out first: no borrow is held while the follower runs.
        #[cfg(feature = "webmcp")]
        {
            let on_offer = self.on_offer.borrow().clone();
            if let Some(f) = on_offer {
                f();
            }
        }
    }

    /// The tools on offer now.
    pub(crate) fn offered(&self) -> Rc<Vec<Tool>> {
        self.offered.borrow().clone()
    }

    /// `f` is told each time the tools on offer change (replacing whatever was told before).
    #[cfg(feature = "webmcp")]
    pub(crate) fn on_offer(&self, f: Rc<dyn Fn()>) {
        *self.on_offer.borrow_mut() = Some(f);
    }

    /// The key WebMCP's exposures find the client by (`exposeToWebMCP(client)`, the Rust
    /// face's `webmcp::expose(&client)`): this state's address, unique while it lives.
    #[cfg_attr(not(feature = "webmcp"), allow(dead_code))]
    pub(crate) fn key(self: &Rc<Self>) -> usize {
        Rc::as_ptr(self) as usize
    }

    /// Carries out every output the engine has, then re-arms the one timer ([`guards::drain`]).
    pub(crate) fn drain(self: &Rc<Self>) {
        guards::drain(self);
    }
}

impl Pumped for Shared {
    type Output = Output;

    fn pump(&self) -> &Pump {
        &self.pump
    }

    fn poll_output(&self) -> Option<Output> {
        self.engine.borrow_mut().poll_output()
    }

    fn next_deadline(&self) -> Option<Instant> {
        self.engine.borrow().poll_timeout()
    }

    fn handle_timeout(&self, now: Instant) {
        self.engine.borrow_mut().handle_timeout(now);
    }

    /// The router: each output to the part that carries it out.
    fn carry_out(self: &Rc<Self>, out: Output) {
        match out {
            // Through the page's queue: acks first, at most 4 requests out. Held strongly: a
            // request on its way (a leave, say) finishes even if the client is dropped meanwhile.
            Output::Send(req) => {
                let (shared, asked, id) = (self.clone(), self.clone(), req.id);
                sending::send(sending::Job {
                    req,
                    timeout_ms: self.request_timeout_ms,
                    fetch: self.fetch.get().cloned(),
                    // Asked when a slot comes free, outside any borrow of the engine.
                    wanted: Box::new(move || asked.engine.borrow().wants(id, now())),
                    done: Box::new(move |input| shared.feed(input)),
                })
            }
            Output::OpenStream {
                stream,
                url,
                headers,
            } => match self.share() {
                Some(_) => self.to_share(Box::new(move |share| share.open(stream, url, headers))),
                None => self.open_connection(stream, url, headers),
            },
            // Sharing, the machine closes this tab's own connection, if it has one.
            Output::CloseStream { stream } => match self.share() {
                Some(_) => self.to_share(Box::new(move |share| share.close(stream))),
                None => self.streams.close(stream),
            },
            Output::RunHandler {
                call_id,
                run_id,
                tool,
                arguments,
                deadline,
            } => self.run_handler(call_id, run_id, tool, arguments, deadline),
            Output::HandlerDeadline { call_id, deadline } => {
                self.calls.move_deadline(&call_id, deadline.as_ms())
            }
            Output::AbortHandler { call_id, reason } => self.calls.abort(&call_id, &reason),
            Output::Status(status) => self.on_status(status),
            // Asked only with `Config::token_refresh`, set when the app gave a token source.
            Output::RefreshToken => match self.token_source.get() {
                Some(source) => {
                    let (fresh, shared) = (source(), Rc::clone(self));
                    crate::js::promise::spawn(Box::pin(async move {
                        let token = fresh.await;
                        shared.feed(Input::Token(token));
                    }));
                }
                None => self.feed(Input::Token(Err("this client has no token source".into()))),
            },
            Output::Call(event) => {
                match &event {
                    CallEvent::Answered { call_id, .. } => {
                        for f in self.calls.end(call_id) {
                            f();
                        }
                    }
                    CallEvent::Failed { call_id, .. } => drop(self.calls.end(call_id)),
                    _ => {}
                }
                if let Some(f) = &self.on_call {
                    f(&event);
                }
            }
            Output::OpDone { op, result } => {
                let waiters = self.ops.borrow_mut().remove(&op).unwrap_or_default();
                for w in waiters {
                    w.send(result.clone().map_err(Error::from));
                }
            }
        }
    }
}

/// The parts' way back to the client: the stream connections, the sharing and the page
/// lifecycle feed the engine through it, and the driver routes what a connection did.
impl Host for Shared {
    fn feed(self: &Rc<Self>, input: Input) {
        Shared::feed(self, input);
    }

    fn feed_stream(self: &Rc<Self>, stream: StreamId, bytes: &[u8]) {
        self.engine
            .borrow_mut()
            .handle_stream_bytes(stream, bytes, now());
        self.drain();
    }

    /// The engine learns what the connection did. Sharing, the machine says what the engine
    /// is told of an open or a close (a follower's catch-up connection is no news to it), and
    /// it forwards the bytes to the other tabs first, so that they have the events before this
    /// engine acts on them.
    fn connection(self: &Rc<Self>, stream: StreamId, event: Conn<'_>) {
        let share = self.share().cloned();
        match (event, share) {
            (Conn::Opened(status), Some(share)) => {
                share.handle(ShareInput::ConnOpened { stream, status })
            }
            (Conn::Opened(status), None) => self.feed(Input::StreamOpened { stream, status }),
            (Conn::Bytes(bytes), share) => {
                if let Some(share) = share {
                    share.handle(ShareInput::ConnBytes { stream, bytes });
                }
                Host::feed_stream(self, stream, bytes);
            }
            (Conn::Closed(error), share) => {
                self.streams.close(stream);
                match share {
                    Some(share) => share.handle(ShareInput::ConnClosed { stream, error }),
                    None => self.feed(Input::StreamClosed { stream, error }),
                }
            }
        }
    }

    fn open_connection(
        self: &Rc<Self>,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
    ) {
        let fetch = self.fetch.get().cloned();
        self.streams.open(self, stream, url, headers, fetch);
    }

    fn close_connection(&self, stream: StreamId) {
        self.streams.close(stream);
    }
}

impl Shared {
    /// Runs a JS handler; its result goes back to the engine, if the client is still there.
    fn run_handler(
        self: &Rc<Self>,
        call_id: String,
        run_id: String,
        tool: String,
        arguments: serde_json::Map<String, serde_json::Value>,
        deadline: Instant,
    ) {
        let offered = self.offered();
        let handler = (offered.iter())
            .find(|t| t.name() == tool)
            .map(|t| t.parts().handler.clone());
        let Some(handler) = handler else {
            let mut names: Vec<String> = Vec::new();
            for t in offered.iter() {
                names.push(t.name().to_owned());
            }
            return self.feed(Input::HandlerDone {
                call_id,
                returned: client_tools_core::calls::no_handler(&tool, &names),
            });
        };
        let weak: Weak<Shared> = Rc::downgrade(self);
        let id = call_id.clone();
        let done = move |returned| {
            if let Some(shared) = weak.upgrade() {
                // The ordering rule: scope changes made before the handler settled are
                // declared before its result is posted (the engine holds it meanwhile).
                shared.flush_scopes();
                shared.feed(Input::HandlerDone {
                    call_id: id,
                    returned,
                });
            }
        };
        handlers::start(
            &self.calls,
            &call_id,
            &run_id,
            &tool,
            handler,
            arguments,
            deadline.as_ms(),
            Box::new(done),
        );
    }

    fn on_status(self: &Rc<Self>, status: Status) {
        match &status {
            Status::Registered { id, name, .. } | Status::Reregistered { id, name, .. } => {
                *self.last.borrow_mut() = (Some(id.clone()), Some(name.clone()));
                let waiter = self.registered.borrow_mut().take();
                if let Some(w) = waiter {
                    w.send(Ok(()));
                }
            }
            Status::Error {
                message,
                fatal: true,
                kind,
            } => {
                let waiter = self.registered.borrow_mut().take();
                if let Some(w) = waiter {
                    let kind = kind.unwrap_or(EngineErrorKind::Rejected);
                    let message = message.clone();
                    w.send(Err(Error::from(EngineError { kind, message })));
                }
                self.stop();
            }
            // The app left: for good (a hide or page hide comes back).
            Status::Left { by: LeftBy::App } => self.stop(),
            _ => {}
        }
        // Gone, for now or for good: the other tabs lead and read without this one.
        if matches!(
            status,
            Status::Left { .. } | Status::Error { fatal: true, .. }
        ) {
            self.to_share(Box::new(|share| share.handle(ShareInput::Stop)));
        }
        if let Some(f) = &self.on_status {
            f(&status);
        }
    }

    /// Drops the page listeners: the client will not register again. (The timer goes by
    /// itself once the engine has nothing left to do: see `guards::drain`.)
    fn stop(&self) {
        self.listeners.borrow_mut().clear();
    }
}
