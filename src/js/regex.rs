//! The core's pattern engine in the browser (the `host-regex` feature, see
//! `client_tools_core::schema`'s pattern module): the page's own `RegExp`, with the `u` flag
//! (without it when the pattern only compiles that way).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = RegExp)]
    type HostRegExp;
    #[wasm_bindgen(constructor, js_class = "RegExp", catch)]
    fn new(pattern: &str, flags: &str) -> Result<HostRegExp, JsValue>;
    #[wasm_bindgen(method, js_class = "RegExp", catch)]
    fn test(this: &HostRegExp, text: &str) -> Result<bool, JsValue>;
}

/// Compiles `pattern` and, given a text, says whether it matches somewhere in it. Nothing is
/// kept: the engines cache what they compiled by source and flags (V8's compilation cache,
/// SpiderMonkey's and JavaScriptCore's regexp caches).
///
/// Untracked (`cell::entering_js`), like the JSON parse hook: the core calls it while the engine
/// or the registry is borrowed, and the built-in `RegExp` constructor and `test` run no app
/// code (an app that replaced them is trusted not to call back into the SDK).
pub(crate) fn pattern(pattern: &str, text: Option<&str>) -> Result<bool, String> {
    let re = HostRegExp::new(pattern, "u")
        .or_else(|_| HostRegExp::new(pattern, ""))
        .map_err(|e| super::error_text(&e))?;
    match text {
        None => Ok(true),
        Some(t) => re.test(t).map_err(|e| super::error_text(&e)),
    }
}
