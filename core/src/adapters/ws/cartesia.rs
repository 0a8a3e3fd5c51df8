//! Cartesia's voice agents (the websocket-client-tools seed): `client_tool_call` in,
//! `client_tool_result` out only when the call `expects_response`; results at most 4,096
//! UTF-8 bytes, `error_type` at most 256.

use super::frame::{push_quoted, readable_id, string_field, Incoming, IncomingCall, Malformed};
use crate::calls::{ErrorKind, ResultLimit};
use serde_json::{Map, Value};

/// A result longer than this many bytes is replaced by the server with `result_too_large`.
pub const RESULT_MAX_BYTES: usize = 4096;
/// An `error_type` longer than this many bytes makes the server discard the result.
pub const ERROR_TYPE_MAX_BYTES: usize = 256;

pub(crate) const LIMIT: ResultLimit = ResultLimit::Bytes(RESULT_MAX_BYTES);

/// `{ type: "client_tool_call", tool_call_id, tool_name, parameters, expects_response }`.
pub(crate) fn read(frame: &Map<String, Value>) -> Incoming {
    if frame.get("type").and_then(Value::as_str) != Some("client_tool_call") {
        return Incoming::Other;
    }
    // Absent means the platform's default, which waits for the result.
    let expects = match frame.get("expects_response") {
        None | Some(Value::Null) => Ok(true),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!(
            "expects_response is {}, not a boolean",
            crate::json::json_type_name(other)
        )),
    };
    let call = (|| {
        let call_id = string_field(frame, "tool_call_id", "tool_call_id")?;
        let tool = string_field(frame, "tool_name", "tool_name")?;
        let expects_response = expects.clone()?;
        Ok(IncomingCall {
            call_id,
            tool,
            arguments: frame.get("parameters").cloned().unwrap_or(Value::Null),
            expects_response,
        })
    })();
    Incoming::Calls(vec![call.map_err(|reason| Malformed {
        call_id: readable_id(frame, "tool_call_id"),
        tool: readable_id(frame, "tool_name"),
        // A malformed flag is answered: a result the server did not want is harmless.
        expects_response: expects.unwrap_or(true),
        reason,
    })])
}

/// `{ type: "client_tool_result", tool_call_id, result, is_error, error_type? }`.
pub(crate) fn result(call_id: &str, text: &str, error: Option<ErrorKind>) -> String {
    let mut frame = client_tool_result(call_id, text, error.is_some());
    if let Some(kind) = error {
        // The documented set: the longest, "invalid_arguments", is 17 bytes.
        frame.pop();
        frame.push_str(r#","error_type":""#);
        frame.push_str(kind.as_str());
        frame.push_str(r#""}"#);
    }
    frame
}

/// `{ type: "client_tool_result", tool_call_id, result, is_error }`, Cartesia's and ElevenLabs'.
pub(crate) fn client_tool_result(call_id: &str, text: &str, is_error: bool) -> String {
    let mut frame = String::from(r#"{"type":"client_tool_result","tool_call_id":"#);
    push_quoted(&mut frame, call_id);
    frame.push_str(r#","result":"#);
    push_quoted(&mut frame, text);
    frame.push_str(if is_error {
        r#","is_error":true}"#
    } else {
        r#","is_error":false}"#
    });
    frame
}
