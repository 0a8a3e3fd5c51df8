//! JSON across the JS boundary: the agent's arguments read as JSON (refused, never taken as
//! absent, when they cannot be), JSON text parsed by the browser's `JSON.parse` into the value
//! serde_json would read, and floats written by JS's `String(n)`: the core's JSON hooks in the
//! browser (`lib.rs`), so serde_json's own parser and float formatter are not in the .wasm.

use super::{error_text, get, is_array, json_stringify, reflect_get};
use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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
        Err(e) if get(&e, "name").as_string().as_deref() == Some("RangeError") => {
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
    json_value(&text).map_err(|e| {
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

/// JSON text as a serde value, parsed by the browser's `JSON.parse` and walked into the value
/// serde_json would have read: the SDK's one JSON text parser in the browser (the core's too,
/// through the hook in `lib.rs`), so serde_json's own is not in the .wasm (which is 13 KB
/// smaller for it, 6.5 KB gzipped, this walker included). Where they differ: an integral number is an integer however written (`1.0`, `1e3`:
/// serde_json reads a float); JS numbers are `f64`, so an integer beyond 2^53 is the nearest
/// `f64`'s (serde_json reads it exactly up to `u64::MAX`, which now reads as the float 2^64);
/// a lone surrogate escape (`"\ud800"`) reads as U+FFFD (serde_json refuses it); and text
/// that is not JSON is refused with the browser's message instead of serde_json's.
pub(crate) fn json_value(text: &str) -> Result<serde_json::Value, String> {
    // The `SyntaxError` `JSON.parse` just threw: its message read untracked, as `value_of`
    // walks, since this runs inside the core's parse hook.
    let v = js_sys::JSON::parse(text).map_err(|e| {
        (reflect_get(&e, "message", &e)
            .ok()
            .and_then(|m| m.as_string()))
        .unwrap_or_else(|| "not JSON".into())
    })?;
    value_of(&v, 128)
}

/// A value `JSON.parse` made as serde_json reads its text: nested at most 127 arrays and
/// objects deep ("recursion limit exceeded", as serde_json says), a number too large for
/// `f64` (`1e400`, which JS reads as `Infinity`) "number out of range", an integral number
/// in the range of `u64` or `i64` an integer (`-0` stays a float, as in serde_json). Keys
/// repeated in the text: `JSON.parse` keeps the last, as serde_json does.
fn value_of(v: &JsValue, depth: u32) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    if let Some(n) = v.as_f64() {
        const TWO_63: f64 = 9_223_372_036_854_775_808.0;
        let whole = n.fract() == 0.0 && !(n == 0.0 && n.is_sign_negative());
        return match n {
            _ if !n.is_finite() => Err("number out of range".into()),
            _ if whole && (0.0..2.0 * TWO_63).contains(&n) => Ok(Value::from(n as u64)),
            _ if whole && (-TWO_63..0.0).contains(&n) => Ok(Value::from(n as i64)),
            _ => Ok(Value::from(n)),
        };
    }
    if let Some(s) = v.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if !v.is_object() {
        return Ok(Value::Null);
    }
    let depth = depth - 1;
    if depth == 0 {
        return Err("recursion limit exceeded".into());
    }
    // Untracked (`cell::entering_js`): a value `JSON.parse` just made has no getter, trap or
    // iterator of the app's, so walking it runs no app code; the core's parse hook runs here
    // while the engine is borrowed.
    if super::array_is_array(v).unwrap_or(false) {
        // A loop, not `collect` into a `Result`: its adapters cost about 0.7 KB of wasm.
        let mut items = Vec::new();
        for item in v.unchecked_ref::<Array>().iter() {
            items.push(value_of(&item, depth)?);
        }
        return Ok(Value::Array(items));
    }
    let mut map = serde_json::Map::new();
    for pair in object_entries(v).unwrap_or_default().iter() {
        let pair: Array = pair.unchecked_into();
        let key = pair.get(0).as_string().unwrap_or_default();
        map.insert(key, value_of(&pair.get(1), depth)?);
    }
    Ok(Value::Object(map))
}

#[wasm_bindgen]
extern "C" {
    /// `String(n)`: the shortest digits that read back as `n`, as `JSON.stringify` writes them.
    #[wasm_bindgen(js_name = String)]
    fn number_text(n: f64) -> String;
}

/// A finite float as JSON text that serde_json reads back as the same `f64`, and as a float,
/// appended to `out`: JS's `String(n)`, with `.0` after digits that would read as an integer
/// (`1.0`, as serde_json writes it) and the sign of negative zero (`-0.0`; JS writes `0`). The
/// core's float writer in the browser (through the hook in `lib.rs`), so serde_json's (zmij,
/// with its tables) is not in the .wasm. Where the text differs from serde_json's:
/// `client_tools_core::json`.
#[cfg(target_family = "wasm")]
pub(crate) fn write_f64(n: f64, out: &mut String) {
    if n == 0.0 && n.is_sign_negative() {
        out.push('-');
    }
    out.push_str(&number_text(n));
    // JS writes an integral number below 1e21 as its digits alone, larger ones as `1e+21`.
    if n.fract() == 0.0 && n.abs() < 1e21 {
        out.push_str(".0");
    }
}

/// JSON text as a JS value (the tools' parameter schemas, written as constants).
pub(crate) fn parse_json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or_default()
}
