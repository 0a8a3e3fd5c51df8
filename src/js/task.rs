//! The SDK's executor and its awaits of JS: tasks run on the page's microtask queue, a JS
//! promise is awaited through its `then` ([`wait`]), and on those, app functions are called and
//! awaited ([`call_async`], [`call_hook`]), futures become promises ([`promise`]) and a task
//! waits for the next one ([`next_task`]). Its own rather than wasm-bindgen-futures'
//! (`js_sys::futures`), which brings a `VecDeque` run queue, a lazily built global, JSPI paths
//! and a closure shape of its own: this is the part the SDK uses, built on the parent module
//! (its one closure shape, calls through `Reflect`), about 2.2 KB less wasm (0.6 KB gzipped) in
//! both builds.
//!
//! It behaves as that one does: a spawned task is first polled in a microtask, never inside
//! `spawn`; the tasks woken in one tick are polled together in the next microtask, each once
//! however often it was woken; a task is dropped, its future with it, when it ends or when
//! nothing can wake it any more. A promise that never settles keeps its waiting task.

use super::{self as js, call, error_text, get, set, Callback, JsRefCell, Waiter};
use js_sys::{Array, Function, Promise};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::mem::ManuallyDrop;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};
use wasm_bindgen::prelude::*;

/// A spawned future, shared by the queue and the wakers that can wake it.
struct Task {
    /// `None` once the future has ended.
    future: RefCell<Option<Pin<Box<dyn Future<Output = ()>>>>>,
    /// Whether it waits in the queue: woken twice in a tick, it is polled once.
    queued: Cell<bool>,
}

/// The run queue: the tasks to poll, oldest first; whether a microtask that polls them is
/// queued and has not started; and the function that microtask calls, made on first use and
/// owned by JS.
struct Queue {
    tasks: VecDeque<Rc<Task>>,
    scheduled: bool,
    run: Option<JsValue>,
}

thread_local! {
    static QUEUE: JsRefCell<Queue> = const {
        JsRefCell::new(Queue {
            tasks: VecDeque::new(),
            scheduled: false,
            run: None,
        })
    };
}

/// Runs `future` to its end, first in a microtask (never inside the caller). Boxed: one
/// executor path in the .wasm instead of one per future type.
pub(crate) fn spawn(future: Pin<Box<dyn Future<Output = ()>>>) {
    wake(Rc::new(Task {
        future: RefCell::new(Some(future)),
        queued: Cell::new(false),
    }));
}

/// Queues `task` unless it is queued already, and schedules the microtask unless it is.
fn wake(task: Rc<Task>) {
    if task.queued.replace(true) {
        return;
    }
    QUEUE.with(|q| q.borrow_mut().tasks.push_back(task));
    schedule();
}

/// Queues the microtask that polls the queue, unless one is queued and has not started.
fn schedule() {
    let run = QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        if q.scheduled || q.tasks.is_empty() {
            return None;
        }
        q.scheduled = true;
        let run = q.run.get_or_insert_with(|| {
            Closure::<Callback>::new(|_, _| {
                run();
                JsValue::UNDEFINED
            })
            .into_js_value()
        });
        Some(run.clone())
    });
    // `queueMicrotask` where there is one, else a resolved promise's reaction (the same queue).
    if let Some(run) = run {
        if js::call_method(&js_sys::global(), "queueMicrotask", &[&run]).is_err() {
            if let Ok(p) = js::promise_resolve(&JsValue::UNDEFINED) {
                let _ = js::call_method(&p, "then", &[&run]);
            }
        }
    }
}

/// Polls the tasks queued before this microtask; those woken meanwhile wait for the next. Each
/// task is taken off the queue only as its turn comes, and while others wait behind it the
/// next microtask is already queued: a poll that never returns here (a JS exception or a trap
/// unwinding through it) strands no other task, which that microtask polls.
fn run() {
    let count = QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        q.scheduled = false;
        q.tasks.len()
    });
    for _ in 0..count {
        let Some(task) = QUEUE.with(|q| q.borrow_mut().tasks.pop_front()) else {
            break;
        };
        schedule();
        task.queued.set(false);
        let waker = waker(task.clone());
        // A task whose poll never returned is still borrowed: it is dropped, not polled again.
        let Ok(mut future) = task.future.try_borrow_mut() else {
            continue;
        };
        let done = match future.as_mut() {
            Some(future) => future
                .as_mut()
                .poll(&mut Context::from_waker(&waker))
                .is_ready(),
            None => false,
        };
        // Dropped outside the borrow: its drop guards may call into JS, and JS back in.
        let ended = if done { future.take() } else { None };
        drop(future);
        drop(ended);
    }
}

/// A `Waker` that holds `task` (an `Rc`: the wasm has one thread, so nothing crosses threads).
fn waker(task: Rc<Task>) -> Waker {
    fn raw(task: Rc<Task>) -> RawWaker {
        RawWaker::new(Rc::into_raw(task).cast(), &VTABLE)
    }
    // SAFETY (all four): `ptr` comes from `Rc::into_raw` in `raw`, and each waker owns one count.
    unsafe fn clone(ptr: *const ()) -> RawWaker {
        let task = ManuallyDrop::new(unsafe { Rc::from_raw(ptr.cast::<Task>()) });
        raw(Rc::clone(&task))
    }
    unsafe fn wake_owned(ptr: *const ()) {
        wake(unsafe { Rc::from_raw(ptr.cast::<Task>()) });
    }
    unsafe fn wake_by_ref(ptr: *const ()) {
        let task = ManuallyDrop::new(unsafe { Rc::from_raw(ptr.cast::<Task>()) });
        wake(Rc::clone(&task));
    }
    unsafe fn drop_waker(ptr: *const ()) {
        drop(unsafe { Rc::from_raw(ptr.cast::<Task>()) });
    }
    static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, wake_owned, wake_by_ref, drop_waker);
    // SAFETY: `raw` gives the vtable above a pointer it accepts.
    unsafe { Waker::from_raw(raw(task)) }
}

/// How a promise settled, once it has, and who waits for it.
struct Settlement {
    outcome: Option<Result<JsValue, JsValue>>,
    waker: Option<Waker>,
    /// The `then` callbacks, kept until one runs (then both are dropped).
    callbacks: Option<[Closure<Callback>; 2]>,
}

/// What [`wait`] returns: a future of a promise's outcome.
pub(crate) struct Wait(Rc<JsRefCell<Settlement>>);

/// Awaits `value` as JS `await` does (a value that is no promise is its own answer): `Ok` with
/// what it resolved to, `Err` with what it rejected with.
pub(crate) fn wait(value: &JsValue) -> Wait {
    let state = Rc::new(JsRefCell::new(Settlement {
        outcome: None,
        waker: None,
        callbacks: None,
    }));
    let on = |fulfilled: bool| {
        let state = state.clone();
        Closure::<Callback>::new(move |v: JsValue, _| {
            let (callbacks, waker) = {
                let mut s = state.borrow_mut();
                s.outcome = Some(if fulfilled { Ok(v) } else { Err(v) });
                (s.callbacks.take(), s.waker.take())
            };
            // This callback's function lives on until it returns (wasm-bindgen counts calls).
            drop(callbacks);
            if let Some(w) = waker {
                w.wake();
            }
            JsValue::UNDEFINED
        })
    };
    // A value whose `Promise.resolve` or `then` throws (a promise whose `constructor` getter
    // throws, say) is awaited as a rejection with what it threw.
    let then = js::promise_resolve(value).and_then(|promise| {
        let callbacks = [on(true), on(false)];
        js::call_method(
            &promise,
            "then",
            &[callbacks[0].as_ref(), callbacks[1].as_ref()],
        )
        .map(|_| callbacks)
    });
    match then {
        Ok(callbacks) => state.borrow_mut().callbacks = Some(callbacks),
        Err(e) => {
            let mut s = state.borrow_mut();
            if s.outcome.is_none() {
                s.outcome = Some(Err(e));
            }
        }
    }
    Wait(state)
}

impl Future for Wait {
    type Output = Result<JsValue, JsValue>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut s = self.0.borrow_mut();
        match s.outcome.take() {
            Some(outcome) => Poll::Ready(outcome),
            None => {
                s.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// Awaits `v` as `await` does (a value that is no promise is its own answer); a rejection as
/// its text.
pub(crate) async fn settle(v: &JsValue) -> Result<JsValue, String> {
    wait(v).await.map_err(|e| error_text(&e))
}

/// Calls an app function with `args` and awaits its answer, so sync, async and throwing
/// functions all work the same way: `Err` holds what was thrown or rejected.
pub(crate) async fn call_async(f: &Function, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let ret = call(f, args)?;
    wait(&ret).await
}

/// Calls a hook given by the app and awaits its answer; a throw or rejection as its text.
pub(crate) async fn call_hook(f: &Function, arg: &JsValue) -> Result<JsValue, String> {
    call_async(f, &[arg]).await.map_err(|e| error_text(&e))
}

/// A promise settled by `task`: resolved with its `Ok`, rejected with its `Err`. Boxed, like
/// [`spawn`], so every promise-returning entry point shares one path.
pub(crate) fn promise(task: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>) -> Promise {
    let (promise, waiter) = Waiter::new();
    spawn(Box::pin(async move {
        match task.await {
            Ok(v) => waiter.resolve(&v),
            Err(e) => waiter.reject(&e),
        }
    }));
    promise
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
    let _ = wait(&promise).await;
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen(inline_js = r#"
export function boom() { throw new Error("a task's import threw"); }
export function bad_promise() {
  const p = Promise.resolve(1);
  Object.defineProperty(p, "constructor", { get() { throw new Error("constructor getter"); } });
  return p;
}
"#)]
    extern "C" {
        /// Not `catch`, on purpose: its throw unwinds through the executor's poll.
        fn boom();
        fn bad_promise() -> JsValue;
    }

    /// Tasks queued in the same tick as one whose poll throws still run, and later ones too.
    #[wasm_bindgen_test]
    async fn a_task_that_throws_strands_no_other() {
        let ran = Rc::new(Cell::new(0));
        spawn(Box::pin(async {
            boom();
        }));
        for _ in 0..3 {
            let ran = ran.clone();
            spawn(Box::pin(async move { ran.set(ran.get() + 1) }));
        }
        next_task().await;
        assert_eq!(ran.get(), 3, "the tasks queued behind the throwing one ran");
        let later = ran.clone();
        spawn(Box::pin(async move { later.set(later.get() + 10) }));
        next_task().await;
        assert_eq!(ran.get(), 13, "a task spawned afterwards ran");
    }

    /// A promise whose `Promise.resolve` throws (its `constructor` getter) is awaited as a
    /// rejection with what it threw, and the awaiting task goes on.
    #[wasm_bindgen_test]
    async fn a_promise_whose_constructor_throws_rejects() {
        let outcome = wait(&bad_promise()).await;
        let error = outcome.expect_err("awaited as a rejection");
        assert_eq!(error_text(&error), "constructor getter");
    }
}
