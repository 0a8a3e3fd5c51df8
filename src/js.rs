//! The SDK's one JavaScript plumbing module, shared by the browser shell and the page tools:
//! property reads that never throw, DOM members taken from prototypes (a form's named controls
//! shadow its own properties), calling app functions (handlers, hooks) whether they return a
//! value, a promise or throw, error texts, promises the SDK settles later, and JSON across the
//! boundary.

// The lite build (no `page-tools` feature) leaves the DOM helpers only the page tools use.
#![cfg_attr(not(feature = "page-tools"), allow(dead_code))]

use js_sys::{Array, Function, Object, Promise};
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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
}

/// `Promise.resolve(value)`, through js-sys' binding (one import for every use).
pub(crate) fn promise_resolve(value: &JsValue) -> Promise {
    Promise::resolve(value)
}

/// The one shape of the Rust functions the SDK hands to JS as `Closure`s that stay (a tool
/// handler, `ctx.afterResult`, a WebMCP `execute`): each distinct shape costs its own glue.
pub(crate) type Callback = dyn Fn(JsValue, JsValue) -> JsValue;

/// Reads `obj[key]`; a throwing getter or a non-object reads as `undefined`.
pub(crate) fn get(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() && !obj.is_function() {
        return JsValue::UNDEFINED;
    }
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

/// Awaits `v` as `await` does (a value that is no promise is its own answer); a rejection as
/// its text.
pub(crate) async fn settle(v: &JsValue) -> Result<JsValue, String> {
    crate::task::wait(v).await.map_err(|e| error_text(&e))
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

/// Calls an app function with `args` and awaits its answer, so sync, async and throwing
/// functions all work the same way: `Err` holds what was thrown or rejected.
pub(crate) async fn call_async(f: &Function, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let ret = call(f, args)?;
    crate::task::wait(&ret).await
}

/// Calls a hook given by the app and awaits its answer; a throw or rejection as its text.
pub(crate) async fn call_hook(f: &Function, arg: &JsValue) -> Result<JsValue, String> {
    call_async(f, &[arg]).await.map_err(|e| error_text(&e))
}

/// Calls an app callback (`onStatus`, `onCall`) with `event` (a plain object, see
/// `browser::events`). A throwing callback is the app's bug; it must not stop the SDK.
pub(crate) fn tell(callback: Option<&Function>, event: &JsValue) {
    let Some(f) = callback else { return };
    let _ = call(f, &[event]);
}

/// A promise settled by `task`: resolved with its `Ok`, rejected with its `Err`. Boxed, like
/// [`crate::task::spawn`], so every promise-returning entry point shares one path.
pub(crate) fn promise(task: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>) -> Promise {
    let (promise, waiter) = Waiter::new();
    crate::task::spawn(Box::pin(async move {
        match task.await {
            Ok(v) => waiter.resolve(&v),
            Err(e) => waiter.reject(&e),
        }
    }));
    promise
}

/// The two halves of a JS promise the SDK settles later.
pub(crate) struct Waiter {
    resolve: Function,
    reject: Function,
}

impl Waiter {
    /// A new promise and the means to settle it.
    pub(crate) fn new() -> (Promise, Waiter) {
        let mut slot = None;
        let promise = Promise::new(&mut |resolve, reject| slot = Some(Waiter { resolve, reject }));
        // The executor runs synchronously inside `new Promise`, so the slot is filled.
        let waiter = slot.unwrap_or_else(|| Waiter {
            resolve: Function::new_no_args(""),
            reject: Function::new_no_args(""),
        });
        (promise, waiter)
    }

    pub(crate) fn resolve(self, v: &JsValue) {
        let _ = call(&self.resolve, &[v]);
    }

    /// Rejects with `error` (an `Error` the SDK built, see [`error`]).
    pub(crate) fn reject(self, error: &JsValue) {
        let _ = call(&self.reject, &[error]);
    }
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
pub(crate) fn ok_result(value: &serde_json::Value) -> JsValue {
    JsValue::from_str(&client_tools_core::protocol::json_text(value))
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

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Object, js_name = entries)]
    fn object_entries(o: &JsValue) -> Array;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(v: &JsValue) -> Result<JsValue, JsValue>;
}

/// Longest arguments, as JSON text, a tool reads (the protocol's own limit is lower).
pub(crate) const ARGS_MAX: usize = 1 << 20;

/// What kind of JS value `v` is, for a message: "a number", "an object", …
fn kind_of(v: &JsValue) -> &'static str {
    if Array::is_array(v) {
        "an array"
    } else if v.is_function() {
        "a function"
    } else if v.is_object() {
        "an object"
    } else if v.as_f64().is_some() {
        "a number"
    } else if v.as_bool().is_some() {
        "true or false"
    } else if v.is_bigint() {
        "a BigInt"
    } else if v.is_symbol() {
        "a symbol"
    } else {
        "not a string"
    }
}

/// The agent's arguments (or a part of them, named by `what`) as JSON, or why they cannot be
/// read: cyclic, nested too deeply, too long, or holding what JSON has no form for. Never
/// `null` in their place: a value the tool cannot read is refused, not taken as absent.
pub(crate) fn read_json(v: &JsValue, what: &str) -> Result<serde_json::Value, String> {
    let text = match json_stringify(v) {
        Err(e) if get(&e, "name").as_string().as_deref() == Some("RangeError") => {
            return Err(format!("{what} cannot be read: nested too deeply"));
        }
        Err(e) => {
            return Err(format!(
                "{what} cannot be read as JSON ({})",
                error_text(&e)
            ))
        }
        Ok(t) => t
            .as_string()
            .ok_or_else(|| format!("{what} cannot be read as JSON: it is {}", kind_of(v)))?,
    };
    if text.len() > ARGS_MAX {
        return Err(format!(
            "{what} is {} bytes long as JSON; at most {ARGS_MAX}",
            text.len()
        ));
    }
    json_value(&text).map_err(|e| {
        // "recursion limit exceeded" (as serde_json says it): a prefix test, no substring search.
        if e.starts_with("recursion limit") {
            format!("{what} cannot be read: nested too deeply (at most 128 levels)")
        } else {
            format!("{what} cannot be read as JSON ({e})")
        }
    })
}

/// The string argument `key` of the agent's arguments: `None` when absent or `null`; refused
/// when it is anything but a string, or when reading it throws.
pub(crate) fn string_arg(args: &JsValue, key: &str) -> Result<Option<String>, String> {
    if !args.is_object() {
        return Ok(None);
    }
    let v = reflect_get(args, key, args)
        .map_err(|e| format!("{key} cannot be read ({})", error_text(&e)))?;
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_string() {
        Some(s) => Ok(Some(s)),
        None => Err(format!("{key} must be a string, not {}", kind_of(&v))),
    }
}

/// The own enumerable `[key, value]` pairs of a JS object, in the object's order (which
/// `serde_json`'s sorted map would lose: fields are filled in the order the agent gave).
pub(crate) fn entries(o: &JsValue) -> Vec<(String, JsValue)> {
    if !o.is_object() || Array::is_array(o) {
        return Vec::new();
    }
    object_entries(o)
        .iter()
        .filter_map(|pair| {
            let pair = Array::from(&pair);
            Some((pair.get(0).as_string()?, pair.get(1)))
        })
        .collect()
}

/// JSON text as a serde value, parsed by the browser's `JSON.parse` and walked into the value
/// serde_json would have read: the SDK's one JSON text parser in the browser (the core's too,
/// through the hook in `lib.rs`), so serde_json's own is not in the .wasm (which is 13 KB
/// smaller for it, 6.5 KB gzipped, this walker included). Where they differ: an integral number is an integer however written (`1.0`, `1e3`:
/// serde_json reads a float); JS numbers are `f64`, so an integer beyond 2^53 is the nearest
/// `f64`'s (serde_json reads it exactly up to `u64::MAX`, which now reads as the float 2^64);
/// a lone surrogate escape (`"\ud800"`) reads as U+FFFD (serde_json refuses it); and text
/// that is not JSON is refused with the browser's message instead of serde_json's.
pub(crate) fn json_value(text: &str) -> Result<serde_json::Value, String> {
    let v = js_sys::JSON::parse(text).map_err(|e| error_text(&e))?;
    value_of(&v, 128)
}

/// A value `JSON.parse` made as serde_json reads its text: nested at most 127 arrays and
/// objects deep ("recursion limit exceeded", as serde_json says), a number too large for
/// `f64` (`1e400`, which JS reads as `Infinity`) "number out of range", an integral number
/// in the range of `u64` or `i64` an integer (`-0` stays a float, as in serde_json). Keys
/// repeated in the text: `JSON.parse` keeps the last, as serde_json does.
fn value_of(v: &JsValue, depth: u32) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    if let Some(n) = v.as_f64() {
        const TWO_63: f64 = 9_223_372_036_854_775_808.0;
        let whole = n.fract() == 0.0 && !(n == 0.0 && n.is_sign_negative());
        return match n {
            _ if !n.is_finite() => Err("number out of range".into()),
            _ if whole && (0.0..2.0 * TWO_63).contains(&n) => Ok(Value::from(n as u64)),
            _ if whole && (-TWO_63..0.0).contains(&n) => Ok(Value::from(n as i64)),
            _ => Ok(Value::from(n)),
        };
    }
    if let Some(s) = v.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if !v.is_object() {
        return Ok(Value::Null);
    }
    let depth = depth - 1;
    if depth == 0 {
        return Err("recursion limit exceeded".into());
    }
    if Array::is_array(v) {
        // A loop, not `collect` into a `Result`: its adapters cost about 0.7 KB of wasm.
        let mut items = Vec::new();
        for item in v.unchecked_ref::<Array>().iter() {
            items.push(value_of(&item, depth)?);
        }
        return Ok(Value::Array(items));
    }
    let mut map = serde_json::Map::new();
    for pair in object_entries(v).iter() {
        let pair: Array = pair.unchecked_into();
        let key = pair.get(0).as_string().unwrap_or_default();
        map.insert(key, value_of(&pair.get(1), depth)?);
    }
    Ok(Value::Object(map))
}

#[wasm_bindgen]
extern "C" {
    /// `String(n)`: the shortest digits that read back as `n`, as `JSON.stringify` writes them.
    #[wasm_bindgen(js_name = String)]
    fn number_text(n: f64) -> String;
}

/// A finite float as JSON text that serde_json reads back as the same `f64`, and as a float,
/// appended to `out`: JS's `String(n)`, with `.0` after digits that would read as an integer
/// (`1.0`, as serde_json writes it) and the sign of negative zero (`-0.0`; JS writes `0`). The
/// core's float writer in the browser (through the hook in `lib.rs`), so serde_json's (zmij,
/// with its tables) is not in the .wasm. Where the text differs from serde_json's:
/// `client_tools_core::json`.
#[cfg(target_family = "wasm")]
pub(crate) fn write_f64(n: f64, out: &mut String) {
    if n == 0.0 && n.is_sign_negative() {
        out.push('-');
    }
    out.push_str(&number_text(n));
    // JS writes an integral number below 1e21 as its digits alone, larger ones as `1e+21`.
    if n.fract() == 0.0 && n.abs() < 1e21 {
        out.push_str(".0");
    }
}

/// JSON text as a JS value (the tools' parameter schemas, written as constants).
pub(crate) fn parse_json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or_default()
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
    for item in Array::from(list).iter() {
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

/// Resolves in the next task, after the app's microtask and same-task work, like
/// `setTimeout(0)`, but through a `MessageChannel`, which background tabs do not throttle
/// (their timers may wait a second or more).
pub(crate) async fn next_task() {
    let promise = Promise::new(&mut |resolve: Function, _reject: Function| {
        let ctor = get(&js_sys::global(), "MessageChannel");
        if ctor.is_function() {
            if let Ok(channel) =
                js_sys::Reflect::construct(ctor.unchecked_ref::<Function>(), &Array::new())
            {
                set(&get(&channel, "port1"), "onmessage", &resolve);
                if call_method(&get(&channel, "port2"), "postMessage", &[&JsValue::NULL]).is_ok() {
                    return;
                }
            }
        }
        // Without a channel, resolving at once still lets microtasks (Vue's flush) run first.
        let _ = call(&resolve, &[]);
    });
    let _ = crate::task::wait(&promise).await;
}

/// An `Error` with a `code` a program can switch on (the codes are listed in the `.d.ts`,
/// `ClientErrorCode`) and a `message` a person can act on.
pub(crate) fn error(code: &str, message: &str) -> JsValue {
    let e: JsValue = js_sys::Error::new(message).into();
    set(&e, "code", &JsValue::from_str(code));
    e
}

/// An `Error` for a bad argument or option the app gave: code `invalid_option`.
pub(crate) fn invalid(message: &str) -> JsValue {
    error("invalid_option", message)
}
