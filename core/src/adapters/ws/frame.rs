//! What a dialect reads out of one text frame, before the bridge decides what to do with it.

use serde_json::{Map, Value};

/// A tool call as a dialect read it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct IncomingCall {
    pub call_id: String,
    pub tool: String,
    /// As sent: an object, a JSON string holding one, or `null` for none.
    pub arguments: Value,
    /// Whether the platform waits for a result (only Cartesia's calls may say no).
    pub expects_response: bool,
}

/// A frame that claimed to be a tool call but could not be read as one.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Malformed {
    /// The call's id, when it could be read: the call is then answered as an error.
    pub call_id: Option<String>,
    pub tool: Option<String>,
    pub expects_response: bool,
    /// What is wrong, naming the field.
    pub reason: String,
}

/// One frame, read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Incoming {
    /// Not a tool call (audio, transcripts, anything else): ignored.
    Other,
    /// Tool calls (a Realtime `response.done` may carry several, most already seen).
    Calls(Vec<Result<IncomingCall, Malformed>>),
    /// Realtime: a response started.
    ResponseCreated,
    /// Realtime: a response ended, with the function calls of its output.
    ResponseDone(Vec<Result<IncomingCall, Malformed>>),
    /// Realtime: the server refused a `response.create` because a response is active.
    ActiveResponseError,
}

/// Frames are written as text: a `json!` tree per frame shape costs the wasm more than its few
/// fixed pieces.
pub(crate) use crate::json::push_quoted;

/// `obj[key]` as a string, or why not (naming `field`).
pub(crate) fn string_field(
    obj: &Map<String, Value>,
    key: &str,
    field: &str,
) -> Result<String, String> {
    match obj.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        Some(Value::String(_)) => Err(format!("{field} is empty")),
        Some(other) => Err(format!(
            "{field} is {}, not a string",
            crate::json::json_type_name(other)
        )),
        None => Err(format!("{field} is missing")),
    }
}

/// The id of a malformed call, if it can be read as a non-empty string.
pub(crate) fn readable_id(obj: &Map<String, Value>, key: &str) -> Option<String> {
    match obj.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// A call read from a frame the JSON parser refused whole, malformed for `why` (what could not
/// be read): its arguments are not known, so it cannot run, but an id that could be read is
/// answered.
pub(crate) fn unread(
    call: Result<IncomingCall, Malformed>,
    why: &str,
) -> Result<IncomingCall, Malformed> {
    call.and_then(|c| {
        Err(Malformed {
            call_id: Some(c.call_id),
            tool: Some(c.tool),
            expects_response: c.expects_response,
            reason: why.to_owned(),
        })
    })
}

/// Every call of `incoming`, [`unread`].
pub(crate) fn unread_all(incoming: Incoming, why: &str) -> Incoming {
    let Incoming::Calls(calls) = incoming else {
        return incoming;
    };
    let mut all = Vec::with_capacity(calls.len());
    for call in calls {
        all.push(unread(call, why));
    }
    Incoming::Calls(all)
}
