//! OpenAI's Realtime API: a call is `response.function_call_arguments.done` (`call_id`,
//! `name`, `arguments` as a JSON string) and shows up again in `response.done`'s output;
//! its answer is a `conversation.item.create` of a `function_call_output`, and the model
//! speaks again only after a `response.create`, which the server refuses while a response
//! is active.

use super::frame::{
    push_quoted, readable_id, string_field, unread, unread_all, Incoming, IncomingCall, Malformed,
};
use crate::calls::ResultLimit;
use crate::json::scan;
use serde_json::{Map, Value};

/// No limit is documented for an output; the Sessions API's 65,536 characters keep it sane.
pub(crate) const LIMIT: ResultLimit = ResultLimit::SESSIONS;

/// The error code of a `response.create` sent while a response is active.
pub const ACTIVE_RESPONSE_CODE: &str = "conversation_already_has_active_response";

fn call(obj: &Map<String, Value>, at: &str) -> Result<IncomingCall, Malformed> {
    let read = || {
        Ok(IncomingCall {
            call_id: string_field(obj, "call_id", &format!("{at}call_id"))?,
            tool: string_field(obj, "name", &format!("{at}name"))?,
            arguments: match obj.get("arguments") {
                None | Some(Value::Null) => Value::Null,
                Some(Value::String(s)) if s.is_empty() => Value::Null,
                Some(a @ Value::String(_)) => a.clone(),
                Some(other) => {
                    return Err(format!(
                        "{at}arguments is {}, not a JSON string",
                        crate::protocol::validate::json_type_name(other)
                    ))
                }
            },
            expects_response: true,
        })
    };
    read().map_err(|reason| Malformed {
        call_id: readable_id(obj, "call_id"),
        tool: readable_id(obj, "name"),
        expects_response: true,
        reason,
    })
}

pub(crate) fn read(frame: &Map<String, Value>) -> Incoming {
    match frame.get("type").and_then(Value::as_str) {
        Some("response.function_call_arguments.done") => Incoming::Calls(vec![call(frame, "")]),
        Some("response.created") => Incoming::ResponseCreated,
        Some("response.done") => {
            let output = frame
                .get("response")
                .and_then(|r| r.get("output"))
                .and_then(Value::as_array);
            let items = output.map_or(&[][..], Vec::as_slice).iter();
            let calls = items
                .enumerate()
                .filter_map(|(i, item)| function_call(i, item.as_object()?, None));
            Incoming::ResponseDone(calls.collect())
        }
        Some("error")
            if frame
                .get("error")
                .and_then(|e| e.get("code"))
                .and_then(Value::as_str)
                == Some(ACTIVE_RESPONSE_CODE) =>
        {
            Incoming::ActiveResponseError
        }
        _ => Incoming::Other,
    }
}

/// Output item `i` of a `response.done`, if it is a function call; malformed for `why` when
/// the item could not be read whole.
fn function_call(
    i: usize,
    item: &Map<String, Value>,
    why: Option<&str>,
) -> Option<Result<IncomingCall, Malformed>> {
    if item.get("type").and_then(Value::as_str) != Some("function_call") {
        return None;
    }
    let at = format!("response.output[{i}].");
    let call = call(item, &at);
    Some(match why {
        Some(why) => unread(call, &format!("{at}{why}")),
        None => call,
    })
}

/// A frame the JSON parser refused whole (`error`), read from what can be read of it: a
/// `response.done` whose response could not be read has each output item read on its own (a
/// call that cannot be read whole is malformed, the others are read as usual); a call frame
/// is malformed, naming the member that could not be read.
pub(crate) fn unreadable(text: &str, error: &str) -> Incoming {
    let (frame, why) = scan::readable(text);
    let done = frame.get("type").and_then(Value::as_str) == Some("response.done");
    if !done || frame.contains_key("response") {
        return unread_all(read(&frame), why.as_deref().unwrap_or(error));
    }
    let output = scan::member(text, "response").and_then(|r| scan::member(r, "output"));
    let items = scan::elements(output.unwrap_or_default());
    let calls = items.into_iter().enumerate().filter_map(|(i, item)| {
        let (item, why) = match crate::json::parse(item) {
            Ok(Value::Object(item)) => (item, None),
            Ok(_) => return None,
            Err(e) => {
                let (item, why) = scan::readable(item);
                (item, Some(why.unwrap_or(e)))
            }
        };
        function_call(i, &item, why.as_deref())
    });
    Incoming::ResponseDone(calls.collect())
}

/// The output has no error flag: an error says so at the start of its text.
pub(crate) const ERROR_PREFIX: &str = "Error: ";

/// `{ type: "conversation.item.create", item: { type: "function_call_output", call_id, output } }`.
pub(crate) fn result(call_id: &str, output: &str) -> String {
    let mut frame = String::from(
        r#"{"type":"conversation.item.create","item":{"type":"function_call_output","call_id":"#,
    );
    push_quoted(&mut frame, call_id);
    frame.push_str(r#","output":"#);
    push_quoted(&mut frame, output);
    frame.push_str("}}");
    frame
}

/// `{ type: "response.create" }`: the model answers with the outputs it now has.
pub(crate) const RESPONSE_CREATE: &str = r#"{"type":"response.create"}"#;
