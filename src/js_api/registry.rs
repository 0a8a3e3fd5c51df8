//! `ToolRegistry`, the JS face of the core's [`Registry`]: tools written once, exported for
//! each agent API, run by name through the call runtime, and accepted by `Client.register`,
//! `setTools`, `exposeToWebMCP` and `TurnTools` wherever a tool array is.

use crate::js_api::options;
use crate::registry::{self, Running, Started, Tools};
use crate::runner::{from_json_text, Entry};
use client_tools_core::adapters::registry::Registry;
use client_tools_core::api::ErrorKind;
use client_tools_core::calls::{Answer, Content, ErrorKind as AnswerKind};
use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;

/// Tools written once: exported for OpenAI, Anthropic and MCP, run by name with the same
/// argument checks, deadlines and per-run limits as a Sessions call, and served to the
/// Sessions API, WebMCP and turn-based agents. Every method takes `&self` and borrows
/// `tools` only between calls into JS, so a getter or handler of the app that calls back into
/// the registry (or any other object) finds it usable.
#[wasm_bindgen]
pub struct ToolRegistry {
    registry: Tools<Promise>,
}

impl ToolRegistry {
    fn with(tools: Registry<Entry>) -> ToolRegistry {
        ToolRegistry {
            registry: Tools::new(tools),
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
        let Some(tool) = tools.pop().map(crate::api::Tool::into_parts) else {
            return Err(crate::js::invalid(&format!("{field}: not read")));
        };
        let entry = Entry {
            handler: tool.handler,
            source: v.clone(),
            annotations: tool.annotations,
        };
        let added = self
            .registry
            .tools
            .borrow_mut()
            .register(field, tool.def, entry);
        added.map_err(|e| crate::js::invalid(&e.to_string()))
    }

    /// The registry's tools, for the other transports (moved out, not copied).
    pub(crate) fn into_tools(self) -> Registry<Entry> {
        self.registry.into_tools()
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
        Ok(self.registry.tools.borrow().has(&name))
    }

    /// The definition registered under that name, as it was given. Throws an
    /// `invalid_option` `Error` when `name` is not a string.
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition | undefined")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> Result<JsValue, JsValue> {
        let name = tool_name(&name, "get")?;
        let tools = self.registry.tools.borrow();
        Ok(tools
            .get(&name)
            .map_or(JsValue::UNDEFINED, |(_, e)| e.source.clone()))
    }

    /// The tools' names, in registration order.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn names(&self) -> Array {
        // Built as a JS array: no glue for handing a Rust `Vec<String>` over.
        let names = Array::new();
        for n in self.registry.tools.borrow().names() {
            names.push(&JsValue::from_str(n));
        }
        names
    }

    /// The definitions, in registration order: what `Client.register` and `setTools` declare
    /// when given this registry.
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition[]")]
    pub fn definitions(&self) -> Array {
        let list = Array::new();
        for e in self.registry.tools.borrow().handlers() {
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
        Ok(ToolRegistry::with(
            self.registry.tools.borrow().filtered(&names),
        ))
    }

    /// A new registry without the named tools (a `Set` or an array of names).
    pub fn without(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Set<string> | string[]")] names: JsValue,
    ) -> Result<ToolRegistry, JsValue> {
        let names = self::names(&names, "names")?;
        Ok(ToolRegistry::with(
            self.registry.tools.borrow().without(&names),
        ))
    }

    /// OpenAI Chat Completions' `tools`: `[{ type: "function", function: { name, description, parameters } }]`.
    #[wasm_bindgen(js_name = toOpenAI, unchecked_return_type = "OpenAITool[]")]
    pub fn to_openai(&self) -> JsValue {
        from_json_text(&self.registry.tools.borrow().to_openai())
    }

    /// OpenAI Responses' `tools`: `[{ type: "function", name, description, parameters }]`.
    #[wasm_bindgen(js_name = toOpenAIResponses, unchecked_return_type = "OpenAIResponsesTool[]")]
    pub fn to_openai_responses(&self) -> JsValue {
        from_json_text(&self.registry.tools.borrow().to_openai_responses())
    }

    /// Anthropic Messages' `tools`: `[{ name, description, input_schema }]`.
    #[wasm_bindgen(js_name = toAnthropic, unchecked_return_type = "AnthropicTool[]")]
    pub fn to_anthropic(&self) -> JsValue {
        from_json_text(&self.registry.tools.borrow().to_anthropic())
    }

    /// MCP's `tools/list`: `[{ name, description, inputSchema }]`.
    #[wasm_bindgen(js_name = toMCP, unchecked_return_type = "MCPTool[]")]
    pub fn to_mcp(&self) -> JsValue {
        from_json_text(&self.registry.tools.borrow().to_mcp())
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
        let options = JsValue::from(options);
        let known = ["runId", "signal", "callId", "deadlineMs"];
        let call_id = crate::browser::keys::options(&options, &known, "options")
            .and_then(|()| caller_call_id(&options));
        let deadline_ms = call_id.and_then(|id| Ok((id, deadline_ms(&options)?)));
        let (call_id, deadline_ms) = match deadline_ms {
            Ok(read) => read,
            Err(e) => return Promise::reject(&e),
        };
        let (answer, forget) = self
            .registry
            .once(call_id, |n| self.run(&name, args, &options, n, deadline_ms));
        if let Some(forget) = forget {
            let failed = answer.clone();
            crate::js::promise::spawn(Box::pin(async move {
                if crate::js::promise::settle(&failed).await.is_err() {
                    forget.forget();
                }
            }));
        }
        answer
    }
}

impl ToolRegistry {
    /// `execute` once its options are read: the call numbered `n`, answered by `deadline_ms`
    /// (from now) at the latest.
    fn run(
        &self,
        name: &JsValue,
        args: Option<JsValue>,
        options: &JsValue,
        n: u64,
        deadline_ms: Option<u64>,
    ) -> Promise {
        let name = match tool_name(name, "execute") {
            Ok(n) => n,
            Err(e) => return Promise::reject(&e),
        };
        if !self.registry.tools.borrow().has(&name) {
            let unknown = self.registry.tools.borrow().unknown(&name);
            return rejected(ErrorKind::UnknownTool, &unknown);
        }
        let run_id = match crate::js::string_option(options, "runId") {
            Ok(r) => r,
            Err(e) => return Promise::reject(&e),
        };
        let signal = match crate::js::signal_option(options) {
            Ok(s) => s,
            Err(e) => return Promise::reject(&e),
        };
        if signal
            .as_ref()
            .is_some_and(|s| crate::js::bool_prop(s, "aborted"))
        {
            return rejected(ErrorKind::Aborted, &registry::aborted(&name));
        }
        // Arguments that are not JSON (a BigInt, a throwing `toJSON`, a cycle) are answered as
        // invalid, in the SDK's words, as the runtime answers arguments that fail the schema.
        let args = match crate::js::json::read_args(&args.unwrap_or_default()) {
            Ok(args) => args,
            Err(message) => {
                return resolved(Answer::error(AnswerKind::InvalidArguments, message));
            }
        };
        let call = registry::Execute {
            n,
            name: &name,
            run_id,
            deadline_ms,
            signal: signal.as_ref(),
        };
        match self.registry.run(call, args) {
            Started::Answered(answer) => resolved(answer),
            Started::Reused => rejected(ErrorKind::Rejected, registry::REUSED),
            Started::Running(Running { outcome, ended }) => {
                crate::js::promise::from_future(Box::pin(async move {
                    let answer = outcome.await;
                    ended.forget();
                    match answer {
                        Some(answer) => Ok(result_value(answer)),
                        None => Err(crate::js::error(
                            ErrorKind::Aborted,
                            &registry::aborted(&name),
                        )),
                    }
                }))
            }
        }
    }
}

/// `options.callId`: absent, or a non-empty string.
fn caller_call_id(options: &JsValue) -> Result<Option<String>, JsValue> {
    match crate::js::present(options, "callId") {
        None => Ok(None),
        Some(v) => match v.as_string() {
            Some(id) if !id.is_empty() => Ok(Some(id)),
            _ => Err(crate::js::invalid(
                "options.callId: must be a non-empty string",
            )),
        },
    }
}

/// `options.deadlineMs`: absent, or a number of milliseconds that a timer can wait.
fn deadline_ms(options: &JsValue) -> Result<Option<u64>, JsValue> {
    const MAX: f64 = 2_147_483_647.0;
    let Some(v) = crate::js::present(options, "deadlineMs") else {
        return Ok(None);
    };
    match v.as_f64() {
        Some(ms) if (0.0..=MAX).contains(&ms) => Ok(Some(ms.ceil() as u64)),
        got => Err(crate::js::invalid(&format!(
            "options.deadlineMs: must be a number of milliseconds from 0 to 2147483647, got {}",
            // JS's own text of a number: Rust's float formatting is not in the .wasm.
            got.and_then(|_| js_sys::Number::from(v.clone())
                .to_string_with_radix(10)
                .ok())
                .map_or_else(|| crate::js::describe(&v).to_owned(), String::from)
        ))),
    }
}

/// An answer as the `AgentToolResult` the app reads (the shape of
/// `adapters::registry::tool_result`), made here: text stays a string, JSON is parsed once.
fn result_value(answer: Answer) -> JsValue {
    let o = crate::js::object();
    let set = |k: &str, v: &JsValue| crate::js::set(&o, k, v);
    match answer {
        Answer::Ok(content) => {
            set("success", &JsValue::TRUE);
            set(
                "data",
                &match content {
                    Content::Text(text) => JsValue::from_str(&text),
                    Content::Json(json) => from_json_text(&json),
                },
            );
        }
        Answer::Err { message, .. } => {
            set("success", &JsValue::FALSE);
            set("data", &JsValue::NULL);
            set("error", &JsValue::from_str(&message));
        }
    }
    o
}

/// A promise rejected with an `Error` whose `code` is `code`.
fn rejected(kind: ErrorKind, message: &str) -> Promise {
    Promise::reject(&crate::js::error(kind, message))
}

fn resolved(answer: Answer) -> Promise {
    Promise::resolve(&result_value(answer))
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
