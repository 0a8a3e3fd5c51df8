//! Running a JS tool handler: `handler(args, ctx)`, then `await Promise.resolve(result)`, so
//! sync, async and throwing handlers all work the same way; and reading what it gave back
//! as JSON for the call runtime.

use super::calls::Calls;
use crate::js::error_text;
use client_tools_core::calls::Returned;
use js_sys::{Date, Function, Object};
use serde_json::{Map, Value};
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

/// Each tool's handler, by name (a tool list's names are unique).
pub(crate) type Handlers = Vec<(String, Function)>;

/// Builds `ctx`: `{ callId, runId, signal, deadline, afterResult(fn) }`.
pub(crate) fn context(
    call_id: &str,
    run_id: &str,
    signal: Option<&AbortSignal>,
    deadline: &Date,
    after_result: Option<&Function>,
) -> Object {
    let ctx = Object::new();
    let set = |k: &str, v: &JsValue| crate::js::set(&ctx, k, v);
    set("callId", &JsValue::from_str(call_id));
    set("runId", &JsValue::from_str(run_id));
    if let Some(signal) = signal {
        set("signal", signal);
    }
    set("deadline", deadline);
    if let Some(f) = after_result {
        set(
            "afterResult",
            &crate::js::call_method(f, "bind", &[&JsValue::NULL, &JsValue::from_str(call_id)])
                .unwrap_or_default(),
        );
    }
    ctx
}

/// Starts `handler` for a call: its `ctx` from `calls` (signal, deadline, `afterResult`), then
/// `done` with what it returned. The one way every transport runs a handler.
pub(crate) fn start(
    calls: &Calls,
    call_id: &str,
    run_id: &str,
    handler: Function,
    arguments: Map<String, Value>,
    deadline_ms: u64,
    done: Box<dyn FnOnce(Returned)>,
) {
    let started = calls.start(call_id, deadline_ms);
    let ctx = context(
        call_id,
        run_id,
        started.signal.as_ref(),
        &started.deadline,
        Some(calls.after_result_fn()),
    );
    crate::js::task::spawn(Box::pin(async move {
        done(call(&handler, &arguments, &ctx).await);
    }));
}

/// Calls the handler and waits for what it returns; the call runtime reads it by its
/// convention ([`Answer::from_returned`](client_tools_core::calls::Answer::from_returned)).
pub(crate) async fn call(
    handler: &Function,
    arguments: &Map<String, Value>,
    ctx: &Object,
) -> Returned {
    let args = js_sys::JSON::parse(&client_tools_core::protocol::object_text(arguments))
        .ok()
        .unwrap_or_else(|| Object::new().into());
    let returned = match crate::js::call(handler, &[&args, ctx]) {
        Ok(returned) => returned,
        Err(e) => return Returned::Threw(error_text(&e)),
    };
    match crate::js::task::settle(&returned).await {
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
