//! A JS tool handler as the Rust API's [`Handler`](crate::api::shell::Handler): `handler(args, ctx)`, then
//! `await Promise.resolve(result)`, so sync, async and throwing handlers all work the same
//! way; what it gave back is read as JSON for the call runtime.

use super::{error_text, Callback};
use crate::api::CallContext;
use client_tools_core::calls::{is_result_like, Returned};
use js_sys::{Function, Object};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The Rust handler that calls the JS function `f`.
#[cfg(feature = "js-api")]
pub(crate) fn from_function(f: Function) -> crate::api::shell::Handler {
    std::rc::Rc::new(move |args, ctx| {
        let f = f.clone();
        Box::pin(async move { call(&f, &args, &ctx).await })
    })
}

/// `ctx` as a JS handler sees it: `{ callId, runId, signal, deadline, afterResult(fn) }` (the
/// page tools read the same shape).
pub(crate) fn context(ctx: &CallContext) -> Object {
    let o = Object::new();
    let set = |k: &str, v: &JsValue| super::set(&o, k, v);
    set("callId", &JsValue::from_str(ctx.call_id()));
    set("runId", &JsValue::from_str(ctx.run_id()));
    if let Some(signal) = ctx.signal() {
        set("signal", &signal);
    }
    set("deadline", &ctx.deadline_date());
    let owner = ctx.clone();
    let after_result = Closure::<Callback>::new(move |f: JsValue, _| {
        if let Ok(f) = f.dyn_into::<Function>() {
            owner.after_result(move || drop(super::call(&f, &[])));
        }
        JsValue::UNDEFINED
    });
    // JS owns it (freed once collected): the app may keep `ctx` after the call.
    set("afterResult", &after_result.into_js_value());
    o
}

/// Calls the handler and waits for what it returns; the call runtime reads it by its
/// convention ([`Answer::from_returned`](client_tools_core::calls::Answer::from_returned)).
#[cfg(feature = "js-api")]
async fn call(
    handler: &Function,
    arguments: &serde_json::Map<String, Value>,
    ctx: &CallContext,
) -> Returned {
    let args = js_sys::JSON::parse(&client_tools_core::json::object_text(arguments))
        .ok()
        .unwrap_or_else(|| Object::new().into());
    let ctx = context(ctx);
    let returned = match super::call(handler, &[&args, &ctx]) {
        Ok(returned) => returned,
        Err(e) => return Returned::Threw(error_text(&e)),
    };
    match super::promise::settle(&returned).await {
        Ok(value) => returned_value(&value),
        Err(text) => Returned::Threw(text),
    }
}

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
