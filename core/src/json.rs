//! Parsing JSON text, and writing it ([`json_text`]).
//!
//! Every place the core reads JSON text (server answers and stream events, a string holding a
//! call's arguments, a handler's result, a voice agent's frames) calls [`parse`], and nothing
//! else in the core parses JSON text: serde_json's parser, on every target, so a tab, Node and
//! a native worker read the same text as the same [`Value`] (`1.0` a float, `9007199254740993`
//! the integer exactly, `1e400` refused as out of range, `-0` the float `-0.0`).

pub(crate) mod scan;
mod write;

pub use write::{json_text, object_text};
pub(crate) use write::{push_quoted, quoted, write_json};

use serde_json::Value;

/// JSON text as a value; the error says what is wrong and where (serde_json's message:
/// "expected value at line 1 column 1", "recursion limit exceeded at line 1 column 129").
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The JSON Schema name of a value's type: `object`, `array`, `string`, `number`, …
/// (`integer` for a number read as an integer: `1`, not `1.0`).
pub fn json_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
