//! A small JSON Schema validator for tool arguments: the keywords models and tool authors
//! use, checked before a handler runs so that it never sees arguments its schema forbids.
//!
//! Supported: `type` (a name or an array of names), `enum`, `const`, `properties`,
//! `required`, `additionalProperties` (a boolean or a schema), `items` (a schema, or an array
//! of schemas by position), `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`
//! (numbers), `minLength`, `maxLength` (in characters), `minItems`, `maxItems`, and boolean
//! schemas. Any other keyword is ignored, not guessed at; so is a supported keyword whose own
//! value is malformed (a schema error is the tool author's, not the model's).
//!
//! ```
//! use client_tools_core::schema::validate;
//! use serde_json::json;
//! let schema = json!({"type": "object", "properties": {"row": {"type": "integer", "minimum": 1}},
//!                     "required": ["row"]});
//! assert!(validate(&schema, &json!({"row": 3})).is_ok());
//! let err = validate(&schema, &json!({"row": 0})).unwrap_err();
//! assert_eq!(err.to_string(), "arguments.row: 0 is less than the minimum 1 (minimum)");
//! ```

use crate::protocol::json_text;
use crate::quote::Quoted;
use serde_json::{Map, Value};
use std::fmt;

/// Where the arguments broke their schema, and which rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// The path of the offending value: `arguments`, `arguments.rows[2].id`.
    pub path: String,
    /// The keyword it broke: `type`, `required`, `maximum`, …
    pub rule: &'static str,
    /// What is wrong, for a person (or a model) to act on.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.path, self.message, self.rule)
    }
}

impl std::error::Error for SchemaError {}

/// Checks `value` against `schema`; the first broken rule is the error, its path rooted at
/// `arguments`.
pub fn validate(schema: &Value, value: &Value) -> Result<(), SchemaError> {
    check(schema, value, &Path::Root)
}

/// Where a value sits, as a chain up to the root; written out only for an error, so a valid
/// call builds no path string.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn write(&self, out: &mut String) {
        match *self {
            Path::Root => out.push_str("arguments"),
            Path::Key(parent, key) => {
                parent.write(out);
                push_key(out, key);
            }
            Path::Index(parent, i) => {
                parent.write(out);
                out.push_str(&format!("[{i}]"));
            }
        }
    }
}

fn fail(path: &Path, rule: &'static str, message: String) -> Result<(), SchemaError> {
    let mut written = String::new();
    path.write(&mut written);
    Err(SchemaError {
        path: written,
        rule,
        message,
    })
}

fn check(schema: &Value, value: &Value, path: &Path) -> Result<(), SchemaError> {
    let schema = match schema {
        Value::Bool(true) => return Ok(()),
        Value::Bool(false) => return fail(path, "false", "no value is allowed here".into()),
        Value::Object(s) => s,
        // Not a schema: nothing to check.
        _ => return Ok(()),
    };
    check_type(schema, value, path)?;
    if let Some(Value::Array(options)) = schema.get("enum") {
        if !options.iter().any(|o| json_eq(o, value)) {
            let mut list = String::new();
            for (i, o) in options.iter().enumerate() {
                if i > 0 {
                    list.push_str(", ");
                }
                list.push_str(&json_text(o));
            }
            return fail(
                path,
                "enum",
                format!("{} is not one of {list}", brief(value)),
            );
        }
    }
    if let Some(expected) = schema.get("const") {
        if !json_eq(expected, value) {
            return fail(
                path,
                "const",
                format!("{} is not {}", brief(value), json_text(expected)),
            );
        }
    }
    match value {
        Value::Object(map) => check_object(schema, map, path),
        Value::Array(items) => check_array(schema, items, path),
        Value::String(s) => check_string(schema, s, path),
        Value::Number(n) => match n.as_f64() {
            Some(x) => check_number(schema, x, value, path),
            None => Ok(()),
        },
        Value::Null | Value::Bool(_) => Ok(()),
    }
}

/// The JSON Schema type names `value` belongs to (an integer is also a number).
fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|x| x.fract() == 0.0)
            }
            _ => false,
        },
        // An unknown type name is the schema's error: do not reject the value for it.
        _ => true,
    }
}

fn check_type(schema: &Map<String, Value>, value: &Value, path: &Path) -> Result<(), SchemaError> {
    // The type names, and whether the value has one of them (no names: any value fits).
    let (wanted, fits) = match schema.get("type") {
        Some(Value::String(name)) => (name.clone(), is_type(value, name)),
        Some(Value::Array(names)) => {
            let (mut wanted, mut fits, mut any) = (String::new(), false, false);
            for name in names {
                let Some(name) = name.as_str() else { continue };
                if any {
                    wanted.push_str(" or ");
                }
                wanted.push_str(name);
                any = true;
                fits = fits || is_type(value, name);
            }
            (wanted, fits || !any)
        }
        _ => return Ok(()),
    };
    if fits {
        return Ok(());
    }
    let shown = match value {
        Value::Object(_) | Value::Array(_) => brief(value),
        _ => format!(
            "{} {}",
            crate::protocol::validate::json_type_name(value),
            brief(value)
        ),
    };
    fail(path, "type", format!("{shown}, needs {wanted}"))
}

fn check_object(
    schema: &Map<String, Value>,
    map: &Map<String, Value>,
    path: &Path,
) -> Result<(), SchemaError> {
    if let Some(Value::Array(required)) = schema.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !map.contains_key(name) {
                return fail(
                    path,
                    "required",
                    format!("the property {} is required but missing", Quoted(name)),
                );
            }
        }
    }
    let properties = match schema.get("properties") {
        Some(Value::Object(p)) => Some(p),
        _ => None,
    };
    // patternProperties is not supported; judging extras without it would be a guess.
    let additional = if schema.contains_key("patternProperties") {
        None
    } else {
        schema.get("additionalProperties")
    };
    for (name, item) in map {
        let sub = match properties.and_then(|p| p.get(name)) {
            Some(sub) => sub,
            None => match additional {
                Some(Value::Bool(false)) => {
                    let mut allowed = String::new();
                    for (i, key) in properties.into_iter().flat_map(Map::keys).enumerate() {
                        if i > 0 {
                            allowed.push_str(", ");
                        }
                        allowed.push_str(key);
                    }
                    if properties.is_none_or(Map::is_empty) {
                        allowed.push_str("none");
                    }
                    return fail(
                        path,
                        "additionalProperties",
                        format!(
                            "the property {} is not allowed; allowed: {allowed}",
                            Quoted(name)
                        ),
                    );
                }
                Some(sub @ Value::Object(_)) => sub,
                _ => continue,
            },
        };
        check(sub, item, &Path::Key(path, name))?;
    }
    Ok(())
}

fn check_array(
    schema: &Map<String, Value>,
    items: &[Value],
    path: &Path,
) -> Result<(), SchemaError> {
    let n = items.len() as u64;
    if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
        if n < min {
            return fail(path, "minItems", format!("{n} items, needs at least {min}"));
        }
    }
    if let Some(max) = schema.get("maxItems").and_then(Value::as_u64) {
        if n > max {
            return fail(path, "maxItems", format!("{n} items, at most {max}"));
        }
    }
    for (i, item) in items.iter().enumerate() {
        let sub = match schema.get("items") {
            Some(Value::Array(by_position)) => match by_position.get(i) {
                Some(sub) => sub,
                None => continue,
            },
            Some(sub) => sub,
            None => break,
        };
        check(sub, item, &Path::Index(path, i))?;
    }
    Ok(())
}

fn check_string(schema: &Map<String, Value>, s: &str, path: &Path) -> Result<(), SchemaError> {
    let min = schema.get("minLength").and_then(Value::as_u64);
    let max = schema.get("maxLength").and_then(Value::as_u64);
    if min.is_none() && max.is_none() {
        return Ok(());
    }
    let n = s.chars().count() as u64;
    if let Some(min) = min.filter(|&m| n < m) {
        return fail(
            path,
            "minLength",
            format!("{n} characters, needs at least {min}"),
        );
    }
    if let Some(max) = max.filter(|&m| n > m) {
        return fail(path, "maxLength", format!("{n} characters, at most {max}"));
    }
    Ok(())
}

fn check_number(
    schema: &Map<String, Value>,
    x: f64,
    value: &Value,
    path: &Path,
) -> Result<(), SchemaError> {
    let bound = |k: &str| schema.get(k).filter(|v| v.is_number());
    if let Some(min) = bound("minimum") {
        if x < min.as_f64().unwrap_or(f64::MIN) {
            return fail(
                path,
                "minimum",
                format!(
                    "{} is less than the minimum {}",
                    json_text(value),
                    json_text(min)
                ),
            );
        }
    }
    if let Some(max) = bound("maximum") {
        if x > max.as_f64().unwrap_or(f64::MAX) {
            return fail(
                path,
                "maximum",
                format!(
                    "{} is more than the maximum {}",
                    json_text(value),
                    json_text(max)
                ),
            );
        }
    }
    if let Some(min) = bound("exclusiveMinimum") {
        if x <= min.as_f64().unwrap_or(f64::MIN) {
            return fail(
                path,
                "exclusiveMinimum",
                format!("{} must be more than {}", json_text(value), json_text(min)),
            );
        }
    }
    if let Some(max) = bound("exclusiveMaximum") {
        if x >= max.as_f64().unwrap_or(f64::MAX) {
            return fail(
                path,
                "exclusiveMaximum",
                format!("{} must be less than {}", json_text(value), json_text(max)),
            );
        }
    }
    Ok(())
}

/// JSON equality as JSON Schema means it: numbers compare by value (`1` equals `1.0`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        // Not `a == b`: `Value`'s own equality (maps, sequences) would join the wasm for these.
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Null, Value::Null) => true,
        _ => false,
    }
}

/// A value for a message: short values whole, long ones by their type only.
fn brief(value: &Value) -> String {
    match value {
        Value::Object(_) => "an object".into(),
        Value::Array(_) => "an array".into(),
        Value::String(s) if s.chars().count() > 40 => "a string".into(),
        other => json_text(other),
    }
}

/// `.name` for identifier-like keys, `["odd key"]` otherwise.
fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        path.push('.');
        path.push_str(key);
    } else {
        path.push('[');
        path.push_str(&json_text(&Value::String(key.to_owned())));
        path.push(']');
    }
}
