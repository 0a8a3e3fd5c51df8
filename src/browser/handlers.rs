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
/// as its JSON.
pub(crate) fn result_text(value: &JsValue) -> Result<String, String> {
    if value.is_undefined() {
        return Ok(DONE_TEXT.to_owned());
    }
    if let Some(s) = value.as_string() {
        return Ok(s);
    }
    if value.is_object() {
        let is_error = Reflect::get(value, &"isError".into())
            .ok()
            .and_then(|v| v.as_bool());
        let text = Reflect::get(value, &"text".into())
            .ok()
            .and_then(|v| v.as_string());
        if let (Some(is_error), Some(text)) = (is_error, text) {
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
