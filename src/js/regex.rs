//! The core's pattern engine in the browser (the `host-regex` feature, see
//! `client_tools_core::schema`'s pattern module): the page's own `RegExp`, with the `u` flag
//! (without it when the pattern only compiles that way), the last few compiled kept.

use std::cell::RefCell;
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

/// How many compiled patterns are kept (a tool list's patterns, typically).
const KEPT: usize = 32;

thread_local! {
    static COMPILED: RefCell<Vec<(String, HostRegExp)>> = const { RefCell::new(Vec::new()) };
}

/// Compiles `pattern` and, given a text, says whether it matches somewhere in it.
pub(crate) fn pattern(pattern: &str, text: Option<&str>) -> Result<bool, String> {
    COMPILED.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = match kept.iter().position(|(p, _)| p == pattern) {
            Some(i) => i,
            None => {
                let re = HostRegExp::new(pattern, "u")
                    .or_else(|_| HostRegExp::new(pattern, ""))
                    .map_err(|e| super::error_text(&e))?;
                if kept.len() == KEPT {
                    kept.remove(0);
                }
                kept.push((pattern.to_owned(), re));
                kept.len() - 1
            }
        };
        match text {
            None => Ok(true),
            Some(t) => kept[at].1.test(t).map_err(|e| super::error_text(&e)),
        }
    })
}
