//! The SDK's one JavaScript plumbing module, shared by the browser shell and the page tools:
//! property reads that never throw, DOM members taken from prototypes (a form's named controls
//! shadow its own properties), calling app functions (handlers, hooks) whether they return a
//! value, a promise or throw, error texts, promises the SDK settles later; in [`json`], JSON
//! across the boundary; in [`promise`], its tasks and the awaits of JS promises, on
//! wasm-bindgen-futures (the parts use this module, never the other way round).

// The lite build (no `page-tools` feature) leaves the DOM helpers only the page tools use, and
// a Rust app's build (no `js-api`) those only the JS classes use.
#![cfg_attr(not(all(feature = "page-tools", feature = "js-api")), allow(dead_code))]

use js_sys::{Array, Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub(crate) mod cell;
pub(crate) mod handler;
pub(crate) mod json;
pub(crate) mod promise;
#[cfg(target_family = "wasm")]
pub(crate) mod regex;

pub(crate) use cell::JsRefCell;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Reflect, js_name = get, catch)]
    fn reflect_get(target: &JsValue, key: &str, receiver: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = set, catch)]
    fn reflect_set(
        target: &JsValue,
        key: &str,
        value: &JsValue,
        receiver: &JsValue,
    ) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = apply, catch)]
    fn reflect_apply(f: &JsValue, this: &JsValue, args: &Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(v: &JsValue) -> Result<JsValue, JsValue>;
    // The imports below run app code or throw on an app's value (a Proxy's traps, a revoked
    // Proxy, a getter, an iterator): each is `catch`, so that no JS exception ever unwinds
    // through a wasm frame (which would leave the wasm stack pointer and any borrow where they
    // were, and poison the module). js-sys' own bindings of these do not catch.
    #[wasm_bindgen(js_namespace = Promise, js_name = resolve, catch)]
    fn promise_resolve_catch(value: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = isArray, catch)]
    fn array_is_array(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = from, catch)]
    fn array_from(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
}

/// `Promise.resolve(value)`: `Err` with what it threw (a promise whose `constructor` getter
/// throws, say).
pub(crate) fn promise_resolve(value: &JsValue) -> Result<Promise, JsValue> {
    cell::entering_js("Promise.resolve");
    promise_resolve_catch(value)
}

/// `Array.isArray(v)`; a revoked Proxy (on which it throws) is no array.
pub(crate) fn is_array(v: &JsValue) -> bool {
    cell::entering_js("Array.isArray");
    array_is_array(v).unwrap_or(false)
}

/// `Array.from(v)`: a new, plain array of an array's, an array-like's or an iterable's items
/// (read once, so a Proxy's traps run here and nowhere else); `Err` with what it threw.
pub(crate) fn to_array(v: &JsValue) -> Result<Array, JsValue> {
    cell::entering_js("Array.from");
    array_from(v)
}

/// `Object.keys(v)` of an object; `Err` with what it threw (a Proxy's `ownKeys` trap).
pub(crate) fn keys(v: &JsValue) -> Result<Array, JsValue> {
    cell::entering_js("Object.keys");
    object_keys(v)
}

/// The one shape of the Rust functions the SDK hands to JS as `Closure`s that stay (a tool
/// handler, `ctx.afterResult`, a WebMCP `execute`): each distinct shape costs its own glue.
pub(crate) type Callback = dyn Fn(JsValue, JsValue) -> JsValue;

/// Reads `obj[key]`; a throwing getter or a non-object reads as `undefined`.
pub(crate) fn get(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() && !obj.is_function() {
        return JsValue::UNDEFINED;
    }
    cell::entering_js("a property read");
    reflect_get(obj, key, obj).unwrap_or(JsValue::UNDEFINED)
}

/// `obj[key]` as a string, `""` when it is not one: a DOM property read the way the
/// bindings would read it, without a binding per property.
pub(crate) fn string_prop(obj: &JsValue, key: &str) -> String {
    get(obj, key).as_string().unwrap_or_default()
}

/// Whether `obj[key]` is true (a DOM boolean property).
pub(crate) fn bool_prop(obj: &JsValue, key: &str) -> bool {
    get(obj, key).is_truthy()
}

/// `obj[key]` as a number, 0 when it is not one.
pub(crate) fn number_prop(obj: &JsValue, key: &str) -> f64 {
    get(obj, key).as_f64().unwrap_or(0.0)
}

/// Calls `obj[name](...args)` with `obj` as `this`: a method of a value the SDK got from the
/// browser (a `Response`, a stream reader), without a binding per method. `Err` holds what was
/// thrown, or a `TypeError` when there is no such method.
pub(crate) fn call_method(
    obj: &JsValue,
    name: &str,
    args: &[&JsValue],
) -> Result<JsValue, JsValue> {
    apply(&get(obj, name), obj, args)
}

/// Calls the function `f` (an app's callback, a promise's `resolve`) with `args` and `this`
/// undefined: `Err` holds what it threw. The one call path, so that no `Function::call0`,
/// `call1`, `call2` binding is needed.
pub(crate) fn call(f: &JsValue, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    apply(f, &JsValue::UNDEFINED, args)
}

/// `Reflect.apply(f, this, args)`.
fn apply(f: &JsValue, this: &JsValue, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    cell::entering_js("a function call");
    reflect_apply(f, this, &array(args))
}

/// A JS array of `items` (one `Array` path instead of `Array::of1`, `of2`, `of3`).
pub(crate) fn array(items: &[&JsValue]) -> Array {
    let list = Array::new();
    for a in items {
        list.push(a);
    }
    list
}

/// The page's `document`, where there is one: a window's, not a worker's or Node's.
pub(crate) fn page_document() -> Option<JsValue> {
    Some(get(&js_sys::global(), "document")).filter(JsValue::is_object)
}

/// `obj[key]`, or `None` when it is absent (`undefined` or `null`): an optional option.
pub(crate) fn present(obj: &JsValue, key: &str) -> Option<JsValue> {
    Some(get(obj, key)).filter(|v| !v.is_undefined() && !v.is_null())
}

/// The optional string `options.{key}` of an entry point's options (absent options included);
/// anything else is refused with an `invalid_option` `Error` that names it.
pub(crate) fn string_option(options: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    match present(options, key) {
        None => Ok(None),
        Some(v) => (v.as_string().map(Some))
            .ok_or_else(|| invalid(&format!("options.{key}: must be a string"))),
    }
}

/// The optional `options.signal` of an entry point's options, refused unless an `AbortSignal`.
pub(crate) fn signal_option(options: &JsValue) -> Result<Option<web_sys::AbortSignal>, JsValue> {
    match present(options, "signal") {
        None => Ok(None),
        Some(s) => {
            (s.dyn_into().map(Some)).map_err(|_| invalid("options.signal: must be an AbortSignal"))
        }
    }
}

/// Writes `obj[key] = value` on a plain object we built.
pub(crate) fn set(obj: &JsValue, key: &str, value: &JsValue) {
    // Only called on objects this module created, which never refuse a property.
    let _ = reflect_set(obj, key, value, obj);
}

/// `globalThis[class].prototype`, the untouched DOM members of a class.
fn prototype(class: &str) -> Result<JsValue, String> {
    let ctor = get(&js_sys::global(), class);
    let proto = get(&ctor, "prototype");
    if proto.is_object() {
        Ok(proto)
    } else {
        Err(format!("this browser has no {class}"))
    }
}

/// Reads the `prop` accessor of `class.prototype` with `this` as receiver, so a named control
/// (`<input name="action">`) cannot stand in for the real property.
pub(crate) fn proto_get(class: &str, prop: &str, this: &JsValue) -> JsValue {
    cell::entering_js("a DOM accessor");
    match prototype(class) {
        Ok(proto) => reflect_get(&proto, prop, this).unwrap_or(JsValue::UNDEFINED),
        Err(_) => JsValue::UNDEFINED,
    }
}

/// Runs the `prop` setter of `class.prototype` on `this`: the setter React and Vue have not
/// wrapped, so their value trackers see a change when the events follow.
pub(crate) fn proto_set(
    class: &str,
    prop: &str,
    this: &JsValue,
    value: &JsValue,
) -> Result<(), String> {
    let proto = prototype(class)?;
    cell::entering_js("a DOM setter");
    reflect_set(&proto, prop, value, this)
        .map_err(|e| error_text(&e))
        .and_then(|ok| {
            if ok {
                Ok(())
            } else {
                Err(format!("{class}.{prop} cannot be set"))
            }
        })
}

/// Calls `class.prototype[method]` with `this`, whatever the element's own properties say.
pub(crate) fn proto_call(
    class: &str,
    method: &str,
    this: &JsValue,
    args: &[&JsValue],
) -> Result<JsValue, String> {
    let proto = prototype(class)?;
    let f = reflect_get(&proto, method, &proto).map_err(|e| error_text(&e))?;
    if !f.is_function() {
        return Err(format!("this browser has no {class}.{method}"));
    }
    apply(&f, this, args).map_err(|e| error_text(&e))
}

/// The human text of a thrown JS value: an `Error`'s message (its name if the message is
/// empty), a `message` property, a string as it is, else its JSON.
pub(crate) fn error_text(e: &JsValue) -> String {
    if e.is_instance_of::<js_sys::Error>() {
        let message = string_prop(e, "message");
        return if message.is_empty() {
            string_prop(e, "name")
        } else {
            message
        };
    }
    if let Some(m) = get(e, "message").as_string() {
        return m;
    }
    if let Some(s) = e.as_string() {
        return s;
    }
    json_stringify(e)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// Calls an app callback (`onStatus`, `onCall`) with `event` (a plain object, see
/// `browser::events`). A throwing callback is the app's bug; it must not stop the SDK.
pub(crate) fn tell(callback: Option<&Function>, event: &JsValue) {
    let Some(f) = callback else { return };
    let _ = call(f, &[event]);
}

/// A new empty JS object.
pub(crate) fn object() -> JsValue {
    Object::new().into()
}

/// The result the shell posts as `is_error: true`: `{ isError: true, text }`.
pub(crate) fn error_result(text: &str) -> JsValue {
    let o = object();
    set(&o, "isError", &JsValue::TRUE);
    set(&o, "text", &JsValue::from_str(text));
    o
}

/// The result text of a success: the JSON the model reads.
///
/// Its strings are the page's text (labels, options, values, messages): each character a
/// person would not see there is shown as `\u{…}` (`text::show_invisible_in_json`), so
/// instructions hidden with tag characters or bidi controls reach the model as visible text.
pub(crate) fn ok_result(value: &serde_json::Value) -> JsValue {
    let text = client_tools_core::json::json_text(value);
    JsValue::from_str(&client_tools_core::text::show_invisible_in_json(&text))
}

/// What a handler gets as its second argument (`ctx`); absent parts read as absent.
pub(crate) struct CallContext {
    ctx: JsValue,
}

impl CallContext {
    pub(crate) fn new(ctx: JsValue) -> Self {
        CallContext { ctx }
    }

    /// Whether the call was cancelled or ran out of time (`ctx.signal.aborted`).
    pub(crate) fn aborted(&self) -> bool {
        get(&get(&self.ctx, "signal"), "aborted").is_truthy()
    }

    /// Whether the shell can run code after the result is posted (`ctx.afterResult`).
    pub(crate) fn can_defer(&self) -> bool {
        get(&self.ctx, "afterResult").is_function()
    }

    /// Runs `f` once the call's result has been posted (`ctx.afterResult`); `false` if the
    /// shell gave no such hook, in which case `f` is dropped unrun.
    pub(crate) fn after_result(&self, f: Box<dyn FnOnce()>) -> bool {
        let hook = get(&self.ctx, "afterResult");
        let Some(hook) = hook.dyn_ref::<Function>() else {
            return false;
        };
        // The SDK's one closure shape; JS owns it, and frees it once collected.
        let f = std::cell::Cell::new(Some(f));
        let cb = Closure::<Callback>::new(move |_, _| {
            if let Some(f) = f.take() {
                f();
            }
            JsValue::UNDEFINED
        });
        apply(hook, &self.ctx, &[&cb.into_js_value()]).is_ok()
    }
}

/// The document of the page; the tools only run in a window.
pub(crate) fn document() -> Result<web_sys::Document, String> {
    (page_document().map(JsCast::unchecked_into))
        .ok_or_else(|| "the page tools need a browser window with a document".into())
}

/// Removes `obj[key]` from an object this module built.
pub(crate) fn delete(obj: &JsValue, key: &str) {
    let reflect = get(&js_sys::global(), "Reflect");
    let _ = call_method(&reflect, "deleteProperty", &[obj, &JsValue::from_str(key)]);
}

/// The elements of an array-like JS list (a `NodeList`, a form's `elements`, `labels`), in
/// order; anything else in it is skipped.
pub(crate) fn elements(list: &JsValue) -> Vec<web_sys::Element> {
    let mut out = Vec::new();
    let Ok(proto) = prototype("Element") else {
        return out;
    };
    for item in to_array(list).unwrap_or_default().iter() {
        if inherits(&item, &proto) {
            out.push(item.unchecked_into());
        }
    }
    out
}

/// Whether `v` is an instance of the page's `class`, as `v instanceof class` answers for a
/// DOM class (`class.prototype.isPrototypeOf(v)`): one path for every type check.
pub(crate) fn is_a(v: &JsValue, class: &str) -> bool {
    prototype(class).is_ok_and(|proto| inherits(v, &proto))
}

/// Whether `proto` is on `v`'s prototype chain.
fn inherits(v: &JsValue, proto: &JsValue) -> bool {
    proto_call("Object", "isPrototypeOf", proto, &[v]).is_ok_and(|r| r.is_truthy())
}

/// Lower case as the browser does it (no Unicode tables in the .wasm).
pub(crate) fn lower(s: &str) -> String {
    proto_call("String", "toLowerCase", &JsValue::from_str(s), &[])
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// What kind of JS value `v` is, for a message: "a string", "an array", "a symbol", …
pub(crate) fn describe(v: &JsValue) -> &'static str {
    if v.is_undefined() {
        "undefined"
    } else if v.is_null() {
        "null"
    } else if v.is_string() {
        // Not `as_string`: that would copy the string (a megabyte, say) into the module.
        "a string"
    } else if v.as_f64().is_some() {
        "a number"
    } else if v.as_bool().is_some() {
        "a boolean"
    } else if v.is_function() {
        "a function"
    } else if v.is_symbol() {
        "a symbol"
    } else if v.is_bigint() {
        "a BigInt"
    } else if is_array(v) {
        "an array"
    } else {
        "an object"
    }
}

/// An `Error` with a `code` a program can switch on (the codes are listed in the `.d.ts`,
/// `ClientErrorCode`) and a `message` a person can act on.
pub(crate) fn error(kind: client_tools_core::api::ErrorKind, message: &str) -> JsValue {
    let e: JsValue = js_sys::Error::new(message).into();
    set(&e, "code", &JsValue::from_str(kind.code()));
    e
}

/// An `Error` for a bad argument or option the app gave: code `invalid_option`.
pub(crate) fn invalid(message: &str) -> JsValue {
    error(client_tools_core::api::ErrorKind::InvalidOption, message)
}
