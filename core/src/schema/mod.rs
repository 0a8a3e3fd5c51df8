//! The JSON Schema validator for tool arguments: checked before a handler runs, so that it
//! never sees arguments its schema forbids.
//!
//! **JSON Schema 2020-12 and draft-07** (read by draft-07's meanings when `$schema` says so:
//! `items` as an array, `additionalItems`, `dependencies`, a `$ref` hiding its siblings), the
//! applicator and validation vocabularies whole: `type`, `enum`, `const`, `multipleOf`,
//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength` / `maxLength` (in
//! code points), `pattern`, `minItems` / `maxItems`, `uniqueItems`, `contains` with
//! `minContains` / `maxContains`, `minProperties` / `maxProperties`, `required`,
//! `dependentRequired`, `properties`, `patternProperties`, `additionalProperties`,
//! `propertyNames`, `items`, `prefixItems`, `allOf`, `anyOf`, `oneOf`, `not`, `if` / `then` /
//! `else`, `dependentSchemas`, `unevaluatedItems`, `unevaluatedProperties`, and references
//! inside the schema (`$ref`, `$defs` / `definitions`, `$anchor`, `$id`-relative URIs,
//! `$dynamicRef` / `$dynamicAnchor`) and into the documents the caller gives
//! ([`Options::documents`]). Except: a reference to anything else (another document, a
//! meta-schema) is refused when the tool is declared, since nothing is fetched;
//! `$vocabulary` is not read (every schema gets both vocabularies); `format` is an
//! annotation unless the tool opts in ([`Options::assert_formats`]) to asserting date-time,
//! date, time, email, uri, uuid, ipv4 and ipv6.
//!
//! `pattern` and `patternProperties` are ECMA-262 regular expressions run by the host's
//! engine: the page's `RegExp` in the browser, `regress` natively (see `pattern`'s docs).
//!
//! A tool's schema is checked when the tool is declared ([`check`]): a keyword with a value
//! of the wrong type, a reference that points nowhere, a pattern that does not compile is a
//! [`SchemaFault`] naming where. [`validate`] then runs it within caps, each answered as an
//! error naming it: subschemas nested [`MAX_DEPTH`] deep (a `$ref` loop, say), more than
//! [`MAX_STEPS`] steps (a subschema applied, an `enum` option, a pair of `uniqueItems`), and
//! patterns whose bound passes [`PATTERN_COST_MAX`].
//!
//! ```
//! use client_tools_core::schema::validate;
//! use serde_json::json;
//! let schema = json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}});
//! let err = validate(&schema, &json!({"id": "1; DROP TABLE"})).unwrap_err();
//! assert_eq!(err.to_string(), r#"arguments.id: "1; DROP TABLE" does not match ^[0-9]+$ (pattern)"#);
//! ```

mod bound;
mod draft;
mod eval;
mod format;
mod index;
mod keywords;
mod pattern;
mod text;

pub use draft::Draft;
pub use keywords::{check, SchemaFault};
use serde_json::Value;
use std::fmt;

/// How deep subschemas may nest while a value is checked (and when a schema is declared).
pub const MAX_DEPTH: usize = 64;
/// How many steps one check may take: each subschema applied, each `enum` option compared,
/// each pair of items `uniqueItems` compares.
pub const MAX_STEPS: u64 = 1_000_000;
/// What the patterns run in one check may cost together, in the bound of their engine's
/// steps (see the pattern module's docs): 20 million steps are well under a second.
pub const PATTERN_COST_MAX: u64 = 20_000_000;
/// At most this many failed alternatives of an `anyOf` / `oneOf` are said why.
pub const ALTERNATIVES_LISTED: usize = 4;
/// Each reason (and an `enum` list, a `const`) is cut to this many characters.
pub const ALTERNATIVE_TEXT_MAX: usize = 160;

/// How a schema is read and run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options<'d> {
    /// The draft of a schema whose `$schema` names none this validator knows (default
    /// 2020-12).
    pub draft: Draft,
    /// Whether `format` asserts the common formats instead of being an annotation.
    pub assert_formats: bool,
    /// Schemas besides the checked one that a `$ref` may point into, each with the URI it is
    /// known by (`https://example.com/address.json`), read by its own `$schema` (else by the
    /// checked schema's draft): what the app knows, as trusted as the schema itself (a model
    /// never supplies either). Nothing is ever fetched: a reference to any other document
    /// points nowhere, and [`check`] refuses it. Each is indexed on every check: keep them
    /// few. (The SDK's tools give none; the JSON-Schema-Test-Suite's runner gives the suite's
    /// remote documents and the drafts' meta-schemas.)
    pub documents: &'d [(String, Value)],
}

/// Where the arguments broke their schema, and which rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// The path of the offending value: `arguments`, `arguments.rows[2].id`.
    pub path: String,
    /// The keyword it broke (`type`, `required`, `pattern`, …), or the cap it reached
    /// (`depth limit`, `step limit`, `pattern limit`).
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

impl fmt::Display for SchemaFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Checks `value` against `schema` with the default [`Options`]; the first broken rule is
/// the error, its path rooted at `arguments`.
pub fn validate(schema: &Value, value: &Value) -> Result<(), SchemaError> {
    validate_with(schema, value, &Options::default())
}

/// Checks `value` against `schema`, read and run as `options` say.
pub fn validate_with(schema: &Value, value: &Value, options: &Options) -> Result<(), SchemaError> {
    eval::Eval::new(schema, options).run(schema, value)
}

/// A keyword's count (`minLength: 2`, or `2.0`): a non-negative integer.
fn count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|x| *x >= 0.0 && x.fract() == 0.0)
            .map(|x| x.min(u64::MAX as f64) as u64)
    })
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
