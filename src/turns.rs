//! `TurnTools`' behaviour (its JS face: `js_api::turns`): a turn's calls run concurrently
//! through the call runtime, `onCall` told of each, and the next request's `toolResponses`
//! written in the calls' order. The pure half (reading the calls, matching, writing the
//! responses) is the core's `adapters::turns`. The Rust face (`api::turns`) runs the same
//! steps typed; this loop is not shared with it for size (see that module).

use crate::runner::{from_json_text, Entry, Runner};
use client_tools_core::adapters::registry::Registry;
use client_tools_core::adapters::turns::{self, Step, TurnCall};
use client_tools_core::calls::{Answer, ErrorKind};
use js_sys::{Function, Object, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A turn-based session's tools, the runtime their calls go through, the run they count in,
/// and the app's `onCall`.
pub(crate) struct Turns {
    tools: Rc<Registry<Entry>>,
    runner: Rc<Runner>,
    run_id: String,
    on_call: Option<Function>,
}

impl Turns {
    pub(crate) fn new(tools: Registry<Entry>, run_id: String, on_call: Option<Function>) -> Turns {
        Turns {
            tools: Rc::new(tools),
            runner: Runner::new(),
            run_id,
            on_call,
        }
    }

    /// Runs `calls` (those not answered before) concurrently: the promise of the next
    /// request's input, `{ toolResponses: { toolResponses: [...] } }` in the calls' order, or
    /// `null` when there is none to answer. A failure is a response `{ error }`.
    pub(crate) fn answer(&self, calls: Vec<TurnCall>) -> Promise {
        let started = Runner::now();
        let steps = {
            let mut runtime = self.runner.runtime.borrow_mut();
            turns::admit(
                &calls,
                &mut runtime,
                self.tools.defs(),
                &self.run_id,
                started,
            )
        };
        let mut waiting = Vec::new();
        for (call, step) in calls.into_iter().zip(steps) {
            let name = call
                .display_name
                .clone()
                .unwrap_or_else(|| call.tool.clone());
            let (name, outcome) = match step {
                Step::Skip => continue,
                Step::Answered(answer) => (name, Err(answer)),
                Step::Run {
                    tool,
                    arguments,
                    deadline,
                } => {
                    tell(&self.on_call, "dispatched", &call.id, &tool, None);
                    let handler = match self.tools.get(&tool) {
                        Some((_, e)) => e.handler.clone(),
                        None => continue, // admitted only for a tool of the registry
                    };
                    let outcome = self.runner.start(
                        &call.id,
                        &self.run_id,
                        &tool,
                        &handler,
                        arguments,
                        deadline,
                        None,
                    );
                    (tool, Ok(outcome))
                }
            };
            waiting.push((call, name, outcome));
        }
        let on_call = self.on_call.clone();
        crate::js::promise::from_future(Box::pin(async move {
            if waiting.is_empty() {
                return Ok(JsValue::NULL);
            }
            let mut responses = Vec::with_capacity(waiting.len());
            for (call, name, outcome) in waiting {
                let answer = match outcome {
                    Err(answer) => answer,
                    // Without a caller's signal a call is always answered.
                    Ok(o) => o.await.unwrap_or_else(|| {
                        Answer::error(ErrorKind::HandlerError, "The call was aborted.")
                    }),
                };
                let elapsed = Runner::now().since(started).as_ms();
                tell(
                    &on_call,
                    "answered",
                    &call.id,
                    &name,
                    Some((&answer, elapsed)),
                );
                responses.push(turns::tool_response(&call, answer));
            }
            Ok(from_json_text(&turns::tool_responses(&responses)))
        }))
    }
}

/// Tells `onCall` about a call; a throwing callback is ignored (the call goes on).
fn tell(
    on_call: &Option<Function>,
    kind: &str,
    id: &str,
    tool: &str,
    answered: Option<(&Answer, u64)>,
) {
    let Some(f) = on_call else { return };
    let event = Object::new();
    let set = |k: &str, v: JsValue| crate::js::set(&event, k, &v);
    set("type", kind.into());
    set("id", id.into());
    set("tool", tool.into());
    if let Some((answer, elapsed)) = answered {
        set("isError", answer.is_error().into());
        set("elapsedMs", (elapsed as f64).into());
    }
    let _ = crate::js::call(f, &[&event]);
}
