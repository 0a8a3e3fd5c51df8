//! The browser half of `WsTools`, under both faces (`client_tools::WsTools` in `crate::api::ws`,
//! the JS class in `crate::js_api::ws`, each a conversion of its options into this): it
//! carries out what the pure bridge ([`client_tools_core::adapters::ws`]) asks (send a frame,
//! run or abort a handler, tell the app) and feeds it what happened (frames, handler results,
//! its one timer).
//!
//! As in the Client's shell, no `RefCell` borrow is held while calling into JS: a handler or
//! `onCall` may call straight back (`setTools`, `closed()`).

use crate::browser::calls::Calls;
use crate::browser::guards::{self, Listener, Pump, Pumped};
use crate::browser::{handlers, now};
use crate::js::JsRefCell;
use client_tools_core::adapters::ws::{WsBridge, WsCallEvent, WsOutput, WsTool};
use client_tools_core::calls::Returned;
use client_tools_core::protocol::validate::ValidationError;
use client_tools_core::time::Instant;
use js_sys::Function;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::WebSocket;

/// Each tool's handler, by name (a tool list's names are unique).
pub(crate) type Handlers = Vec<(String, crate::api::shell::Handler)>;

/// The app's `send` of one frame: it fails with the reason, e.g. what a JS `send` threw.
pub(crate) type Send = Box<dyn Fn(&str) -> Result<(), String>>;

/// Where the bridge's frames go.
pub(crate) enum Sender {
    /// The app's `send`.
    App(Send),
    /// The socket `WsTools.attach` was given.
    Socket(WebSocket),
}

/// The app's `onCall`, told how each call is doing.
pub(crate) type OnCall = Option<Box<dyn Fn(&WsCallEvent)>>;

/// The state one `WsTools` shares with its timer, listeners and handler tasks.
pub(crate) struct Shared {
    pub(crate) bridge: JsRefCell<WsBridge>,
    /// Each tool's handler, by name (the names are unique).
    pub(crate) handlers: JsRefCell<Handlers>,
    sender: Sender,
    on_call: OnCall,
    calls: Calls,
    pump: Pump,
    pub(crate) listeners: JsRefCell<Vec<Listener>>,
}

impl Shared {
    pub(crate) fn new(
        bridge: WsBridge,
        handlers: Handlers,
        sender: Sender,
        on_call: OnCall,
    ) -> Rc<Shared> {
        Rc::new(Shared {
            bridge: JsRefCell::new(bridge),
            handlers: JsRefCell::new(handlers),
            sender,
            on_call,
            calls: Calls::new(),
            pump: Pump::default(),
            listeners: JsRefCell::default(),
        })
    }

    /// One frame's data: a text frame goes to the bridge; binary frames (audio) are not
    /// tool calls.
    pub(crate) fn receive(self: &Rc<Self>, data: &JsValue) -> bool {
        data.as_string()
            .is_some_and(|text| self.receive_text(&text))
    }

    /// One text frame: true when it was a tool call.
    pub(crate) fn receive_text(self: &Rc<Self>, text: &str) -> bool {
        let was_call = self.bridge.borrow_mut().receive(text, now());
        self.drain();
        was_call
    }

    /// Listens on `ws` (`WsTools.attach`): its messages' data, behind `front` if given (the
    /// JS class's frame test, which keeps most frames out of the module), and its close,
    /// after which the listeners go. The listeners hold the bridge: while attached, the
    /// socket keeps it alive; the cycle ends with the listeners (close, or [`Shared::detach`]).
    pub(crate) fn listen(self: &Rc<Self>, ws: &WebSocket, front: Option<&Function>) {
        let target: &web_sys::EventTarget = ws.as_ref();
        let s = self.clone();
        let on_message = Listener::behind(target, "message", front, move |e| {
            // A socket's message event (a `MessageEvent`): its `data`.
            s.receive(&crate::js::get(&e, "data"));
        });
        let s = self.clone();
        let on_close = Listener::new(target, "close", move |_| {
            let shared = s.clone();
            shared.closed();
            // The socket is done: the listeners go (wasm-bindgen frees a closure that is
            // running only once it returns).
            shared.detach();
        });
        let mut listeners = self.listeners.borrow_mut();
        listeners.extend(on_message);
        listeners.extend(on_close);
    }

    /// Stops listening on the socket (running calls go on and are answered).
    pub(crate) fn detach(&self) {
        let listeners = std::mem::take(&mut *self.listeners.borrow_mut());
        drop(listeners);
    }

    /// Replaces the tools on offer; running calls go on. Fails naming a bad tool.
    pub(crate) fn set_tools(
        &self,
        tools: Vec<WsTool>,
        handlers: Handlers,
    ) -> Result<(), ValidationError> {
        self.bridge.borrow_mut().set_tools(tools)?;
        *self.handlers.borrow_mut() = handlers;
        Ok(())
    }

    pub(crate) fn closed(self: &Rc<Self>) {
        self.bridge.borrow_mut().closed(now());
        self.drain();
    }

    fn finish(self: &Rc<Self>, call_id: &str, returned: Returned) {
        self.bridge.borrow_mut().finish(call_id, returned, now());
        self.drain();
    }

    /// Carries out every output, then re-arms the timer ([`guards::drain`]).
    pub(crate) fn drain(self: &Rc<Self>) {
        guards::drain(self);
    }
}

impl Pumped for Shared {
    type Output = WsOutput;

    fn pump(&self) -> &Pump {
        &self.pump
    }

    fn poll_output(&self) -> Option<WsOutput> {
        self.bridge.borrow_mut().poll_output()
    }

    fn next_deadline(&self) -> Option<Instant> {
        self.bridge.borrow().next_deadline()
    }

    fn handle_timeout(&self, now: Instant) {
        self.bridge.borrow_mut().handle_timeout(now);
    }

    fn carry_out(self: &Rc<Self>, out: WsOutput) {
        match out {
            WsOutput::Send { text, call_id } => {
                let sent = match &self.sender {
                    Sender::App(send) => send(&text),
                    // A closing socket drops a frame without an error: say so.
                    // `readyState` 1 is `WebSocket.OPEN`.
                    Sender::Socket(ws) if crate::js::number_prop(ws, "readyState") != 1.0 => {
                        Err("the socket is not open".to_owned())
                    }
                    Sender::Socket(ws) => {
                        (crate::js::call_method(ws, "send", &[&JsValue::from_str(&text)]))
                            .map(drop)
                            .map_err(|e| crate::js::error_text(&e))
                    }
                };
                if let Err(e) = sent {
                    let reason = format!("send failed: {e}");
                    tell(&self.on_call, &WsCallEvent::SendFailed { call_id, reason });
                }
            }
            WsOutput::Run {
                call_id,
                run_id,
                tool,
                arguments,
                deadline,
            } => self.run_handler(call_id, run_id, tool, arguments, deadline),
            WsOutput::Abort { call_id, reason } => self.calls.abort(&call_id, &reason),
            WsOutput::Call(event) => {
                match &event {
                    WsCallEvent::Answered { call_id, .. } => {
                        // After the result frame left (or, with none wanted, once answered).
                        for f in self.calls.end(call_id) {
                            f();
                        }
                    }
                    WsCallEvent::Failed { call_id, .. } => drop(self.calls.end(call_id)),
                    _ => {}
                }
                tell(&self.on_call, &event);
            }
        }
    }
}

impl Shared {
    fn run_handler(
        self: &Rc<Self>,
        call_id: String,
        run_id: String,
        tool: String,
        arguments: serde_json::Map<String, serde_json::Value>,
        deadline: Instant,
    ) {
        let handler = (self.handlers.borrow().iter())
            .find(|(name, _)| *name == tool)
            .map(|(_, f)| f.clone());
        let Some(handler) = handler else {
            // The runtime admits only tools on offer, and each has a handler: not reached
            // unless `setTools` raced this call; answered, never lost.
            let mut held: Vec<String> = Vec::new();
            for (name, _) in self.handlers.borrow().iter() {
                held.push(name.clone());
            }
            return self.finish(&call_id, client_tools_core::calls::no_handler(&tool, &held));
        };
        let shared = self.clone();
        let id = call_id.clone();
        let done = move |returned| shared.finish(&id, returned);
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
}

/// Tells the app's `onCall` (the JS face's conversion keeps a throwing callback from
/// stopping the bridge).
fn tell(on_call: &OnCall, event: &WsCallEvent) {
    if let Some(f) = on_call {
        f(event);
    }
}
