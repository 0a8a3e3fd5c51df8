//! `ToolRegistry`, the JS face of the core's [`Registry`]: tools written once, exported for
//! each agent API, run by name through the call runtime, and accepted by `Client.register`,
//! `setTools`, `exposeToWebMCP` and `TurnTools` wherever a tool array is.

use crate::browser::options;
use crate::runner::{from_json_text, to_json, Runner};
use client_tools_core::adapters::registry::{tool_result, Registry};
use client_tools_core::calls::{Admission, Answer, Call};
use client_tools_core::quote::Quoted;
use js_sys::{Array, Function, Promise};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const REGISTRY_TYPES: &'static str = r#"
/** The agent-tools result: what `ToolRegistry.execute` resolves, and one more shape a handler may return. */
export interface AgentToolResult {
  /** Whether the tool succeeded. */
  success: boolean;
  /** What it answered (text or JSON); `null` on a failure. */
  data: Json;
  /** Why it failed, when `success` is false. */
  error?: string;
}

/** Options of `ToolRegistry.execute`. */
export interface ExecuteOptions {
  /** The agent run the call belongs to: `maxCallsPerRun` counts per run id. Without it, the call is a run of its own. */
  runId?: string;
  /** Aborting it rejects the promise and aborts the handler's `ctx.signal`. */
  signal?: AbortSignal;
}

/** An OpenAI Chat Completions tool. */
export type OpenAITool = { type: "function"; function: { name: string; description: string; parameters: JsonSchema } };
/** An OpenAI Responses tool. */
export type OpenAIResponsesTool = { type: "function"; name: string; description: string; parameters: JsonSchema };
/** An Anthropic Messages tool. */
export type AnthropicTool = { name: string; description: string; input_schema: JsonSchema };
/** An MCP tool, as `tools/list` lists it. */
export type MCPTool = { name: string; description: string; inputSchema: JsonSchema };
"#;

/// A tool as the registry keeps it: the app's handler and the definition object it gave.
#[derive(Clone)]
pub(crate) struct Entry {
    pub handler: Function,
    pub source: JsValue,
}

/// Tools written once: exported for OpenAI, Anthropic and MCP, run by name with the same
/// argument checks, deadlines and per-run limits as a Sessions call, and served to the
/// Sessions API, WebMCP and turn-based agents.
#[wasm_bindgen]
pub struct ToolRegistry {
    tools: Registry<Entry>,
    runner: Rc<Runner>,
    calls: Cell<u64>,
}

impl ToolRegistry {
    fn with(tools: Registry<Entry>) -> ToolRegistry {
        ToolRegistry {
            tools,
            runner: Runner::new(),
            calls: Cell::new(0),
        }
    }

    /// Adds the definition `v`, named `field` in errors.
    fn add(&mut self, v: &JsValue, field: &str) -> Result<(), JsValue> {
        let one = crate::js::array(&[v]);
        let (mut defs, mut handlers) =
            options::tools(&one, "tools").map_err(|e| match e.strip_prefix("tools[0]") {
                Some(rest) => crate::js::invalid(&format!("{field}{rest}")),
                None => crate::js::invalid(&e),
            })?;
        let (Some(def), Some((_, handler))) = (defs.pop(), handlers.pop()) else {
            return Err(crate::js::invalid(&format!("{field}: not read")));
        };
        let entry = Entry {
            handler,
            source: v.clone(),
        };
        self.tools
            .register(field, def, entry)
            .map_err(|e| crate::js::invalid(&e.to_string()))
    }

    /// The registry's tools, for the other transports (moved out, not copied).
    pub(crate) fn into_tools(self) -> Registry<Entry> {
        self.tools
    }
}

/// Reads a list of names: an array, a `Set` or any iterable of strings.
fn names(v: &JsValue, what: &str) -> Result<Vec<String>, JsValue> {
    if !v.is_object() {
        return Err(crate::js::invalid(&format!(
            "{what}: must be a Set or an array of tool names"
        )));
    }
    let mut names = Vec::new();
    for (i, n) in Array::from(v).iter().enumerate() {
        match n.as_string() {
            Some(n) => names.push(n),
            None => {
                return Err(crate::js::invalid(&format!(
                    "{what}[{i}]: must be a string"
                )))
            }
        }
    }
    Ok(names)
}

#[wasm_bindgen]
impl ToolRegistry {
    /// A registry holding `tools` (default none). Throws an `Error` naming the first bad
    /// definition and the rule it breaks (`tools[1].name: "get-weather": character '-' …`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "ToolDefinition[]")] tools: Option<JsValue>,
    ) -> Result<ToolRegistry, JsValue> {
        let mut registry = ToolRegistry::with(Registry::new());
        let Some(tools) = tools.filter(|t| !t.is_undefined() && !t.is_null()) else {
            return Ok(registry);
        };
        let tools = tools
            .dyn_into::<Array>()
            .map_err(|_| crate::js::invalid("tools: must be an array of tool definitions"))?;
        for (i, t) in tools.iter().enumerate() {
            registry.add(&t, &format!("tools[{i}]"))?;
        }
        Ok(registry)
    }

    /// Adds a tool. Throws an `Error` naming the rule when its name breaks
    /// `^[a-zA-Z_][a-zA-Z0-9_]*$`, is over 64 characters or is already registered, or when
    /// the definition is malformed.
    pub fn register(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ToolDefinition")] tool: JsValue,
    ) -> Result<(), JsValue> {
        self.add(&tool, "tool")
    }

    /// Whether a tool of that name is registered.
    pub fn has(&self, name: &str) -> bool {
        self.tools.has(name)
    }

    /// The definition registered under that name, as it was given.
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition | undefined")]
    pub fn get(&self, name: &str) -> JsValue {
        self.tools
            .get(name)
            .map_or(JsValue::UNDEFINED, |(_, e)| e.source.clone())
    }

    /// The tools' names, in registration order.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn names(&self) -> Array {
        // Built as a JS array: no glue for handing a Rust `Vec<String>` over.
        let names = Array::new();
        for n in self.tools.names() {
            names.push(&JsValue::from_str(n));
        }
        names
    }

    /// The definitions, in registration order: what `Client.register` and `setTools` declare
    /// when given this registry.
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition[]")]
    pub fn definitions(&self) -> Array {
        let list = Array::new();
        for e in self.tools.handlers() {
            list.push(&e.source);
        }
        list
    }

    /// A new registry with only the named tools (a `Set` or an array of names).
    pub fn filtered(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Set<string> | string[]")] names: JsValue,
    ) -> Result<ToolRegistry, JsValue> {
        let names = self::names(&names, "names")?;
        Ok(ToolRegistry::with(self.tools.filtered(&names)))
    }

    /// A new registry without the named tools (a `Set` or an array of names).
    pub fn without(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Set<string> | string[]")] names: JsValue,
    ) -> Result<ToolRegistry, JsValue> {
        let names = self::names(&names, "names")?;
        Ok(ToolRegistry::with(self.tools.without(&names)))
    }

    /// OpenAI Chat Completions' `tools`: `[{ type: "function", function: { name, description, parameters } }]`.
    #[wasm_bindgen(js_name = toOpenAI, unchecked_return_type = "OpenAITool[]")]
    pub fn to_openai(&self) -> JsValue {
        from_json_text(&self.tools.to_openai())
    }

    /// OpenAI Responses' `tools`: `[{ type: "function", name, description, parameters }]`.
    #[wasm_bindgen(js_name = toOpenAIResponses, unchecked_return_type = "OpenAIResponsesTool[]")]
    pub fn to_openai_responses(&self) -> JsValue {
        from_json_text(&self.tools.to_openai_responses())
    }

    /// Anthropic Messages' `tools`: `[{ name, description, input_schema }]`.
    #[wasm_bindgen(js_name = toAnthropic, unchecked_return_type = "AnthropicTool[]")]
    pub fn to_anthropic(&self) -> JsValue {
        from_json_text(&self.tools.to_anthropic())
    }

    /// MCP's `tools/list`: `[{ name, description, inputSchema }]`.
    #[wasm_bindgen(js_name = toMCP, unchecked_return_type = "MCPTool[]")]
    pub fn to_mcp(&self) -> JsValue {
        from_json_text(&self.tools.to_mcp())
    }

    /// Runs the tool `name` with `args` as a Sessions call runs: arguments checked against its
    /// schema, `timeoutMs` (default 30 s), `maxCallsPerRun` per `runId`. Resolves
    /// `{ success, data, error? }`, a throw or a refusal included; rejects for an unknown
    /// name (naming it and the registry's tools) or when `signal` aborts.
    #[wasm_bindgen(unchecked_return_type = "Promise<AgentToolResult>")]
    pub fn execute(
        &self,
        name: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "JsonObject")] args: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "ExecuteOptions")] options: Option<
            js_sys::Object,
        >,
    ) -> Promise {
        let Some((_, entry)) = self.tools.get(name) else {
            return rejected("unknown_tool", &self.tools.unknown(name));
        };
        let handler = entry.handler.clone();
        let options = JsValue::from(options);
        let n = self.calls.get() + 1;
        self.calls.set(n);
        let call_id = format!("execute-{n}");
        let (run_id, own_run) = match crate::js::string_option(&options, "runId") {
            Ok(None) => (call_id.clone(), true),
            Ok(Some(r)) => (r, false),
            Err(e) => return Promise::reject(&e),
        };
        let signal = match crate::js::signal_option(&options) {
            Ok(s) => s,
            Err(e) => return Promise::reject(&e),
        };
        if signal
            .as_ref()
            .is_some_and(|s| crate::js::bool_prop(s, "aborted"))
        {
            return rejected("aborted", &format!("execute({}): aborted", Quoted(name)));
        }
        // Unreadable arguments reach the runtime as text, which it answers as invalid.
        let args = to_json(&args.unwrap_or_default()).unwrap_or_else(serde_json::Value::String);
        let call = Call {
            call_id: &call_id,
            run_id: &run_id,
            tool: name,
        };
        let admitted =
            self.runner
                .runtime
                .borrow_mut()
                .admit(call, args, self.tools.defs(), Runner::now());
        let outcome = match admitted {
            Admission::Run {
                arguments,
                deadline,
            } => Some(self.runner.start(
                &call_id,
                &run_id,
                &handler,
                arguments,
                deadline,
                signal.as_ref(),
            )),
            Admission::Answer(answer) => return resolved(answer),
            Admission::Duplicate => return rejected("rejected", "execute: a call id was reused"),
        };
        let (runner, name) = (self.runner.clone(), name.to_owned());
        crate::js::task::promise(Box::pin(async move {
            let answer = match outcome {
                Some(o) => o.await,
                None => None,
            };
            if own_run {
                runner.runtime.borrow_mut().forget_run(&run_id);
            }
            match answer {
                Some(answer) => Ok(from_json_text(&tool_result(answer))),
                None => Err(crate::js::error(
                    "aborted",
                    &format!("execute({}): aborted", Quoted(&name)),
                )),
            }
        }))
    }
}

/// A promise rejected with an `Error` whose `code` is `code`.
fn rejected(code: &str, message: &str) -> Promise {
    Promise::reject(&crate::js::error(code, message))
}

fn resolved(answer: Answer) -> Promise {
    Promise::resolve(&from_json_text(&tool_result(answer)))
}

/// The tool list of `v` for a place that takes "a registry or an array": a registry's
/// definitions, anything else as it is.
pub(crate) fn tool_list(v: &JsValue) -> JsValue {
    if Array::is_array(v) || !v.is_object() {
        return v.clone();
    }
    match crate::js::get(v, "definitions").is_function() {
        true => crate::js::call_method(v, "definitions", &[]).unwrap_or_else(|_| v.clone()),
        false => v.clone(),
    }
}
