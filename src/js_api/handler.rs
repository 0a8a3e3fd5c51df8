//! A JS tool handler as the Rust API's [`Handler`]: `handler(args, ctx)` with the arguments
//! and the call's [`CallContext`] as JS values, then `await Promise.resolve(result)`, so sync,
//! async and throwing handlers all work the same way; what it gave back is read by
//! `js::handler::returned_value`.

use crate::api::shell::Handler;
use crate::api::CallContext;
use crate::js::handler::returned_value;
use client_tools_core::calls::Returned;
use js_sys::{Function, Object};
use serde_json::{Map, Value};

/// The Rust handler that calls the JS function `f`.
pub(crate) fn from_function(f: Function) -> Handler {
    std::rc::Rc::new(move |args, ctx| {
        let f = f.clone();
        Box::pin(async move { call(&f, &args, &ctx).await })
    })
}

/// Calls the handler and waits for what it returns; the call runtime reads it by its
/// convention ([`Answer::from_returned`](client_tools_core::calls::Answer::from_returned)).
async fn call(handler: &Function, arguments: &Map<String, Value>, ctx: &CallContext) -> Returned {
    let args = js_sys::JSON::parse(&client_tools_core::json::object_text(arguments))
        .ok()
        .unwrap_or_else(|| Object::new().into());
    let ctx = ctx.js_object();
    let returned = match crate::js::call(handler, &[&args, &ctx]) {
        Ok(returned) => returned,
        Err(e) => return Returned::Threw(crate::js::error_text(&e)),
    };
    match crate::js::promise::settle(&returned).await {
        Ok(value) => returned_value(&value),
        Err(text) => Returned::Threw(text),
    }
}
