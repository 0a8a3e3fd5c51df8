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
//! An object that means to be a result object but is malformed (`is_error` for `isError`, an
//! `isError` that is not a boolean, a `text` that is not a string), or a `ToolResult` (an
//! object of `success`, `data`, `error` only) whose `success` is not a boolean or whose
//! `error` is not a string, is answered as an error that says so: sent as a success, the model
//! would read the app's mistake as the tool's answer.

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
    /// JSON text the shell wrote (`JSON.stringify`) from a value it read the convention on
    /// itself and found neither a result object nor a `ToolResult` ([`is_result_like`]): taken
    /// as written, not parsed again.
    Written(String),
    /// A result object or a `ToolResult` the shell read from the value itself: its convention
    /// fields (`isError`, `is_error`, `text`, `success`, `error`, and `data` when it is a
    /// string), and `data` as JSON text when it is anything else but `null`.
    Fields(Map<String, Value>, Option<String>),
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
    /// Plain text, as the model reads it.
    Text(String),
    /// JSON text (keys in the handler's order where the shell gave its text).
    Json(String),
}

impl Content {
    /// JSON content from a value.
    pub fn json(value: &Value) -> Content {
        Content::Json(crate::json::json_text(value))
    }

    /// The content as a JSON value: text as a JSON string, JSON as itself.
    pub fn to_value(&self) -> Value {
        match self {
            Content::Text(text) => Value::String(text.clone()),
            // Written by this module from a value or checked as JSON when it came in.
            Content::Json(json) => crate::json::parse(json).unwrap_or(Value::Null),
        }
    }
}

/// The answer to one call.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Answered: what the handler gave the model.
    Ok(Content),
    /// Answered as an error (`is_error` on the wire) the model reads.
    Err {
        /// Why, for a program.
        kind: ErrorKind,
        /// What the model reads: the handler's message or the runtime's.
        message: String,
    },
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

    /// Reads what a handler returned by the convention in the module docs.
    pub fn from_returned(returned: Returned) -> Answer {
        match returned {
            Returned::Nothing => Answer::Ok(Content::Text(DONE_TEXT.to_owned())),
            Returned::Value(Value::String(text)) => Answer::Ok(Content::Text(text)),
            Returned::Value(Value::Object(map)) => from_object(map, None),
            Returned::Value(other) => Answer::Ok(Content::json(&other)),
            Returned::Json(text) => from_json_text(text),
            Returned::Written(json) => Answer::Ok(Content::Json(json)),
            Returned::Fields(map, data) => from_object(map, data),
            Returned::Threw(message) | Returned::Unwritable(message) => {
                Answer::error(ErrorKind::HandlerError, message)
            }
        }
    }
}

const RESULT_SHAPE: &str = "{ isError: boolean, text: string }";
const TOOL_RESULT_SHAPE: &str = "{ success: boolean, data?, error?: string }";

/// A value's kind, for a message: "a string", "a number", "null", …
fn kind(v: Option<&Value>) -> &'static str {
    match v {
        None => "undefined",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "a boolean",
        Some(Value::Number(_)) => "a number",
        Some(Value::String(_)) => "a string",
        Some(Value::Array(_)) => "an array",
        Some(Value::Object(_)) => "an object",
    }
}

fn malformed(why: &str, shape: &str) -> Answer {
    let what = if shape == RESULT_SHAPE {
        "result object"
    } else {
        "ToolResult"
    };
    Answer::error(
        ErrorKind::HandlerError,
        format!("the handler returned a malformed {what} ({why}); expected {shape}"),
    )
}

/// Whether an object with these keys is read as a result object or a `ToolResult` rather
/// than plain JSON: it has `isError` (or its misspelling `is_error`), or it has `success` and
/// no key a `ToolResult` does not have.
pub fn is_result_like<'a>(keys: impl Iterator<Item = &'a str>) -> bool {
    let (mut flag, mut success, mut other) = (false, false, false);
    for key in keys {
        match key {
            "isError" | "is_error" => flag = true,
            "success" => success = true,
            "data" | "error" => {}
            _ => other = true,
        }
    }
    flag || (success && !other)
}

fn is_result_map(map: &Map<String, Value>) -> bool {
    is_result_like(map.keys().map(String::as_str))
}

/// JSON text: parsed to check it and read the convention; plain JSON is kept as written.
fn from_json_text(text: String) -> Answer {
    let not_json = |e: String| {
        Answer::error(
            ErrorKind::HandlerError,
            format!("the handler's result is not JSON: {e}"),
        )
    };
    // Checked by the one `Value` parser the wasm has; an `IgnoredAny` pass would be a second.
    match crate::json::parse(&text) {
        Ok(Value::String(s)) => Answer::Ok(Content::Text(s)),
        Ok(Value::Object(map)) if is_result_map(&map) => from_object(map, None),
        Ok(_) => Answer::Ok(Content::Json(text)),
        Err(e) => not_json(e),
    }
}

/// A field's value, taken out (left `null`); not `remove`, which would link `BTreeMap`'s
/// removal (~3 KB of wasm) for nothing: the map is dropped after.
fn take(map: &mut Map<String, Value>, key: &str) -> Option<Value> {
    map.get_mut(key).map(Value::take)
}

/// A returned object: a result object, a `ToolResult`, or plain JSON; `data`, when given, is a
/// `ToolResult`'s data as JSON text (not in `map`).
fn from_object(mut map: Map<String, Value>, data: Option<String>) -> Answer {
    if data.is_none() && !is_result_map(&map) {
        return Answer::Ok(Content::json(&Value::Object(map)));
    }
    if map.contains_key("isError") || map.contains_key("is_error") {
        let is_error = match map.get("isError") {
            Some(Value::Bool(b)) => *b,
            None => return malformed("it has is_error; the flag is spelled isError", RESULT_SHAPE),
            other => {
                let why = format!("isError must be true or false, got {}", kind(other));
                return malformed(&why, RESULT_SHAPE);
            }
        };
        return match take(&mut map, "text") {
            Some(Value::String(text)) if is_error => Answer::error(ErrorKind::HandlerError, text),
            Some(Value::String(text)) => Answer::Ok(Content::Text(text)),
            other => {
                let why = format!("text must be a string, got {}", kind(other.as_ref()));
                malformed(&why, RESULT_SHAPE)
            }
        };
    }
    let error = match take(&mut map, "error") {
        None | Some(Value::Null) => None,
        Some(Value::String(e)) => Some(e),
        Some(other) => {
            let why = format!("error must be a string, got {}", kind(Some(&other)));
            return malformed(&why, TOOL_RESULT_SHAPE);
        }
    };
    match map.get("success") {
        Some(Value::Bool(true)) => Answer::Ok(match (data, take(&mut map, "data")) {
            (Some(json), _) => Content::Json(json),
            (None, None | Some(Value::Null)) => Content::Text(DONE_TEXT.to_owned()),
            (None, Some(Value::String(text))) => Content::Text(text),
            (None, Some(data)) => Content::json(&data),
        }),
        Some(Value::Bool(false)) => Answer::error(
            ErrorKind::HandlerError,
            error.unwrap_or_else(|| "The tool failed.".to_owned()),
        ),
        other => {
            let why = format!("success must be true or false, got {}", kind(other));
            malformed(&why, TOOL_RESULT_SHAPE)
        }
    }
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
