//! What a handler gives back, read by one convention for every transport, and the result
//! limit each transport sets.
//!
//! A handler may return:
//! - nothing (`undefined`, `()`): the success text [`DONE_TEXT`];
//! - a string: that text;
//! - `{ isError: boolean, text: string }`: that result (a result object);
//! - `{ success: boolean, data?, error?: string }`: the agent-tools `ToolResult`; `success:
//!   false` is an error whose text is `error`;
//! - anything else: its JSON (an object stays an object where the transport carries JSON).
//!
//! An object that looks like a result object or a `ToolResult` but is malformed (`is_error`,
//! a `isError` that is not a boolean, a `text` that is not a string, an unknown key beside
//! them) is answered as an error that says so: sent as success, the model would read the
//! app's mistake as the tool's answer.

use crate::protocol::validate::json_type_name;
use serde_json::{Map, Value};

/// The result text of a handler that returned nothing.
pub const DONE_TEXT: &str = "Done.";

/// What a handler gave back, as the shell read it.
#[derive(Clone, Debug, PartialEq)]
pub enum Returned {
    /// Nothing: `undefined` in JS, `()` in Rust.
    Nothing,
    /// A value (a string included).
    Value(Value),
    /// A value as JSON text, as the shell wrote it (`JSON.stringify`): kept as written, so an
    /// object's keys stay in the handler's order.
    Json(String),
    /// It threw, rejected or panicked, with this message.
    Threw(String),
    /// It returned something with no JSON form; the text says what.
    Unwritable(String),
}

impl Returned {
    /// A handler's text answer.
    pub fn text(text: impl Into<String>) -> Returned {
        Returned::Value(Value::String(text.into()))
    }
}

/// A Rust handler's `Result`: `Ok(text)` its answer, `Err(message)` an error the model reads.
impl From<Result<String, String>> for Returned {
    fn from(result: Result<String, String>) -> Returned {
        match result {
            Ok(text) => Returned::Value(Value::String(text)),
            Err(message) => Returned::Threw(message),
        }
    }
}

/// Why a call was answered as an error: a kind a program (or a transport's `error_type`) can
/// match, beside the message the model reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// No tool of that name is on offer.
    UnknownTool,
    /// The arguments are unreadable or fail the tool's schema.
    InvalidArguments,
    /// The tool's `max_calls_per_run` was reached in this run.
    TooManyCalls,
    /// The handler did not finish before its local deadline.
    Timeout,
    /// The handler threw, or returned a malformed result or an error result.
    HandlerError,
}

impl ErrorKind {
    /// The kind's wire name: `unknown_tool`, `invalid_arguments`, `too_many_calls`,
    /// `timeout`, `handler_error`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::TooManyCalls => "too_many_calls",
            ErrorKind::Timeout => "timeout",
            ErrorKind::HandlerError => "handler_error",
        }
    }
}

/// A successful answer's content: text, or JSON for transports that carry it.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    Text(String),
    /// JSON text (keys in the handler's order where the shell gave its text).
    Json(String),
}

impl Content {
    /// JSON content from a value.
    pub fn json(value: &Value) -> Content {
        Content::Json(value.to_string())
    }

    /// The content as a JSON value: text as a JSON string, JSON as itself.
    pub fn to_value(&self) -> Value {
        match self {
            Content::Text(text) => Value::String(text.clone()),
            // Written by this module from a value or checked as JSON when it came in.
            Content::Json(json) => serde_json::from_str(json).unwrap_or(Value::Null),
        }
    }
}

/// The answer to one call.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Ok(Content),
    Err { kind: ErrorKind, message: String },
}

impl Answer {
    /// An error answer.
    pub fn error(kind: ErrorKind, message: impl Into<String>) -> Answer {
        Answer::Err {
            kind,
            message: message.into(),
        }
    }

    /// Whether the model should read it as an error.
    pub fn is_error(&self) -> bool {
        matches!(self, Answer::Err { .. })
    }

    /// The answer as text (JSON written out) within `limit`, and whether it is an error.
    pub fn into_text(self, limit: ResultLimit) -> (String, bool) {
        let (text, is_error) = match self {
            Answer::Ok(Content::Text(text)) => (text, false),
            Answer::Ok(Content::Json(json)) => (json, false),
            Answer::Err { message, .. } => (message, true),
        };
        (limit.cut(text), is_error)
    }

    /// Reads what a handler returned by the convention in the [module docs](self).
    pub fn from_returned(returned: Returned) -> Answer {
        match returned {
            Returned::Nothing => Answer::Ok(Content::Text(DONE_TEXT.to_owned())),
            Returned::Value(Value::String(text)) => Answer::Ok(Content::Text(text)),
            Returned::Value(Value::Object(map)) => from_object(map),
            Returned::Value(other) => Answer::Ok(Content::json(&other)),
            Returned::Json(text) => from_json_text(text),
            Returned::Threw(message) | Returned::Unwritable(message) => {
                Answer::error(ErrorKind::HandlerError, message)
            }
        }
    }
}

const RESULT_SHAPE: &str = "{ isError: boolean, text: string }";
const TOOL_RESULT_SHAPE: &str = "{ success: boolean, data?, error?: string }";

fn malformed(message: String) -> Answer {
    Answer::error(ErrorKind::HandlerError, message)
}

/// JSON text: read only as far as the convention needs; plain JSON is kept as written.
fn from_json_text(text: String) -> Answer {
    let first = text.trim_start().as_bytes().first().copied();
    if !matches!(first, Some(b'{' | b'"')) {
        return match serde_json::from_str::<Value>(&text) {
            Ok(_) => Answer::Ok(Content::Json(text)),
            Err(e) => Answer::error(
                ErrorKind::HandlerError,
                format!("the handler's result is not JSON: {e}"),
            ),
        };
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::String(s)) => Answer::Ok(Content::Text(s)),
        Ok(Value::Object(map)) if is_result_like(&map) => from_object(map),
        Ok(_) => Answer::Ok(Content::Json(text)),
        Err(e) => Answer::error(
            ErrorKind::HandlerError,
            format!("the handler's result is not JSON: {e}"),
        ),
    }
}

/// Whether an object is read as a result object or a `ToolResult` rather than plain JSON.
fn is_result_like(map: &Map<String, Value>) -> bool {
    ["is_error", "isError", "success"]
        .iter()
        .any(|k| map.contains_key(*k))
}

/// A returned object: a result object, a `ToolResult`, or plain JSON.
fn from_object(mut map: Map<String, Value>) -> Answer {
    if map.contains_key("is_error") {
        return malformed(format!(
            "the handler returned a result with is_error; a result object is {RESULT_SHAPE}"
        ));
    }
    if map.contains_key("isError") {
        if let Some(key) = map.keys().find(|k| *k != "isError" && *k != "text") {
            return malformed(format!(
                "the handler's result object has an unknown key {key:?}; a result object is {RESULT_SHAPE}"
            ));
        }
        let is_error = match map.get("isError") {
            Some(Value::Bool(b)) => *b,
            other => {
                return malformed(format!(
                    "the handler's result object has isError as {}, not a boolean; a result object is {RESULT_SHAPE}",
                    json_type_name(other.unwrap_or(&Value::Null))
                ))
            }
        };
        return match map.remove("text") {
            Some(Value::String(text)) if is_error => Answer::error(ErrorKind::HandlerError, text),
            Some(Value::String(text)) => Answer::Ok(Content::Text(text)),
            other => malformed(format!(
                "the handler's result object has text as {}, not a string; a result object is {RESULT_SHAPE}",
                other.as_ref().map_or("missing", json_type_name)
            )),
        };
    }
    if map.contains_key("success") {
        if let Some(key) = map
            .keys()
            .find(|k| !matches!(k.as_str(), "success" | "data" | "error"))
        {
            return malformed(format!(
                "the handler's ToolResult has an unknown key {key:?}; a ToolResult is {TOOL_RESULT_SHAPE}"
            ));
        }
        let error = match map.remove("error") {
            None | Some(Value::Null) => None,
            Some(Value::String(e)) => Some(e),
            Some(other) => {
                return malformed(format!(
                    "the handler's ToolResult has error as {}, not a string; a ToolResult is {TOOL_RESULT_SHAPE}",
                    json_type_name(&other)
                ))
            }
        };
        return match map.get("success") {
            Some(Value::Bool(true)) => Answer::Ok(match map.remove("data") {
                None | Some(Value::Null) => Content::Text(DONE_TEXT.to_owned()),
                Some(Value::String(text)) => Content::Text(text),
                Some(data) => Content::json(&data),
            }),
            Some(Value::Bool(false)) => Answer::error(
                ErrorKind::HandlerError,
                error.unwrap_or_else(|| "The tool failed.".to_owned()),
            ),
            other => malformed(format!(
                "the handler's ToolResult has success as {}, not a boolean; a ToolResult is {TOOL_RESULT_SHAPE}",
                json_type_name(other.unwrap_or(&Value::Null))
            )),
        };
    }
    Answer::Ok(Content::json(&Value::Object(map)))
}

/// How long a result may be, set by the transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultLimit {
    /// At most this many characters (Unicode scalar values): the Sessions API's 65,536.
    Chars(usize),
    /// At most this many UTF-8 bytes: a voice agent's WebSocket, 4,096.
    Bytes(usize),
    /// No limit.
    None,
}

impl ResultLimit {
    /// The Sessions API's limit: 65,536 characters.
    pub const SESSIONS: ResultLimit = ResultLimit::Chars(crate::protocol::limits::RESULT_TEXT_MAX);

    /// Cuts `text` to the limit at a character boundary with a note saying how much was cut,
    /// the note included in the limit. A text within the limit is returned as it is.
    pub fn cut(self, mut text: String) -> String {
        let (max, unit, len): (usize, &str, fn(&str) -> usize) = match self {
            ResultLimit::None => return text,
            ResultLimit::Chars(max) => (max, "characters", |s| s.chars().count()),
            ResultLimit::Bytes(max) => (max, "bytes", str::len),
        };
        // Every char is at least one byte, so a short text needs no count.
        if text.len() <= max {
            return text;
        }
        let total = len(&text);
        if total <= max {
            return text;
        }
        let note = |cut: usize| format!("\n[cut: {cut} more {unit}; a result holds at most {max}]");
        // The note's length depends on the count it states: the longest kept part whose note
        // still fits, starting from the shortest note and stepping down.
        let mut keep = max.saturating_sub(len(&note(1)));
        // In bytes, `keep` must also fall on a character boundary.
        let boundary = |keep: usize| match self {
            ResultLimit::Bytes(_) => (0..=keep)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0),
            _ => keep,
        };
        keep = boundary(keep);
        while keep > 0 && keep + len(&note(total - keep)) > max {
            keep = boundary(keep - 1);
        }
        let at = match self {
            ResultLimit::Bytes(_) => keep,
            _ => text.char_indices().nth(keep).map_or(text.len(), |(i, _)| i),
        };
        text.truncate(at);
        text.push_str(&note(total - keep));
        text
    }
}
