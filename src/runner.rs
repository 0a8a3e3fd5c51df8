//! Running admitted calls of the transports besides the Sessions API (a registry's `execute`,
//! WebMCP, turn-based answers): the call runtime decides, this carries out. Each call gets an
//! `AbortSignal`; one timer, at the runtime's next deadline, answers the calls past theirs
//! ([`guards::drain`], as the Client's and `WsTools`' shells run theirs: armed again after each
//! timeout, so a timer that fires before the clock reaches the deadline is not lost). The
//! caller's own signal cancels a call.
//! `ctx.afterResult(fn)` runs `fn` once the answer was handed over. The engine does the same
//! for Sessions calls through the browser shell.

use crate::api::shell::Handler;
use crate::browser::calls::Calls;
use crate::browser::guards::{self, Listener, Pump, Pumped};
use crate::browser::oneshot::{self, Receiver, Sender};
use crate::browser::{handlers, now};
use crate::js::JsRefCell;
use client_tools_core::adapters::registry::Registry;
use client_tools_core::calls::{unknown_tool, Admission, Answer, Call, CallRuntime, Cutoff};
use client_tools_core::time::{Duration, Instant};
use client_tools_core::vec_map::VecMap;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

/// A tool as the registry keeps it: the app's handler, the definition object it gave
/// (`undefined` for a client's tools, which `exposeToWebMCP` reads as entries too: one
/// `Registry` type in the module) and its WebMCP annotations.
#[derive(Clone)]
pub(crate) struct Entry {
    pub handler: Handler,
    /// Read by the JS `ToolRegistry` only.
    #[cfg_attr(not(feature = "js-api"), allow(dead_code))]
    pub source: JsValue,
    /// Read by `exposeToWebMCP` only (not in the lite build, which still takes them).
    #[cfg_attr(not(feature = "webmcp"), allow(dead_code))]
    pub annotations: Option<String>,
}

#[cfg(feature = "webmcp")]
impl Entry {
    /// A client's tool as an entry, for `exposeToWebMCP` (it has no definition object).
    pub(crate) fn of(tool: &crate::api::tool::Tool) -> Entry {
        Entry {
            handler: tool.parts().handler.clone(),
            source: JsValue::UNDEFINED,
            annotations: tool.parts().annotations.clone(),
        }
    }
}

/// A call's answer, once it comes: `None` if the caller's signal cancelled it first.
pub(crate) struct Outcome(Receiver<Option<Answer>>);

impl Future for Outcome {
    type Output = Option<Answer>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Answer>> {
        Pin::new(&mut self.0).poll(cx).map(Option::flatten)
    }
}

/// What a call became at its admission ([`Runner::run`]).
pub(crate) enum Admitted {
    /// Answered without running (an unknown tool, bad arguments, over `maxCallsPerRun`).
    Answered(Answer),
    /// Its call id is one the runtime has seen or still runs: nothing runs.
    Duplicate,
    /// Its handler runs.
    Running(Outcome),
}

/// What is kept about a call whose handler runs; dropping it stops its listener on the
/// caller's signal. Its `ctx` (signal, deadline, `afterResult`) is in `Runner::calls`.
struct Pending {
    /// Cancels the call when the caller's signal aborts.
    _caller: Option<Listener>,
    slot: Sender<Option<Answer>>,
}

/// The calls of one transport: its call runtime and the handlers it runs.
pub(crate) struct Runner {
    pub(crate) runtime: JsRefCell<CallRuntime>,
    pending: JsRefCell<VecMap<String, Pending>>,
    /// The running handlers' `ctx`, kept as the Client's driver keeps them.
    calls: Calls,
    /// The one timer, at the runtime's next deadline.
    pump: Pump,
}

impl Runner {
    /// A runner that has seen no call.
    pub(crate) fn new() -> Rc<Runner> {
        Rc::new(Runner {
            runtime: JsRefCell::default(),
            pending: JsRefCell::default(),
            calls: Calls::new(),
            pump: Pump::default(),
        })
    }

    /// "Now" for the runtime.
    pub(crate) fn now() -> Instant {
        now()
    }

    /// A call through the runtime, now: admitted against `tools` (its arguments checked, its
    /// run's count), its deadline brought forward to `cap` from now (a caller's deadline), and
    /// its handler started ([`Runner::start`]; `signal`, the caller's, cancels it). `tools` is
    /// borrowed only to admit the call and take its handler: the start calls into JS.
    pub(crate) fn run(
        self: &Rc<Self>,
        call: Call<'_>,
        args: Value,
        tools: &JsRefCell<Registry<Entry>>,
        cap: Option<Duration>,
        signal: Option<&AbortSignal>,
    ) -> Admitted {
        let now = Runner::now();
        let (admitted, handler) = {
            let tools = tools.borrow();
            let mut runtime = self.runtime.borrow_mut();
            // A tool not among `tools` is answered as `admit` answers it (its id seen first),
            // as the turn-based adapter does: every admitted call has its handler.
            let Some((_, entry)) = tools.get(call.tool) else {
                if !runtime.mark_seen(call.call_id) {
                    return Admitted::Duplicate;
                }
                return Admitted::Answered(unknown_tool(call.tool, tools.defs()));
            };
            let admitted = runtime.admit(call, args, tools.defs(), now);
            (admitted, entry.handler.clone())
        };
        let (arguments, mut deadline) = match admitted {
            Admission::Run {
                arguments,
                deadline,
            } => (arguments, deadline),
            Admission::Answer(answer) => return Admitted::Answered(answer),
            Admission::Duplicate => return Admitted::Duplicate,
        };
        if let Some(cap) = cap {
            let at = now + cap;
            let mut runtime = self.runtime.borrow_mut();
            if runtime.cut_short(call.call_id, at, Cutoff::Caller) {
                deadline = at;
            }
        }
        let outcome = self.start(
            call.call_id,
            call.run_id,
            call.tool,
            &handler,
            arguments,
            deadline,
            signal,
        );
        Admitted::Running(outcome)
    }

    /// Runs `handler` for a call the runtime admitted with `arguments` and `deadline`, and
    /// answers when it finishes, at the deadline ("timed out", its signal aborted), or `None`
    /// when `signal` (the caller's) aborts first.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        self: &Rc<Self>,
        call_id: &str,
        run_id: &str,
        tool: &str,
        handler: &Handler,
        arguments: Map<String, Value>,
        deadline: Instant,
        signal: Option<&AbortSignal>,
    ) -> Outcome {
        let (slot, answer) = oneshot::channel();
        let outcome = Outcome(answer);
        let caller = signal.and_then(|signal| {
            let weak = Rc::downgrade(self);
            let id = call_id.to_owned();
            Listener::new(signal.as_ref(), "abort", move |_| {
                if let Some(runner) = weak.upgrade() {
                    runner.cancel(&id);
                    guards::drain(&runner);
                }
            })
        });
        self.pending.borrow_mut().insert(
            call_id.to_owned(),
            Pending {
                _caller: caller,
                slot,
            },
        );
        if signal.is_some_and(|s| crate::js::bool_prop(s, "aborted")) {
            self.cancel(call_id);
            return outcome;
        }
        let (runner, id) = (self.clone(), call_id.to_owned());
        let done = move |returned| {
            let answer = runner.runtime.borrow_mut().finish(&id, returned);
            if let Some(answer) = answer {
                runner.settle(&id, Some(answer), false);
                // The timer follows the deadlines still to come (none: cleared).
                guards::drain(&runner);
            }
        };
        handlers::start(
            &self.calls,
            call_id,
            run_id,
            tool,
            handler.clone(),
            arguments,
            deadline.as_ms(),
            Box::new(done),
        );
        // The timer, at the earliest deadline (this call's, if it is the earliest).
        guards::drain(self);
        outcome
    }

    /// The caller gave up on the call: its handler is aborted and it answers `None`.
    fn cancel(&self, call_id: &str) {
        if self.runtime.borrow_mut().cancel(call_id) {
            self.settle(call_id, None, true);
        }
    }

    /// Ends a call: its answer delivered; its handler's signal aborted if `abort`.
    fn settle(&self, call_id: &str, answer: Option<Answer>, abort: bool) {
        let Some(p) = self.pending.borrow_mut().remove(call_id) else {
            return;
        };
        if abort {
            let reason = match &answer {
                Some(Answer::Err { message, .. }) => message.clone(),
                _ => "the caller aborted the call".to_owned(),
            };
            self.calls.abort(call_id, &reason);
            p.slot.send(answer);
            return;
        }
        let after = self.calls.end(call_id);
        p.slot.send(answer);
        // After the answer reached the caller (a later task than the promise it settles), as
        // `ctx.afterResult` runs after a Sessions result is posted. An aborted call's callbacks
        // are dropped: nothing was delivered from its handler.
        if !after.is_empty() {
            guards::detached(
                0,
                Box::new(move || {
                    for f in after {
                        f();
                    }
                }),
            );
        }
    }
}

/// The runner's one timer: [`guards::drain`] arms it for the runtime's next deadline and, when
/// it fires, answers the calls past theirs and arms it again for the rest. It has no outputs.
impl Pumped for Runner {
    type Output = std::convert::Infallible;

    fn pump(&self) -> &Pump {
        &self.pump
    }

    fn poll_output(&self) -> Option<Self::Output> {
        None
    }

    fn next_deadline(&self) -> Option<Instant> {
        self.runtime.borrow().next_deadline()
    }

    /// Answers the calls past their deadline by `now` "timed out", aborting their handlers.
    fn handle_timeout(&self, now: Instant) {
        let due = self.runtime.borrow_mut().expire(now);
        for (id, answer) in due {
            self.settle(&id, Some(answer), true);
        }
    }

    fn carry_out(self: &Rc<Self>, out: Self::Output) {
        match out {}
    }
}

/// A JS value as JSON for the runtime (`JSON.stringify`; `undefined` as `null`).
#[cfg(feature = "js-api")]
pub(crate) fn to_json(v: &JsValue) -> Result<Value, String> {
    if v.is_undefined() {
        return Ok(Value::Null);
    }
    let text = js_sys::JSON::stringify(v)
        .map_err(|_| "cannot be written as JSON".to_owned())?
        .as_string()
        .ok_or_else(|| "has no JSON form".to_owned())?;
    client_tools_core::json::parse(&text).map_err(|e| format!("not JSON ({e})"))
}

/// JSON text as a JS value, parsed by the browser (keys keep their order).
#[cfg(any(feature = "js-api", feature = "webmcp"))]
pub(crate) fn from_json_text(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::NULL)
}
