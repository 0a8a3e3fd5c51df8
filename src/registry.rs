//! A registry's behaviour, under both its faces (`client_tools::Registry`, `api::registry`, and
//! the JS `ToolRegistry`, `js_api::registry`): the tools (the core's [`Registry`]) and
//! `execute`, a tool run by name as a Sessions call runs: through the call runtime (argument
//! checks, `timeoutMs`, `maxCallsPerRun` per run), capped by the caller's deadline, and once
//! per caller's call id.

use crate::js::JsRefCell;
use crate::runner::{Admitted, Entry, Outcome, Runner};
use client_tools_core::adapters::registry::Registry;
use client_tools_core::calls::{Answer, Call, Replays};
use client_tools_core::quote::Quoted;
use client_tools_core::time::Duration;
use std::cell::Cell;
use std::rc::Rc;
use web_sys::AbortSignal;

/// A registry's tools and the runtime their `execute` calls go through; `R` is how a face
/// keeps an answer for a repeated call id (a JS `Promise`, a Rust shared slot).
pub(crate) struct Tools<R> {
    pub(crate) tools: JsRefCell<Registry<Entry>>,
    runner: Rc<Runner>,
    calls: Cell<u64>,
    /// The caller's call ids (`execute`'s `callId`) and their answers.
    replays: Rc<JsRefCell<Replays<R>>>,
}

/// Forgets a kept answer of [`Tools::once`]: the call failed, a retry of its id runs.
pub(crate) struct Forget<R> {
    replays: Rc<JsRefCell<Replays<R>>>,
    id: String,
    n: u64,
}

impl<R> Forget<R> {
    pub(crate) fn forget(self) {
        self.replays.borrow_mut().forget(&self.id, self.n);
    }
}

/// One `execute`, its options read: the call numbered `n` of the tool `name`, answered by
/// `deadline_ms` (from now) at the latest; its own run unless the caller named one.
pub(crate) struct Execute<'a> {
    pub(crate) n: u64,
    pub(crate) name: &'a str,
    pub(crate) run_id: Option<String>,
    pub(crate) deadline_ms: Option<u64>,
    pub(crate) signal: Option<&'a AbortSignal>,
}

/// What an `execute` admitted by the runtime became.
pub(crate) enum Started {
    /// Answered without running (bad arguments, over `maxCallsPerRun`).
    Answered(Answer),
    /// Its call id is that of a call the runtime still runs: refused ([`reused`]).
    Reused,
    /// Its handler runs.
    Running(Running),
}

/// A running `execute`: `outcome` completes with its answer, `None` if the caller's signal
/// aborted it first (the error [`aborted`]); then `ended.forget()`.
pub(crate) struct Running {
    pub(crate) outcome: Outcome,
    pub(crate) ended: Ended,
}

/// What a call's end lets go: its own run (`None` for a run the caller named).
pub(crate) struct Ended {
    runner: Rc<Runner>,
    own_run: Option<String>,
}

impl Ended {
    pub(crate) fn forget(self) {
        if let Some(run_id) = self.own_run {
            self.runner.runtime.borrow_mut().forget_run(&run_id);
        }
    }
}

/// The refusal of an `execute` whose call id a call still running holds (`ErrorKind::Rejected`).
pub(crate) const REUSED: &str = "execute: a call id was reused";

/// The refusal of an `execute(name)` its caller aborted (`ErrorKind::Aborted`).
pub(crate) fn aborted(name: &str) -> String {
    format!("execute({}): aborted", Quoted(name))
}

impl<R: Clone + 'static> Tools<R> {
    pub(crate) fn new(tools: Registry<Entry>) -> Tools<R> {
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
    /// id gets the first call's answer (the same `R`) and nothing runs. A kept answer comes
    /// with its [`Forget`], for its face to use if the call fails (aborted, refused), so a
    /// retry runs.
    pub(crate) fn once(
        &self,
        call_id: Option<String>,
        run: impl FnOnce(u64) -> R,
    ) -> (R, Option<Forget<R>>) {
        let n = self.calls.get() + 1;
        self.calls.set(n);
        let Some(id) = call_id else {
            return (run(n), None);
        };
        if let Some(first) = self.replays.borrow().get(&id) {
            return (first.clone(), None);
        }
        let answer = run(n);
        self.replays.borrow_mut().insert(&id, n, answer.clone());
        let forget = Forget {
            replays: self.replays.clone(),
            id,
            n,
        };
        (answer, Some(forget))
    }

    /// Runs `call` with `args` through the runtime, now: answered at once, refused, or
    /// running (whether or not its future is polled).
    pub(crate) fn run(&self, call: Execute<'_>, args: serde_json::Value) -> Started {
        let call_id = format!("execute-{}", call.n);
        let (run_id, own_run) = match call.run_id {
            None => (call_id.clone(), true),
            Some(r) => (r, false),
        };
        let admitted = self.runner.run(
            Call {
                call_id: &call_id,
                run_id: &run_id,
                tool: call.name,
            },
            args,
            &self.tools,
            // The caller's deadline caps the tool's timeout.
            call.deadline_ms.map(Duration::from_ms),
            call.signal,
        );
        match admitted {
            Admitted::Running(outcome) => {
                let ended = Ended {
                    runner: self.runner.clone(),
                    own_run: own_run.then_some(run_id),
                };
                Started::Running(Running { outcome, ended })
            }
            Admitted::Answered(answer) => Started::Answered(answer),
            Admitted::Duplicate => Started::Reused,
        }
    }
}
