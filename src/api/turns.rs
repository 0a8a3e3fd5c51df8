//! `client_tools::TurnTools`, the Rust face of the JS `TurnTools`: a turn-based session's
//! client function tool calls (`toolCalls` out, `toolResponses` in), run by the same loop
//! (`crate::turns`, which the JS class runs on too).

use super::registry::Registry;
use super::Tool;
use crate::turns::{OnCall, Turns};
use client_tools_core::adapters::turns::{self, TurnCallEvent};
use client_tools_core::api::{Error, ErrorKind};
use serde_json::Value;
use std::future::Future;
use std::rc::Rc;

/// Answers the client function tool calls of a turn-based session: the session's response
/// holds `toolCalls`, [`TurnTools::answer`] runs them concurrently (each as a Sessions call
/// runs: schema, timeout, `max_calls_per_run` in the run of [`TurnToolsOptions::run_id`])
/// and gives the next request's input. The JS `TurnTools` with the same meaning.
///
/// ```no_run
/// use client_tools::{Tool, TurnCallEvent, TurnTools, TurnToolsOptions};
///
/// async fn next_input(response: serde_json::Value) -> Result<(), client_tools::Error> {
///     let options = TurnToolsOptions::default().on_call(|event| {
///         if let TurnCallEvent::Dispatched { tool, .. } = event {
///             let _ = tool; // e.g. show that the tool runs
///         }
///     });
///     let tools = TurnTools::new(
///         vec![Tool::new("get_time", "The page's clock.", |_args, _ctx| async move { "12:00" })],
///         options,
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
    turns: Turns<Tell>,
}

/// The app's `on_call`.
#[derive(Clone)]
struct Tell(Rc<dyn Fn(&TurnCallEvent)>);

impl OnCall for Tell {
    fn tell(&self, event: &TurnCallEvent) {
        (self.0)(event);
    }
}

/// The options of [`TurnTools::new`]: both optional.
#[derive(Clone, Default)]
pub struct TurnToolsOptions {
    run_id: Option<String>,
    on_call: Option<Tell>,
}

impl TurnToolsOptions {
    /// The run `max_calls_per_run` counts in (default: one run for this `TurnTools`,
    /// `"turns"`).
    pub fn run_id(mut self, run_id: impl Into<String>) -> Self {
        self.run_id = Some(run_id.into());
        self
    }

    /// Told as each call starts and is answered.
    pub fn on_call(mut self, on_call: impl Fn(&TurnCallEvent) + 'static) -> Self {
        self.on_call = Some(Tell(Rc::new(on_call)));
        self
    }
}

impl TurnTools {
    /// Serves `tools`. Fails, as [`Registry::new`] does, naming the first bad tool.
    pub fn new(tools: Vec<Tool>, options: TurnToolsOptions) -> Result<TurnTools, Error> {
        let tools = Registry::new(tools)?.into_tools();
        let run_id = options.run_id.unwrap_or_else(|| "turns".into());
        Ok(TurnTools {
            turns: Turns::new(tools, run_id, options.on_call),
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
        let next = turns::read_calls(response)
            .map_err(|e| Error::new(ErrorKind::InvalidOption, e))
            .map(|calls| {
                let face = |text: Option<String>| text.map(|text| super::registry::json(&text));
                self.turns.answer(calls, face)
            });
        async move { Ok(next?.await) }
    }
}
