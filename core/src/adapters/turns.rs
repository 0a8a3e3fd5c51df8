//! Turn-based client function tools: the session's answer names the calls (`toolCalls`), the
//! app runs them and sends `toolResponses` with the same `id`, `tool` and `displayName` in the
//! next request. The session is blocked until then.
//!
//! This is the pure half: reading the calls out of a response, matching each to a tool, and
//! writing the responses. The shell runs the calls through the [call runtime](crate::calls).

use super::registry::json_text;
use crate::calls::{self, Admission, Answer, Call, CallRuntime, ToolDef};
use crate::json::json_type_name;
use crate::json::push_quoted;
use crate::time::Instant;
use serde_json::{Map, Value};

/// One call of a turn, as the session sent it.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnCall {
    /// The execution id, echoed in the response.
    pub id: String,
    /// The tool's resource name (`projects/…/tools/get_nearest_store`), echoed.
    pub tool: String,
    /// The tool's display name, echoed when present.
    pub display_name: Option<String>,
    /// The arguments as sent (`args`; `null` when absent).
    pub args: Value,
}

impl TurnCall {
    /// The tool the call is for among `tools`: the one named by `displayName`, else by the
    /// last `/` segment of `tool`. `None` if neither names one.
    pub fn matched<'t>(&self, tools: &'t [ToolDef]) -> Option<&'t ToolDef> {
        let last = match self.tool.bytes().rposition(|b| b == b'/') {
            Some(i) => &self.tool[i + 1..],
            None => &self.tool,
        };
        let by = |name: &str| tools.iter().find(|t| t.spec.name == name);
        self.display_name
            .as_deref()
            .and_then(by)
            .or_else(|| by(last))
    }
}

/// How a turn's call is doing, for the app's `onCall` (logs, a spinner): the JS
/// `TurnCallEvent` `{ type, id, tool, isError?, elapsedMs? }`.
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
        /// Time since the turn's calls started, in milliseconds.
        elapsed_ms: u64,
    },
}

/// What to do with one call of a turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Its id was answered before: it is not run again, and not answered again.
    Skip,
    /// Answered without running a handler (an unknown tool, bad arguments, too many calls).
    Answered(Answer),
    /// Run the handler of `tool` with these arguments; the runtime answers "timed out" at
    /// `deadline` unless it finishes first.
    Run {
        /// The tool's name, one of those on offer.
        tool: String,
        /// The call's arguments, a JSON object already checked against the tool's schema.
        arguments: Map<String, Value>,
        /// When the runtime answers "timed out", on the caller's clock.
        deadline: Instant,
    },
}

/// Admits each call of a turn into `runtime` (counted in `run_id`), in order. A call for no
/// tool on offer is answered with the list of tools.
pub fn admit(
    calls: &[TurnCall],
    runtime: &mut CallRuntime,
    tools: &[ToolDef],
    run_id: &str,
    now: Instant,
) -> Vec<Step> {
    let mut steps = Vec::with_capacity(calls.len());
    for call in calls {
        steps.push(admit_one(call, runtime, tools, run_id, now));
    }
    steps
}

fn admit_one(
    call: &TurnCall,
    runtime: &mut CallRuntime,
    tools: &[ToolDef],
    run_id: &str,
    now: Instant,
) -> Step {
    let Some(def) = call.matched(tools) else {
        if !runtime.mark_seen(&call.id) {
            return Step::Skip;
        }
        let name = call.display_name.as_deref().unwrap_or(&call.tool);
        return Step::Answered(calls::unknown_tool(name, tools));
    };
    let tool = def.spec.name.clone();
    let admitted = Call {
        call_id: &call.id,
        run_id,
        tool: &tool,
    };
    match runtime.admit(admitted, call.args.clone(), tools, now) {
        Admission::Duplicate => Step::Skip,
        Admission::Answer(answer) => Step::Answered(answer),
        Admission::Run {
            arguments,
            deadline,
        } => Step::Run {
            tool,
            arguments,
            deadline,
        },
    }
}

/// Reads the calls of a turn from a `runSession` response (`{ outputs: [...] }`), its
/// `outputs` array, one output (`{ toolCalls: { toolCalls: [...] } }`) or a `toolCalls`
/// object (`{ toolCalls: [...] }`). Outputs without calls (text, `turnCompleted`) are passed
/// over. Fails naming the path of a call whose `id` or `tool` cannot be read: it could not be
/// answered.
pub fn read_calls(response: &Value) -> Result<Vec<TurnCall>, String> {
    let mut calls = Vec::new();
    match response {
        Value::Array(outputs) => read_outputs(outputs, "outputs", &mut calls)?,
        Value::Object(map) => match (map.get("outputs"), map.get("toolCalls")) {
            (Some(Value::Array(outputs)), _) => read_outputs(outputs, "outputs", &mut calls)?,
            (Some(other), _) => {
                return Err(format!(
                    "outputs: must be an array, got {}",
                    json_type_name(other)
                ))
            }
            (None, Some(Value::Array(list))) => read_list(list, "toolCalls", &mut calls)?,
            (None, Some(_)) => read_output(map, "response", &mut calls)?,
            (None, None) => {
                return Err(
                    "response: has neither outputs nor toolCalls; pass a runSession response, its outputs or a toolCalls object"
                        .to_owned(),
                )
            }
        },
        other => {
            return Err(format!(
                "response: must be an object or an array of outputs, got {}",
                json_type_name(other)
            ))
        }
    }
    Ok(calls)
}

fn read_outputs(outputs: &[Value], path: &str, calls: &mut Vec<TurnCall>) -> Result<(), String> {
    for (i, output) in outputs.iter().enumerate() {
        let path = format!("{path}[{i}]");
        match output {
            Value::Object(map) => read_output(map, &path, calls)?,
            other => {
                return Err(format!(
                    "{path}: must be an object, got {}",
                    json_type_name(other)
                ))
            }
        }
    }
    Ok(())
}

/// One output: its `toolCalls` object's list, if any.
fn read_output(
    output: &Map<String, Value>,
    path: &str,
    calls: &mut Vec<TurnCall>,
) -> Result<(), String> {
    match output.get("toolCalls") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Object(obj)) => match obj.get("toolCalls") {
            Some(Value::Array(list)) => {
                read_list(list, &format!("{path}.toolCalls.toolCalls"), calls)
            }
            other => Err(format!(
                "{path}.toolCalls.toolCalls: must be an array, got {}",
                other.map_or("nothing", json_type_name)
            )),
        },
        Some(other) => Err(format!(
            "{path}.toolCalls: must be an object, got {}",
            json_type_name(other)
        )),
    }
}

fn read_list(list: &[Value], path: &str, calls: &mut Vec<TurnCall>) -> Result<(), String> {
    for (i, call) in list.iter().enumerate() {
        let path = format!("{path}[{i}]");
        let Value::Object(call) = call else {
            return Err(format!(
                "{path}: must be an object, got {}",
                json_type_name(call)
            ));
        };
        let text = |key: &str| match call.get(key) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            Some(Value::String(_)) => Err(format!("{path}.{key}: must not be empty")),
            other => Err(format!(
                "{path}.{key}: must be a string, got {}",
                other.map_or("nothing", json_type_name)
            )),
        };
        let display_name = match call.get("displayName") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(format!(
                    "{path}.displayName: must be a string, got {}",
                    json_type_name(other)
                ))
            }
        };
        calls.push(TurnCall {
            id: text("id")?,
            tool: text("tool")?,
            display_name,
            args: call.get("args").cloned().unwrap_or(Value::Null),
        });
    }
    Ok(())
}

/// One `toolResponses` entry as JSON text: `id`, `tool` and `displayName` echoed exactly, and
/// `response: { output }` (text stays text, JSON stays JSON as the handler wrote it) or
/// `response: { error }`.
pub fn tool_response(call: &TurnCall, answer: Answer) -> String {
    // Fixed pieces and quoted strings pushed in turn: less wasm than `format!` each.
    let mut entry = String::from(r#"{"id":"#);
    push_quoted(&mut entry, &call.id);
    entry.push_str(r#","tool":"#);
    push_quoted(&mut entry, &call.tool);
    if let Some(d) = &call.display_name {
        entry.push_str(r#","displayName":"#);
        push_quoted(&mut entry, d);
    }
    match answer {
        Answer::Ok(content) => {
            entry.push_str(r#","response":{"output":"#);
            entry.push_str(&json_text(content));
        }
        Answer::Err { message, .. } => {
            entry.push_str(r#","response":{"error":"#);
            push_quoted(&mut entry, &message);
        }
    }
    entry.push_str("}}");
    entry
}

/// The next request's input as JSON text: `{"toolResponses":{"toolResponses":[…]}}`.
pub fn tool_responses(responses: &[String]) -> String {
    format!(
        r#"{{"toolResponses":{{"toolResponses":[{}]}}}}"#,
        crate::text::join(responses, ",")
    )
}
