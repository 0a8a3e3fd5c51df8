//! `TurnTools`: turn-based client function tools. The session answers with `toolCalls`; the
//! app runs them and sends `toolResponses` in its next request. The pure half (reading the
//! calls, matching, writing the responses) is the core's `adapters::turns`; the calls run
//! through the call runtime like any other.

use crate::js_api::registry::{tool_list, ToolRegistry};
use crate::runner::{from_json_text, to_json, Entry, Runner};
use client_tools_core::adapters::registry::Registry;
use client_tools_core::adapters::turns::{self, Step};
use client_tools_core::calls::{Answer, ErrorKind};
use js_sys::{Function, Object, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Answers the client function tool calls of a turn-based session (`toolCalls` out,
/// `toolResponses` in) with the tools of a registry or an array.
#[wasm_bindgen]
pub struct TurnTools {
    tools: Rc<Registry<Entry>>,
    runner: Rc<Runner>,
    run_id: String,
    on_call: Option<Function>,
}

#[wasm_bindgen]
impl TurnTools {
    /// Serves `tools` (a `ToolRegistry` or a `ToolDefinition[]`). Throws an `Error` naming a
    /// bad definition or option.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ToolRegistry | ToolDefinition[]")] tools: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TurnToolsOptions")] options: Option<Object>,
    ) -> Result<TurnTools, JsValue> {
        let list = tool_list(&tools);
        if !crate::js::is_array(&list) {
            return Err(crate::js::invalid(
                "tools: must be a ToolRegistry or an array of tools",
            ));
        }
        let registry = ToolRegistry::new(Some(list))?;
        let options = JsValue::from(options);
        let options: crate::js_api::options::TurnToolsOptions =
            crate::js_api::read::options(&options)?;
        let on_call = options.on_call.map(|f| f.0);
        let run_id = options.run_id.map_or_else(|| "turns".into(), |r| r.0);
        Ok(TurnTools {
            tools: Rc::new(registry.into_tools()),
            runner: Runner::new(),
            run_id,
            on_call,
        })
    }

    /// Runs the calls of `response` (a runSession response `{ outputs }`, its outputs, or a
    /// `toolCalls` object) concurrently and resolves the next request's input,
    /// `{ toolResponses: { toolResponses: [...] } }`, answered in the calls' order; `null` when
    /// the response holds no call not answered before. A failure is a response `{ error }`,
    /// never a rejection; an unreadable response rejects naming the path.
    #[wasm_bindgen(unchecked_return_type = "Promise<TurnToolResponses | null>")]
    pub fn answer(
        &self,
        #[wasm_bindgen(
            unchecked_param_type = "TurnSessionResponse | TurnOutput[] | TurnOutput | { toolCalls: TurnToolCall[] }"
        )]
        response: JsValue,
    ) -> Promise {
        let read = to_json(&response).map_err(|e| format!("response: {e}"));
        let calls = match read.and_then(|v| turns::read_calls(&v)) {
            Ok(calls) => calls,
            Err(e) => return Promise::reject(&crate::js::invalid(&e)),
        };
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
