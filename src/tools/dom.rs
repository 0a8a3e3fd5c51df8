//! DOM access through the SDK's generic JS paths (`js::get`, `js::proto_call`, one
//! `Reflect.construct`) rather than a web-sys binding per method, constructor or type check:
//! each binding is a wasm import plus its JS glue, and the page tools used most only once.

pub(crate) use super::js::is_a;
use super::js::{error_text, get, proto_call, proto_get};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// `v` as the web-sys type of `class`, when it is one.
pub(crate) fn cast<T: JsCast>(v: JsValue, class: &str) -> Option<T> {
    is_a(&v, class).then(|| v.unchecked_into())
}

/// `new class(...args)`; a throw as its text.
pub(crate) fn construct(class: &str, args: &[&JsValue]) -> Result<JsValue, String> {
    let ctor = get(&js_sys::global(), class);
    if !ctor.is_function() {
        return Err(format!("this browser has no {class}"));
    }
    let ctor: &js_sys::Function = ctor.unchecked_ref();
    js_sys::Reflect::construct(ctor, &super::js::array(args)).map_err(|e| error_text(&e))
}

/// The page's window, where there is one with a document.
pub(crate) fn window() -> Option<JsValue> {
    super::js::page_document().map(|_| js_sys::global().into())
}

/// `Element.prototype.matches(selector)`; `Err` when the selector does not parse.
pub(crate) fn matches(el: &Element, selector: &str) -> Result<bool, String> {
    proto_call("Element", "matches", el, &[&JsValue::from_str(selector)]).map(|v| v.is_truthy())
}

/// Whether the element is disabled as CSS sees it (itself or by a disabled fieldset).
pub(crate) fn disabled(el: &Element) -> bool {
    matches(el, ":disabled").unwrap_or(false)
}

/// `Element.prototype.closest(selector)`.
pub(crate) fn closest(el: &Element, selector: &str) -> Option<Element> {
    proto_call("Element", "closest", el, &[&JsValue::from_str(selector)])
        .ok()
        .filter(JsValue::is_object)
        .map(JsCast::unchecked_into)
}

/// An element the DOM gives (`parentElement`, `ownerDocument`, …), `None` when it gives null.
pub(crate) fn node_get(class: &str, prop: &str, this: &JsValue) -> Option<JsValue> {
    Some(proto_get(class, prop, this)).filter(JsValue::is_object)
}

/// Fires `new class(kind, init)` at `target`.
pub(crate) fn fire(
    target: &JsValue,
    class: &str,
    kind: &str,
    init: &JsValue,
) -> Result<(), String> {
    let ev = construct(class, &[&JsValue::from_str(kind), init])?;
    proto_call("EventTarget", "dispatchEvent", target, &[&ev]).map(|_| ())
}

/// The items of an array-like JS list (a `FileList`, an `HTMLOptionsCollection`).
pub(crate) fn items(list: &JsValue) -> js_sys::Array {
    if list.is_object() {
        crate::js::to_array(list).unwrap_or_default()
    } else {
        js_sys::Array::new()
    }
}
