//! OpenAI's Realtime API: a call is `response.function_call_arguments.done` (`call_id`,
//! `name`, `arguments` as a JSON string) and shows up again in `response.done`'s output;
//! its answer is a `conversation.item.create` of a `function_call_output`, and the model
//! speaks again only after a `response.create`, which the server refuses while a response
//! is active.

use super::frame::{
    push_quoted, readable_id, string_field, unread, Incoming, IncomingCall, Malformed,
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
                        crate::json::json_type_name(other)
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
            let mut calls = Vec::new();
            for (i, item) in output.map_or(&[][..], Vec::as_slice).iter().enumerate() {
                let Some(item) = item.as_object() else {
                    continue;
                };
                if item.get("type").and_then(Value::as_str) == Some("function_call") {
                    calls.push(call(item, &format!("response.output[{i}].")));
                }
            }
            Incoming::ResponseDone(calls)
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

/// A `response.done` whose `response` the JSON parser refused: each output item is read on
/// its own; a function call that cannot be read whole is malformed, naming what could not be
/// read, the others are read as usual.
pub(crate) fn unreadable_done(text: &str) -> Incoming {
    let output = scan::member(text, "response").and_then(|r| scan::member(r, "output"));
    let mut calls = Vec::new();
    let items = scan::elements(output.unwrap_or_default());
    for (i, (_, item)) in items.into_iter().enumerate() {
        let (item, why) = match crate::json::parse(item) {
            Ok(Value::Object(item)) => (item, None),
            Ok(_) => continue,
            Err(e) => {
                let (item, why) = scan::readable(item);
                (item, Some(why.unwrap_or(e)))
            }
        };
        if item.get("type").and_then(Value::as_str) != Some("function_call") {
            continue;
        }
        let at = format!("response.output[{i}].");
        let call = call(&item, &at);
        calls.push(match why {
            Some(why) => unread(call, &format!("{at}{why}")),
            None => call,
        });
    }
    Incoming::ResponseDone(calls)
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
