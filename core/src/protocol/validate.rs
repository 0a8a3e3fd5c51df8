//! Validation of every limit in PROTOCOL.md. Each error names the field and the rule, e.g.
//! `tools[3].name: 65 characters, at most 64`, and carries an [`ErrorKind`] a program can match.

use super::limits::*;
use super::{Lifetime, RegisterRequest, ToolSpec};
use crate::json::json_type_name;
use crate::quote::{Quoted, QuotedChar};
use serde_json::{Map, Value};
use std::fmt;

/// What rule a value broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Empty where at least one character is needed.
    Empty,
    /// Longer than the limit.
    TooLong,
    /// A character outside the allowed set.
    BadCharacter,
    /// More items than the limit.
    TooMany,
    /// A number outside its range.
    OutOfRange,
    /// The same name twice.
    Duplicate,
    /// Not of the JSON type the field needs.
    WrongType,
    /// A tool's parameters that are not a JSON Schema the validator can run.
    InvalidSchema,
}

/// A value that breaks a rule of the protocol: `field` is its path (`tools[3].name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The path of the offending value (`tools[3].name`), as the server's `param` names it.
    pub field: String,
    /// Which rule it breaks.
    pub kind: ErrorKind,
    /// What is wrong, for a person.
    pub message: String,
}

impl ValidationError {
    /// An error for the value at `field` that breaks a rule of `kind`.
    pub fn new(field: impl Into<String>, kind: ErrorKind, message: impl Into<String>) -> Self {
        ValidationError {
            field: field.into(),
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ValidationError {}

/// Checks that `s` has 1 to `max` characters, each allowed by `ok`, and names `allowed` if not.
fn name_rule(
    field: &str,
    s: &str,
    max: usize,
    ok: fn(char) -> bool,
    allowed: &str,
) -> Result<(), ValidationError> {
    let n = s.chars().count();
    if n == 0 {
        return Err(ValidationError::new(
            field,
            ErrorKind::Empty,
            format!("empty, needs 1 to {max} of {allowed}"),
        ));
    }
    if n > max {
        return Err(ValidationError::new(
            field,
            ErrorKind::TooLong,
            format!("{n} characters, at most {max}"),
        ));
    }
    if let Some((i, c)) = s.chars().enumerate().find(|&(_, c)| !ok(c)) {
        return Err(ValidationError::new(
            field,
            ErrorKind::BadCharacter,
            format!(
                "character {} at position {i} is not allowed, only {allowed}",
                QuotedChar(c)
            ),
        ));
    }
    Ok(())
}

/// A client name: 1 to 32 of `a-z 0-9 -`.
pub fn client_name(name: &str) -> Result<(), ValidationError> {
    name_rule(
        "name",
        name,
        CLIENT_NAME_MAX,
        |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-',
        "a-z 0-9 -",
    )
}

/// A tool name at `field`: 1 to 64 of `A-Z a-z 0-9 _ -`.
pub fn tool_name(field: &str, name: &str) -> Result<(), ValidationError> {
    name_rule(
        field,
        name,
        TOOL_NAME_MAX,
        |c| c.is_ascii_alphanumeric() || c == '_' || c == '-',
        "A-Z a-z 0-9 _ -",
    )
}

/// A lifetime: `never`, or a TTL of 5 to 3600 seconds.
pub fn lifetime(lifetime: &Lifetime) -> Result<(), ValidationError> {
    match *lifetime {
        Lifetime::Never => Ok(()),
        Lifetime::Ttl { seconds } if (TTL_MIN_SECONDS..=TTL_MAX_SECONDS).contains(&seconds) => {
            Ok(())
        }
        Lifetime::Ttl { seconds } => Err(ValidationError::new(
            "lifetime.data.seconds",
            ErrorKind::OutOfRange,
            format!("{seconds} seconds, must be {TTL_MIN_SECONDS} to {TTL_MAX_SECONDS}"),
        )),
    }
}

/// One tool at `tools[index]`: its name, description length and parameters: a JSON Schema
/// object the validator can run (`schema::check`), or the fault named by its path
/// (`tools[0].parameters.properties.id.pattern: not an ECMA-262 regular expression: …`).
pub fn tool(index: usize, tool: &ToolSpec) -> Result<(), ValidationError> {
    tool_name(&format!("tools[{index}].name"), &tool.name)?;
    let n = tool.description.chars().count();
    if n > DESCRIPTION_MAX {
        return Err(ValidationError::new(
            format!("tools[{index}].description"),
            ErrorKind::TooLong,
            format!("{n} characters, at most {DESCRIPTION_MAX}"),
        ));
    }
    match &tool.parameters {
        None => Ok(()),
        Some(schema @ Value::Object(_)) => crate::schema::check(schema, &Default::default())
            .map_err(|fault| {
                let mut field = format!("tools[{index}].parameters");
                if !fault.path.is_empty() && !fault.path.starts_with('[') {
                    field.push('.');
                }
                field.push_str(&fault.path);
                ValidationError::new(field, ErrorKind::InvalidSchema, fault.message)
            }),
        Some(other) => Err(ValidationError::new(
            format!("tools[{index}].parameters"),
            ErrorKind::WrongType,
            format!(
                "must be a JSON Schema object, got {}",
                json_type_name(other)
            ),
        )),
    }
}

/// A tool list: at most 64 tools, each valid, names unique within the client.
pub fn tools(tools: &[ToolSpec]) -> Result<(), ValidationError> {
    let refs: Vec<&ToolSpec> = tools.iter().collect();
    tool_list(&refs)
}

/// [`tools`] of specs that sit inside other values (the engine's tool definitions, the
/// WebSocket bridge's tools), checked where they are: cloning them first would copy every
/// schema, on the path of a page's first request.
pub fn tool_list(tools: &[&ToolSpec]) -> Result<(), ValidationError> {
    if tools.len() > TOOLS_MAX {
        return Err(ValidationError::new(
            "tools",
            ErrorKind::TooMany,
            format!("{} tools, at most {TOOLS_MAX}", tools.len()),
        ));
    }
    for (i, t) in tools.iter().enumerate() {
        tool(i, t)?;
        if let Some(first) = tools[..i].iter().position(|o| o.name == t.name) {
            return Err(ValidationError::new(
                format!("tools[{i}].name"),
                ErrorKind::Duplicate,
                format!("{} is already the name of tools[{first}]", Quoted(&t.name)),
            ));
        }
    }
    Ok(())
}

/// A whole registration: name, lifetime and tools.
pub fn register(req: &RegisterRequest) -> Result<(), ValidationError> {
    client_name(&req.name)?;
    lifetime(&req.lifetime)?;
    tools(&req.tools)
}

/// A result text: at most 65,536 characters (Unicode scalar values).
pub fn result_text(text: &str) -> Result<(), ValidationError> {
    // Every char is at least one byte, so a short text needs no count.
    if text.len() <= RESULT_TEXT_MAX {
        return Ok(());
    }
    let n = text.chars().count();
    if n > RESULT_TEXT_MAX {
        return Err(ValidationError::new(
            "text",
            ErrorKind::TooLong,
            format!("{n} characters, at most {RESULT_TEXT_MAX}"),
        ));
    }
    Ok(())
}

/// A call's arguments: a JSON object; a JSON string holding an object; absent or `null` is `{}`.
pub fn arguments(value: &Value) -> Result<Map<String, Value>, ValidationError> {
    match value {
        Value::Object(map) => Ok(map.clone()),
        Value::Null => Ok(Map::new()),
        Value::String(s) => match crate::json::parse(s) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(other) => Err(ValidationError::new(
                "arguments",
                ErrorKind::WrongType,
                format!(
                    "a string holding JSON {}, needs a JSON object",
                    json_type_name(&other)
                ),
            )),
            Err(e) => Err(ValidationError::new(
                "arguments",
                ErrorKind::WrongType,
                format!("a string that is not JSON ({e}), needs a JSON object"),
            )),
        },
        other => Err(ValidationError::new(
            "arguments",
            ErrorKind::WrongType,
            format!("JSON {}, needs a JSON object", json_type_name(other)),
        )),
    }
}
