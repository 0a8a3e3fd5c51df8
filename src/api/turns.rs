//! `client_tools::TurnTools`, the Rust face of the JS `TurnTools`: a turn-based session's
//! client function tool calls (`toolCalls` out, `toolResponses` in) run through the call
//! runtime (`crate::runner`), the pure half being the core's `adapters::turns`, as for the JS
//! class. The JS class keeps its own loop (`crate::turns`, Promise and JS `onCall`): running it
//! over this one, generic over the callback, measured +76 to +138 B gzipped in the npm full
//! build, which has no room for them (issue 43).

use super::registry::Registry;
use super::Tool;
use crate::runner::{Entry, Outcome, Runner};
use client_tools_core::adapters::registry::Registry as Tools;
use client_tools_core::adapters::turns::{self, Step, TurnCall};
use client_tools_core::api::{Error, ErrorKind};
use client_tools_core::calls::{Answer, ErrorKind as AnswerKind};
use client_tools_core::time::Instant;
use serde_json::Value;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;

/// Answers the client function tool calls of a turn-based session: the session's response
/// holds `toolCalls`, [`TurnTools::answer`] runs them concurrently (each as a Sessions call
/// runs: schema, timeout, `max_calls_per_run` in the run of [`TurnToolsOptions::run_id`])
/// and gives the next request's input. The JS `TurnTools` with the same meaning.
///
/// ```no_run
/// use client_tools::{Tool, TurnTools, TurnToolsOptions};
/// use serde_json::json;
///
/// async fn next_input(response: serde_json::Value) -> Result<(), client_tools::Error> {
///     let tools = TurnTools::new(
///         vec![Tool::new("get_time", "The page's clock.", |_args, _ctx| async move { "12:00" })],
///         TurnToolsOptions::default().on_call(|event| { let _ = event; /* logs, a spinner */ }),
///     )?;
///     // `response`: the runSession response (`{"outputs": [...]}`), its outputs, or a
///     // `{"toolCalls": [...]}` object.
///     if let Some(input) = tools.answer(&response).await? {
///         let _ = input; // {"toolResponses": {"toolResponses": [...]}}: send it in the next request
///     }
///     Ok(())
/// }
/// ```
pub struct TurnTools {
    tools: Rc<Tools<Entry>>,
    runner: Rc<Runner>,
    run_id: String,
    on_call: Tell,
}

/// The options of [`TurnTools::new`]: both optional.
#[derive(Clone, Default)]
pub struct TurnToolsOptions {
    run_id: Option<String>,
    on_call: Tell,
}

impl TurnToolsOptions {
    /// The run `max_calls_per_run` counts in (default: one run for this `TurnTools`,
    /// `"turns"`).
    pub fn run_id(mut self, run_id: impl Into<String>) -> Self {
        self.run_id = Some(run_id.into());
        self
    }

    /// Called as each call starts and is answered.
    pub fn on_call(mut self, f: impl Fn(&TurnCallEvent) + 'static) -> Self {
        self.on_call = Tell(Some(Rc::new(f)));
        self
    }
}

/// How a turn's call is doing, for logs and UIs (the JS `TurnCallEvent`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnCallEvent {
    /// The call's handler starts.
    Dispatched {
        /// The call's id, echoed in its response.
        id: String,
        /// The tool's name.
        tool: String,
    },
    /// The call is answered (a refusal without running included).
    Answered {
        /// The call's id.
        id: String,
        /// The tool's name; for a call refused before running (an unknown tool, bad
        /// arguments, over its limit), the call's `displayName`, else its full `tool`.
        tool: String,
        /// Whether the response is an `error`.
        is_error: bool,
        /// Time since `answer` was called.
        elapsed: Duration,
    },
}

/// The app's `on_call`, if it gave one.
#[derive(Clone, Default)]
struct Tell(Option<Rc<OnCall>>);

type OnCall = dyn Fn(&TurnCallEvent);

impl Tell {
    fn tell(&self, event: impl FnOnce() -> TurnCallEvent) {
        if let Some(f) = &self.0 {
            f(&event());
        }
    }
}

impl TurnTools {
    /// Serves `tools`. Fails, as [`Registry::new`] does, naming the first bad tool.
    pub fn new(tools: Vec<Tool>, options: TurnToolsOptions) -> Result<TurnTools, Error> {
        Ok(TurnTools {
            tools: Rc::new(Registry::new(tools)?.into_tools()),
            runner: Runner::new(),
            run_id: options.run_id.unwrap_or_else(|| "turns".into()),
            on_call: options.on_call,
        })
    }

    /// Runs the calls of `response` (a runSession response `{"outputs"}`, its outputs, or a
    /// `{"toolCalls"}` object) concurrently, starting now, and completes with the next
    /// request's input, `{"toolResponses": {"toolResponses": [...]}}`, answered in the calls'
    /// order; `None` when the response holds no call not answered before. A failure is a
    /// response `{"error"}`, never an `Err`; an unreadable response is an
    /// [`ErrorKind::InvalidOption`] naming the path.
    pub fn answer(
        &self,
        response: &Value,
    ) -> impl Future<Output = Result<Option<Value>, Error>> + 'static {
        let waiting = turns::read_calls(response)
            .map_err(|e| Error::new(ErrorKind::InvalidOption, e))
            .map(|calls| self.start(calls));
        let on_call = self.on_call.clone();
        async move {
            let (waiting, started) = waiting?;
            if waiting.is_empty() {
                return Ok(None);
            }
            let mut responses = Vec::with_capacity(waiting.len());
            for (call, tool, outcome) in waiting {
                let answer = match outcome {
                    Err(answer) => answer,
                    // Without a caller's signal a call is always answered.
                    Ok(o) => o.await.unwrap_or_else(|| {
                        Answer::error(AnswerKind::HandlerError, "The call was aborted.")
                    }),
                };
                let elapsed = Runner::now().since(started).as_ms();
                on_call.tell(|| TurnCallEvent::Answered {
                    id: call.id.clone(),
                    tool,
                    is_error: answer.is_error(),
                    elapsed: Duration::from_millis(elapsed),
                });
                responses.push(turns::tool_response(&call, answer));
            }
            Ok(Some(super::registry::json(&turns::tool_responses(
                &responses,
            ))))
        }
    }

    /// Starts the calls not answered before, now: each with the name it is reported under
    /// and its outcome (an answer already, for a call refused without running).
    fn start(&self, calls: Vec<TurnCall>) -> (Vec<Started>, Instant) {
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
                    self.on_call.tell(|| TurnCallEvent::Dispatched {
                        id,
                        tool: tool.clone(),
                    });
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
        (waiting, started)
    }
}

/// A turn's call started: the call, the name it is reported under, its outcome.
type Started = (TurnCall, String, Result<Outcome, Answer>);
