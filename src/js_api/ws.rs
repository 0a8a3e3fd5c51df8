//! `WsTools`: client tools over a voice agent's WebSocket (Cartesia, ElevenLabs, OpenAI
//! Realtime). The SDK never owns the socket: the app feeds it frames (`receive`) and gives
//! it a way to send (`send`), or lets `WsTools.attach` listen on the socket itself.

use crate::js_api::options::{self, WsAttachOptions, WsToolsOptions};
use crate::js_api::read;
use crate::ws::{Handlers, OnCall, Sender, Shared};
use client_tools_core::adapters::ws::{Dialect, RespondAfterResult, WsBridge, WsCallEvent, WsTool};
use js_sys::{Array, Function};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::WebSocket;

#[wasm_bindgen(module = "/src/snippets.js")]
extern "C" {
    /// The test of a message's data for `markers` (the dialect's `Dialect::markers`), in JS.
    #[wasm_bindgen(js_name = frameTest)]
    fn frame_test(markers: &Array) -> Function;
    /// What puts `test` in front of a `message` listener: only the events whose data pass
    /// reach it (enter the module).
    #[wasm_bindgen(js_name = frameFront)]
    fn frame_front(test: &Function) -> Function;
}

/// Client tools over a voice agent's WebSocket. Each call id is answered once (results
/// within the platform's limits), arguments are checked before a handler runs, and
/// `timeoutMs` / `maxCallsPerRun` (per connection) hold.
#[wasm_bindgen]
pub struct WsTools {
    shared: Rc<Shared>,
}

/// A bad option, as an `Error` with the code `invalid_option`.
fn error(message: &str) -> JsValue {
    crate::js::error(client_tools_core::api::ErrorKind::InvalidOption, message)
}

/// The tools and their handlers, from `ToolDefinition[]` (with `expectsResponse`) or a
/// `ToolRegistry`.
fn read_tools(v: &JsValue) -> Result<(Vec<WsTool>, Handlers), String> {
    let read = options::tools(&crate::js_api::registry::tool_list(v), "tools")?;
    let mut tools = Vec::with_capacity(read.len());
    let mut handlers = Vec::with_capacity(read.len());
    for t in read {
        let t = t.into_parts();
        handlers.push((t.def.spec.name.clone(), t.handler));
        tools.push(WsTool {
            def: t.def,
            expects_response: t.expects_response,
        });
    }
    Ok((tools, handlers))
}

/// Reads the options of `new WsTools` (with the app's `send`) or of `WsTools.attach` (which
/// sends on `socket`) into a bridge.
fn open(options: &JsValue, socket: Option<WebSocket>) -> Result<Rc<Shared>, String> {
    let (o, sender) = match socket {
        Some(ws) => {
            let o: WsAttachOptions = read::object(options, "")?;
            (o, Sender::Socket(ws))
        }
        None => {
            let o: WsToolsOptions = read::object(options, "")?;
            let attach = WsAttachOptions {
                dialect: o.dialect,
                tools: o.tools,
                on_call: o.on_call,
                respond_after_result: o.respond_after_result,
            };
            let send = o.send.0;
            let send = move |text: &str| {
                (crate::js::call(&send, &[&JsValue::from_str(text)]))
                    .map(drop)
                    .map_err(|e| crate::js::error_text(&e))
            };
            (attach, Sender::App(Box::new(send)))
        }
    };
    let dialect = o
        .dialect
        .0
        .as_string()
        .ok_or("dialect: must be \"cartesia\", \"elevenlabs\" or \"openai-realtime\"")?;
    let dialect = Dialect::parse(&dialect)?;
    let respond = match o.respond_after_result.map(|r| r.0.as_string()) {
        None => RespondAfterResult::Auto,
        Some(Some(r)) if r == "auto" => RespondAfterResult::Auto,
        Some(Some(r)) if r == "never" => RespondAfterResult::Never,
        Some(_) => return Err("respondAfterResult: must be \"auto\" or \"never\"".to_owned()),
    };
    let tools = o.tools.map_or(JsValue::UNDEFINED, |t| t.0);
    let (tools, handlers) = read_tools(&tools)?;
    let mut bridge = WsBridge::new(dialect, respond);
    bridge.set_tools(tools).map_err(|e| e.to_string())?;
    // `onCall` gets each event as a plain object; what it throws stays in JS.
    let on_call: OnCall = o.on_call.map(|f| {
        let f = f.0;
        Box::new(move |event: &WsCallEvent| {
            crate::js::tell(Some(&f), &crate::browser::events::ws_call(event))
        }) as Box<dyn Fn(&WsCallEvent)>
    });
    Ok(Shared::new(bridge, handlers, sender, on_call))
}

/// The frame test of `dialect` (src/snippets.js over its markers).
fn dialect_test(dialect: Dialect) -> Function {
    let markers = Array::new();
    for m in dialect.markers() {
        markers.push(&JsValue::from_str(m));
    }
    frame_test(&markers)
}

/// The frame test of a WsTools of `dialect` (its `dialect` getter's name): pkg-template/guards.js
/// runs it on `receive`'s data, in JS, and enters the module only for a frame that passes;
/// `undefined` for a name that is no dialect. Internal: the package does not export it.
#[wasm_bindgen(js_name = wsFrameTest, skip_typescript)]
pub fn ws_frame_test(dialect: &str) -> Option<Function> {
    Dialect::parse(dialect).ok().map(dialect_test)
}

#[wasm_bindgen]
impl WsTools {
    /// A bridge for the app's socket: hand it every message's data with `receive`, and call
    /// `closed` when the socket closes. Throws an `Error` naming a bad option
    /// (`dialect: …`, `send: must be a function`, `tools[1].name: …`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "WsToolsOptions")] options: JsValue,
    ) -> Result<WsTools, JsValue> {
        let shared = open(&options, None).map_err(|m| error(&m))?;
        Ok(WsTools { shared })
    }

    /// A bridge listening on `ws` itself: its `message` and `close` listeners are removed when
    /// the socket closes or on `detach()`, and keep the bridge alive until then. Throws like
    /// the constructor.
    pub fn attach(
        #[wasm_bindgen(unchecked_param_type = "WebSocket")] ws: JsValue,
        #[wasm_bindgen(unchecked_param_type = "WsAttachOptions")] options: JsValue,
    ) -> Result<WsTools, JsValue> {
        if !crate::js::is_a(&ws, "WebSocket") {
            return Err(error(&format!(
                "socket: must be a WebSocket, got {}",
                crate::js::describe(&ws)
            )));
        }
        let ws: WebSocket = ws.unchecked_into();
        let shared = open(&options, Some(ws.clone())).map_err(|m| error(&m))?;
        // Only the messages that pass the frame test, in JS, enter the module.
        let test = dialect_test(shared.bridge.borrow().dialect());
        shared.listen(&ws, Some(&frame_front(&test)));
        Ok(WsTools { shared })
    }

    /// One message's data (`event.data`). True when it was a tool call (answered, or being
    /// run); false for any other frame, binary frames included, which are left alone (a text
    /// frame without the dialect's markers is left alone in JS, without entering the module).
    pub fn receive(&self, #[wasm_bindgen(unchecked_param_type = "unknown")] data: JsValue) -> bool {
        self.shared.receive(&data)
    }

    /// The socket closed: every running handler's `ctx.signal` aborts and its result is
    /// dropped (none of these protocols resumes a call). The bridge may serve a new socket
    /// afterwards, with fresh per-connection counts.
    pub fn closed(&self) {
        self.shared.closed();
    }

    /// Stops listening on the socket of `WsTools.attach` (running calls go on and are answered).
    pub fn detach(&self) {
        self.shared.detach();
    }

    /// Replaces the tools on offer; running calls go on. Throws an `Error` naming a bad tool.
    #[wasm_bindgen(js_name = setTools)]
    pub fn set_tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "WsToolDefinition[] | ToolRegistry")] tools: JsValue,
    ) -> Result<(), JsValue> {
        let (tools, handlers) = read_tools(&tools).map_err(|m| error(&m))?;
        (self.shared.set_tools(tools, handlers)).map_err(|e| error(&e.to_string()))
    }

    /// The tools as the platform's configuration wants them: Cartesia's and ElevenLabs'
    /// `{ type: "client", name, description, parameters, expects_response }`, OpenAI's
    /// `{ type: "function", name, description, parameters }`.
    #[wasm_bindgen(unchecked_return_type = "JsonObject[]")]
    pub fn declarations(&self) -> JsValue {
        let text = client_tools_core::json::json_text(&self.shared.bridge.borrow().declarations());
        js_sys::JSON::parse(&text).unwrap_or_else(|_| Array::new().into())
    }

    /// The dialect's name.
    #[wasm_bindgen(getter, unchecked_return_type = "WsDialect")]
    pub fn dialect(&self) -> String {
        self.shared.bridge.borrow().dialect().as_str().to_owned()
    }
}
