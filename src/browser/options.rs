//! Reading the options a JS app passes (`Client.register`, `setTools`) into the engine's
//! config. Every mistake is an error that names the option: `tools[2].handler: must be a
//! function`.

use super::handlers::Handlers;
use crate::engine::{Config, ToolDef, WhenHidden};
use crate::protocol::{FromJson, Lifetime, ToolSpec};
use client_tools_core::time::Duration;
use js_sys::Function;
use wasm_bindgen::{JsCast, JsValue};

/// Everything `Client.register` was given.
pub(crate) struct Options {
    pub config: Config,
    pub handlers: Handlers,
    pub on_status: Option<Function>,
    pub on_call: Option<Function>,
    /// Aborts the registration (or leaves, once registered).
    pub signal: Option<web_sys::AbortSignal>,
    /// How long one request (answer included) may take before it counts as a network error,
    /// which the engine retries as any other (`requestTimeoutMs`).
    pub request_timeout_ms: u32,
    /// The lock and channel name to share the session's stream with other tabs under
    /// (`shareStream`, on by default); `None` when the app turned it off.
    pub share_stream: Option<String>,
}

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
    crate::js::json::json_value(&text).map_err(|e| format!("{field}: not JSON ({e})"))
}

/// Refuses `value` unless `fetch` can send it as an HTTP header value (the token goes out as
/// `Authorization: Bearer …`): no NUL, CR or LF, and every character in Latin-1, as a
/// header's ByteString must be. Refused at once, not retried until the register deadline.
fn header_value(value: &str, key: &str) -> Result<(), String> {
    let bad = |c: char| matches!(c, '\0' | '\r' | '\n') || c as u32 > 0xFF;
    match value.contains(bad) {
        false => Ok(()),
        true => Err(format!(
            "{key}: cannot be sent as an HTTP header value: it holds a line break, a NUL or a \
             character outside Latin-1"
        )),
    }
}

/// Reads one tool definition at `tools[i]`.
fn tool(v: &JsValue, i: usize) -> Result<(ToolDef, Function), String> {
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
    let spec = ToolSpec {
        name,
        description,
        parameters,
    };
    let def = ToolDef {
        spec,
        timeout_ms,
        max_calls_per_run,
    };
    Ok((def, handler))
}

/// Reads a tool list (`tools` of `Client.register`, or the argument of `setTools`): what the
/// engine declares, and each tool's handler by name, in the list's order.
pub(crate) fn tools(v: &JsValue, field: &str) -> Result<(Vec<ToolDef>, Handlers), String> {
    let mut defs = Vec::new();
    let mut handlers = Vec::new();
    if v.is_undefined() || v.is_null() {
        return Ok((defs, handlers));
    }
    if !crate::js::is_array(v) {
        return Err(wrong("", field, "an array of tools", v));
    }
    // Read once into a plain array: a Proxy's traps run here, where a throw is caught.
    let arr = crate::js::to_array(v)
        .map_err(|e| format!("{field}: cannot be read ({})", crate::js::error_text(&e)))?;
    for (i, t) in arr.iter().enumerate() {
        let (def, handler) = tool(&t, i)?;
        handlers.push((def.spec.name.clone(), handler));
        defs.push(def);
    }
    Ok((defs, handlers))
}

/// Reads `Client.register`'s options. `key_prefix` and `seed` come from the caller (the
/// browser's `crypto.randomUUID()` and `Math.random()`).
/// `tools_list` is `v.tools` as a list (a registry's definitions, or the array as it is).
pub(crate) fn register(
    v: &JsValue,
    tools_list: &JsValue,
    key_prefix: String,
    seed: u64,
) -> Result<Options, String> {
    if !v.is_object() {
        return Err(wrong("", "options", "an object", v));
    }
    super::keys::check(v, REGISTER_KEYS, "")?;
    let base_url = required_string(v, "baseUrl")?;
    let session_id = required_string(v, "sessionId")?;
    let token = required_string(v, "token")?;
    header_value(&token, "token")?;
    let name = match prop(v, "name") {
        n if n.is_undefined() => "web".to_owned(),
        n => string(n, "", "name")?,
    };
    let share_stream = match present(v, "shareStream") {
        None => true,
        Some(s) => s
            .as_bool()
            .ok_or_else(|| wrong("", "shareStream", "a boolean", &s))?,
    }
    .then(|| super::share::channel_name(&base_url, &session_id, &token));
    let mut config = Config::new(base_url, session_id, token, name, key_prefix, seed);
    match present(v, "lifetime") {
        None => {}
        Some(l) => {
            config.lifetime = Lifetime::from_value(&to_json(&l, "lifetime")?).map_err(|_| {
                "lifetime: must be { type: \"never\" } or { type: \"ttl\", data: { seconds: N } }"
                    .to_owned()
            })?
        }
    }
    match present(v, "whenHidden") {
        None => {}
        Some(w) => {
            let s = string(w, "", "whenHidden")?;
            config.when_hidden = WhenHidden::parse(&s).map_err(|e| e.to_string())?;
        }
    }
    let (defs, handlers) = tools(tools_list, "tools")?;
    config.tools = defs;
    config.validate().map_err(|e| e.to_string())?;
    // The engine's register deadline; capped where `setTimeout` stops counting.
    if let Some(ms) = optional_count(v, "", "registerTimeoutMs")? {
        config.register_timeout = Duration::from_ms(ms.min(i32::MAX as u64));
    }
    // The stream's silence deadline; capped where `setTimeout` stops counting.
    if let Some(ms) = optional_count(v, "", "streamIdleTimeoutMs")? {
        config.stream_idle_timeout = Some(Duration::from_ms(ms.min(i32::MAX as u64)));
        config.validate().map_err(|e| e.to_string())?;
    }
    // Capped where `setTimeout` stops counting.
    let request_timeout_ms = optional_count(v, "", "requestTimeoutMs")?
        .map_or(super::net::DEFAULT_REQUEST_TIMEOUT_MS, |ms| {
            ms.min(i32::MAX as u64) as u32
        });
    Ok(Options {
        request_timeout_ms,
        share_stream,
        config,
        handlers,
        on_status: optional_function(v, "", "onStatus")?,
        on_call: optional_function(v, "", "onCall")?,
        signal: match present(v, "signal") {
            None => None,
            Some(s) => Some(
                s.dyn_into::<web_sys::AbortSignal>()
                    .map_err(|s| wrong("", "signal", "an AbortSignal", &s))?,
            ),
        },
    })
}
