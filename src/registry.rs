//! `ToolRegistry`'s behaviour (its JS face: `js_api::registry`): the tools (the core's
//! [`Registry`]) and `execute`, a tool run by name as a Sessions call runs: through the call
//! runtime (argument checks, `timeoutMs`, `maxCallsPerRun` per run), capped by the caller's
//! deadline, and once per caller's call id.

use crate::api::shell::Handler;
use crate::js::JsRefCell;
use crate::runner::{Entry, Runner};
use client_tools_core::adapters::registry::Registry;
use client_tools_core::api::ErrorKind;
use client_tools_core::calls::{Admission, Answer, Call, Cutoff, Replays};
use client_tools_core::quote::Quoted;
use client_tools_core::time::Duration;
use js_sys::Promise;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

/// A registry's tools and the runtime their `execute` calls go through.
pub(crate) struct Tools {
    pub(crate) tools: JsRefCell<Registry<Entry>>,
    runner: Rc<Runner>,
    calls: Cell<u64>,
    /// The caller's call ids (`execute`'s `callId`) and their answers.
    replays: Rc<JsRefCell<Replays<Promise>>>,
}

/// One `execute`, its options read: the call numbered `n` of the tool `name`, answered by
/// `deadline_ms` (from now) at the latest; its own run unless the caller named one.
pub(crate) struct Execute<'a> {
    pub(crate) n: u64,
    pub(crate) name: &'a str,
    pub(crate) handler: &'a Handler,
    pub(crate) run_id: Option<String>,
    pub(crate) deadline_ms: Option<u64>,
    pub(crate) signal: Option<&'a AbortSignal>,
}

/// The `Error` of an `execute` its caller aborted.
pub(crate) fn aborted(name: &str) -> JsValue {
    crate::js::error(
        ErrorKind::Aborted,
        &format!("execute({}): aborted", Quoted(name)),
    )
}

impl Tools {
    pub(crate) fn new(tools: Registry<Entry>) -> Tools {
        Tools {
            tools: JsRefCell::new(tools),
            runner: Runner::new(),
            calls: Cell::new(0),
            replays: Rc::default(),
        }
    }

    /// The tools, for the other transports (moved out, not copied).
    pub(crate) fn into_tools(self) -> Registry<Entry> {
        self.tools.into_inner()
    }

    /// The answer of `run`, given the call's number, once per caller's `call_id`: a repeated
    /// id gets the first call's answer (the same promise) and nothing runs; a call that
    /// rejected (aborted, refused) is forgotten, so a retry runs.
    pub(crate) fn once(
        &self,
        call_id: Option<String>,
        run: impl FnOnce(u64) -> Promise,
    ) -> Promise {
        let n = self.calls.get() + 1;
        self.calls.set(n);
        let Some(id) = call_id else {
            return run(n);
        };
        if let Some(first) = self.replays.borrow().get(&id) {
            return first.clone();
        }
        let answer = run(n);
        self.replays.borrow_mut().insert(&id, n, answer.clone());
        let (replays, failed) = (self.replays.clone(), answer.clone());
        crate::js::promise::spawn(Box::pin(async move {
            if crate::js::promise::settle(&failed).await.is_err() {
                replays.borrow_mut().forget(&id, n);
            }
        }));
        answer
    }

    /// Runs `call` with `args` through the runtime: the promise of its answer as `write`
    /// writes it (the caller's shape; one future, not one awaiting another), rejected with
    /// [`aborted`] when the caller's signal aborts first, or when the call id was reused.
    pub(crate) fn run(
        &self,
        call: Execute<'_>,
        args: serde_json::Value,
        write: impl Fn(Answer) -> JsValue + Copy + 'static,
    ) -> Promise {
        let call_id = format!("execute-{}", call.n);
        let (run_id, own_run) = match call.run_id {
            None => (call_id.clone(), true),
            Some(r) => (r, false),
        };
        let name = call.name;
        let now = Runner::now();
        let mut runtime = self.runner.runtime.borrow_mut();
        let admitted = runtime.admit(
            Call {
                call_id: &call_id,
                run_id: &run_id,
                tool: name,
            },
            args,
            self.tools.borrow().defs(),
            now,
        );
        let outcome = match admitted {
            Admission::Run {
                arguments,
                mut deadline,
            } => {
                // The caller's deadline caps the tool's timeout.
                if let Some(ms) = call.deadline_ms {
                    let at = now + Duration::from_ms(ms);
                    if runtime.cut_short(&call_id, at, Cutoff::Caller) {
                        deadline = at;
                    }
                }
                drop(runtime);
                self.runner.start(
                    &call_id,
                    &run_id,
                    name,
                    call.handler,
                    arguments,
                    deadline,
                    call.signal,
                )
            }
            Admission::Answer(answer) => return Promise::resolve(&write(answer)),
            Admission::Duplicate => {
                return Promise::reject(&crate::js::error(
                    ErrorKind::Rejected,
                    "execute: a call id was reused",
                ))
            }
        };
        let (runner, name) = (self.runner.clone(), name.to_owned());
        crate::js::promise::from_future(Box::pin(async move {
            let answer = outcome.await;
            if own_run {
                runner.runtime.borrow_mut().forget_run(&run_id);
            }
            match answer {
                Some(answer) => Ok(write(answer)),
                None => Err(aborted(&name)),
            }
        }))
    }
}
