//! Reading the options a JS app passes (`Client.register`, `setTools`) into the engine's
//! config. Every mistake is an error that names the option: `tools[2].handler: must be a
//! function`.

use crate::engine::{Config, ToolDef, WhenHidden};
use crate::protocol::{FromJson, Lifetime, ToolSpec};
use client_tools_core::time::Duration;
use js_sys::{Array, Function};
use wasm_bindgen::{JsCast, JsValue};

/// A tool as the app gave it: what the engine declares, and the JS function that answers.
pub(crate) struct JsTool {
    pub def: ToolDef,
    pub handler: Function,
}

/// Everything `Client.register` was given.
pub(crate) struct Options {
    pub config: Config,
    pub handlers: Vec<(String, Function)>,
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

use crate::js::get as prop;

fn describe(v: &JsValue) -> &'static str {
    if v.is_undefined() {
        "undefined"
    } else if v.is_null() {
        "null"
    } else if v.as_string().is_some() {
        "a string"
    } else if v.as_f64().is_some() {
        "a number"
    } else if v.as_bool().is_some() {
        "a boolean"
    } else if v.is_function() {
        "a function"
    } else if Array::is_array(v) {
        "an array"
    } else {
        "an object"
    }
}

/// `field.key`, the path of a member in a message (`tools[2].handler`).
fn member(field: &str, key: &str) -> String {
    format!("{field}.{key}")
}

/// `field: must be what, got …`: an option of the wrong kind, named with what it was.
fn wrong(field: &str, what: &str, v: &JsValue) -> String {
    format!("{field}: must be {what}, got {}", describe(v))
}

fn required_string(obj: &JsValue, key: &str, field: &str) -> Result<String, String> {
    let v = prop(obj, key);
    match v.as_string() {
        Some(s) if !s.is_empty() => Ok(s),
        Some(_) => Err(format!("{field}: must not be empty")),
        None => Err(wrong(field, "a string", &v)),
    }
}

fn optional_function(obj: &JsValue, key: &str, field: &str) -> Result<Option<Function>, String> {
    let v = prop(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.dyn_into::<Function>()
        .map(Some)
        .map_err(|v| wrong(field, "a function", &v))
}

/// A whole number ≥ 1, or absent.
fn optional_count(obj: &JsValue, key: &str, field: &str) -> Result<Option<u64>, String> {
    let v = prop(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && (1.0..=9.0e15).contains(&n) => Ok(Some(n as u64)),
        // The browser writes the number: Rust's float formatting would cost ~14 KB of wasm.
        Some(_) => Err(format!(
            "{field}: must be a whole number of at least 1, got {}",
            js_sys::Number::from(v.clone())
                .to_string_with_radix(10)
                .map(String::from)
                .unwrap_or_default()
        )),
        None => Err(wrong(field, "a number", &v)),
    }
}

/// A JS value as JSON text: `JSON.stringify`, with its failure named.
fn json_text(v: &JsValue, field: &str) -> Result<String, String> {
    let text = js_sys::JSON::stringify(v).map_err(|e| {
        format!(
            "{field}: cannot be written as JSON ({})",
            crate::js::error_text(&e)
        )
    })?;
    Ok(String::from(text))
}

/// A JS value as JSON, for serde: `JSON.stringify`, then parsed, with its failure named.
fn to_json(v: &JsValue, field: &str) -> Result<serde_json::Value, String> {
    let text = json_text(v, field)?;
    crate::js::json_value(&text).map_err(|e| format!("{field}: not JSON ({e})"))
}

/// Reads one tool definition at `tools[i]`.
fn tool(v: &JsValue, i: usize) -> Result<JsTool, String> {
    let field = format!("tools[{i}]");
    if !v.is_object() || v.is_function() {
        return Err(wrong(&field, "an object", v));
    }
    super::keys::check(v, TOOL_KEYS, &member(&field, ""))?;
    let name = prop(v, "name");
    let name = name
        .as_string()
        .ok_or_else(|| wrong(&member(&field, "name"), "a string", &name))?;
    let description = match prop(v, "description") {
        d if d.is_undefined() || d.is_null() => String::new(),
        d => d
            .as_string()
            .ok_or_else(|| wrong(&member(&field, "description"), "a string", &d))?,
    };
    let parameters = match prop(v, "parameters") {
        p if p.is_undefined() || p.is_null() => None,
        p => Some(to_json(&p, &member(&field, "parameters"))?),
    };
    let handler = optional_function(v, "handler", &member(&field, "handler"))?
        .ok_or_else(|| format!("{field}.handler: must be a function, got undefined"))?;
    let timeout_ms = optional_count(v, "timeoutMs", &member(&field, "timeoutMs"))?;
    let max_calls_per_run = optional_count(v, "maxCallsPerRun", &member(&field, "maxCallsPerRun"))?
        .map(|n| n.min(u32::MAX as u64) as u32);
    Ok(JsTool {
        def: ToolDef {
            spec: ToolSpec {
                name,
                description,
                parameters,
            },
            timeout_ms,
            max_calls_per_run,
        },
        handler,
    })
}

/// Reads a tool list (`tools` of `Client.register`, or the argument of `setTools`).
pub(crate) fn tools(v: &JsValue, field: &str) -> Result<Vec<JsTool>, String> {
    if v.is_undefined() || v.is_null() {
        return Ok(Vec::new());
    }
    let arr = v
        .dyn_ref::<Array>()
        .ok_or_else(|| wrong(field, "an array of tools", v))?;
    let mut out = Vec::new();
    for (i, t) in arr.iter().enumerate() {
        out.push(tool(&t, i)?);
    }
    Ok(out)
}

/// Reads `Client.register`'s options. `key_prefix` and `seed` come from the caller (the
/// browser's `crypto.randomUUID()` and `Math.random()`).
pub(crate) fn register(v: &JsValue, key_prefix: String, seed: u64) -> Result<Options, String> {
    if !v.is_object() {
        return Err(wrong("options", "an object", v));
    }
    super::keys::check(v, REGISTER_KEYS, "")?;
    let base_url = required_string(v, "baseUrl", "baseUrl")?;
    let session_id = required_string(v, "sessionId", "sessionId")?;
    let token = required_string(v, "token", "token")?;
    let name = match prop(v, "name") {
        n if n.is_undefined() => "web".to_owned(),
        n => n.as_string().ok_or_else(|| wrong("name", "a string", &n))?,
    };
    let share_stream = match prop(v, "shareStream") {
        s if s.is_undefined() || s.is_null() => true,
        s => s
            .as_bool()
            .ok_or_else(|| wrong("shareStream", "a boolean", &s))?,
    }
    .then(|| super::share::channel_name(&base_url, &session_id, &token));
    let mut config = Config::new(base_url, session_id, token, name, key_prefix, seed);
    match prop(v, "lifetime") {
        l if l.is_undefined() || l.is_null() => {}
        l => {
            config.lifetime = Lifetime::from_value(&to_json(&l, "lifetime")?).map_err(|_| {
                "lifetime: must be { type: \"never\" } or { type: \"ttl\", data: { seconds: N } }"
                    .to_owned()
            })?
        }
    }
    match prop(v, "whenHidden") {
        w if w.is_undefined() || w.is_null() => {}
        w => {
            let s = w
                .as_string()
                .ok_or_else(|| wrong("whenHidden", "a string", &w))?;
            config.when_hidden = WhenHidden::parse(&s).map_err(|e| e.to_string())?;
        }
    }
    let mut handlers = Vec::new();
    for t in tools(&prop(v, "tools"), "tools")? {
        handlers.push((t.def.spec.name.clone(), t.handler));
        config.tools.push(t.def);
    }
    config.validate().map_err(|e| e.to_string())?;
    // The engine's register deadline; capped where `setTimeout` stops counting.
    if let Some(ms) = optional_count(v, "registerTimeoutMs", "registerTimeoutMs")? {
        config.register_timeout = Duration::from_ms(ms.min(i32::MAX as u64));
    }
    // Capped where `setTimeout` stops counting.
    let request_timeout_ms = optional_count(v, "requestTimeoutMs", "requestTimeoutMs")?
        .map_or(super::net::DEFAULT_REQUEST_TIMEOUT_MS, |ms| {
            ms.min(i32::MAX as u64) as u32
        });
    Ok(Options {
        request_timeout_ms,
        share_stream,
        config,
        handlers,
        on_status: optional_function(v, "onStatus", "onStatus")?,
        on_call: optional_function(v, "onCall", "onCall")?,
        signal: match prop(v, "signal") {
            s if s.is_undefined() || s.is_null() => None,
            s => Some(
                s.dyn_into::<web_sys::AbortSignal>()
                    .map_err(|s| wrong("signal", "an AbortSignal", &s))?,
            ),
        },
    })
}
