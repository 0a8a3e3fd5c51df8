//! `TurnTools`: turn-based client function tools. The session answers with `toolCalls`; the
//! app runs them and sends `toolResponses` in its next request. This class reads the tools, the
//! options and each response; running the calls is `crate::turns`'.

use crate::js_api::registry::{tool_list, ToolRegistry};
use crate::runner::{from_json_text, to_json};
use crate::turns::{OnCall, Turns};
use client_tools_core::adapters::turns::{self, TurnCallEvent};
use js_sys::{Function, Object, Promise};
use wasm_bindgen::prelude::*;

/// Answers the client function tool calls of a turn-based session (`toolCalls` out,
/// `toolResponses` in) with the tools of a registry or an array.
#[wasm_bindgen]
pub struct TurnTools {
    turns: Turns<Function>,
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
            turns: Turns::new(registry.into_tools(), run_id, on_call),
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
        let next = self.turns.answer(calls, |text| {
            Ok(text.map_or(JsValue::NULL, |text| from_json_text(&text)))
        });
        crate::js::promise::from_future(Box::pin(next))
    }
}

/// `onCall`: told each event as a plain object; a throwing callback is ignored (the call goes
/// on).
impl OnCall for Function {
    fn tell(&self, event: &TurnCallEvent) {
        crate::js::tell(Some(self), &crate::browser::events::turn_call(event));
    }
}
