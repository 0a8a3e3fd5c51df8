//! Reading the options a JS app passes (`Client.register`, `setTools`) into the Rust API's
//! [`Options`] and [`Tool`]s (a JS handler wrapped as a Rust one). Every mistake is an error that names the option: `tools[2].handler: must be a
//! function`.

use crate::api::options::{BrowserOptions, Options};
use crate::api::tool::Tool;
use crate::engine::WhenHidden;
use crate::protocol::{FromJson, Lifetime};
use js_sys::Function;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};

/// The keys of `Client.register`'s options; any other is refused as a typo.
const REGISTER_KEYS: &[&str] = &[
    "baseUrl",
    "sessionId",
    "token",
    "name",
    "lifetime",
    "whenHidden",
    "tools",
    "registerTimeoutMs",
    "requestTimeoutMs",
    "streamIdleTimeoutMs",
    "onStatus",
    "onCall",
    "signal",
    "shareStream",
];

/// The keys of a tool definition.
const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "parameters",
    "timeoutMs",
    "maxCallsPerRun",
    "assertFormats",
    "annotations",
    // Read by `WsTools`: whether the voice agent waits for the result (default true).
    "expectsResponse",
    "handler",
];

use crate::js::{describe, get as prop, present};

/// `{at}{key}: must be what, got …`: an option of the wrong kind, named by its path (`at` is
/// `""` at the top level, `"tools[2]."` in a tool) and with what it was. The path is written
/// only here, when a message needs it.
fn wrong(at: &str, key: &str, what: &str, v: &JsValue) -> String {
    format!("{at}{key}: must be {what}, got {}", describe(v))
}

/// `v` as a string, or the message that it is not one.
fn string(v: JsValue, at: &str, key: &str) -> Result<String, String> {
    v.as_string().ok_or_else(|| wrong(at, key, "a string", &v))
}

fn required_string(obj: &JsValue, key: &str) -> Result<String, String> {
    let s = string(prop(obj, key), "", key)?;
    if s.is_empty() {
        return Err(format!("{key}: must not be empty"));
    }
    Ok(s)
}

fn optional_function(obj: &JsValue, at: &str, key: &str) -> Result<Option<Function>, String> {
    let Some(v) = present(obj, key) else {
        return Ok(None);
    };
    v.dyn_into::<Function>()
        .map(Some)
        .map_err(|v| wrong(at, key, "a function", &v))
}

fn optional_bool(obj: &JsValue, at: &str, key: &str) -> Result<Option<bool>, String> {
    let Some(v) = present(obj, key) else {
        return Ok(None);
    };
    v.as_bool()
        .map(Some)
        .ok_or_else(|| wrong(at, key, "a boolean", &v))
}

/// A whole number ≥ 1, or absent.
fn optional_count(obj: &JsValue, at: &str, key: &str) -> Result<Option<u64>, String> {
    let Some(v) = present(obj, key) else {
        return Ok(None);
    };
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && (1.0..=9.0e15).contains(&n) => Ok(Some(n as u64)),
        // The browser writes the number: Rust's float formatting would cost ~14 KB of wasm.
        Some(_) => Err(format!(
            "{at}{key}: must be a whole number of at least 1, got {}",
            js_sys::Number::from(v.clone())
                .to_string_with_radix(10)
                .map(String::from)
                .unwrap_or_default()
        )),
        None => Err(wrong(at, key, "a number", &v)),
    }
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
    if !v.is_object() || v.is_function() {
        return Err(wrong(&at[..at.len() - 1], "", "an object", v));
    }
    super::keys::check(v, TOOL_KEYS, &at)?;
    let name = string(prop(v, "name"), &at, "name")?;
    let description = match present(v, "description") {
        None => String::new(),
        Some(d) => string(d, &at, "description")?,
    };
    let parameters = match present(v, "parameters") {
        None => None,
        Some(p) => Some(to_json(&p, &format!("{at}parameters"))?),
    };
    let handler = optional_function(v, &at, "handler")?
        .ok_or_else(|| wrong(&at, "handler", "a function", &JsValue::UNDEFINED))?;
    let timeout_ms = optional_count(v, &at, "timeoutMs")?;
    let max_calls_per_run =
        optional_count(v, &at, "maxCallsPerRun")?.map(|n| n.min(u32::MAX as u64) as u32);
    let assert_formats = optional_bool(v, &at, "assertFormats")?.unwrap_or(false);
    // WebMCP's (`exposeToWebMCP` passes them to `registerTool`).
    let annotations = match present(v, "annotations") {
        None => None,
        Some(a) if a.is_object() && !a.is_function() => {
            Some(json_text(&a, &format!("{at}annotations"))?)
        }
        Some(a) => return Err(wrong(&at, "annotations", "an object", &a)),
    };
    // Voice agents' (`WsTools`): whether the agent waits for the result.
    let expects_response = optional_bool(v, &at, "expectsResponse")?.unwrap_or(true);
    let mut tool = Tool::from_handler(
        name,
        description,
        crate::js::handler::from_function(handler),
    );
    let parts = tool.parts_mut();
    parts.annotations = annotations;
    parts.expects_response = expects_response;
    parts.def.spec.parameters = parameters;
    parts.def.timeout_ms = timeout_ms;
    parts.def.max_calls_per_run = max_calls_per_run;
    parts.def.assert_formats = assert_formats;
    Ok(tool)
}

/// Checks the options as registering would, without registering (errors in the JS
/// spelling: the JS reader's order of checks).
fn check(options: &Options) -> Result<(), client_tools_core::api::Error> {
    let o = options.parts();
    let defs = o.tools.iter().map(|t| t.parts().def.clone()).collect();
    o.settings.config(defs, "check".into(), 0).map(drop)
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
    if !v.is_object() {
        return Err(wrong("", "options", "an object", v));
    }
    super::keys::check(v, REGISTER_KEYS, "")?;
    let base_url = required_string(v, "baseUrl")?;
    let session_id = required_string(v, "sessionId")?;
    let token = match token {
        Some(token) => token,
        None => required_string(v, "token")?,
    };
    client_tools_core::api::header_value(&token, "token").map_err(|e| e.to_string())?;
    let mut options = Options::new(base_url, session_id, token);
    match prop(v, "name") {
        n if n.is_undefined() => {}
        n => options = options.name(string(n, "", "name")?),
    }
    if let Some(share) = optional_bool(v, "", "shareStream")? {
        options = options.share_stream(share);
    }
    if let Some(l) = present(v, "lifetime") {
        let lifetime = Lifetime::from_value(&to_json(&l, "lifetime")?).map_err(|_| {
            "lifetime: must be { type: \"never\" } or { type: \"ttl\", data: { seconds: N } }"
                .to_owned()
        })?;
        options = options.lifetime(lifetime);
    }
    if let Some(w) = present(v, "whenHidden") {
        let s = string(w, "", "whenHidden")?;
        options = options.when_hidden(WhenHidden::parse(&s).map_err(|e| e.to_string())?);
    }
    options = options.tools(tools(tools_list, "tools")?);
    // The limits the engine checks, before the options read below (as they always came).
    check(&options).map_err(|e| e.to_string())?;
    let ms = |key| optional_count(v, "", key).map(|n| n.map(Duration::from_millis));
    if let Some(d) = ms("registerTimeoutMs")? {
        options = options.register_timeout(d);
    }
    if let Some(d) = ms("streamIdleTimeoutMs")? {
        options = options.stream_idle_timeout(d);
    }
    if let Some(d) = ms("requestTimeoutMs")? {
        options = options.request_timeout(d);
    }
    if let Some(f) = optional_function(v, "", "onStatus")? {
        options = options.on_status(move |s| {
            crate::js::tell(Some(&f), &super::events::status(s));
        });
    }
    if let Some(f) = optional_function(v, "", "onCall")? {
        options = options.on_call(move |e| crate::js::tell(Some(&f), &super::events::call(e)));
    }
    if let Some(s) = present(v, "signal") {
        let signal = (s.dyn_into::<web_sys::AbortSignal>())
            .map_err(|s| wrong("", "signal", "an AbortSignal", &s))?;
        options = options.signal(signal);
    }
    Ok(options)
}
