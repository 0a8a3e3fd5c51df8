//! The drafts a schema can be read by, and which keywords hold subschemas in each.

use super::text::push_key;
use serde_json::{Map, Value};

/// The JSON Schema draft a schema is read by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Draft {
    /// Draft 2020-12, the default.
    #[default]
    V2020_12,
    /// Draft-07: `items` as an array, `additionalItems`, `dependencies`; a `$ref` hides its
    /// siblings.
    V7,
}

impl Draft {
    /// The draft `schema` declares with `$schema` (the meta-schema's URI, `http` or `https`,
    /// with or without its `#`), or `default` when it declares none or another.
    pub fn of(schema: &Value, default: Draft) -> Draft {
        let uri = schema.get("$schema").and_then(Value::as_str).unwrap_or("");
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let name = uri
            .strip_prefix("http://json-schema.org/")
            .or_else(|| uri.strip_prefix("https://json-schema.org/"));
        match name {
            Some("draft-07/schema" | "draft-06/schema") => Draft::V7,
            Some("draft/2020-12/schema") => Draft::V2020_12,
            _ => default,
        }
    }
}

/// A keyword whose value is one subschema.
fn single(k: &str, draft: Draft) -> bool {
    matches!(
        k,
        "additionalProperties" | "propertyNames" | "contains" | "not" | "if" | "then" | "else"
    ) || match draft {
        Draft::V2020_12 => matches!(k, "items" | "unevaluatedItems" | "unevaluatedProperties"),
        Draft::V7 => k == "additionalItems",
    }
}

/// A keyword whose value maps names to subschemas.
fn map_of(k: &str, draft: Draft) -> bool {
    matches!(
        k,
        "properties" | "patternProperties" | "$defs" | "definitions"
    ) || match draft {
        Draft::V2020_12 => k == "dependentSchemas",
        Draft::V7 => k == "dependencies",
    }
}

/// A keyword whose value is an array of subschemas.
fn array_of(k: &str, draft: Draft) -> bool {
    matches!(k, "allOf" | "anyOf" | "oneOf")
        || match draft {
            Draft::V2020_12 => k == "prefixItems",
            Draft::V7 => k == "items",
        }
}

/// Calls `f` with each direct subschema of `s` and where it is (`properties`, `a`).
pub(super) fn each_subschema<'s>(
    s: &'s Map<String, Value>,
    draft: Draft,
    f: &mut dyn FnMut(Place<'s>, &'s Value),
) {
    for (k, v) in s {
        if single(k, draft) || (k == "items" && draft == Draft::V7 && !v.is_array()) {
            f(Place::Key(k, None), v);
        } else if map_of(k, draft) {
            if let Value::Object(m) = v {
                for (name, sub) in m {
                    // Draft-07's `dependencies` also holds arrays of names.
                    if sub.is_object() || sub.is_boolean() {
                        f(Place::Key(k, Some(name)), sub);
                    }
                }
            }
        } else if array_of(k, draft) {
            if let Value::Array(a) = v {
                for (i, sub) in a.iter().enumerate() {
                    f(Place::Index(k, i), sub);
                }
            }
        }
    }
}

/// Where a subschema sits in its parent: `properties.a`, `anyOf[1]`, `not`.
#[derive(Clone, Copy)]
pub(super) enum Place<'s> {
    Key(&'s str, Option<&'s str>),
    Index(&'s str, usize),
}

impl Place<'_> {
    pub fn write(&self, out: &mut String) {
        match *self {
            Place::Key(k, name) => {
                push_key(out, k);
                if let Some(name) = name {
                    push_key(out, name);
                }
            }
            Place::Index(k, i) => {
                push_key(out, k);
                out.push_str(&format!("[{i}]"));
            }
        }
    }
}
