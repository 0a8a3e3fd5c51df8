//! The JS `Client`: `Client.register`, `setTools`, `leave` and the client's getters, over the
//! Rust [`crate::Client`]: options read from JS values, outcomes written back as JS values.

use crate::js::{self, JsRefCell};
use client_tools_core::api::ScopeId;
use client_tools_core::api::{Error, ErrorKind};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

/// A registration on a session, as JS holds it: the Rust [`crate::Client`] with its options
/// read from JS and its outcomes written back. Typed in `src/js_api/client.d.ts` (the
/// package's JS wraps it: see pkg-template/wrap.js).
#[wasm_bindgen(skip_typescript)]
pub struct Client {
    client: crate::Client,
    /// The first `leave()`'s promise, which a second call returns (the .d.ts promises the
    /// same promise; that every call gets the first one's outcome is `crate::Client::leave`'s).
    leaving: JsRefCell<Option<Promise>>,
}

impl Client {
    /// The key `exposeToWebMCP` finds this client by.
    fn key(&self) -> usize {
        self.client.shared.key()
    }
}

/// A promise rejected with the SDK's `Error` for `e` (its code, and its message naming the
/// option in the JS spelling).
fn rejected(e: &Error) -> Promise {
    Promise::reject(&js::error(e.kind(), &e.to_string()))
}

/// A client freed by JS (`free()`, or collected once nothing refers to it) leaves, as a
/// dropped Rust client does; `exposeToWebMCP` stops finding it.
#[cfg(feature = "webmcp")]
impl Drop for Client {
    fn drop(&mut self) {
        crate::exposure::forget_client(self.key());
    }
}

impl Client {
    /// The rest of `Client.register`, once the options are read: registers, and wraps the
    /// client for JS.
    async fn finish_register(opts: crate::Options) -> Result<JsValue, JsValue> {
        let signal = opts.parts().extra.signal.clone();
        match crate::Client::register_js_spelled(opts).await {
            Ok(client) => {
                #[cfg(feature = "webmcp")]
                let followed = crate::exposure::Followed::new(&client.shared);
                let client = Client {
                    client,
                    leaving: JsRefCell::new(None),
                };
                #[cfg(feature = "webmcp")]
                let key = client.key();
                let client = JsValue::from(client);
                #[cfg(feature = "webmcp")]
                crate::exposure::track_client(&client, key, followed);
                Ok(client)
            }
            // The signal's own reason, as a JS `await` of an aborted fetch rejects.
            Err(e) if e.kind() == ErrorKind::Aborted => Err(signal
                .map(|s| js::get(&s, "reason"))
                .unwrap_or_else(|| js::error(e.kind(), &e.to_string()))),
            Err(e) => Err(js::error(e.kind(), &e.to_string())),
        }
    }
}

/// Calls the app's token function (`token` given as one) and awaits a string from it.
async fn fresh_token(source: &Function) -> Result<String, String> {
    let token = js::promise::call_hook(source, &JsValue::UNDEFINED)
        .await
        .map_err(|e| format!("the token function failed: {e}"))?;
    token.as_string().ok_or_else(|| {
        format!(
            "the token function gave {}, not a string",
            js::describe(&token)
        )
    })
}

#[wasm_bindgen]
impl Client {
    /// Registers on the session and starts answering calls. Resolves once the server took
    /// the registration; rejects with an `Error` naming the option that is wrong, with the
    /// server's refusal (a bad token, a full session), when `registerTimeoutMs` (30 s) pass
    /// without a registration (the server unreachable, or answering 5xx), or with the
    /// signal's reason when it aborts first.
    pub fn register(options: JsValue) -> Promise {
        // `tools` may be a registry: its definitions are the list.
        let tools = crate::js_api::registry::tool_list(&js::get(&options, "tools"));
        let source = js::get(&options, "token");
        if source.is_function() {
            // The first token comes from the function; the options are read once it came.
            let source: Function = source.unchecked_into();
            return js::promise::from_future(Box::pin(async move {
                let first = fresh_token(&source)
                    .await
                    .map_err(|why| js::error(ErrorKind::Unauthorized, &why))?;
                let opts = crate::js_api::options::register(&options, &tools, Some(first))
                    .map_err(|message| js::invalid(&message))?
                    .token_source(move || {
                        let source = source.clone();
                        async move { fresh_token(&source).await }
                    });
                Client::finish_register(opts).await
            }));
        }
        let opts = match crate::js_api::options::register(&options, &tools, None) {
            Ok(o) => o,
            Err(message) => return Promise::reject(&js::invalid(&message)),
        };
        js::promise::from_future(Box::pin(Client::finish_register(opts)))
    }

    /// The client id the server gave (`cli_…`).
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> Option<String> {
        self.client.id()
    }

    /// The name the client got: the one asked for, or with a counter appended (`web-2`).
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> Option<String> {
        self.client.name()
    }

    /// When the registration runs out unless pinged; `null` for a `never` lifetime.
    #[wasm_bindgen(getter, js_name = expiresAt)]
    pub fn expires_at(&self) -> JsValue {
        match self.client.shared.engine().expiry() {
            Some(at) => js_sys::Date::new(&JsValue::from_f64(at.as_ms() as f64)).into(),
            None => JsValue::NULL,
        }
    }

    /// `"registering"`, `"registered"`, `"left"` or `"failed"`.
    #[wasm_bindgen(getter)]
    pub fn state(&self) -> String {
        self.client.state().as_str().to_owned()
    }

    /// Replaces the tools on offer (a `PUT`): a tool left out is no longer offered. Results of
    /// calls in progress wait until the server has the new list, so a call that changed the
    /// screen is answered after the new screen's tools are declared. Rejects with an `Error`
    /// naming a bad tool (`tools[1].name: …`), or when the server refuses the list.
    #[wasm_bindgen(js_name = setTools)]
    pub fn set_tools(&self, tools: JsValue) -> Promise {
        let list = crate::js_api::registry::tool_list(&tools);
        let tools = match crate::js_api::options::tools(&list, "tools") {
            Ok(t) => t,
            Err(message) => return Promise::reject(&js::invalid(&message)),
        };
        let pending = match self.client.begin_set_tools(tools) {
            Ok(p) => p,
            Err(e) => return rejected(&e),
        };
        settle(pending, Some(self.key()))
    }

    /// The tool scopes of api.js's `ToolScope`, in one export (less .wasm than three): `n` 0
    /// opens a scope of `tools` and returns its number (throwing an `invalid_option` naming the
    /// bad tool or the scope's tools); `tools` undefined releases scope `n`; else scope `n`'s
    /// tools are replaced, and the promise settles once the server has the union.
    pub fn scope(&self, n: u32, tools: JsValue) -> Result<JsValue, JsValue> {
        let shared = &self.client.shared;
        let id = ScopeId::from_raw(n.into());
        if tools.is_undefined() {
            shared.release_scope(id);
            return Ok(JsValue::UNDEFINED);
        }
        let tools = crate::js_api::options::tools(&tools, "tools").map_err(|m| js::invalid(&m))?;
        if n == 0 {
            // By number, not a `ToolScope` each: the JS `ToolScope` releases it.
            return match shared.open_scope(tools) {
                Ok(id) => Ok(JsValue::from_f64(id.to_raw() as f64)),
                Err(e) => Err(js::error(e.kind(), &e.to_string())),
            };
        }
        Ok(match shared.update_scope(id, tools) {
            Ok(pending) => settle(pending, Some(self.key())),
            Err(e) => rejected(&e),
        }
        .into())
    }

    /// Leaves the session (a `DELETE`): frees the name; calls still owed fail on the server
    /// with `client_gone` and their handlers' signals abort. The client is done for good; a
    /// client that stopped on an error has nothing to leave, and resolves at once. Calling it
    /// again returns the first call's promise.
    pub fn leave(&self) -> Promise {
        if let Some(p) = self.leaving.borrow().as_ref() {
            return p.clone();
        }
        #[cfg(feature = "webmcp")]
        crate::exposure::forget_client(self.key());
        let promise = settle(self.client.begin_leave(), None);
        *self.leaving.borrow_mut() = Some(promise.clone());
        promise
    }
}

/// The promise of an op: resolved once the server answered, rejected with the SDK's `Error`.
/// Settles once the server has the request, and for a change of tools (`tools_of`: the
/// client's key) once every `exposeToWebMCP` following the client has registered them too.
fn settle(pending: crate::api::client::Pending, tools_of: Option<usize>) -> Promise {
    js::promise::from_future(Box::pin(async move {
        match crate::api::client::settled(pending).await {
            Ok(()) => {
                #[cfg(feature = "webmcp")]
                if let Some(key) = tools_of {
                    crate::exposure::registered(key).await;
                }
                #[cfg(not(feature = "webmcp"))]
                let _ = tools_of;
                Ok(JsValue::UNDEFINED)
            }
            Err(e) => Err(js::error(e.kind(), &e.to_string())),
        }
    }))
}
