//! ElevenLabs' conversational agents: `client_tool_call` with the call nested under
//! `client_tool_call`, always answered by a `client_tool_result` with a string `result`.

use super::frame::{readable_id, string_field, Incoming, IncomingCall, Malformed};
use crate::calls::ResultLimit;
use crate::json::scan;
use serde_json::{Map, Value};

/// No byte limit is documented; the Sessions API's 65,536 characters keep a result sane.
pub(crate) const LIMIT: ResultLimit = ResultLimit::SESSIONS;

/// `{ type: "client_tool_call", client_tool_call: { tool_name, tool_call_id, parameters, event_id } }`.
pub(crate) fn read(frame: &Map<String, Value>) -> Incoming {
    if frame.get("type").and_then(Value::as_str) != Some("client_tool_call") {
        return Incoming::Other;
    }
    let Some(call) = frame.get("client_tool_call").and_then(Value::as_object) else {
        return Incoming::Calls(vec![Err(Malformed {
            call_id: None,
            tool: None,
            expects_response: true,
            reason: "client_tool_call is missing or not an object".to_owned(),
        })]);
    };
    let read = (|| {
        Ok(IncomingCall {
            call_id: string_field(call, "tool_call_id", "client_tool_call.tool_call_id")?,
            tool: string_field(call, "tool_name", "client_tool_call.tool_name")?,
            arguments: call.get("parameters").cloned().unwrap_or(Value::Null),
            expects_response: true,
        })
    })();
    Incoming::Calls(vec![read.map_err(|reason| Malformed {
        call_id: readable_id(call, "tool_call_id"),
        tool: readable_id(call, "tool_name"),
        expects_response: true,
        reason,
    })])
}

/// A frame the JSON parser refused whole, read from what can be read of it (`frame`): whether
/// its call, under `client_tool_call`, is whole. If not, what can be read of the call goes into
/// `frame`, and `why` names what could not be read.
pub(crate) fn unreadable_call(
    text: &str,
    frame: &mut Map<String, Value>,
    why: &mut String,
) -> bool {
    if frame.contains_key("client_tool_call") {
        return true;
    }
    if let Some(call) = scan::member(text, "client_tool_call") {
        let (call, inner) = scan::readable(call);
        if let Some(inner) = inner {
            *why = format!("client_tool_call.{inner}");
        }
        frame.insert("client_tool_call".to_owned(), Value::Object(call));
    }
    false
}

/// `{ type: "client_tool_result", tool_call_id, result, is_error }`.
pub(crate) fn result(call_id: &str, text: &str, is_error: bool) -> String {
    super::cartesia::client_tool_result(call_id, text, is_error)
}
