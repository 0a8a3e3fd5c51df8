//! The options a JS app passes (`Client.register`, a tool definition, `setTools`) as serde
//! types, read by `read::object` into the Rust API's [`Options`] and [`Tool`]s (a JS handler
//! wrapped as a Rust one). Every mistake is an error that names the option: `tools[2].handler:
//! must be a function, got undefined`. Their TypeScript is `client.d.ts` (`ClientOptions`,
//! `ToolDefinition`), checked against these types by `tests/dts.rs`.

use super::read::{self, Any, Count, Flag, Js, Text};
use crate::api::options::{BrowserOptions, Options};
use crate::api::tool::Tool;
use crate::engine::WhenHidden;
use crate::js::describe;
use crate::protocol::{FromJson, Lifetime};
use js_sys::Function;
use serde::Deserialize;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// The options of `Client.register`, in the order their mistakes are told.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClientOptions {
    base_url: Text,
    session_id: Text,
    /// A string, or a function that gives one (read by `js_api::client`).
    token: Any,
    name: Option<Text>,
    lifetime: Option<Any>,
    when_hidden: Option<Text>,
    /// An array of tool definitions or a `ToolRegistry` (read by `tools`).
    #[allow(dead_code)]
    tools: Option<Any>,
    register_timeout_ms: Option<Count>,
    request_timeout_ms: Option<Count>,
    stream_idle_timeout_ms: Option<Count>,
    on_status: Option<Js<Function>>,
    on_call: Option<Js<Function>>,
    signal: Option<Js<web_sys::AbortSignal>>,
    share_stream: Option<Flag>,
    fetch: Option<Js<Function>>,
}

/// A tool definition, as `Client.register`'s `tools`, `setTools` and the registry take it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolDefinition {
    name: Text,
    description: Option<Text>,
    /// A JSON Schema object, as JSON (`JSON.stringify`, so `toJSON` and the like count).
    parameters: Option<Any>,
    timeout_ms: Option<Count>,
    max_calls_per_run: Option<Count>,
    assert_formats: Option<Flag>,
    /// WebMCP's (`exposeToWebMCP` passes them to `registerTool`).
    annotations: Option<Any>,
    /// Voice agents' (`WsTools`): whether the agent waits for the result (default true).
    expects_response: Option<Flag>,
    handler: Js<Function>,
}

/// The options of `exposeToWebMCP` (`WebMCPOptions`).
#[cfg(feature = "webmcp")]
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WebMcpOptions {
    pub(crate) signal: Option<Js<web_sys::AbortSignal>>,
    pub(crate) prefix: Option<Text>,
}

/// The options of `new TurnTools` (`TurnToolsOptions`).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TurnToolsOptions {
    pub(crate) on_call: Option<Js<Function>>,
    pub(crate) run_id: Option<Text>,
}

/// The options of `WsTools.attach` (`WsAttachOptions`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WsAttachOptions {
    /// `"cartesia"`, `"elevenlabs"` or `"openai-realtime"` (read by `ws`, which names them).
    pub(crate) dialect: Any,
    /// An array of tool definitions or a `ToolRegistry`.
    pub(crate) tools: Option<Any>,
    pub(crate) on_call: Option<Js<Function>>,
    /// `"auto"` or `"never"` (read by `ws`, which names them).
    pub(crate) respond_after_result: Option<Any>,
}

/// The options of `new WsTools` (`WsToolsOptions`): `attach`'s and the app's `send`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WsToolsOptions {
    pub(crate) dialect: Any,
    pub(crate) tools: Option<Any>,
    pub(crate) on_call: Option<Js<Function>>,
    pub(crate) respond_after_result: Option<Any>,
    pub(crate) send: Js<Function>,
}

/// `{at}{key}: must be what, got …`: an option of the wrong kind, named by its path.
fn wrong(at: &str, key: &str, what: &str, v: &JsValue) -> String {
    format!("{at}{key}: must be {what}, got {}", describe(v))
}

/// A required string that must not be empty.
fn not_empty(s: String, key: &str) -> Result<String, String> {
    if s.is_empty() {
        return Err(format!("{key}: must not be empty"));
    }
    Ok(s)
}

/// A JS value as JSON text: `JSON.stringify`, with its failure named (a throw, or a value
/// with no JSON form: a function, a symbol, `undefined`).
fn json_text(v: &JsValue, field: &str) -> Result<String, String> {
    let text = js_sys::JSON::stringify(v).map_err(|e| {
        format!(
            "{field}: cannot be written as JSON ({})",
            crate::js::error_text(&e)
        )
    })?;
    text.as_string().ok_or_else(|| {
        format!(
            "{field}: must be a JSON object, got {}, which has no JSON form",
            describe(v)
        )
    })
}

/// A JS value as JSON, for serde: `JSON.stringify`, then parsed, with its failure named. A
/// string is taken as it is (what the round trip gives back), copied into the module once
/// instead of four times.
fn to_json(v: &JsValue, field: &str) -> Result<serde_json::Value, String> {
    if let Some(s) = v.as_string() {
        return Ok(serde_json::Value::String(s));
    }
    let text = json_text(v, field)?;
    client_tools_core::json::parse(&text).map_err(|e| format!("{field}: not JSON ({e})"))
}

/// Reads one tool definition at `tools[i]`.
fn tool(v: &JsValue, i: usize) -> Result<Tool, String> {
    let at = format!("tools[{i}].");
    let d: ToolDefinition = read::object(v, &at)?;
    let parameters = match d.parameters {
        None => None,
        Some(Any(p)) => Some(to_json(&p, &format!("{at}parameters"))?),
    };
    let annotations = match d.annotations {
        None => None,
        Some(Any(a)) if a.is_object() && !a.is_function() => {
            Some(json_text(&a, &format!("{at}annotations"))?)
        }
        Some(Any(a)) => return Err(wrong(&at, "annotations", "an object", &a)),
    };
    let mut tool = Tool::from_handler(
        d.name.0,
        d.description.map(|d| d.0).unwrap_or_default(),
        super::handler::from_function(d.handler.0),
    );
    let parts = tool.parts_mut();
    parts.annotations = annotations;
    parts.expects_response = d.expects_response.is_none_or(|f| f.0);
    parts.def.spec.parameters = parameters;
    parts.def.timeout_ms = d.timeout_ms.map(|n| n.0);
    parts.def.max_calls_per_run = d.max_calls_per_run.map(|n| n.0.min(u32::MAX as u64) as u32);
    parts.def.assert_formats = d.assert_formats.is_some_and(|f| f.0);
    Ok(tool)
}

/// Reads a tool list (`tools` of `Client.register`, or the argument of `setTools`), in the
/// list's order.
pub(crate) fn tools(v: &JsValue, field: &str) -> Result<Vec<Tool>, String> {
    let mut tools = Vec::new();
    if v.is_undefined() || v.is_null() {
        return Ok(tools);
    }
    if !crate::js::is_array(v) {
        return Err(wrong("", field, "an array of tools", v));
    }
    // Read once into a plain array: a Proxy's traps run here, where a throw is caught.
    let arr = crate::js::to_array(v)
        .map_err(|e| format!("{field}: cannot be read ({})", crate::js::error_text(&e)))?;
    for (i, t) in arr.iter().enumerate() {
        tools.push(tool(&t, i)?);
    }
    Ok(tools)
}

/// Reads `Client.register`'s options, checking them in the order a JS app has always been
/// told of its first mistake. `tools_list` is `v.tools` as a list (a registry's definitions,
/// or the array as it is); `token`, when `v.token` is a function, the first token it gave.
pub(crate) fn register(
    v: &JsValue,
    tools_list: &JsValue,
    token: Option<String>,
) -> Result<Options, String> {
    let o: ClientOptions = read::object(v, "")?;
    let base_url = not_empty(o.base_url.0, "baseUrl")?;
    let session_id = not_empty(o.session_id.0, "sessionId")?;
    let token = match token {
        Some(token) => token,
        None => match o.token.0.as_string() {
            Some(t) => not_empty(t, "token")?,
            None => return Err(wrong("", "token", "a string", &o.token.0)),
        },
    };
    client_tools_core::engine::check_token(&token)
        .map_err(|e| client_tools_core::api::Error::from(e).to_string())?;
    let mut options = Options::new(base_url, session_id, token);
    if let Some(name) = o.name {
        options = options.name(name.0);
    }
    if let Some(Flag(share)) = o.share_stream {
        options = options.share_stream(share);
    }
    if let Some(Any(l)) = o.lifetime {
        let lifetime = Lifetime::from_value(&to_json(&l, "lifetime")?).map_err(|_| {
            "lifetime: must be { type: \"never\" } or { type: \"ttl\", data: { seconds: N } }"
                .to_owned()
        })?;
        options = options.lifetime(lifetime);
    }
    if let Some(Text(w)) = o.when_hidden {
        options = options.when_hidden(WhenHidden::parse(&w).map_err(|e| e.to_string())?);
    }
    options = options.tools(tools(tools_list, "tools")?);
    // The limits the engine checks, before the options read below (as they always came).
    check(&options).map_err(|e| e.to_string())?;
    let ms = |n: Option<Count>| n.map(|n| Duration::from_millis(n.0));
    if let Some(d) = ms(o.register_timeout_ms) {
        options = options.register_timeout(d);
    }
    if let Some(d) = ms(o.stream_idle_timeout_ms) {
        options = options.stream_idle_timeout(d);
    }
    if let Some(d) = ms(o.request_timeout_ms) {
        options = options.request_timeout(d);
    }
    if let Some(Js(f)) = o.on_status {
        options = options.on_status(move |s| {
            crate::js::tell(Some(&f), &crate::browser::events::status(s));
        });
    }
    if let Some(Js(f)) = o.on_call {
        options =
            options.on_call(move |e| crate::js::tell(Some(&f), &crate::browser::events::call(e)));
    }
    if let Some(Js(fetch)) = o.fetch {
        options = options.fetch(fetch);
    }
    if let Some(Js(signal)) = o.signal {
        options = options.signal(signal);
    }
    Ok(options)
}

/// Checks the options as registering would, without registering (errors in the JS
/// spelling: the JS reader's order of checks).
fn check(options: &Options) -> Result<(), client_tools_core::api::Error> {
    let o = options.parts();
    let defs = o.tools.iter().map(|t| t.parts().def.clone()).collect();
    o.settings.config(defs, "check".into(), 0).map(drop)
}
