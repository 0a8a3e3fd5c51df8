//! ElevenLabs' conversational agents: `client_tool_call` with the call nested under
//! `client_tool_call`, always answered by a `client_tool_result` with a string `result`.

use super::frame::{readable_id, string_field, unread_all, Incoming, IncomingCall, Malformed};
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

/// A frame the JSON parser refused whole (`error`): when the call under `client_tool_call` is
/// what could not be read, it is read from its text and is malformed, naming the member.
pub(crate) fn unreadable(text: &str, error: &str) -> Incoming {
    let (mut frame, why) = scan::readable(text);
    if frame.contains_key("client_tool_call") {
        // The call is whole: what could not be read is elsewhere.
        return read(&frame);
    }
    let mut why = why.unwrap_or_else(|| error.to_owned());
    if let Some(call) = scan::member(text, "client_tool_call") {
        let (call, inner) = scan::readable(call);
        if let Some(inner) = inner {
            why = format!("client_tool_call.{inner}");
        }
        frame.insert("client_tool_call".to_owned(), Value::Object(call));
    }
    unread_all(read(&frame), &why)
}

/// `{ type: "client_tool_result", tool_call_id, result, is_error }`.
pub(crate) fn result(call_id: &str, text: &str, is_error: bool) -> String {
    super::cartesia::client_tool_result(call_id, text, is_error)
}
