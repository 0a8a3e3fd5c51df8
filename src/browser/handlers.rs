//! Running a JS tool handler: `handler(args, ctx)`, then `await Promise.resolve(result)`, so
//! sync, async and throwing handlers all work the same way; and turning what it gave back
//! into the call's result text.

use js_sys::{Date, Function, Object, Promise, Reflect};
use serde_json::{Map, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

/// The result text of a handler that returned nothing.
pub(crate) const DONE_TEXT: &str = "Done.";

/// Builds `ctx`: `{ callId, runId, signal, deadline, afterResult(fn) }`.
pub(crate) fn context(
    call_id: &str,
    run_id: &str,
    signal: Option<&AbortSignal>,
    deadline: &Date,
    after_result: Option<&Function>,
) -> Object {
    let ctx = Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(&ctx, &JsValue::from_str(k), v);
    };
    set("callId", &JsValue::from_str(call_id));
    set("runId", &JsValue::from_str(run_id));
    if let Some(signal) = signal {
        set("signal", signal);
    }
    set("deadline", deadline);
    if let Some(f) = after_result {
        set(
            "afterResult",
            &f.bind1(&JsValue::NULL, &JsValue::from_str(call_id)),
        );
    }
    ctx
}

/// Calls the handler and waits for its answer: `Ok(text)` for a result, `Err(text)` for an
/// `is_error` result (a throw, a rejection, or a `{ isError: true, text }` return).
pub(crate) async fn call(
    handler: &Function,
    arguments: &Map<String, Value>,
    ctx: &Object,
) -> Result<String, String> {
    let args = serde_json::to_string(arguments)
        .ok()
        .and_then(|s| js_sys::JSON::parse(&s).ok())
        .unwrap_or_else(|| Object::new().into());
    let returned = handler
        .call2(&JsValue::UNDEFINED, &args, ctx)
        .map_err(|e| thrown_text(&e))?;
    let value = JsFuture::from(Promise::resolve(&returned))
        .await
        .map_err(|e| thrown_text(&e))?;
    result_text(&value)
}

/// What a handler returned, as result text: a string as it is; `undefined` as a short success
/// text; `{ isError: boolean, text: string }` (a `ToolResult`) as that result; anything else
/// as its JSON. An object that means to be a result but is malformed (`is_error`, a
/// non-boolean `isError`, a non-string `text` beside `isError`) is an error saying so: sent
/// as a success, its JSON would tell the model the opposite of what the handler meant.
pub(crate) fn result_text(value: &JsValue) -> Result<String, String> {
    if value.is_undefined() {
        return Ok(DONE_TEXT.to_owned());
    }
    if let Some(s) = value.as_string() {
        return Ok(s);
    }
    if value.is_object() && !js_sys::Array::is_array(value) {
        let get = |k: &str| Reflect::get(value, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let (is_error, text) = (get("isError"), get("text"));
        if !get("is_error").is_undefined() && is_error.is_undefined() {
            return Err(malformed("it has is_error; the flag is spelled isError"));
        }
        if !is_error.is_undefined() {
            let Some(is_error) = is_error.as_bool() else {
                return Err(malformed(&format!(
                    "isError must be true or false, got {}",
                    kind(&is_error)
                )));
            };
            let Some(text) = text.as_string() else {
                return Err(malformed(&format!(
                    "text must be a string, got {}",
                    kind(&text)
                )));
            };
            return if is_error { Err(text) } else { Ok(text) };
        }
    }
    match js_sys::JSON::stringify(value) {
        Ok(s) if s.is_string() => Ok(String::from(s)),
        Ok(_) => Err(
            "the handler returned a value with no JSON form (a function or a symbol)".to_owned(),
        ),
        Err(e) => Err(format!(
            "the handler's return value cannot be written as JSON: {}",
            super::net::error_text(&e)
        )),
    }
}

/// The error text of a malformed `{ isError, text }` result.
fn malformed(why: &str) -> String {
    format!(
        "the handler returned a malformed result object ({why}); expected {{ isError: boolean, text: string }}"
    )
}

/// A JS value's kind, for a message.
fn kind(v: &JsValue) -> &'static str {
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
    } else {
        "an object"
    }
}

/// The text of a thrown value: an `Error`'s message, a string as it is, else its JSON.
fn thrown_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        let message = String::from(err.message());
        return if message.is_empty() {
            String::from(err.name())
        } else {
            message
        };
    }
    super::net::error_text(e)
}
