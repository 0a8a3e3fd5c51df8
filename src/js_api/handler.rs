//! A JS tool handler as the Rust API's [`Handler`]: the arguments and the call's
//! [`CallContext`] written as the JS values it gets (`handler(args, ctx)`), and what it
//! returns read by the plumbing (`js::handler`).

use crate::api::shell::Handler;
use crate::api::CallContext;
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
async fn call(
    handler: &Function,
    arguments: &Map<String, Value>,
    ctx: &CallContext,
) -> client_tools_core::calls::Returned {
    let args = js_sys::JSON::parse(&client_tools_core::json::object_text(arguments))
        .ok()
        .unwrap_or_else(|| Object::new().into());
    let ctx = ctx.js_object();
    crate::js::handler::call(handler, &args, &ctx).await
}
