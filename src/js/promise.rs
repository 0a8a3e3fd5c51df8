//! The SDK's tasks and its awaits of JS, on wasm-bindgen-futures (the executor a Rust web app
//! already links): tasks are spawned ([`spawn`], polled first in a microtask, never inside the
//! call), a JS value is awaited as `await` would ([`wait`], [`settle`]), app functions are
//! called and awaited ([`call_hook`]), futures become promises ([`from_future`]) and a task
//! waits for the next one ([`next_task`]).

use super::{self as js, call, error_text, get, set};
use js_sys::{Array, Function, Promise};
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Runs `future` to its end, first in a microtask (never inside the caller). Boxed: one
/// `spawn_local` in the .wasm instead of one per future type.
pub(crate) fn spawn(future: Pin<Box<dyn Future<Output = ()>>>) {
    wasm_bindgen_futures::spawn_local(future);
}

/// A promise settled by `task`: resolved with its `Ok`, rejected with its `Err`. Boxed, like
/// [`spawn`], so every promise-returning entry point shares one path.
pub(crate) fn from_future(
    task: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>,
) -> Promise {
    wasm_bindgen_futures::future_to_promise(task)
}

/// Awaits `value` as JS `await` does (a value that is no promise is its own answer): `Ok` with
/// what it resolved to, `Err` with what it rejected with. A value whose `Promise.resolve`
/// throws (a promise whose `constructor` getter throws, say) is a rejection with what it threw.
pub(crate) async fn wait(value: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(resolved(value)?).await
}

/// `Promise.resolve(value)`, as a promise whose `then` is the page's own: `JsFuture` calls
/// `then` through a binding that does not catch, so an app's promise with a `then` of its own
/// (which may throw) is first resolved into a new promise, where a throw is a rejection.
fn resolved(value: &JsValue) -> Result<Promise, JsValue> {
    let promise = js::promise_resolve(value)?;
    // `Promise.resolve` made a new promise unless `value` was already one of the page's.
    let same: &JsValue = promise.as_ref();
    if same != value || get(&promise, "then") == intrinsic_then() {
        return Ok(promise);
    }
    Ok(Promise::new(&mut |resolve, _| {
        // A resolve function never throws: a `then` that does rejects the promise.
        let _ = call(&resolve, &[value]);
    }))
}

/// `Promise.prototype.then`.
fn intrinsic_then() -> JsValue {
    get(
        &get(&get(&js_sys::global(), "Promise"), "prototype"),
        "then",
    )
}

/// Awaits `v` as `await` does (a value that is no promise is its own answer); a rejection as
/// its text.
pub(crate) async fn settle(v: &JsValue) -> Result<JsValue, String> {
    wait(v).await.map_err(|e| error_text(&e))
}

/// Calls a hook given by the app with `arg` and awaits its answer, so sync, async and throwing
/// hooks all work the same way; a throw or rejection as its text.
pub(crate) async fn call_hook(f: &Function, arg: &JsValue) -> Result<JsValue, String> {
    let ret = call(f, &[arg]).map_err(|e| error_text(&e))?;
    settle(&ret).await
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
                if js::call_method(&get(&channel, "port2"), "postMessage", &[&JsValue::NULL])
                    .is_ok()
                {
                    return;
                }
            }
        }
        // Without a channel, resolving at once still lets microtasks (Vue's flush) run first.
        let _ = call(&resolve, &[]);
    });
    let _ = JsFuture::from(promise).await;
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use wasm_bindgen::prelude::wasm_bindgen;
    use wasm_bindgen_test::wasm_bindgen_test;

    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen(inline_js = r#"
export function bad_constructor() {
  const p = Promise.resolve(1);
  Object.defineProperty(p, "constructor", { get() { throw new Error("constructor getter"); } });
  return p;
}
export function bad_then() {
  const p = Promise.resolve(1);
  p.then = () => { throw new Error("own then"); };
  return p;
}
export function own_then() {
  const p = Promise.resolve(1);
  p.then = (ok) => ok(2);
  return p;
}
export function rejected() { return Promise.reject(new Error("no")); }
"#)]
    extern "C" {
        fn bad_constructor() -> JsValue;
        fn bad_then() -> JsValue;
        fn own_then() -> JsValue;
        fn rejected() -> JsValue;
    }

    /// A promise whose `Promise.resolve` throws (its `constructor` getter) is awaited as a
    /// rejection with what it threw, and the awaiting task goes on.
    #[wasm_bindgen_test]
    async fn a_promise_whose_constructor_throws_rejects() {
        let error = wait(&bad_constructor()).await.expect_err("a rejection");
        assert_eq!(error_text(&error), "constructor getter");
    }

    /// A promise whose own `then` throws is awaited as a rejection with what it threw (no JS
    /// exception crosses the module), and one whose own `then` answers is awaited through it.
    #[wasm_bindgen_test]
    async fn a_promise_with_its_own_then_is_awaited_through_it() {
        let error = wait(&bad_then()).await.expect_err("a rejection");
        assert_eq!(error_text(&error), "own then");
        assert_eq!(wait(&own_then()).await.ok(), Some(JsValue::from(2)));
    }

    /// A value is its own answer, a rejection is `Err` with its reason.
    #[wasm_bindgen_test]
    async fn values_and_rejections() {
        assert_eq!(wait(&JsValue::from(7)).await.ok(), Some(JsValue::from(7)));
        assert_eq!(settle(&rejected()).await, Err("no".to_owned()));
    }
}
