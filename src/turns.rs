//! `TurnTools`' behaviour, under both faces (`client_tools::TurnTools` in `crate::api::turns`,
//! the JS class in `crate::js_api::turns`, each a conversion into this): a turn's calls run
//! concurrently through the call runtime, `on_call` told of each, and the next request's
//! `toolResponses` written in the calls' order. The pure half (reading the calls, matching,
//! writing the responses) is the core's `adapters::turns`.

use crate::runner::{Entry, Runner};
use client_tools_core::adapters::registry::Registry;
use client_tools_core::adapters::turns::{self, Step, TurnCall, TurnCallEvent};
use client_tools_core::calls::{Answer, ErrorKind};
use std::future::Future;
use std::rc::Rc;

/// The app's `on_call`, as each face holds it (a JS function, a Rust closure): told as each
/// call starts and is answered.
pub(crate) trait OnCall: Clone + 'static {
    fn tell(&self, event: &TurnCallEvent);
}

/// A turn-based session's tools, the runtime their calls go through, the run they count in,
/// and the app's `on_call`.
pub(crate) struct Turns<F> {
    tools: Rc<Registry<Entry>>,
    runner: Rc<Runner>,
    run_id: String,
    on_call: Option<F>,
}

impl<F: OnCall> Turns<F> {
    pub(crate) fn new(tools: Registry<Entry>, run_id: String, on_call: Option<F>) -> Turns<F> {
        Turns {
            tools: Rc::new(tools),
            runner: Runner::new(),
            run_id,
            on_call,
        }
    }

    /// Starts `calls` (those not answered before) now, concurrently: the future of what
    /// `face` makes of the next request's input, given as JSON text,
    /// `{"toolResponses": {"toolResponses": [...]}}` in the calls' order, or `None` when there
    /// is none to answer. A failure is a response `{"error"}`.
    pub(crate) fn answer<T>(
        &self,
        calls: Vec<TurnCall>,
        face: fn(Option<String>) -> T,
    ) -> impl Future<Output = T> {
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
                    let id = call.id.clone();
                    let dispatched = TurnCallEvent::Dispatched {
                        id,
                        tool: tool.clone(),
                    };
                    tell(&self.on_call, dispatched);
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
        async move {
            if waiting.is_empty() {
                return face(None);
            }
            let mut responses = Vec::with_capacity(waiting.len());
            for (call, tool, outcome) in waiting {
                let answer = match outcome {
                    Err(answer) => answer,
                    // Without a caller's signal a call is always answered.
                    Ok(o) => o.await.unwrap_or_else(|| {
                        Answer::error(ErrorKind::HandlerError, "The call was aborted.")
                    }),
                };
                let answered = TurnCallEvent::Answered {
                    id: call.id.clone(),
                    tool,
                    is_error: answer.is_error(),
                    elapsed_ms: Runner::now().since(started).as_ms(),
                };
                tell(&on_call, answered);
                responses.push(turns::tool_response(&call, answer));
            }
            face(Some(turns::tool_responses(&responses)))
        }
    }
}

/// Tells the app's `on_call`, if any.
fn tell(on_call: &Option<impl OnCall>, event: TurnCallEvent) {
    if let Some(f) = on_call {
        f.tell(&event);
    }
}
