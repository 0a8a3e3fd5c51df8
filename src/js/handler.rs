//! What a JS tool handler gave back (its awaited value), read as JSON for the call runtime.
//! (Calling it, a JS function as the Rust API's `Handler` with the `ctx` it gets, is
//! `js_api::handler` and `api::context`: this module imports nothing of the crate.)

use super::error_text;
use client_tools_core::calls::{is_result_like, Returned};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

/// What a handler returned, its convention read from the value itself (one place for the
/// convention: `client_tools_core::calls::result`): `undefined` is nothing, a string is
/// itself, a result object or `ToolResult` its fields (its `data` written by `JSON.stringify`
/// unless a string), anything else its `JSON.stringify` text (keys in the handler's order),
/// taken as written. Each value is written once and never parsed again.
pub(crate) fn returned_value(value: &JsValue) -> Returned {
    if value.is_undefined() {
        return Returned::Nothing;
    }
    if let Some(s) = value.as_string() {
        return Returned::Value(Value::String(s));
    }
    if value.is_object() && !super::is_array(value) {
        let keys = match super::keys(value) {
            Ok(keys) => keys,
            Err(e) => return unwritable(&e),
        };
        let keys: Vec<String> = keys.iter().filter_map(|k| k.as_string()).collect();
        if is_result_like(keys.iter().map(String::as_str)) {
            return fields(value, &keys);
        }
    }
    match written(value) {
        Ok(json) => Returned::Written(json),
        Err(why) => Returned::Unwritable(why),
    }
}

/// A result object's or `ToolResult`'s fields as the convention reads them: each a string,
/// a boolean or `null` as itself, a field `JSON.stringify` leaves out (`undefined`, a
/// function) absent, anything else by its kind; `data` as JSON text unless a string.
fn fields(value: &JsValue, keys: &[String]) -> Returned {
    let mut map = Map::new();
    let mut data = None;
    for key in keys {
        let v = match super::reflect_get(value, key, value) {
            Ok(v) => v,
            Err(e) => return unwritable(&e),
        };
        if key == "data" && !v.is_null() && !v.is_undefined() && v.as_string().is_none() {
            match written(&v) {
                Ok(json) => data = Some(json),
                Err(why) => return Returned::Unwritable(why),
            }
            continue;
        }
        let field = if let Some(s) = v.as_string() {
            Value::String(s)
        } else if let Some(b) = v.as_bool() {
            Value::Bool(b)
        } else if v.is_null() {
            Value::Null
        } else if v.as_f64().is_some() {
            Value::from(0)
        } else if super::is_array(&v) {
            Value::Array(Vec::new())
        } else if v.is_object() {
            Value::Object(Map::new())
        } else {
            continue;
        };
        map.insert(key.clone(), field);
    }
    Returned::Fields(map, data)
}

/// `JSON.stringify(value)`, or why the value has no JSON form.
fn written(value: &JsValue) -> Result<String, String> {
    super::cell::entering_js("JSON.stringify");
    match super::json_stringify(value) {
        Ok(s) => s.as_string().ok_or_else(|| {
            "the handler returned a value with no JSON form (a function or a symbol)".to_owned()
        }),
        Err(e) => Err(format!(
            "the handler's return value cannot be written as JSON: {}",
            error_text(&e)
        )),
    }
}

fn unwritable(e: &JsValue) -> Returned {
    Returned::Unwritable(format!(
        "the handler's return value cannot be read: {}",
        error_text(e)
    ))
}
