//! JSON across the JS boundary: the agent's arguments read as JSON (refused, never taken as
//! absent, when they cannot be), a JS value's `JSON.stringify` text read by the core's one
//! parser (`client_tools_core::json::parse`, serde_json's).

use super::{error_text, get, is_array, json_stringify, reflect_get};
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    // `catch`: an app's object may be a Proxy whose traps throw (see the parent module).
    #[wasm_bindgen(js_namespace = Object, js_name = entries, catch)]
    fn object_entries(o: &JsValue) -> Result<Array, JsValue>;
}

/// Longest arguments, as JSON text, a tool reads (the protocol's own limit is lower).
pub(crate) const ARGS_MAX: usize = 1 << 20;

/// What kind of JS value `v` is, for a message: "a number", "an object", …
fn kind_of(v: &JsValue) -> &'static str {
    if is_array(v) {
        "an array"
    } else if v.is_function() {
        "a function"
    } else if v.is_object() {
        "an object"
    } else if v.as_f64().is_some() {
        "a number"
    } else if v.as_bool().is_some() {
        "true or false"
    } else if v.is_bigint() {
        "a BigInt"
    } else if v.is_symbol() {
        "a symbol"
    } else {
        "not a string"
    }
}

/// The agent's arguments (or a part of them, named by `what`) as JSON, or why they cannot be
/// read: cyclic, nested too deeply, too long, or holding what JSON has no form for. Never
/// `null` in their place: a value the tool cannot read is refused, not taken as absent.
pub(crate) fn read_json(v: &JsValue, what: &str) -> Result<serde_json::Value, String> {
    super::cell::entering_js("JSON.stringify");
    let text = match json_stringify(v) {
        // Too deep for the engine's stack: a RangeError in Chromium and WebKit, an
        // InternalError ("too much recursion") in Firefox.
        Err(e)
            if matches!(
                get(&e, "name").as_string().as_deref(),
                Some("RangeError" | "InternalError")
            ) =>
        {
            return Err(format!("{what} cannot be read: nested too deeply"));
        }
        Err(e) => {
            return Err(format!(
                "{what} cannot be read as JSON ({})",
                error_text(&e)
            ))
        }
        Ok(t) => t
            .as_string()
            .ok_or_else(|| format!("{what} cannot be read as JSON: it is {}", kind_of(v)))?,
    };
    if text.len() > ARGS_MAX {
        return Err(format!(
            "{what} is {} bytes long as JSON; at most {ARGS_MAX}",
            text.len()
        ));
    }
    client_tools_core::json::parse(&text).map_err(|e| {
        // "recursion limit exceeded" (as serde_json says it): a prefix test, no substring search.
        if e.starts_with("recursion limit") {
            format!("{what} cannot be read: nested too deeply (at most 128 levels)")
        } else {
            format!("{what} cannot be read as JSON ({e})")
        }
    })
}

/// The string argument `key` of the agent's arguments: `None` when absent or `null`; refused
/// when it is anything but a string, or when reading it throws.
pub(crate) fn string_arg(args: &JsValue, key: &str) -> Result<Option<String>, String> {
    if !args.is_object() {
        return Ok(None);
    }
    super::cell::entering_js("a property read");
    let v = reflect_get(args, key, args)
        .map_err(|e| format!("{key} cannot be read ({})", error_text(&e)))?;
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_string() {
        Some(s) => Ok(Some(s)),
        None => Err(format!("{key} must be a string, not {}", kind_of(&v))),
    }
}

/// The own enumerable `[key, value]` pairs of a JS object, in the object's order (which
/// `serde_json`'s sorted map would lose: fields are filled in the order the agent gave).
pub(crate) fn entries(o: &JsValue) -> Vec<(String, JsValue)> {
    if !o.is_object() || is_array(o) {
        return Vec::new();
    }
    object_entries(o)
        .unwrap_or_default()
        .iter()
        .filter_map(|pair| {
            let pair = Array::from(&pair);
            Some((pair.get(0).as_string()?, pair.get(1)))
        })
        .collect()
}

/// JSON text as a JS value (the tools' parameter schemas, written as constants).
pub(crate) fn parse_json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or_default()
}

/// The arguments of a call the app hands over (`execute`, WebMCP's `execute`) as JSON:
/// absent as `null`, anything `JSON.stringify` cannot write refused, naming why.
pub(crate) fn read_args(v: &JsValue) -> Result<serde_json::Value, String> {
    if v.is_undefined() {
        return Ok(serde_json::Value::Null);
    }
    read_json(v, "the arguments")
}
