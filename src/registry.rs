//! `ToolRegistry`, the JS face of the core's [`Registry`]: tools written once, exported for
//! each agent API, run by name through the call runtime, and accepted by `Client.register`,
//! `setTools`, `exposeToWebMCP` and `TurnTools` wherever a tool array is.

use crate::api::tool::Handler;
use crate::js::JsRefCell;
use crate::js_api::options;
use crate::runner::{from_json_text, Runner};
use client_tools_core::adapters::registry::{tool_result, Registry};
use client_tools_core::api::ErrorKind;
use client_tools_core::calls::{Admission, Answer, Call, ErrorKind as AnswerKind};
use client_tools_core::quote::Quoted;
use js_sys::{Array, Promise};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A tool as the registry keeps it: the app's handler, the definition object it gave
/// (`undefined` for a client's tools, which `exposeToWebMCP` reads as entries too: one
/// `Registry` type in the module) and its WebMCP annotations.
#[derive(Clone)]
pub(crate) struct Entry {
    pub handler: Handler,
    pub source: JsValue,
    pub annotations: Option<String>,
}

impl Entry {
    /// A client's tool as an entry, for `exposeToWebMCP` (it has no definition object).
    pub(crate) fn of(tool: &crate::api::Tool) -> Entry {
        Entry {
            handler: tool.handler.clone(),
            source: JsValue::UNDEFINED,
            annotations: tool.annotations.clone(),
        }
    }
}

/// Tools written once: exported for OpenAI, Anthropic and MCP, run by name with the same
/// argument checks, deadlines and per-run limits as a Sessions call, and served to the
/// Sessions API, WebMCP and turn-based agents. Every method takes `&self` and borrows
/// `tools` only between calls into JS, so a getter or handler of the app that calls back into
/// the registry (or any other object) finds it usable.
#[wasm_bindgen]
pub struct ToolRegistry {
    tools: JsRefCell<Registry<Entry>>,
    runner: Rc<Runner>,
    calls: Cell<u64>,
}

impl ToolRegistry {
    fn with(tools: Registry<Entry>) -> ToolRegistry {
        ToolRegistry {
            tools: JsRefCell::new(tools),
            runner: Runner::new(),
            calls: Cell::new(0),
        }
    }

    /// Adds the definition `v`, named `field` in errors: read whole (the app's code runs
    /// here), then added.
    fn add(&self, v: &JsValue, field: &str) -> Result<(), JsValue> {
        let one = crate::js::array(&[v]);
        let mut tools =
            options::tools(&one, "tools").map_err(|e| match e.strip_prefix("tools[0]") {
                Some(rest) => crate::js::invalid(&format!("{field}{rest}")),
                None => crate::js::invalid(&e),
            })?;
        let Some(tool) = tools.pop() else {
            return Err(crate::js::invalid(&format!("{field}: not read")));
        };
        let entry = Entry {
            handler: tool.handler,
            source: v.clone(),
            annotations: tool.annotations,
        };
        let added = self.tools.borrow_mut().register(field, tool.def, entry);
        added.map_err(|e| crate::js::invalid(&e.to_string()))
    }

    /// The registry's tools, for the other transports (moved out, not copied).
    pub(crate) fn into_tools(self) -> Registry<Entry> {
        self.tools.into_inner()
    }
}

/// A tool name given to a method (`has`, `get`, `execute`), refused unless a string.
fn tool_name(v: &JsValue, method: &str) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| {
        crate::js::invalid(&format!(
            "registry.{method}(name): name must be a string, got {}",
            crate::js::describe(v)
        ))
    })
}

/// Reads a list of names: an array, a `Set` or any iterable of strings.
fn names(v: &JsValue, what: &str) -> Result<Vec<String>, JsValue> {
    let shape = || format!("{what}: must be a Set or an array of tool names");
    if !v.is_object() {
        return Err(crate::js::invalid(&shape()));
    }
    let list = crate::js::to_array(v).map_err(|e| {
        crate::js::invalid(&format!(
            "{}; reading it threw: {}",
            shape(),
            crate::js::error_text(&e)
        ))
    })?;
    let mut names = Vec::new();
    for (i, n) in list.iter().enumerate() {
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
        let registry = ToolRegistry::with(Registry::new());
        let Some(tools) = tools.filter(|t| !t.is_undefined() && !t.is_null()) else {
            return Ok(registry);
        };
        const SHAPE: &str = "tools: must be an array of tool definitions";
        if !crate::js::is_array(&tools) {
            return Err(crate::js::invalid(SHAPE));
        }
        // Read once into a plain array: a Proxy's traps run here, where a throw is caught.
        let tools = crate::js::to_array(&tools).map_err(|e| {
            crate::js::invalid(&format!(
                "{SHAPE}; reading it threw: {}",
                crate::js::error_text(&e)
            ))
        })?;
        for (i, t) in tools.iter().enumerate() {
            registry.add(&t, &format!("tools[{i}]"))?;
        }
        Ok(registry)
    }

    /// Adds a tool. Throws an `Error` naming the rule when its name breaks
    /// `^[a-zA-Z_][a-zA-Z0-9_]*$`, is over 64 characters or is already registered, or when
    /// the definition is malformed.
    pub fn register(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolDefinition")] tool: JsValue,
    ) -> Result<(), JsValue> {
        self.add(&tool, "tool")
    }

    /// Whether a tool of that name is registered. Throws an `invalid_option` `Error` when
    /// `name` is not a string.
    pub fn has(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> Result<bool, JsValue> {
        let name = tool_name(&name, "has")?;
        Ok(self.tools.borrow().has(&name))
    }

    /// The definition registered under that name, as it was given. Throws an
    /// `invalid_option` `Error` when `name` is not a string.
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition | undefined")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> Result<JsValue, JsValue> {
        let name = tool_name(&name, "get")?;
        let tools = self.tools.borrow();
        Ok(tools
            .get(&name)
            .map_or(JsValue::UNDEFINED, |(_, e)| e.source.clone()))
    }

    /// The tools' names, in registration order.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn names(&self) -> Array {
        // Built as a JS array: no glue for handing a Rust `Vec<String>` over.
        let names = Array::new();
        for n in self.tools.borrow().names() {
            names.push(&JsValue::from_str(n));
        }
        names
    }

    /// The definitions, in registration order: what `Client.register` and `setTools` declare
    /// when given this registry.
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition[]")]
    pub fn definitions(&self) -> Array {
        let list = Array::new();
        for e in self.tools.borrow().handlers() {
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
        Ok(ToolRegistry::with(self.tools.borrow().filtered(&names)))
    }

    /// A new registry without the named tools (a `Set` or an array of names).
    pub fn without(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Set<string> | string[]")] names: JsValue,
    ) -> Result<ToolRegistry, JsValue> {
        let names = self::names(&names, "names")?;
        Ok(ToolRegistry::with(self.tools.borrow().without(&names)))
    }

    /// OpenAI Chat Completions' `tools`: `[{ type: "function", function: { name, description, parameters } }]`.
    #[wasm_bindgen(js_name = toOpenAI, unchecked_return_type = "OpenAITool[]")]
    pub fn to_openai(&self) -> JsValue {
        from_json_text(&self.tools.borrow().to_openai())
    }

    /// OpenAI Responses' `tools`: `[{ type: "function", name, description, parameters }]`.
    #[wasm_bindgen(js_name = toOpenAIResponses, unchecked_return_type = "OpenAIResponsesTool[]")]
    pub fn to_openai_responses(&self) -> JsValue {
        from_json_text(&self.tools.borrow().to_openai_responses())
    }

    /// Anthropic Messages' `tools`: `[{ name, description, input_schema }]`.
    #[wasm_bindgen(js_name = toAnthropic, unchecked_return_type = "AnthropicTool[]")]
    pub fn to_anthropic(&self) -> JsValue {
        from_json_text(&self.tools.borrow().to_anthropic())
    }

    /// MCP's `tools/list`: `[{ name, description, inputSchema }]`.
    #[wasm_bindgen(js_name = toMCP, unchecked_return_type = "MCPTool[]")]
    pub fn to_mcp(&self) -> JsValue {
        from_json_text(&self.tools.borrow().to_mcp())
    }

    /// Runs the tool `name` with `args` as a Sessions call runs: arguments checked against its
    /// schema, `timeoutMs` (default 30 s), `maxCallsPerRun` per `runId`. Resolves
    /// `{ success, data, error? }`, a throw or a refusal included; rejects for an unknown
    /// name (naming it and the registry's tools) or when `signal` aborts.
    #[wasm_bindgen(unchecked_return_type = "Promise<AgentToolResult>")]
    pub fn execute(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "JsonObject")] args: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "ExecuteOptions")] options: Option<
            js_sys::Object,
        >,
    ) -> Promise {
        let name = match tool_name(&name, "execute") {
            Ok(n) => n,
            Err(e) => return Promise::reject(&e),
        };
        let name = name.as_str();
        let handler = match self.tools.borrow().get(name) {
            Some((_, entry)) => entry.handler.clone(),
            None => return rejected(ErrorKind::UnknownTool, &self.tools.borrow().unknown(name)),
        };
        let options = JsValue::from(options);
        if let Err(e) = crate::browser::keys::options(&options, &["runId", "signal"], "options") {
            return Promise::reject(&e);
        }
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
            return rejected(
                ErrorKind::Aborted,
                &format!("execute({}): aborted", Quoted(name)),
            );
        }
        // Arguments that are not JSON (a BigInt, a throwing `toJSON`, a cycle) are answered as
        // invalid, in the SDK's words, as the runtime answers arguments that fail the schema.
        let args = match read_args(&args.unwrap_or_default()) {
            Ok(args) => args,
            Err(message) => {
                return resolved(Answer::error(AnswerKind::InvalidArguments, message));
            }
        };
        let call = Call {
            call_id: &call_id,
            run_id: &run_id,
            tool: name,
        };
        let admitted = self.runner.runtime.borrow_mut().admit(
            call,
            args,
            self.tools.borrow().defs(),
            Runner::now(),
        );
        let outcome = match admitted {
            Admission::Run {
                arguments,
                deadline,
            } => Some(self.runner.start(
                &call_id,
                &run_id,
                name,
                &handler,
                arguments,
                deadline,
                signal.as_ref(),
            )),
            Admission::Answer(answer) => return resolved(answer),
            Admission::Duplicate => {
                return rejected(ErrorKind::Rejected, "execute: a call id was reused")
            }
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
                    ErrorKind::Aborted,
                    &format!("execute({}): aborted", Quoted(&name)),
                )),
            }
        }))
    }
}

/// The arguments of a call the app hands over (`execute`, WebMCP's `execute`) as JSON:
/// absent as `null`, anything `JSON.stringify` cannot write refused, naming why.
pub(crate) fn read_args(v: &JsValue) -> Result<serde_json::Value, String> {
    if v.is_undefined() {
        return Ok(serde_json::Value::Null);
    }
    crate::js::json::read_json(v, "the arguments")
}

/// A promise rejected with an `Error` whose `code` is `code`.
fn rejected(kind: ErrorKind, message: &str) -> Promise {
    Promise::reject(&crate::js::error(kind, message))
}

fn resolved(answer: Answer) -> Promise {
    Promise::resolve(&from_json_text(&tool_result(answer)))
}

/// The tool list of `v` for a place that takes "a registry or an array": a registry's
/// definitions, anything else as it is.
pub(crate) fn tool_list(v: &JsValue) -> JsValue {
    if crate::js::is_array(v) || !v.is_object() {
        return v.clone();
    }
    match crate::js::get(v, "definitions").is_function() {
        true => crate::js::call_method(v, "definitions", &[]).unwrap_or_else(|_| v.clone()),
        false => v.clone(),
    }
}
