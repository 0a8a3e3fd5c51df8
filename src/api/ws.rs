//! `client_tools::WsTools`, the Rust face of the JS `WsTools`: client tools over a voice agent's
//! WebSocket (Cartesia, ElevenLabs, OpenAI Realtime), run by the same bridge (`crate::ws`,
//! which the JS class runs on too).

use super::Tool;
use crate::ws::{Handlers, OnCall, Sender, Shared};
use client_tools_core::adapters::ws::{Dialect, RespondAfterResult, WsBridge, WsCallEvent, WsTool};
use client_tools_core::api::Error;
use client_tools_core::engine::validate_tool_refs;
use client_tools_core::protocol::validate::ValidationError;
use serde_json::Value;
use std::rc::Rc;
use web_sys::WebSocket;

/// What [`WsTools::new`] and [`WsTools::attach`] need: the platform's dialect and the tools,
/// and optionally an `on_call` and whether to ask for a response after a result. The JS
/// `WsToolsOptions` / `WsAttachOptions`, less `send` (an argument of [`WsTools::new`]).
pub struct WsOptions {
    dialect: Dialect,
    tools: Vec<Tool>,
    on_call: OnCall,
    respond_after_result: RespondAfterResult,
}

impl WsOptions {
    /// The tools a socket of `dialect` is served. A tool's
    /// [`expects_response`](client_tools_core::api::Tool::expects_response) is declared to
    /// Cartesia and ElevenLabs.
    pub fn new(dialect: Dialect, tools: Vec<Tool>) -> WsOptions {
        WsOptions {
            dialect,
            tools,
            on_call: None,
            respond_after_result: RespondAfterResult::Auto,
        }
    }

    /// Told how each call is doing: dispatched, answered, failed (the socket closed while its
    /// handler ran, or a send failed) or malformed. The JS `onCall`.
    pub fn on_call(mut self, on_call: impl Fn(&WsCallEvent) + 'static) -> WsOptions {
        self.on_call = Some(Box::new(on_call));
        self
    }

    /// OpenAI Realtime: whether the bridge asks the model to answer once a call's output is
    /// sent ([`RespondAfterResult::Auto`], the default) or leaves that to the app.
    pub fn respond_after_result(mut self, respond: RespondAfterResult) -> WsOptions {
        self.respond_after_result = respond;
        self
    }
}

/// Client tools over a voice agent's WebSocket, the JS `WsTools` with the same meaning: each
/// call id is answered once (results within the platform's limits), arguments are checked
/// before a handler runs, and a tool's timeout and `max_calls_per_run` (per connection) hold.
/// The SDK never owns the socket: [`WsTools::attach`] listens on it until the socket closes or
/// the `WsTools` is dropped; with [`WsTools::new`] the app hands it each frame
/// ([`WsTools::receive`]) and sends what it is given. A running call goes on after either and
/// is answered.
///
/// ```no_run
/// use client_tools::{Dialect, Tool, WsCallEvent, WsOptions, WsTools};
///
/// fn serve(socket: &web_sys::WebSocket) -> Result<WsTools, client_tools::Error> {
///     let tools = vec![Tool::new("highlight_row", "Highlight a row.", |args, _ctx| async move {
///         format!("Row {} is highlighted.", args["row_id"])
///     })];
///     // The declarations the platform's agent configuration wants, as JSON.
///     let options = WsOptions::new(Dialect::OpenAiRealtime, tools).on_call(|event| {
///         if let WsCallEvent::Answered { tool, elapsed_ms, .. } = event {
///             let _ = (tool, elapsed_ms); // e.g. the app's own metrics
///         }
///     });
///     let voice = WsTools::attach(socket, options)?;
///     let _session_update_tools = voice.declarations();
///     Ok(voice) // keep it: dropped, it stops listening
/// }
/// ```
pub struct WsTools {
    shared: Rc<Shared>,
}

impl WsTools {
    /// A bridge for a socket the app reads: hand it every text frame with
    /// [`WsTools::receive`] and call [`WsTools::closed`] when the socket closes. `send` sends
    /// one frame, failing with the reason (told to `on_call` as `send failed: …`). Fails naming
    /// a bad tool (`tools[1].name: …`, `tools[0].timeout: 0 ms, must be at least 1`).
    pub fn new(
        options: WsOptions,
        send: impl Fn(&str) -> Result<(), String> + 'static,
    ) -> Result<WsTools, Error> {
        let shared = open(options, Sender::App(Box::new(send)))?;
        Ok(WsTools { shared })
    }

    /// A bridge listening on `socket` itself, until the socket closes or the returned
    /// `WsTools` is dropped (it sends on `socket`). Fails like [`WsTools::new`].
    pub fn attach(socket: &WebSocket, options: WsOptions) -> Result<WsTools, Error> {
        let shared = open(options, Sender::Socket(socket.clone()))?;
        shared.listen(socket, None);
        Ok(WsTools { shared })
    }

    /// One text frame from the socket. True when it was a tool call (answered, or being run);
    /// false for any other frame, which is left alone.
    pub fn receive(&self, text: &str) -> bool {
        self.shared.receive_text(text)
    }

    /// The socket closed: every running handler's signal aborts and its result is dropped
    /// (none of these protocols resumes a call). The bridge may serve a new socket
    /// afterwards, with fresh per-connection counts.
    pub fn closed(&self) {
        self.shared.closed();
    }

    /// Replaces the tools on offer; running calls go on. Fails naming a bad tool.
    pub fn set_tools(&self, tools: Vec<Tool>) -> Result<(), Error> {
        let (tools, handlers) = read(tools)?;
        (self.shared.set_tools(tools, handlers)).map_err(rust_error)
    }

    /// The tools as the platform's configuration wants them: Cartesia's and ElevenLabs'
    /// `{"type": "client", name, description, parameters, expects_response}`, OpenAI's
    /// `{"type": "function", name, description, parameters}`.
    pub fn declarations(&self) -> Value {
        self.shared.bridge.borrow().declarations()
    }

    /// The dialect the socket speaks.
    pub fn dialect(&self) -> Dialect {
        self.shared.bridge.borrow().dialect()
    }
}

impl Drop for WsTools {
    /// Stops listening on the socket of [`WsTools::attach`]; running calls go on and are
    /// answered.
    fn drop(&mut self) {
        self.shared.detach();
    }
}

/// The bridge of `options`, sending with `sender`.
fn open(options: WsOptions, sender: Sender) -> Result<Rc<Shared>, Error> {
    let (tools, handlers) = read(options.tools)?;
    let mut bridge = WsBridge::new(options.dialect, options.respond_after_result);
    bridge.set_tools(tools).map_err(rust_error)?;
    Ok(Shared::new(bridge, handlers, sender, options.on_call))
}

/// The bridge's tools and their handlers, checked as every transport checks a tool list.
fn read(tools: Vec<Tool>) -> Result<(Vec<WsTool>, Handlers), Error> {
    let parts: Vec<_> = tools.into_iter().map(Tool::into_parts).collect();
    validate_tool_refs(&parts.iter().map(|p| &p.def).collect::<Vec<_>>()).map_err(rust_error)?;
    Ok(parts
        .into_iter()
        .map(|p| {
            let name = p.def.spec.name.clone();
            let tool = WsTool {
                def: p.def,
                expects_response: p.expects_response,
            };
            (tool, (name, p.handler))
        })
        .unzip())
}

/// A refused tool list, its field in the Rust builders' spelling.
fn rust_error(e: ValidationError) -> Error {
    Error::from(e).in_rust_spelling()
}
