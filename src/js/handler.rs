//! A JS tool handler as the Rust API's [`Handler`](crate::api::shell::Handler): `handler(args, ctx)`, then
//! `await Promise.resolve(result)`, so sync, async and throwing handlers all work the same
//! way; what it gave back is read as JSON for the call runtime.

use super::{error_text, Callback};
use crate::api::CallContext;
use client_tools_core::calls::Returned;
use js_sys::{Function, Object};
use serde_json::Value;
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
    let args = js_sys::JSON::parse(&client_tools_core::protocol::object_text(arguments))
        .ok()
        .unwrap_or_else(|| Object::new().into());
    let ctx = context(ctx);
    let returned = match super::call(handler, &[&args, &ctx]) {
        Ok(returned) => returned,
        Err(e) => return Returned::Threw(error_text(&e)),
    };
    match super::task::settle(&returned).await {
        Ok(value) => returned_value(&value),
        Err(text) => Returned::Threw(text),
    }
}

/// What a handler returned: `undefined` is nothing, a string is itself, anything else its
/// `JSON.stringify` text (keys in the handler's order).
pub(crate) fn returned_value(value: &JsValue) -> Returned {
    if value.is_undefined() {
        return Returned::Nothing;
    }
    if let Some(s) = value.as_string() {
        return Returned::Value(Value::String(s));
    }
    match js_sys::JSON::stringify(value) {
        Ok(s) => match s.as_string() {
            Some(json) => Returned::Json(json),
            None => Returned::Unwritable(
                "the handler returned a value with no JSON form (a function or a symbol)"
                    .to_owned(),
            ),
        },
        Err(e) => Returned::Unwritable(format!(
            "the handler's return value cannot be written as JSON: {}",
            error_text(&e)
        )),
    }
}
