//! `exposeToWebMCP`, the JS face of [`crate::exposure`]: its options and source read from JS
//! values (a tool array, a `ToolRegistry`, or a `Client`, found by the key it carries), and the
//! outcome written back as `{ supported, registered }`.

use super::registry::{tool_list, ToolRegistry};
use crate::exposure::{self, Source};
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;

/// The tools of a definition list (an array, or a registry's definitions), checked as a
/// `ToolRegistry` checks them: errors are `invalid_option` `Error`s naming the definition.
fn tools_of(list: &JsValue) -> Result<Source, JsValue> {
    if !crate::js::is_array(list) {
        return Err(crate::js::invalid(
            "tools: must be a ToolRegistry, an array of tools or a Client",
        ));
    }
    // Its errors are the SDK's own `invalid_option` `Error`s, naming the definition.
    Ok(Source::Tools(
        ToolRegistry::new(Some(list.clone()))?.into_tools(),
    ))
}

/// `{ supported, registered }`: the names registered, an array of strings.
fn resolved(supported: bool, registered: Array) -> JsValue {
    let out = Object::new();
    crate::js::set(&out, "supported", &supported.into());
    crate::js::set(&out, "registered", &registered);
    out.into()
}

/// Offers `source`'s tools to an in-browser agent through WebMCP. `source` is a tool array, a
/// `ToolRegistry`, or a `Client` (then it follows its tools through `setTools` and its
/// scopes, so the page's current tools are exactly what is registered, and a call whose
/// handler changed them answers once they are). Resolves `{ supported, registered }`; `{ supported: false,
/// registered: [] }` where the browser has no WebMCP. Rejects naming a bad definition, a bad
/// option, or a tool the browser refused. Aborting `options.signal` unregisters everything.
#[wasm_bindgen(js_name = exposeToWebMCP, unchecked_return_type = "Promise<WebMCPExposure>")]
pub fn expose_to_webmcp(
    #[wasm_bindgen(unchecked_param_type = "ToolRegistry | ToolDefinition[] | Client")]
    source: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "WebMCPOptions")] options: Option<Object>,
) -> Promise {
    let options = JsValue::from(options);
    let options: super::options::WebMcpOptions = match super::read::options(&options) {
        Ok(o) => o,
        Err(e) => return Promise::reject(&e),
    };
    let prefix = options.prefix.map(|p| p.0).unwrap_or_default();
    let signal = options.signal.map(|s| s.0);
    let Some(model_context) = exposure::model_context() else {
        return Promise::resolve(&resolved(false, Array::new()));
    };
    // A `Client` carries its key (see `Client.register`).
    let client_key = crate::js::get(&source, "constructor")
        .is_function()
        .then(|| Reflect::get(&source, &exposure::key_symbol()).ok())
        .flatten()
        .and_then(|k| k.as_f64())
        .map(|k| k as usize);
    let source = match client_key {
        Some(key) => Source::Client(exposure::followed(key)),
        None => match tools_of(&tool_list(&source)) {
            Ok(source) => source,
            Err(e) => return Promise::reject(&e),
        },
    };
    match exposure::expose(model_context.into(), source, prefix, signal, |names| {
        resolved(true, names)
    }) {
        Err(e) => Promise::reject(&e),
        Ok(None) => Promise::resolve(&resolved(true, Array::new())),
        Ok(Some(registering)) => crate::js::promise::from_future(Box::pin(registering)),
    }
}
